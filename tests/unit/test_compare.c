// SPDX-License-Identifier: GPL-2.0
/* Comparison rows built from results in memory: changes, tests, pooling, the gate. */
#include <math.h>
#include <string.h>
#include "compare/cmpcols.h"
#include "compare/compare_stats.h"
#include "unit.h"

struct fake {
	struct result r;
	struct result_scenario sc[2];
};

static void fake_init(struct fake *f, const char *path, const char *kernel, double *runs, size_t n,
		      double purity)
{
	struct result_scenario *s = &f->sc[0];

	memset(f, 0, sizeof(*f));
	f->r.path = path;
	f->r.host = (struct result_host){ .kernel = kernel,
					  .cpu_model = "cpu",
					  .clocksource = "tsc",
					  .tsc_hz = 2e9,
					  .nr_cpus = 2 };
	*s = (struct result_scenario){ .name = "ring",
				       .status = "ok",
				       .ok = true,
				       .recipe = "r",
				       .method = "m",
				       .replication = "setup",
				       .repeat = n,
				       .purity = purity };
	s->cycles = (struct result_stat){ .runs = runs, .nruns = n };
	s->ns = (struct result_stat){ .runs = runs, .nruns = n };
	f->sc[1] = (struct result_scenario){ .name = "slow",
					     .status = "skipped",
					     .reason = "no frames" };
	f->r.sc = f->sc;
	f->r.nr_sc = 1;
}

static const struct row *row_of(const struct comparison *c, enum fig kind)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].kind == kind)
			return &c->rows[i];
	return NULL;
}

void test_compare_regression(void)
{
	double a[] = { 100, 101, 99, 100, 100 }, b[] = { 110, 111, 109, 110, 110 };
	struct cmp_opts o = { .test = TEST_WELCH, .alpha = 0.05 };
	struct fake fo, fn;
	struct comparison c = { 0 };
	struct cmp_set set = {
		.opts = &o, .cmps = &c, .n = 1, .gate = true, .metric = FIG_CYCLES, .fail_above = 5
	};
	const struct row *r;

	fake_init(&fo, "old.json", "6.18", a, 5, 0.99);
	fake_init(&fn, "new.json", "6.18", b, 5, 0.90);
	c.old = &fo.r;
	c.nold = 1;
	c.new = &fn.r;
	c.nnew = 1;
	if (!ASSERT_OK(comparison_build(&c, &o), "build"))
		return;
	r = row_of(&c, FIG_CYCLES);
	if (!ASSERT_TRUE(r, "cycles row"))
		goto out;
	ASSERT_STREQ(r->label, "ring cycles/elem", "label");
	ASSERT_NEAR(r->change, 10, 1e-9, "+10%");
	ASSERT_TRUE(r->significant && r->regression, "significant regression on the setups");
	ASSERT_EQ(c.noise, NOISE_SETUPS, "one file a side, no profile: setups only");
	ASSERT_FALSE(row_gated(&set, r), "no gate without the noise between invocations");
	r = row_of(&c, FIG_PURITY);
	ASSERT_TRUE(r && !r->t.testable && !r->regression, "purity: one value a side, untested");
	ASSERT_TRUE(!row_of(&c, FIG_PATH), "no path rows without path figures");
	ASSERT_EQ(c.ndiffs, 0, "same host");
out:
	comparison_free(&c);
}

/*
 * compare BASE X Y: a column per later file, each against the base, never
 * against the column before it; the columns named by kernel release, by
 * file where two releases are alike.
 */
