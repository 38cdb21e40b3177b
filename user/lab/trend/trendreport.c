// SPDX-License-Identifier: GPL-2.0
/*
 * Text and Markdown of ppbench trend, in the kernel test robot's manner:
 * "before ±%stddev %change after ±%stddev" per level. Lines within 100 columns.
 */
#include <math.h>
#include <string.h>
#include "model/by_counter.h"
#include "compare/ktap.h"
#include "trend/series.h"
#include "report/report.h"
#include "sys/log.h"

const char *trend_order_name(enum series_order o)
{
	static const char *const names[] = { "given", "created", "label" };

	return names[o];
}

static void fmt_val(enum series_figure fig, double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.*f", fig == SFIG_NS ? 3 : 2, v);
}

/* "35.9x20 57.6x4": each level's median and points, lowest first. */
static void fmt_levels(const struct level_set *l, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < l->nlevels && n < len; i++) {
		if (i == 3) {
			snprintf(buf + n, len - n, " +%zu more", l->nlevels - 3);
			break;
		}
		n += snprintf(buf + n, len - n, "%s%.4gx%zu", i ? " " : "", l->lv[i].median,
			      l->lv[i].count);
	}
	if (!l->nlevels)
		snprintf(buf, len, "-");
}

/* G's figure with its method: "cycles", "path (fentry)". */
static const char *fig_label(const struct series_fig *g, char *buf, size_t len)
{
	snprintf(buf, len, g->method ? "%s (%s)" : "%s", series_figure_name(g->fig), g->method);
	return buf;
}

static const char *label_at(const struct trend_view *v, const struct series_fig *g, size_t i)
{
	return v->s->pt[g->pt[i]].label;
}

static void print_header(FILE *f, const struct trend_view *v, bool md)
{
	const struct series *s = v->s;

	fprintf(f, "%s%zu results from %s%s%s to %s%s%s (order %s), %s, TSC %.3f GHz\n",
		md ? "**ppbench trend**: " : "trend: ", s->npts, md ? "`" : "\"", s->pt[0].label,
		md ? "`" : "\"", md ? "`" : "\"", s->pt[s->npts - 1].label, md ? "`" : "\"",
		trend_order_name(v->order), s->cpu_model, s->tsc_hz / 1e9);
	fprintf(f,
		"%schange points: e-divisive means inside host levels, permutation test (%u "
		"shuffles, p <= %g), min run %zu\n",
		md ? "\n" : "", v->opts->permutations, v->opts->alpha, v->opts->min_run);
	if (v->noise)
		fprintf(f,
			"%snoise profile %s%s%s: %llu invocations, made %s; a step as large as a "
			"ratio between its levels is 'level'\n",
			md ? "\n" : "", md ? "`" : "", v->noise->path, md ? "`" : "",
			(unsigned long long)v->noise->invocations, v->noise->created);
	if (s->nforced)
		fprintf(f, "%s%zu file%s from another host (--force)\n", md ? "\n" : "", s->nforced,
			s->nforced > 1 ? "s" : "");
}

static void print_summary(FILE *f, const struct trend_view *v, bool md)
{
	char lv[64], fig[48];
	const char *gap = "\n"; /* before the first reason, which ends a Markdown table */

	if (md)
		fprintf(f, "\n| scenario | figure | points | levels (median x points) | outliers | "
			   "change points | status |\n|---|---|---:|---|---:|---:|---|\n");
	else
		fprintf(f, "\n%-12s %-16s %6s  %-32s %8s %7s  %s\n", "scenario", "figure", "points",
			"levels (median x points)", "outliers", "changes", "status");
	for (size_t i = 0; i < v->s->nfigs; i++) {
		const struct series_fig *g = &v->s->figs[i];

		fmt_levels(&g->fit.levels, lv, sizeof(lv));
		fprintf(f,
			md ? "| %s | %s | %zu | %s | %zu | %zu | %s |\n"
			   : "%-12s %-16s %6zu  %-32s %8zu %7zu  %s\n",
			g->scenario, fig_label(g, fig, sizeof(fig)), g->n, lv,
			g->fit.levels.noutliers, g->fit.ncps, trend_status_name(g->fit.status));
	}
	for (size_t i = 0; i < v->s->nfigs; i++) {
		const struct series_fig *g = &v->s->figs[i];

		if (!g->fit.reason[0])
			continue;
		fprintf(f, "%s%s %s: %s: %s\n", gap, g->scenario, fig_label(g, fig, sizeof(fig)),
			trend_status_name(g->fit.status), g->fit.reason);
		gap = "";
	}
}

