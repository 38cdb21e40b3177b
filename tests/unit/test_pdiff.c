// SPDX-License-Identifier: GPL-2.0
/* compare's perf-profile rows of two profiles: which rows, their order and names. */
#include <stdlib.h>
#include "compare/prof_diff.h"
#include "unit.h"

/* A result file of one profiled scenario, "ring", its arrays the caller's. */
static struct result one_file(const char *path, struct result_scenario *sc)
{
	*sc = (struct result_scenario){ .name = "ring", .ok = true };
	sc->prof.has = true;
	return (struct result){ .path = path, .sc = sc, .nr_sc = 1 };
}

static void set_profile(struct result_scenario *sc, struct result_pfn *fn, size_t nfn,
			struct result_cgfn *gfn, size_t ngfn, struct result_chain *ch, size_t nch)
{
	sc->prof.fn = fn;
	sc->prof.nfn = nfn;
	for (size_t i = 0; i < nfn; i++)
		sc->prof.per_elem += fn[i].per_elem;
	sc->prof.has_graph = gfn != NULL;
	sc->prof.gfn = gfn;
	sc->prof.ngfn = ngfn;
	sc->prof.chain = ch;
	sc->prof.nchain = nch;
}

/* The rows' LKP names, one a line. */
static char *names(const struct pdiff *d)
{
	size_t len = 1;
	char *s, *p;

	for (size_t i = 0; i < d->nrow; i++)
		len += strlen(d->row[i].lkp) + 1;
	p = s = calloc(1, len);
	for (size_t i = 0; s && i < d->nrow; i++)
		p += sprintf(p, "%s\n", d->row[i].lkp);
	return s;
}

/*
 * Old: a calls b (b +3.0 itself on new) and c (c -0.5); new adds d below
 * b (+0.1, the floor exactly); e moves by 0.09, below it.
 */
void test_pdiff_rows_sorted_floored_named(void)
{
	struct result_scenario so, sn;
	struct result_pfn fo[] = { { "a", NULL, "x", 10 },
				   { "b", NULL, "x", 5 },
				   { "c", NULL, "x", 2 },
				   { "e", NULL, "x", 1 } };
	struct result_pfn fn[] = { { "a", NULL, "x", 10 },
				   { "b", NULL, "x", 8 },
				   { "c", NULL, "x", 1.5 },
				   { "e", NULL, "x", 1.09 },
				   { "d", "bpf", "bpf", 0.1 } };
	struct result_cgfn go[] = { { "a", NULL, 10, 18 },
				    { "b", NULL, 5, 5 },
				    { "c", NULL, 2, 2 } };
	struct result_cgfn gn[] = { { "a", NULL, 10, 20.6 },
				    { "b", NULL, 8, 8.1 },
				    { "c", NULL, 1.5, 1.5 },
				    { "d", "bpf", 0.1, 0.1 } };
	struct result_chain co[] = { { "a", 18, 10 }, { "b.a", 5, 5 }, { "c.a", 2, 2 } };
	struct result_chain cn[] = {
		{ "a", 20.6, 10 }, { "b.a", 8.1, 8 }, { "c.a", 1.5, 1.5 }, { "d.b.a", 0.1, 0.1 }
	};
	struct result old = one_file("old.json", &so), new = one_file("new.json", &sn);
	struct pdiff *d;
	size_t n;
	char *got;

	set_profile(&so, fo, 4, go, 3, co, 3);
	set_profile(&sn, fn, 5, gn, 4, cn, 4);
	if (!ASSERT_OK(pdiff_build(&old, 1, &new, 1, 0.1, &d, &n), "build") ||
	    !ASSERT_EQ(n, 1, "one scenario"))
		return;
	got = names(d);
	ASSERT_STREQ(got,
		     "perf-profile.calltrace.instructions-pp.b.a\n"
		     "perf-profile.calltrace.instructions-pp.a\n"
		     "perf-profile.calltrace.instructions-pp.c.a\n"
		     "perf-profile.calltrace.instructions-pp.d.b.a\n"
		     "perf-profile.children.instructions-pp.b\n"
		     "perf-profile.children.instructions-pp.a\n"
		     "perf-profile.children.instructions-pp.c\n"
		     "perf-profile.children.instructions-pp.d\n"
		     "perf-profile.self.instructions-pp.b\n"
		     "perf-profile.self.instructions-pp.c\n"
		     "perf-profile.self.instructions-pp.d\n",
		     "by kind, largest |change| first, the floor's own kept, below it left out");
	free(got);
	ASSERT_EQ(d->nkind[PROW_CALLTRACE], 4, "calltrace rows");
	ASSERT_EQ(d->nkind[PROW_SELF], 3, "self rows");
	ASSERT_NEAR(d->explained, 3 - 0.5 + 0.1, 1e-9, "the self rows' change, summed");
	ASSERT_NEAR(d->row[0].old, 5, 1e-9, "a chain's old figure: its children");
	ASSERT_NEAR(d->row[0].new, 8.1, 1e-9, "and new");
	ASSERT_STREQ(d->row[3].name, "d.b.a", "a chain leaf first, as the file has it");
	ASSERT_STREQ(d->row[10].module, "bpf", "a BPF program's module kept");
	ASSERT_STREQ(d->row[10].group, "bpf", "and its group");
	ASSERT_TRUE(d->no_graph == NULL, "both sides have call graphs");
	pdiff_free(d, n);
}