void test_compare_columns(void)
{
	double b[] = { 100, 101, 99, 100, 100 }, x[] = { 110, 111, 109, 110, 110 },
	       y[] = { 95, 96, 94, 95, 95 };
	struct cmp_opts o = { .test = TEST_WELCH, .alpha = 0.05 };
	struct fake fb, fx, fy;
	struct comparison c[2] = { { .old = &fb.r, .nold = 1, .new = &fx.r, .nnew = 1 },
				   { .old = &fb.r, .nold = 1, .new = &fy.r, .nnew = 1 } };
	struct cmp_set set = { .opts = &o, .cmps = c, .n = 2 };
	const struct col_line *l;
	struct col_table t;

	fake_init(&fb, "d/base.json", "6.18", b, 5, 0.99);
	fake_init(&fx, "d/x.json", "6.19", x, 5, 0.99);
	fake_init(&fy, "d/y.json", "6.20", y, 5, 0.99);
	if (!ASSERT_OK(comparison_build(&c[0], &o) ?: comparison_build(&c[1], &o), "build") ||
	    !ASSERT_OK(col_table_build(&set, &t), "columns"))
		goto out;
	ASSERT_EQ(t.nlines, 3, "cycles, ns and purity: a line each");
	l = &t.lines[0];
	ASSERT_STREQ(l->named->label, "ring cycles/elem", "the first line");
	ASSERT_NEAR(l->base ? l->base->ofig : 0, 100, 1e-9, "the base's figure");
	ASSERT_NEAR(l->cell[0] ? l->cell[0]->change : 0, 10, 1e-9, "x: +10% against the base");
	ASSERT_NEAR(l->cell[1] ? l->cell[1]->change : 0, -5, 1e-9,
		    "y: -5% against the base, not against x");
	ASSERT_TRUE(l->cell[1] && l->cell[1]->real && !l->cell[1]->regression,
		    "y: a real improvement");
	ASSERT_STREQ(t.names[0], "6.18", "the base named by its kernel");
	ASSERT_STREQ(t.names[2], "6.20", "a column named by its kernel");
	col_table_free(&t);
	fy.r.host.kernel = "6.18";
	if (ASSERT_OK(col_table_build(&set, &t), "columns again"))
		ASSERT_TRUE(!strcmp(t.names[0], "base") && !strcmp(t.names[2], "y"),
			    "two releases alike: every column named by its file");
	col_table_free(&t);
	fb.r.label = "v1";
	fx.r.label = "v2";
	fy.r.label = "v3";
	if (ASSERT_OK(col_table_build(&set, &t), "labelled"))
		ASSERT_STREQ(t.names[1], "v2", "bench --label names a column");
	col_table_free(&t);
out:
	comparison_free(&c[0]);
	comparison_free(&c[1]);
}

void test_compare_pooled_purity(void)
{
	double a[] = { 100, 101, 99 }, b[] = { 100, 100, 101 };
	struct cmp_opts o = { .test = TEST_WELCH, .alpha = 0.05 };
	struct fake fo[2], fn[2];
	struct result old[2], new[2];
	struct comparison c = { .old = old, .nold = 2, .new = new, .nnew = 2 };
	struct cmp_set set = {
		.opts = &o, .cmps = &c, .n = 1, .gate = true, .metric = FIG_PURITY, .fail_above = 5
	};
	const struct row *r;

	fake_init(&fo[0], "o1", "6.18", a, 3, 0.99);
	fake_init(&fo[1], "o2", "6.18", a, 3, 0.99);
	fake_init(&fn[0], "n1", "6.18", b, 3, 0.90);
	fake_init(&fn[1], "n2", "6.18", b, 3, 0.91);
	for (int i = 0; i < 2; i++) {
		old[i] = fo[i].r;
		new[i] = fn[i].r;
	}
	if (!ASSERT_OK(comparison_build(&c, &o), "build"))
		return;
	r = row_of(&c, FIG_CYCLES);
	ASSERT_EQ(c.noise, NOISE_FILES, "two files a side: the files are the unit");
	ASSERT_TRUE(r && r->o.n == 2 && r->n.n == 2, "one value per file: 2 a side");
	ASSERT_NEAR(r ? r->within_o : 0, 0.01, 1e-9, "within: the setups' CV");
	ASSERT_FALSE(r && r->significant, "cycles inside the noise");
	r = row_of(&c, FIG_PURITY);
	if (ASSERT_TRUE(r && r->t.testable, "purity testable with 2 files a side")) {
		ASSERT_NEAR(r->o.mean, 99, 1e-9, "purity in percent");
		ASSERT_TRUE(r->regression, "lower purity is a regression");
		ASSERT_TRUE(row_gated(&set, r), "purity gate");
	}
	comparison_free(&c);
}