static void cp_title(FILE *f, const struct trend_view *v, const struct series_fig *g,
		     const struct trend_cp *cp, bool md)
{
	char ch[16], lo[16], hi[16], abs[80], p[24] = "";

	ktap_pct(cp->change_pct, ch, sizeof(ch));
	ktap_pct(cp->lo_pct, lo, sizeof(lo));
	ktap_pct(cp->hi_pct, hi, sizeof(hi));
	if (isfinite(cp->change_abs))
		snprintf(abs, sizeof(abs), ", %+.*f %s", g->fig == SFIG_NS ? 3 : 1, cp->change_abs,
			 series_figure_unit(g->fig));
	else
		abs[0] = 0;
	if (isfinite(g->floor_pct))
		snprintf(abs + strlen(abs), sizeof(abs) - strlen(abs), "; one pair's floor %.1f%%",
			 g->floor_pct);
	/* (a change no level sees on both sides has no test) */
	if (isfinite(cp->p))
		snprintf(p, sizeof(p), " (p %.3g)", cp->p);
	fprintf(f, "\n%s%s %s: %s between \"%s\" and \"%s\"%s: %s [%s, %s]%s%s\n", md ? "**" : "",
		g->scenario, series_figure_unit(g->fig), trend_kind_name(cp->kind),
		label_at(v, g, cp->at - 1), label_at(v, g, cp->at), p, ch, lo, hi, abs,
		md ? "**" : "");
}

static void side_cells(const struct series_fig *g, const struct trend_side *sd, char *val,
		       char *sdv, size_t len)
{
	fmt_val(g->fig, sd->mean, val, len);
	snprintf(sdv, len, "±%.1f%%", sd->sd_pct);
}

/* One change point: a row per level seen on both sides. */
static void print_cp(FILE *f, const struct trend_view *v, const struct series_fig *g,
		     const struct trend_cp *cp, bool md)
{
	char b[24], bs[16], a[24], as[16], ch[16], lvl[32];

	cp_title(f, v, g, cp, md);
	if (md)
		fprintf(f, "\n| before | ±%%stddev | %%change | after | ±%%stddev | points | level "
			   "|\n|---:|---:|---:|---:|---:|---:|---|\n");
	else
		fprintf(f, "%14s %9s %10s %14s %9s %9s  %s\n", "before", "±%stddev", "%change",
			"after", "±%stddev", "points", "level");
	for (size_t k = 0; k < cp->nlv; k++) {
		const struct trend_lvchange *r = &cp->lv[k];

		side_cells(g, &r->before, b, bs, sizeof(b));
		side_cells(g, &r->after, a, as, sizeof(a));
		ktap_pct(r->change_pct, ch, sizeof(ch));
		snprintf(lvl, sizeof(lvl), "%d (~%.4g)", r->level + 1,
			 g->fit.levels.lv[r->level].median);
		fprintf(f,
			md ? "| %s | %s | %s | %s | %s | %zu/%zu | %s |\n"
			   : "%14s %10s %10s %14s %10s %5zu/%-3zu  %s\n",
			b, bs, ch, a, as, r->before.n, r->after.n, lvl);
	}
}

/* The change point of G whose first point after it is series point P, or NULL. */
static const struct trend_cp *cp_before(const struct series_fig *g, size_t p)
{
	for (size_t k = 0; k < g->fit.ncps; k++)
		if (g->pt[g->fit.cps[k].at] == p)
			return &g->fit.cps[k];
	return NULL;
}

/* Where series point P sits in figure G, or -1 when G has no value there. */
static long index_of(const struct series_fig *g, size_t p)
{
	for (size_t i = 0; i < g->n && g->pt[i] <= p; i++)
		if (g->pt[i] == p)
			return (long)i;
	return -1;
}

static void cp_rule(FILE *f, const struct trend_view *v, size_t p, bool md)
{
	for (size_t i = 0; i < v->s->nfigs; i++) {
		const struct series_fig *g = &v->s->figs[i];
		const struct trend_cp *cp = g->fig == v->metric ? cp_before(g, p) : NULL;
		char ch[16];

		if (!cp)
			continue;
		ktap_pct(cp->change_pct, ch, sizeof(ch));
		fprintf(f, md ? "| **%s %s %s** |\n" : "  ---- %s: %s %s ----\n", g->scenario,
			trend_kind_name(cp->kind), ch);
	}
}