/*
 * Chains that change alike: the longest (the deepest) first. Two files a
 * side: each side's mean. A file without a call graph: self rows only.
 */
void test_pdiff_ties_means_and_older_files(void)
{
	struct result_scenario so[2], sn;
	struct result_pfn f1[] = { { "a", NULL, "x", 1 }, { "b", NULL, "x", 2 } };
	struct result_pfn f2[] = { { "a", NULL, "x", 3 }, { "b", NULL, "x", 2 } };
	struct result_pfn fn[] = { { "a", NULL, "x", 1 }, { "b", NULL, "x", 5 } };
	struct result_cgfn g[] = { { "a", NULL, 1, 3 }, { "b", NULL, 2, 2 } };
	struct result_cgfn gn[] = { { "a", NULL, 1, 6 }, { "b", NULL, 5, 5 } };
	struct result_chain c[] = { { "a", 3, 1 }, { "b.a", 2, 2 } };
	struct result_chain cn[] = { { "a", 6, 1 }, { "b.a", 5, 5 } };
	struct result old[2] = { one_file("o1.json", &so[0]), one_file("o2.json", &so[1]) };
	struct result new = one_file("n.json", &sn);
	struct pdiff *d;
	size_t n;

	set_profile(&so[0], f1, 2, g, 2, c, 2);
	set_profile(&so[1], f2, 2, g, 2, c, 2);
	set_profile(&sn, fn, 2, gn, 2, cn, 2);
	if (!ASSERT_OK(pdiff_build(old, 2, &new, 1, 0.1, &d, &n), "build"))
		return;
	ASSERT_STREQ(d->row[0].name, "b.a", "the deeper chain of two that change alike first");
	ASSERT_STREQ(d->row[1].name, "a", "its caller's after it");
	ASSERT_NEAR(d->row[d->nrow - 1].old, 2, 1e-9, "self of a: the old side's mean (1, 3)");
	ASSERT_NEAR(d->old_total, 4, 1e-9, "the old figure: the mean of 3 and 5");
	pdiff_free(d, n);
	/* the second old file from an older vm --profile: no call graph */
	so[1].prof.has_graph = false;
	if (!ASSERT_OK(pdiff_build(old, 2, &new, 1, 0.1, &d, &n), "build"))
		return;
	ASSERT_STREQ(d->no_graph, "o2.json", "the file without a call graph named");
	ASSERT_EQ(d->nkind[PROW_CALLTRACE] + d->nkind[PROW_CHILDREN], 0,
		  "no calltrace, no children");
	ASSERT_EQ(d->nkind[PROW_SELF], 2, "self rows");
	ASSERT_STREQ(d->row[0].lkp, "perf-profile.self.instructions-pp.b", "the largest first");
	pdiff_free(d, n);
}