/*
 * Two files a side with path figures 50 % apart, a gate on path: of one
 * method a gated regression, labelled with it; the new side's figures of
 * another method (a profile's against fentry's): no change, no test, no
 * gate, "method differs".
 */
static void path_methods(const char *new_method)
{
	double a[] = { 100, 101, 99 }, po[] = { 100, 101 }, pn[] = { 150, 152 };
	struct cmp_opts o = { .test = TEST_WELCH, .alpha = 0.05 };
	struct fake fo[2], fn[2];
	struct result old[2], new[2];
	struct comparison c = { .old = old, .nold = 2, .new = new, .nnew = 2 };
	struct cmp_set set = {
		.opts = &o, .cmps = &c, .n = 1, .gate = true, .metric = FIG_PATH, .fail_above = 5
	};
	bool same = !strcmp(new_method, "fentry");
	const char *m1 = NULL, *m2 = NULL;
	const struct row *r;

	for (int i = 0; i < 2; i++) {
		fake_init(&fo[i], "o", "6.18", a, 3, 0.99);
		fake_init(&fn[i], "n", "6.18", a, 3, 0.99);
		fo[i].sc[0].has_path_cost = fn[i].sc[0].has_path_cost = true;
		fo[i].sc[0].path_cost = po[i];
		fn[i].sc[0].path_cost = pn[i];
		fo[i].sc[0].path_method = "fentry";
		fn[i].sc[0].path_method = new_method;
		old[i] = fo[i].r;
		new[i] = fn[i].r;
	}
	if (!ASSERT_OK(comparison_build(&c, &o), "build"))
		return;
	ASSERT_EQ(comparison_one_method(&c, "ring", &m1, &m2), same, new_method);
	r = row_of(&c, FIG_PATH);
	if (!ASSERT_TRUE(r, "a path row") || same) {
		ASSERT_STREQ(r ? r->label : "", "ring path cycles/elem (fentry)", "its method");
		ASSERT_TRUE(r && r->t.testable && r->regression && row_gated(&set, r),
			    "one method: a gated regression");
		comparison_free(&c);
		return;
	}
	ASSERT_STREQ(m2, new_method, "the other method");
	ASSERT_TRUE(r->method && !strcmp(r->method, "fentry") && r->other_method &&
			    !strcmp(r->other_method, new_method),
		    "the row names both methods");
	ASSERT_STREQ(r->label, "ring path cycles/elem", "no one method in the label");
	ASSERT_TRUE(isnan(r->change) && !r->t.testable && !r->real, "no change, no test");
	ASSERT_FALSE(row_gated(&set, r) || r->regression, "never gated");
	comparison_free(&c);
}

void test_compare_path_methods_never_mix(void)
{
	path_methods("fentry");
	path_methods("profile");
}

void test_compare_diffs_and_notes(void)
{
	double a[] = { 100, 101, 99 };
	struct cmp_opts o = { .test = TEST_MANN_WHITNEY, .alpha = 0.05 };
	struct fake fo, fn;
	struct comparison c = { 0 };

	fake_init(&fo, "old.json", "6.18.44", a, 3, 0.99);
	fake_init(&fn, "new.json", "6.19.0", a, 3, 0.99);
	fo.r.nr_sc = 2; /* slow: skipped in old, absent in new */
	fn.sc[0].recipe = "other recipe";
	c.old = &fo.r;
	c.nold = 1;
	c.new = &fn.r;
	c.nnew = 1;
	if (!ASSERT_OK(comparison_build(&c, &o), "build"))
		return;
	if (ASSERT_EQ(c.ndiffs, 2, "kernel and recipe differ")) {
		ASSERT_STREQ(c.diffs[0].what, "kernel", "kernel diff");
		ASSERT_STREQ(c.diffs[0].new, "6.19.0", "new kernel");
		ASSERT_STREQ(c.diffs[1].what, "ring recipe", "recipe diff");
	}
	if (ASSERT_EQ(c.nnotes, 1, "one note"))
		ASSERT_STREQ(c.notes[0], "slow: only in old", "note");
	ASSERT_TRUE(row_of(&c, FIG_CYCLES) && !row_of(&c, FIG_CYCLES)->significant,
		    "identical runs not significant (Mann-Whitney)");
	comparison_free(&c);
}