/* Appends figure G's cell of series point P to LINE (of LEN, filled to *AT). */
static void series_cell(char *line, size_t len, size_t *at, const struct series_fig *g, size_t p,
			bool md)
{
	long i = index_of(g, p);
	char val[24], tag[16];

	if (*at >= len)
		return;
	if (i < 0) {
		*at += snprintf(line + *at, len - *at, md ? " | -" : " %14s", "-");
		return;
	}
	fmt_val(g->fig, g->v[i], val, sizeof(val));
	if (g->fit.level && g->fit.level[i] >= 0)
		snprintf(tag, sizeof(tag), "L%d", g->fit.level[i] + 1);
	else
		snprintf(tag, sizeof(tag), g->fit.level ? "out" : "");
	*at += snprintf(line + *at, len - *at, md ? " | %s %s" : " %10s %-3s", val, tag);
}

static void series_row(FILE *f, const struct trend_view *v, size_t p, bool md)
{
	char line[1024];
	size_t at = snprintf(line, sizeof(line), md ? "| %s" : "%-20s", v->s->pt[p].label);

	for (size_t i = 0; i < v->s->nfigs; i++)
		if (v->s->figs[i].fig == v->metric)
			series_cell(line, sizeof(line), &at, &v->s->figs[i], p, md);
	at = strnlen(line, sizeof(line) - 1);
	while (at && line[at - 1] == ' ')
		line[--at] = 0;
	fprintf(f, md ? "%s |\n" : "%s\n", line);
}

/* The metric's values, a row per result, a rule before each change point. */
static void print_series(FILE *f, const struct trend_view *v, bool md)
{
	char unit[48];

	/* a hardware counter's view names it (model/by_counter.h) */
	if (unit_is_counter(v->s->clock_unit) && v->metric != SFIG_PATH)
		snprintf(unit, sizeof(unit), "%s/elem", v->s->clock_unit);
	else
		snprintf(unit, sizeof(unit), "%s", series_figure_unit(v->metric));
	fprintf(f,
		"\nseries: %s (median over each result's setups; L1 the lowest level, out an "
		"outlier)\n%s",
		unit, md ? "\n| label" : "");
	if (!md)
		fprintf(f, "%-20s", "label");
	for (size_t i = 0; i < v->s->nfigs; i++)
		if (v->s->figs[i].fig == v->metric)
			fprintf(f, md ? " | %s" : " %14s", v->s->figs[i].scenario);
	fprintf(f, md ? " |\n|---" : "\n");
	for (size_t i = 0; md && i < v->s->nfigs; i++)
		if (v->s->figs[i].fig == v->metric)
			fprintf(f, "|---:");
	fprintf(f, md ? "|\n" : "");
	for (size_t p = 0; p < v->s->npts; p++) {
		cp_rule(f, v, p, md);
		series_row(f, v, p, md);
	}
}

/* --stable-after: the figures of --metric the gate holds, report-only, with their passes. */
static void print_held(FILE *f, const struct trend_view *v, bool md)
{
	char line[1024];
	size_t passes, held = 0;
	int n;

	if (!v->stable_after)
		return;
	n = snprintf(line, sizeof(line),
		     "%sheld%s (--stable-after %zu: report only until passed %zu times in a row):",
		     md ? "**" : "", md ? "**" : "", v->stable_after, v->stable_after);
	for (size_t i = 0; i < v->s->nfigs && n < (int)sizeof(line); i++) {
		const struct series_fig *g = &v->s->figs[i];

		if (g->fig != v->metric || !trend_held(v, g, &passes))
			continue;
		n += snprintf(line + n, sizeof(line) - n, "%s %s %s passed %zu", held++ ? "," : "",
			      g->scenario, series_figure_unit(g->fig), passes);
	}
	if (!held && n < (int)sizeof(line))
		snprintf(line + n, sizeof(line) - n, " none");
	fprintf(f, "\n");
	fprint_wrapped(f, "", line);
}

void trend_print(FILE *f, const struct trend_view *v, bool md)
{
	print_header(f, v, md);
	print_summary(f, v, md);
	print_held(f, v, md);
	for (size_t i = 0; i < v->s->nfigs; i++)
		for (size_t k = 0; k < v->s->figs[i].fit.ncps; k++)
			print_cp(f, v, &v->s->figs[i], &v->s->figs[i].fit.cps[k], md);
	print_series(f, v, md);
}

