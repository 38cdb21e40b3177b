// SPDX-License-Identifier: GPL-2.0
/* compare --ktap and trend --ktap: the gates' verdicts as KTAP version 1. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "judge/report/ktap.h"
#include "judge/report/limit_report.h"
#include "sys/util.h"

struct ktap_test {
	bool ok, xfail; /* xfail: an expected failure, the reason in skip */
	char desc[256];
	char skip[320]; /* "" unless skipped (or xfail): the reason */
};

struct ktap {
	struct ktap_test *t;
	size_t n, cap;
	char diag[8][640]; /* "# " lines after the plan */
	size_t ndiag;
};

static struct ktap_test *add(struct ktap *k)
{
	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 16;
		struct ktap_test *t = realloc(k->t, cap * sizeof(*t));

		if (!t)
			return NULL;
		k->t = t;
		k->cap = cap;
	}
	memset(&k->t[k->n], 0, sizeof(k->t[0]));
	return &k->t[k->n++];
}

/* KTAP's fields are one line, and '#' starts the directive. */
static void clean(char *s)
{
	for (; *s; s++)
		if (*s == '#' || *s == '\n' || *s == '\r')
			*s = *s == '#' ? '_' : ' ';
}

__attribute__((format(printf, 2, 3))) static void diag(struct ktap *k, const char *fmt, ...)
{
	va_list ap;

	if (k->ndiag == sizeof(k->diag) / sizeof(k->diag[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(k->diag[k->ndiag], sizeof(k->diag[0]), fmt, ap);
	va_end(ap);
	clean(k->diag[k->ndiag++]);
}

static void print(FILE *f, struct ktap *k)
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

static void fmt_pct(double v, char *buf, size_t len)
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

static const struct row *metric_row(const struct comparison *c, const char *scn, enum fig f)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].kind == f && !strcmp(c->rows[i].scenario, scn))
			return &c->rows[i];
	return NULL;
}

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

static bool seen_before(const struct result *files, size_t n, size_t upto_file, size_t upto_sc,
			const char *name)
{
	for (size_t i = 0; i <= upto_file && i < n; i++)
		for (size_t k = 0; k < files[i].nr_sc && (i < upto_file || k < upto_sc); k++)
			if (!strcmp(files[i].sc[k].name, name))
				return true;
	return false;
}

static void cmp_row_test(struct ktap *k, const struct cmp_set *set, const struct comparison *c,
			 const struct row *r, const char *prefix)
{
	struct ktap_test *t = add(k);
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
	fmt_pct(r->change, ch, sizeof(ch));
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
	struct ktap_test *t = add(k);
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
	const struct result *sides[2] = { c->old, c->new };
	size_t ns[2] = { c->nold, c->nnew };

	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < ns[s]; i++) {
			for (size_t q = 0; q < sides[s][i].nr_sc; q++) {
				const char *name = sides[s][i].sc[q].name;
				const struct row *r;

				if (seen_before(sides[s], ns[s], i, q, name) ||
				    (s == 1 && seen_before(c->old, c->nold, c->nold, 0, name)))
					continue;
				r = metric_row(c, name, set->metric);
				if (r)
					cmp_row_test(k, set, c, r, prefix);
				else
					cmp_gap_test(k, set, c, name, prefix);
			}
		}
	}
}

/* A limit: "not ok" when the file's figure is above it, "# SKIP" when it has none. */
static void limit_test(struct ktap *k, const struct limit_check *l)
{
	struct ktap_test *t = add(k);
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

	diag(&k, "ppbench compare: %s, %s test, alpha %g%s", fig_name(set->metric),
	     set->opts->test == TEST_WELCH ? "Welch" : "Mann-Whitney", set->opts->alpha,
	     set->gate || set->nlimits ? "" : "; no --fail-above: nothing gates");
	for (size_t i = 0; i < set->n; i++) {
		const struct comparison *c = &set->cmps[i];

		diag(&k, "old %s%s, new %s%s: noise from the %s", c->old[0].path,
		     c->nold > 1 ? " and more" : "", c->new[0].path, c->nnew > 1 ? " and more" : "",
		     noise_src_name(c->noise));
		if (set->n > 1)
			snprintf(prefix, sizeof(prefix),
				 "%s: ", path_stem(c->new[0].path, stem, sizeof(stem)));
		cmp_tests(&k, set, c, prefix);
	}
	for (size_t i = 0; i < set->nlimits; i++)
		limit_test(&k, &set->limits[i]);
	print(f, &k);
}