/* A fake pair with per-setup values A (old) and B (new), compared and gated at 5 %. */
struct gate_case {
	struct fake fo, fn;
	struct comparison c;
	struct cmp_opts o;
	struct cmp_set set;
};

static const struct row *gate_build(struct gate_case *g, double *a, size_t na, double *b, size_t nb)
{
	g->o = (struct cmp_opts){ .test = TEST_WELCH, .alpha = 0.05 };
	fake_init(&g->fo, "old.json", "6.18", a, na, 0.99);
	fake_init(&g->fn, "new.json", "6.18", b, nb, 0.99);
	g->c = (struct comparison){ .old = &g->fo.r, .nold = 1, .new = &g->fn.r, .nnew = 1 };
	g->set = (struct cmp_set){ .opts = &g->o,
				   .cmps = &g->c,
				   .n = 1,
				   .gate = true,
				   .metric = FIG_CYCLES,
				   .fail_above = 5 };
	if (comparison_build(&g->c, &g->o))
		return NULL;
	return row_of(&g->c, FIG_CYCLES);
}

/* The comparison of g built again, after its options or files changed; *r its
 * cycles row. Non-zero (and a failed assertion) if it does not build. */
static int gate_rebuild(struct gate_case *g, const char *what, const struct row **r)
{
	comparison_free(&g->c);
	g->c = (struct comparison){ .old = &g->fo.r, .nold = 1, .new = &g->fn.r, .nnew = 1 };
	if (!ASSERT_OK(comparison_build(&g->c, &g->o), what))
		return -1;
	*r = row_of(&g->c, FIG_CYCLES);
	return 0;
}

/* A/A: two runs of identical code, 1 % noise between setups: nothing real, no gate. */
void test_gate_aa_quiet(void)
{
	double a[] = { 161.2, 163.0, 160.8, 161.5, 164.1 };
	double b[] = { 162.9, 161.1, 165.0, 163.4, 162.2 };
	struct gate_case g;
	const struct row *r = gate_build(&g, a, 5, b, 5);

	if (ASSERT_TRUE(r, "row")) {
		ASSERT_FALSE(r->real, "not real");
		ASSERT_FALSE(r->unstable, "one level a side");
		ASSERT_FALSE(row_gated(&g.set, r), "gate quiet");
	}
	comparison_free(&g.c);
}

/* A clean +5.5 % on 0.5 % noise: real, above the floor, gated at 5 %. */
void test_gate_clean_regression(void)
{
	double a[] = { 700, 703, 698, 701, 699 };
	double b[] = { 738, 741, 737, 740, 739.5 };
	struct gate_case g;
	const struct row *r = gate_build(&g, a, 5, b, 5);

	if (ASSERT_TRUE(r, "row")) {
		ASSERT_TRUE(r->significant, "significant");
		ASSERT_TRUE(r->floor_pct >= 1 && r->floor_pct < 2, "floor: 1 % up to the MDE");
		ASSERT_TRUE(r->real && r->regression, "a real regression between setups");
		ASSERT_FALSE(row_gated(&g.set, r), "one file a side: not gated without a profile");
	}
	comparison_free(&g.c);
}

/*
 * The floor: +6 % that Welch calls significant (p about 0.02), but with
 * 5 % noise between setups 10 setups a side only detect about 8 %: below
 * the floor, not real.
 */
void test_gate_floor(void)
{
	double a[] = { 100, 92, 108, 95, 105, 100, 93, 107, 97, 103 };
	double b[] = { 106, 98, 114, 101, 111, 106, 99, 113, 103, 109 };
	struct gate_case g;
	const struct row *r = gate_build(&g, a, 10, b, 10);

	if (ASSERT_TRUE(r, "row")) {
		ASSERT_TRUE(r->significant, "significant");
		ASSERT_NEAR(r->floor_pct, mde2_pct(r->o.cv, 10, r->n.cv, 10, 0.05, MDE_POWER), 1e-9,
			    "floor is the MDE");
		ASSERT_TRUE(r->floor_pct > 6, "MDE above the change");
		ASSERT_FALSE(r->real, "below the floor");
		ASSERT_FALSE(row_gated(&g.set, r), "not gated");
	}
	comparison_free(&g.c);
}