bool trend_held(const struct trend_view *v, const struct series_fig *g, size_t *passes)
{
	*passes = series_passes(v->s, g, v->fail_pct, v->window);
	return v->stable_after && *passes < v->stable_after;
}

bool trend_xfail(const struct trend_view *v)
{
	return v->machine_slow && !unit_counts_instructions(v->s->clock_unit);
}

/* A regression the gate does not count: held (--stable-after), or an expected failure. */
static bool not_counted(const struct trend_view *v, const struct series_hit *h, const char *ch,
			const char *where)
{
	size_t passes;

	if (trend_held(v, h->fig, &passes))
		fprintf(stderr,
			"ppbench trend: held, not gated: %s %s %s %s (passed %zu times in a row, "
			"--stable-after %zu)\n",
			h->fig->scenario, series_figure_unit(h->fig->fig), ch, where, passes,
			v->stable_after);
	else if (trend_xfail(v))
		fprintf(stderr,
			"ppbench trend: expected failure (KSFT_MACHINE_SLOW=yes, a time): %s %s %s "
			"%s, limit %g%%\n",
			h->fig->scenario, series_figure_unit(h->fig->fig), ch, where, v->fail_pct);
	else
		return false;
	return true;
}

int trend_gate(const struct trend_view *v)
{
	struct series_hit hits[TREND_MAX_HITS];
	size_t n = series_gate(v->s, v->metric, v->fail_pct, v->window, hits, TREND_MAX_HITS);
	size_t gated = 0;
	char ch[16], where[200];

	for (size_t i = 0; i < n; i++) {
		const struct series_hit *h = &hits[i];

		ktap_pct(h->cp->change_pct, ch, sizeof(ch));
		snprintf(where, sizeof(where), "between \"%s\" and \"%s\"",
			 label_at(v, h->fig, h->cp->at - 1), label_at(v, h->fig, h->cp->at));
		if (h->unstable) {
			fprintf(stderr,
				"ppbench trend: unstable, not gated: %s %s %s (%s%s%s) %s\n",
				h->fig->scenario, series_figure_unit(h->fig->fig), ch,
				trend_kind_name(h->cp->kind), h->fig->fit.reason[0] ? ": " : "",
				h->fig->fit.reason, where);
			continue;
		}
		if (not_counted(v, h, ch, where))
			continue;
		gated++;
		fprintf(stderr,
			"ppbench trend: regression: %s %s %s [%+.1f%%, %+.1f%%] %s (p %.3g), "
			"limit %g%%\n",
			h->fig->scenario, series_figure_unit(h->fig->fig), ch, h->cp->lo_pct,
			h->cp->hi_pct, where, h->cp->p, v->fail_pct);
	}
	if (!gated)
		return EXIT_OK;
	fprintf(stderr, "ppbench trend: %zu %s regression%s above %g%% in the last %zu results\n",
		gated, series_figure_name(v->metric), gated == 1 ? "" : "s", v->fail_pct,
		v->window);
	return EXIT_REGRESSION;
}

/* ---- trend --ktap ------------------------------------------------------ */

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
	struct ktap_test *t = ktap_add(k);
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

		ktap_pct(h->cp->change_pct, ch, sizeof(ch));
		snprintf(t->desc + strlen(t->desc), sizeof(t->desc) - strlen(t->desc),
			 ", %s %s between \"%s\" and \"%s\", floor %s, limit %g%%",
			 trend_kind_name(h->cp->kind), ch, label_at(v, g, at - 1),
			 label_at(v, g, at), fl, v->fail_pct);
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
	struct series_hit hits[TREND_MAX_HITS];
	size_t n =
		v->gate ? series_gate(v->s, v->metric, v->fail_pct, v->window, hits, TREND_MAX_HITS)
			: 0;
	struct ktap k = { 0 };

	ktap_diag(&k, "ppbench trend: %zu results from \"%s\" to \"%s\", %s", v->s->npts,
		  v->s->pt[0].label, v->s->pt[v->s->npts - 1].label, series_figure_name(v->metric));
	for (size_t i = 0; i < v->s->nfigs; i++)
		if (v->s->figs[i].fig == v->metric)
			trend_test(&k, v, &v->s->figs[i], hits, n);
	ktap_print(f, &k);
}