/* ---- trend ------------------------------------------------------------- */

#define KTAP_MAX_HITS 64

/*
 * --stable-after: a held figure says so, its regression a SKIP; on a slow
 * machine (KSFT_MACHINE_SLOW=yes) a regression of a time is an XFAIL.
 */
static void trend_hold(struct ktap_test *t, const struct trend_view *v, const struct series_fig *g,
		       bool gated)
{
	size_t passes, n = strlen(t->desc);

	if (trend_held(v, g, &passes)) {
		snprintf(t->desc + n, sizeof(t->desc) - n, ", held: passed %zu times in a row",
			 passes);
		if (gated)
			snprintf(t->skip, sizeof(t->skip),
				 "held, not gated: fewer than --stable-after %zu passes in a row",
				 v->stable_after);
	} else if (gated && trend_xfail(v)) {
		t->xfail = true;
		snprintf(t->skip, sizeof(t->skip), "%s",
			 "KSFT_MACHINE_SLOW=yes: a time, which a slow machine stretches");
	} else {
		return;
	}
	t->ok = true;
}

static void trend_test(struct ktap *k, const struct trend_view *v, const struct series_fig *g,
		       const struct series_hit *hits, size_t nhits)
{
	struct ktap_test *t = add(k);
	const struct series_hit *gated = NULL, *named = NULL;
	char ch[16], fl[24] = "n/a";

	if (!t)
		return;
	for (size_t i = 0; i < nhits; i++) {
		if (hits[i].fig != g)
			continue;
		if (!hits[i].unstable && !gated)
			gated = &hits[i];
		if (hits[i].unstable && !named)
			named = &hits[i];
	}
	t->ok = !gated;
	if (isfinite(g->floor_pct))
		snprintf(fl, sizeof(fl), "%.1f%%", g->floor_pct);
	snprintf(t->desc, sizeof(t->desc), "%s %s: %s", g->scenario, series_figure_unit(g->fig),
		 trend_status_name(g->fit.status));
	if (gated || named) {
		const struct series_hit *h = gated ? gated : named;
		size_t at = h->cp->at;

		fmt_pct(h->cp->change_pct, ch, sizeof(ch));
		snprintf(t->desc + strlen(t->desc), sizeof(t->desc) - strlen(t->desc),
			 ", %s %s between \"%s\" and \"%s\", floor %s, limit %g%%",
			 trend_kind_name(h->cp->kind), ch, v->s->pt[g->pt[at - 1]].label,
			 v->s->pt[g->pt[at]].label, fl, v->fail_pct);
	} else if (v->gate) {
		snprintf(t->desc + strlen(t->desc), sizeof(t->desc) - strlen(t->desc),
			 ", no regression above %g%% in the last %zu results, floor %s",
			 v->fail_pct, v->window, fl);
	}
	if (!v->gate)
		snprintf(t->skip, sizeof(t->skip), "no gate: give --fail-on-regression PCT");
	else if (g->fit.status == TREND_TOO_FEW)
		snprintf(t->skip, sizeof(t->skip), "%s", g->fit.reason);
	else if (!gated && named)
		snprintf(t->skip, sizeof(t->skip), "unstable, not gated%s%s",
			 g->fit.reason[0] ? ": " : "", g->fit.reason);
	else
		trend_hold(t, v, g, gated);
}

void trend_print_ktap(FILE *f, const struct trend_view *v)
{
	struct series_hit hits[KTAP_MAX_HITS];
	size_t n =
		v->gate ? series_gate(v->s, v->metric, v->fail_pct, v->window, hits, KTAP_MAX_HITS)
			: 0;
	struct ktap k = { 0 };

	if (n > KTAP_MAX_HITS)
		n = KTAP_MAX_HITS;
	diag(&k, "ppbench trend: %zu results from \"%s\" to \"%s\", %s", v->s->npts,
	     v->s->pt[0].label, v->s->pt[v->s->npts - 1].label, series_figure_name(v->metric));
	for (size_t i = 0; i < v->s->nfigs; i++)
		if (v->s->figs[i].fig == v->metric)
			trend_test(&k, v, &v->s->figs[i], hits, n);
	print(f, &k);
}