/* A file from before per-setup runs gets a note; a current one none. */
void test_compare_replication_note(void)
{
	double a[] = { 100, 101, 99 };
	struct cmp_opts o = { .test = TEST_WELCH, .alpha = 0.05 };
	struct fake fo, fn;
	struct comparison c = { 0 };

	fake_init(&fo, "old.json", "6.18", a, 3, 0.99);
	fake_init(&fn, "new.json", "6.18", a, 3, 0.99);
	fo.sc[0].replication = NULL;
	c = (struct comparison){ .old = &fo.r, .nold = 1, .new = &fn.r, .nnew = 1 };
	if (!ASSERT_OK(comparison_build(&c, &o), "build"))
		return;
	if (ASSERT_EQ(c.nnotes, 1, "one note"))
		ASSERT_TRUE(strstr(c.notes[0], "runs of one setup") &&
				    strstr(c.notes[0], ": old.json"),
			    "names the file");
	comparison_free(&c);
}

/* A profile of one scenario: ring cycles between invocations with CV CV and floor FLOOR. */
static void fake_profile(struct noise_profile *p, struct noise_scenario *ns, double cv,
			 double floor)
{
	memset(p, 0, sizeof(*p));
	memset(ns, 0, sizeof(*ns));
	ns->name = "ring";
	ns->cycles = (struct noise_fig){
		.n = 12, .median = 100, .min = 95, .max = 106, .cv_between = cv, .floor_pct = floor
	};
	p->sc = ns;
	p->nr_sc = 1;
	p->invocations = 12;
}

/*
 * Old on a level the profile never saw (85, below its 95 .. 106): a new figure
 * where one more run of the host falls is no verdict; one beyond it is.
 */
void test_compare_profile_old_unknown_level(void)
{
	double a[] = { 85, 85.2, 84.9, 85.1, 85 };
	double b[] = { 100, 100.2, 99.9, 100.1, 100 };
	double b2[] = { 112, 112.2, 111.9, 112.1, 112 };
	struct noise_profile p;
	struct noise_scenario ns;
	struct gate_case g;
	const struct row *r;

	fake_profile(&p, &ns, 0.02, 8.0);
	gate_build(&g, a, 5, b, 5);
	g.o.profile = &p;
	if (gate_rebuild(&g, "build", &r))
		return;
	if (ASSERT_TRUE(r, "row")) {
		ASSERT_TRUE(r->significant && r->change > r->floor_pct, "+17.6%: beyond the floor");
		ASSERT_TRUE(r->known && !r->real, "new inside the profile's range: no verdict");
		ASSERT_FALSE(row_gated(&g.set, r), "not gated");
	}
	fake_init(&g.fn, "new.json", "6.18", b2, 5, 0.99);
	if (gate_rebuild(&g, "build 112", &r))
		return;
	if (ASSERT_TRUE(r, "row 112")) {
		ASSERT_TRUE(r->real && !r->known, "112 is beyond what the host showed: real");
		ASSERT_TRUE(row_gated(&g.set, r), "gated");
	}
	comparison_free(&g.c);
}

