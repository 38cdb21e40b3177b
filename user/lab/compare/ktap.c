// SPDX-License-Identifier: GPL-2.0
/* compare --ktap: the gate's verdicts as KTAP version 1; the writer trend --ktap shares. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "compare/ktap.h"
#include "compare/hardlimit.h"
#include "sys/util.h"

struct ktap_test *ktap_add(struct ktap *k)
{
	struct ktap_test *t = realloc(k->t, (k->n + 1) * sizeof(*t));

	if (!t)
		return NULL;
	k->t = t;
	memset(&t[k->n], 0, sizeof(*t));
	return &t[k->n++];
}

/* KTAP's fields are one line, and '#' starts the directive. */
static void clean(char *s)
{
	for (; *s; s++)
		if (*s == '#' || *s == '\n' || *s == '\r')
			*s = *s == '#' ? '_' : ' ';
}

void ktap_diag(struct ktap *k, const char *fmt, ...)
{
	va_list ap;

	if (k->ndiag == sizeof(k->diag) / sizeof(k->diag[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(k->diag[k->ndiag], sizeof(k->diag[0]), fmt, ap);
	va_end(ap);
	clean(k->diag[k->ndiag++]);
}

void ktap_print(FILE *f, struct ktap *k)
{
	fprintf(f, "KTAP version 1\n1..%zu\n", k->n);
	for (size_t i = 0; i < k->ndiag; i++)
		fprintf(f, "# %s\n", k->diag[i]);
	for (size_t i = 0; i < k->n; i++) {
		struct ktap_test *t = &k->t[i];

		clean(t->desc);
		clean(t->skip);
		fprintf(f, "%s %zu %s%s%s\n", t->ok ? "ok" : "not ok", i + 1, t->desc,
			!t->skip[0] ? ""
			: t->xfail  ? " # XFAIL "
				    : " # SKIP ",
			t->skip);
	}
	free(k->t);
}

void ktap_pct(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else if (fabs(v) < 0.05)
		snprintf(buf, len, "0.0%%");
	else
		snprintf(buf, len, "%+.1f%%", v);
}

bool ksft_machine_slow(void)
{
	const char *e = getenv("KSFT_MACHINE_SLOW");

	return e && !strcmp(e, "yes");
}

/* ---- compare ----------------------------------------------------------- */

/* Why one side has no value of figure F of scenario SCN; NULL if it has. */
static const char *side_gap(const struct result *files, size_t n, const char *scn, enum fig f,
			    const char *side, char *buf, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		const struct result_scenario *sc = result_find(&files[i], scn);

		if (!sc)
			snprintf(buf, len, "not in %s (%s)", side, files[i].path);
		else if (!sc->ok)
			snprintf(buf, len, "skipped in %s (%s): %s", side, files[i].path,
				 sc->reason ? sc->reason : "no reason given");
		else if (f == FIG_PATH && !sc->has_path_cost)
			snprintf(buf, len, "no path figure in %s (%s): %s", side, files[i].path,
				 sc->path_cost_method ? sc->path_cost_method : "n/a");
		else
			continue;
		return buf;
	}
	return NULL;
}

static void cmp_row_test(struct ktap *k, const struct cmp_set *set, const struct comparison *c,
			 const struct row *r, const char *prefix)
{
	struct ktap_test *t = ktap_add(k);
	char ch[16], fl[24] = "n/a", lim[40] = "", mark[40] = "";

	if (!t)
		return;
	if (r->other_method) {
		snprintf(t->desc, sizeof(t->desc), "%s%s: method differs (%s, %s)", prefix,
			 r->label, r->method, r->other_method);
		t->ok = true;
		snprintf(t->skip, sizeof(t->skip), "path figures of two methods never compare");
		return;
	}
	ktap_pct(r->change, ch, sizeof(ch));
	if (isfinite(r->floor_pct))
		snprintf(fl, sizeof(fl), "%.1f%%", r->floor_pct);
	if (set->gate)
		snprintf(lim, sizeof(lim), ", limit %g%%", set->fail_above);
	if (r->unstable || r->known)
		snprintf(mark, sizeof(mark), ", %s",
			 r->known ? "new within the profile's range" : "unstable");
	snprintf(t->desc, sizeof(t->desc), "%s%s: %s, floor %s%s%s", prefix, r->label, ch, fl, lim,
		 mark);
	t->ok = !row_gated(set, r) || row_xfail(set, c, r);
	t->xfail = row_xfail(set, c, r);
	if (t->xfail)
		snprintf(t->skip, sizeof(t->skip), "%s",
			 "KSFT_MACHINE_SLOW=yes: a time, which a slow machine stretches");
	else if (!set->gate)
		snprintf(t->skip, sizeof(t->skip), "no gate: give --fail-above PCT");
	else if (c->noise == NOISE_SETUPS)
		snprintf(t->skip, sizeof(t->skip),
			 "no verdict: the setups of one file a side do not show the noise between "
			 "invocations");
	else if (!r->t.testable)
		snprintf(t->skip, sizeof(t->skip), "not tested: %s",
			 r->t.why ? r->t.why : "too few values");
	else if (row_unstable_not_gated(set, r))
		snprintf(t->skip, sizeof(t->skip),
			 "unstable, not gated: %+.1f%% between the nearest levels, %s",
			 r->level_change, r->level_real ? "within the limit" : "not real");
}

/* A scenario with no row of the metric: skipped, missing or without the figure on a side. */
static void cmp_gap_test(struct ktap *k, const struct cmp_set *set, const struct comparison *c,
			 const char *scn, const char *prefix)
{
	struct ktap_test *t = ktap_add(k);
	char why[300], words[32];

	if (!t)
		return;
	t->ok = true;
	fig_words(set->metric, c->nold && unit_counts_instructions(result_clock_of(c->old)->unit),
		  words, sizeof(words));
	snprintf(t->desc, sizeof(t->desc), "%s%s %s", prefix, scn, words);
	if (!side_gap(c->old, c->nold, scn, set->metric, "old", why, sizeof(why)) &&
	    !side_gap(c->new, c->nnew, scn, set->metric, "new", why, sizeof(why)))
		snprintf(why, sizeof(why), "no value on a side");
	snprintf(t->skip, sizeof(t->skip), "%s", why);
}

/* Every scenario either side names, in the order the files name them. */
static void cmp_tests(struct ktap *k, const struct cmp_set *set, const struct comparison *c,
		      const char *prefix)
{
	size_t n;
	const char **names = scenario_names(c->old, c->nold, c->new, c->nnew, &n);

	for (size_t i = 0; names && i < n; i++) {
		const struct row *r = find_row(c, names[i], set->metric);

		if (r)
			cmp_row_test(k, set, c, r, prefix);
		else
			cmp_gap_test(k, set, c, names[i], prefix);
	}
	free(names);
}

/* A limit: "not ok" when the file's figure is above it, "# SKIP" when it has none. */
static void limit_test(struct ktap *k, const struct limit_check *l)
{
	struct ktap_test *t = ktap_add(k);
	char name[64], d[160];

	if (!t)
		return;
	hard_limit_name(l->limit, name, sizeof(name));
	limit_desc(l, d, sizeof(d));
	t->ok = !l->has_value || !l->exceeded;
	if (l->has_value)
		snprintf(t->desc, sizeof(t->desc), "limit %s: %s (%s)", name, d, l->file->path);
	else
		snprintf(t->desc, sizeof(t->desc), "limit %s (%s)", name, l->file->path);
	if (!l->has_value)
		snprintf(t->skip, sizeof(t->skip), "%s", d);
}

void compare_print_ktap(FILE *f, const struct cmp_set *set)
{
	struct ktap k = { 0 };
	char prefix[300] = "", stem[256];

	ktap_diag(&k, "ppbench compare: %s, %s test, alpha %g%s", fig_name(set->metric),
		  set->opts->test == TEST_WELCH ? "Welch" : "Mann-Whitney", set->opts->alpha,
		  set->gate || set->nlimits ? "" : "; no --fail-above: nothing gates");
	for (size_t i = 0; i < set->n; i++) {
		const struct comparison *c = &set->cmps[i];

		ktap_diag(&k, "old %s%s, new %s%s: noise from the %s", c->old[0].path,
			  c->nold > 1 ? " and more" : "", c->new[0].path,
			  c->nnew > 1 ? " and more" : "", noise_src_name(c->noise));
		if (set->n > 1)
			snprintf(prefix, sizeof(prefix),
				 "%s: ", path_stem(c->new[0].path, stem, sizeof(stem)));
		cmp_tests(&k, set, c, prefix);
	}
	for (size_t i = 0; i < set->nlimits; i++)
		limit_test(&k, &set->limits[i]);
	ktap_print(f, &k);
}