/* One file a side with a profile: its floor and spread decide, not the setups'. */
void test_compare_one_file_profile(void)
{
	double a[] = { 100, 100.2, 99.9, 100.1, 100 };
	double b10[] = { 110, 110.2, 109.9, 110.1, 110 };
	double b6[] = { 106, 106.2, 105.9, 106.1, 106 };
	struct noise_profile p;
	struct noise_scenario ns;
	struct gate_case g;
	const struct row *r;

	fake_profile(&p, &ns, 0.02, 8.0);
	r = gate_build(&g, a, 5, b10, 5);
	if (ASSERT_TRUE(r, "row")) {
		ASSERT_EQ(g.c.noise, NOISE_SETUPS, "no profile given: setups only");
		ASSERT_FALSE(row_gated(&g.set, r), "no profile: no gate");
	}
	g.o.profile = &p;
	if (gate_rebuild(&g, "build with profile", &r))
		return;
	if (ASSERT_TRUE(r, "row")) {
		ASSERT_EQ(g.c.noise, NOISE_PROFILE, "the profile's noise");
		ASSERT_NEAR(r->floor_pct, 8.0, 1e-12, "the profile's floor");
		/* t = 10 / (sqrt 2 x 2) = 3.54 on 11 df */
		ASSERT_NEAR(r->t.p, student_t_p2(r->change / (sqrt(2) * 2), 11), 1e-12,
			    "p from the profile");
		ASSERT_TRUE(row_gated(&g.set, r), "+10% above the 8% floor: gated");
	}
	r = row_of(&g.c, FIG_PURITY);
	ASSERT_TRUE(r && !r->t.testable, "purity: not in the profile, untested");
	/* +6 %: p = 0.06 at CV 2 %, and below the floor anyway */
	fake_init(&g.fn, "new.json", "6.18", b6, 5, 0.99);
	if (gate_rebuild(&g, "build +6%", &r))
		return;
	if (ASSERT_TRUE(r, "row")) {
		ASSERT_FALSE(r->real, "+6% below the floor");
		ASSERT_FALSE(row_gated(&g.set, r), "not gated");
	}
	comparison_free(&g.c);
}

/*
 * The gating rule on rows made by hand: a real regression of the gated
 * metric, above the limit, judged against the noise between invocations,
 * that no level explains: with levels in a file, the change between the
 * nearest levels must be real and above the limit too (unless
 * --gate-unstable, which gates on the medians).
 */
void test_gate_rule(void)
{
	static const struct {
		const char *what;
		bool gate, regression, unstable, level_real, gate_unstable;
		enum fig kind;
		enum noise_src noise;
		double change, level_change;
		bool gated, named;
	} t[] = {
		{ "a real regression above the limit", 1, 1, 0, 0, 0, FIG_CYCLES, NOISE_PROFILE, 6,
		  0, 1, 0 },
		{ "between files too", 1, 1, 0, 0, 0, FIG_CYCLES, NOISE_FILES, 6, 0, 1, 0 },
		{ "no --fail-above", 0, 1, 0, 0, 0, FIG_CYCLES, NOISE_PROFILE, 6, 0, 0, 0 },
		{ "not real", 1, 0, 0, 0, 0, FIG_CYCLES, NOISE_PROFILE, 6, 0, 0, 0 },
		{ "the limit itself does not gate", 1, 1, 0, 0, 0, FIG_CYCLES, NOISE_PROFILE, 5, 0,
		  0, 0 },
		{ "another figure than --metric", 1, 1, 0, 0, 0, FIG_NS, NOISE_PROFILE, 6, 0, 0,
		  0 },
		{ "setups only: no verdict", 1, 1, 0, 0, 0, FIG_CYCLES, NOISE_SETUPS, 6, 0, 0, 0 },
		{ "levels explain it: named, not gated", 1, 1, 1, 0, 0, FIG_CYCLES, NOISE_PROFILE,
		  60, -3, 0, 1 },
		{ "between files too", 1, 1, 1, 0, 0, FIG_CYCLES, NOISE_FILES, 60, -3, 0, 1 },
		{ "the nearest levels moved: gated", 1, 1, 1, 1, 0, FIG_CYCLES, NOISE_PROFILE, 60,
		  40, 1, 0 },
		{ "the nearest levels moved, within the limit", 1, 1, 1, 1, 0, FIG_CYCLES,
		  NOISE_PROFILE, 60, 5, 0, 1 },
		{ "--gate-unstable: the medians", 1, 1, 1, 0, 1, FIG_CYCLES, NOISE_PROFILE, 60, -3,
		  1, 0 },
		{ "--gate-unstable on a stable row", 1, 1, 0, 0, 1, FIG_CYCLES, NOISE_PROFILE, 6, 0,
		  1, 0 },
		{ "unstable, not real: nothing to name", 1, 0, 1, 0, 0, FIG_CYCLES, NOISE_PROFILE,
		  3, -3, 0, 0 },
		{ "purity: lower is worse", 1, 1, 0, 0, 0, FIG_PURITY, NOISE_FILES, -6, 0, 1, 0 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct cmp_set set = { .gate = t[i].gate,
				       .gate_unstable = t[i].gate_unstable,
				       .metric = t[i].kind == FIG_NS ? FIG_CYCLES : t[i].kind,
				       .fail_above = 5 };
		struct row r = { .kind = t[i].kind,
				 .noise = t[i].noise,
				 .change = t[i].change,
				 .real = t[i].regression,
				 .regression = t[i].regression,
				 .unstable = t[i].unstable,
				 .level_change = t[i].level_change,
				 .level_real = t[i].level_real };

		ASSERT_EQ(row_gated(&set, &r), t[i].gated, t[i].what);
		ASSERT_EQ(row_unstable_not_gated(&set, &r), t[i].named, t[i].what);
	}
}

/*
 * One file a side with a profile: old on one level, new with 3 of its 5
 * setups on a level 2.6x higher, so its median sits there. Against the
 * profile that is real and beyond what the host showed, yet new's other
 * level is old's: the levels explain it, not gated (unless --gate-unstable).
 * When new's lower level moved too, or new sits on one level, it is gated.
 */
void test_gate_bimodal(void)
{
	double a[] = { 100, 100.4, 99.8, 100.1, 99.9 };
	double b[] = { 260, 100.2, 262, 99.9, 261 };
	double b2[] = { 260, 150.2, 262, 149.9, 261 };
	double b1[] = { 260, 260.2, 262, 259.9, 261 };
	double a85[] = { 85, 85.2, 84.9, 85.1, 85 };
	double b104[] = { 260, 104, 262, 104.2, 261 };
	struct noise_profile p;
	struct noise_scenario ns;
	struct gate_case g;
	const struct row *r;

	fake_profile(&p, &ns, 0.02, 8.0);
	gate_build(&g, a, 5, b, 5);
	g.o.profile = &p;
	if (gate_rebuild(&g, "build", &r))
		return;
	if (ASSERT_TRUE(r, "row")) {
		ASSERT_EQ(r->noise, NOISE_PROFILE, "the profile's noise");
		ASSERT_TRUE(r->unstable, "unstable");
		ASSERT_EQ(r->mn.nr_modes, 2, "two levels in new");
		ASSERT_TRUE(r->real && r->regression && !r->known, "real against the profile");
		ASSERT_NEAR(r->level_change, 0.05, 0.01, "old's level against new's lowest");
		ASSERT_FALSE(r->level_real, "the nearest levels did not move");
		ASSERT_FALSE(row_gated(&g.set, r), "levels explain it: not gated");
		ASSERT_TRUE(row_unstable_not_gated(&g.set, r), "named instead");
		g.set.gate_unstable = true;
		ASSERT_TRUE(row_gated(&g.set, r), "--gate-unstable: gated");
		g.set.gate_unstable = false;
	}
	fake_init(&g.fn, "new.json", "6.18", b2, 5, 0.99);
	if (gate_rebuild(&g, "build lower level moved", &r))
		return;
	if (ASSERT_TRUE(r, "row lower level moved")) {
		ASSERT_TRUE(r->unstable, "still two levels");
		ASSERT_NEAR(r->level_change, 50.05, 0.01, "+50 % at the nearest levels");
		ASSERT_TRUE(r->level_real, "real: beyond the floor and the host's range");
		ASSERT_TRUE(row_gated(&g.set, r), "no level explains it: gated");
	}
	/* old on a level the profile never saw (85): new's lower level, where the host's
	 * next run falls, is no verdict ('='), whatever new's median */
	fake_init(&g.fo, "old.json", "6.18", a85, 5, 0.99);
	fake_init(&g.fn, "new.json", "6.18", b104, 5, 0.99);
	if (gate_rebuild(&g, "build old unknown", &r))
		return;
	if (ASSERT_TRUE(r, "row old unknown")) {
		ASSERT_TRUE(r->unstable && r->regression, "a real regression of the medians");
		ASSERT_TRUE(r->level_change > r->floor_pct, "beyond the floor, nearest levels");
		ASSERT_FALSE(r->level_real, "new's lower level inside the profile's range");
		ASSERT_FALSE(row_gated(&g.set, r), "not gated");
	}
	fake_init(&g.fn, "new.json", "6.18", b1, 5, 0.99);
	if (gate_rebuild(&g, "build one level", &r))
		return;
	if (ASSERT_TRUE(r, "row one level")) {
		ASSERT_FALSE(r->unstable, "one level");
		ASSERT_TRUE(row_gated(&g.set, r), "the same change on one level: gated");
	}
	comparison_free(&g.c);
}

/* Builds 2 + 2 files: OLD[i] and NEW[i] are each file's 5 setups. */
static int files_build(struct fake fo[2], struct fake fn[2], struct result old[2],
		       struct result new[2], double old_v[2][5], double new_v[2][5],
		       struct comparison *c, const struct cmp_opts *o)
{
	for (int i = 0; i < 2; i++) {
		fake_init(&fo[i], i ? "o2" : "o1", "6.18", old_v[i], 5, 0.99);
		fake_init(&fn[i], i ? "n2" : "n1", "6.18", new_v[i], 5, 0.99);
		old[i] = fo[i].r;
		new[i] = fn[i].r;
	}
	*c = (struct comparison){ .old = old, .nold = 2, .new = new, .nnew = 2 };
	return comparison_build(c, o);
}

/*
 * Two files a side, each on its own level (35 and 60 cycles): pooling the
 * setups would hide nothing, but the file medians show the levels as the
 * noise between invocations: an A/A stays quiet. A real +10 % with both
 * sides' files close together is gated.
 */
void test_compare_files_levels(void)
{
	double aa_old[2][5] = { { 35, 35.1, 35.0, 35.2, 35.1 }, { 60, 60.2, 60.1, 60, 60.3 } };
	double aa_new[2][5] = { { 60.1, 60.2, 60, 60.1, 60.3 }, { 35.1, 35.0, 35.2, 35.1, 35 } };
	double rg_old[2][5] = { { 100, 100.2, 100.1, 99.9, 100 },
				{ 100.8, 101, 100.9, 101, 101.1 } };
	double rg_new[2][5] = { { 110, 110.2, 110.1, 109.9, 110 },
				{ 110.6, 111, 110.9, 111, 111 } };
	struct cmp_opts o = { .test = TEST_WELCH, .alpha = 0.05 };
	struct fake fo[2], fn[2];
	struct result old[2], new[2];
	struct comparison c;
	struct cmp_set set = {
		.opts = &o, .cmps = &c, .n = 1, .gate = true, .metric = FIG_CYCLES, .fail_above = 5
	};
	const struct row *r;

	if (!ASSERT_OK(files_build(fo, fn, old, new, aa_old, aa_new, &c, &o), "A/A build"))
		return;
	r = row_of(&c, FIG_CYCLES);
	if (ASSERT_TRUE(r, "row")) {
		ASSERT_EQ(r->noise, NOISE_FILES, "files are the unit");
		ASSERT_EQ(r->o.n, 2, "two values a side");
		ASSERT_FALSE(r->unstable, "each file on one level");
		ASSERT_TRUE(r->o.cv > 0.2, "the level is between-file spread");
		ASSERT_TRUE(r->within_o < 0.01, "inside the files: tight");
		ASSERT_FALSE(row_gated(&set, r), "A/A across a level: quiet");
	}
	comparison_free(&c);
	if (!ASSERT_OK(files_build(fo, fn, old, new, rg_old, rg_new, &c, &o), "regression build"))
		return;
	r = row_of(&c, FIG_CYCLES);
	if (ASSERT_TRUE(r, "row")) {
		ASSERT_NEAR(r->o.mean, 100.5, 1e-9, "mean of the file medians");
		ASSERT_TRUE(r->real && r->regression, "+10% real between files");
		ASSERT_TRUE(row_gated(&set, r), "gated");
	}
	comparison_free(&c);
}
