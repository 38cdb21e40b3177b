// SPDX-License-Identifier: GPL-2.0
/* The series trend reads: a point per result file, ordered, checked, fitted. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/stats.h"
#include "trend/series.h"
#include "model/pathfig.h"
#include "sys/util.h"

const char *series_figure_name(enum series_figure f)
{
	static const char *const names[] = { "cycles", "ns", "path" };

	return names[f];
}

const char *series_figure_unit(enum series_figure f)
{
	static const char *const units[] = { "cycles/elem", "ns/elem", "path cycles" };

	return units[f];
}

int series_host_differs(const char *cpu_a, double tsc_a, const char *cpu_b, double tsc_b, char *why,
			size_t len)
{
	double hi = fmax(tsc_a, tsc_b), apart = hi > 0 ? fabs(tsc_a - tsc_b) / hi : 0;

	if (strcmp(cpu_a, cpu_b))
		snprintf(why, len, "CPU model \"%s\" vs \"%s\"", cpu_a, cpu_b);
	else if (apart > 0.01)
		snprintf(why, len, "TSC %.0f Hz vs %.0f Hz (%.1f%% apart)", tsc_a, tsc_b,
			 apart * 100);
	else
		return 0;
	return -EINVAL;
}

/* TSC Hz and CPU model must match the first file's: cycles of other clocks do not compare. */
static int check_host(struct series *s, const struct result *r, bool force, char *err,
		      size_t errlen)
{
	char why[400];

	if (strcmp(s->clock_kind, result_clock_of(r)->kind)) {
		snprintf(err, errlen,
			 "%s counts %s (%s clock) and %s %s (%s clock): figures of two clocks "
			 "never make one series",
			 s->pt[0].file, s->clock_unit, s->clock_kind, r->path,
			 result_clock_of(r)->unit, result_clock_of(r)->kind);
		return -EXDEV;
	}
	if (!series_host_differs(r->host.cpu_model, r->host.tsc_hz, s->cpu_model, s->tsc_hz, why,
				 sizeof(why)))
		return 0;
	snprintf(err, errlen, "%s: another host than %s: %s", r->path, s->pt[0].file, why);
	if (!force)
		return -EINVAL;
	s->nforced++;
	return 0;
}

static struct series_fig *fig_of(struct series *s, const char *scenario, enum series_figure f)
{
	struct series_fig *g;

	for (size_t i = 0; i < s->nfigs; i++)
		if (s->figs[i].fig == f && !strcmp(s->figs[i].scenario, scenario))
			return &s->figs[i];
	g = realloc(s->figs, (s->nfigs + 1) * sizeof(*g));
	if (!g)
		return NULL;
	s->figs = g;
	g = &s->figs[s->nfigs];
	memset(g, 0, sizeof(*g));
	g->scenario = strdup(scenario);
	g->fig = f;
	g->floor_pct = NAN;
	if (!g->scenario)
		return NULL;
	s->nfigs++;
	return g;
}

/* *A grown to CAP doubles, those from FROM on NAN (none yet). */
static int nan_grow(double **a, size_t from, size_t cap)
{
	double *n = realloc(*a, (cap ? cap : 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (size_t j = from; j < cap; j++)
		n[j] = NAN;
	*a = n;
	return 0;
}

/* Per-point arrays of every figure follow the points' capacity. */
static int grow(struct series *s)
{
	size_t cap = s->cap ? 2 * s->cap : 64;
	struct series_point *pt = realloc(s->pt, cap * sizeof(*pt));

	if (!pt)
		return -ENOMEM;
	s->pt = pt;
	for (size_t i = 0; i < s->nfigs; i++)
		for (size_t k = 0; k < NR_RAW; k++)
			if (nan_grow(&s->figs[i].raw[k], s->cap, cap))
				return -ENOMEM;
	s->cap = cap;
	return 0;
}

static int put(struct series *s, const char *scenario, enum series_figure f, size_t at, double v,
	       double lo, double hi, double probe)
{
	double val[NR_RAW] = { v, lo, hi, probe };
	struct series_fig *g;

	if (s->figmask && !(s->figmask & (1u << f)))
		return 0;
	g = fig_of(s, scenario, f);
	if (!g)
		return -ENOMEM;
	for (size_t k = 0; k < NR_RAW; k++) {
		/* a new figure: NAN for every point before this one */
		if (!g->raw[k] && nan_grow(&g->raw[k], 0, s->cap))
			return -ENOMEM;
		g->raw[k][at] = val[k];
	}
	return 0;
}

double series_stat_max(const struct result_stat *st)
{
	double m = st->min;

	for (size_t i = 0; i < st->nruns; i++)
		m = fmax(m, st->runs[i]);
	return m;
}

/* The file of the first point figure G has. */
static const char *first_file(const struct series *s, const struct series_fig *g)
{
	for (size_t i = 0; i < s->npts; i++)
		if (!isnan(g->raw[0][i]))
			return s->pt[i].file;
	return "?";
}

/*
 * bench's path figure of point AT: one method makes a series; a point of
 * another sets the figure aside, whatever its values would show.
 */
static int put_path(struct series *s, const struct result_scenario *sc, size_t at)
{
	const char *m = sc->path_method;
	struct series_fig *g;
	double v = sc->path_cost;

	if (!sc->has_path_cost || !(v > 0) || (s->figmask && !(s->figmask & 1u << SFIG_PATH)))
		return 0;
	g = fig_of(s, sc->name, SFIG_PATH);
	if (!g)
		return -ENOMEM;
	if (!g->raw[0] && m && !(g->method = strdup(m)))
		return -ENOMEM;
	if (g->raw[0] && !g->aside && !path_methods_agree(g->method, m) &&
	    asprintf(&g->aside,
		     "%s path: %s in %s, %s in %s: figures of two methods make no series; "
		     "left out",
		     sc->name, g->method ?: "unnamed", first_file(s, g), m ?: "unnamed",
		     s->pt[at].file) < 0) {
		g->aside = NULL;
		return -ENOMEM;
	}
	return put(s, sc->name, SFIG_PATH, at, v, v, v, 0);
}

/*
 * The figures of one scenario of point AT: the median over the setups, with
 * the least and largest; only positive values, the fit works on ratios.
 */
static int put_scenario(struct series *s, const struct result_scenario *sc, size_t at)
{
	int err = 0;

	if (!sc->ok)
		return 0;
	if (sc->cycles.median > 0)
		err = put(s, sc->name, SFIG_CYCLES, at, sc->cycles.median, sc->cycles.min,
			  series_stat_max(&sc->cycles), sc->level_probe_ns);
	if (!err && sc->ns.median > 0)
		err = put(s, sc->name, SFIG_NS, at, sc->ns.median, sc->ns.min,
			  series_stat_max(&sc->ns), sc->level_probe_ns);
	return err ?: put_path(s, sc, at);
}

int series_add(struct series *s, const struct result *r, bool force, char *err, size_t errlen)
{
	struct series_point *p;
	size_t at = s->npts;
	char stem[256];
	int e;

	if (!s->npts) {
		s->cpu_model = strdup(r->host.cpu_model);
		s->clock_kind = strdup(result_clock_of(r)->kind);
		s->clock_unit = strdup(result_clock_of(r)->unit);
		s->tsc_hz = r->host.tsc_hz;
		if (!s->cpu_model || !s->clock_kind || !s->clock_unit)
			return -ENOMEM;
	} else if ((e = check_host(s, r, force, err, errlen))) {
		return e;
	}
	if (at == s->cap && grow(s))
		return -ENOMEM;
	p = &s->pt[at];
	memset(p, 0, sizeof(*p));
	p->file = strdup(r->path);
	/* a file without a label is named by its base name */
	p->label = strdup(r->label ? r->label : path_stem(r->path, stem, sizeof(stem)));
	p->created = strdup(r->created);
	p->kernel = strdup(r->host.kernel);
	s->npts++;
	if (!p->file || !p->label || !p->created || !p->kernel)
		return -ENOMEM;
	for (size_t i = 0; i < r->nr_sc; i++) {
		e = put_scenario(s, &r->sc[i], at);
		if (e)
			return e;
	}
	return 0;
}

static int cmp_label(const void *pa, const void *pb, void *ctx)
{
	const struct series_point *pt = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = strverscmp(pt[a].label, pt[b].label);

	return c ?: (a > b) - (a < b);
}

static int cmp_created(const void *pa, const void *pb, void *ctx)
{
	const struct series_point *pt = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = strcmp(pt[a].created, pt[b].created);

	return c ?: (a > b) - (a < b);
}

/* Applies the permutation ORD (new position i holds old element ord[i]) to N of SIZE at A. */
static int permute(void *a, size_t size, const size_t *ord, size_t n)
{
	char *t = malloc((n ? n : 1) * size);

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		memcpy(t + i * size, (char *)a + ord[i] * size, size);
	memcpy(a, t, n * size);
	free(t);
	return 0;
}

static int reorder(struct series *s, const size_t *ord)
{
	int err = permute(s->pt, sizeof(*s->pt), ord, s->npts);

	for (size_t i = 0; !err && i < s->nfigs; i++)
		for (size_t k = 0; !err && k < NR_RAW; k++)
			err = permute(s->figs[i].raw[k], sizeof(double), ord, s->npts);
	return err;
}

/* Two points with one label: names the one given later (ties sort by index) and the other. */
static int check_labels(const struct series *s, size_t *idx, char *err, size_t errlen)
{
	for (size_t i = 0; i < s->npts; i++)
		idx[i] = i;
	qsort_r(idx, s->npts, sizeof(*idx), cmp_label, s->pt);
	for (size_t i = 1; i < s->npts; i++) {
		const struct series_point *a = &s->pt[idx[i - 1]], *b = &s->pt[idx[i]];

		if (strcmp(a->label, b->label))
			continue;
		snprintf(err, errlen, "%s: label \"%s\" is also the label of %s", b->file, b->label,
			 a->file);
		return -EINVAL;
	}
	return 0;
}

/* The points that have figure G, compacted in place. */
static int compact(const struct series *s, struct series_fig *g)
{
	g->pt = calloc(s->npts + 1, sizeof(*g->pt));
	if (!g->pt)
		return -ENOMEM;
	for (size_t i = 0; i < s->npts; i++) {
		if (isnan(g->raw[0][i]))
			continue;
		g->pt[g->n] = i;
		for (size_t k = 0; k < NR_RAW; k++)
			g->raw[k][g->n] = g->raw[k][i];
		g->n++;
	}
	return 0;
}

/* The figures of two methods leave the series; their lines stay in S->aside. */
static int set_aside(struct series *s)
{
	size_t k = 0;

	for (size_t i = 0; i < s->nfigs; i++) {
		struct series_fig *g = &s->figs[i];
		char **a;

		if (!g->aside) {
			s->figs[k++] = *g;
			continue;
		}
		a = realloc(s->aside, (s->naside + 1) * sizeof(*a));
		if (!a)
			return -ENOMEM;
		s->aside = a;
		a[s->naside++] = g->aside;
		g->aside = NULL;
		series_fig_free(g);
	}
	s->nfigs = k;
	return 0;
}

int series_finish(struct series *s, enum series_order order, char *err, size_t errlen)
{
	size_t *idx = calloc(s->npts + 1, sizeof(*idx));
	int ret;

	if (!idx)
		return -ENOMEM;
	ret = check_labels(s, idx, err, errlen);
	if (!ret && order != SERIES_GIVEN) {
		for (size_t i = 0; i < s->npts; i++)
			idx[i] = i;
		qsort_r(idx, s->npts, sizeof(*idx), order == SERIES_LABEL ? cmp_label : cmp_created,
			s->pt);
		ret = reorder(s, idx);
	}
	free(idx);
	for (size_t i = 0; !ret && i < s->nfigs; i++)
		ret = compact(s, &s->figs[i]);
	return ret ?: set_aside(s);
}

/* A profile figure's ratios between its levels (each > 1), and its floor. */
static void take_levels(struct series_fig *g, const struct noise_fig *nf)
{
	g->floor_pct = nf->floor_pct;
	g->nlevel_ratios = 0;
	for (size_t a = 0; a < nf->nr_levels && a < MODES_MAX; a++)
		for (size_t b = a + 1; b < nf->nr_levels && b < MODES_MAX; b++)
			if (g->nlevel_ratios < TREND_MAX_RATIOS && nf->levels[a].median > 0)
				g->level_ratio[g->nlevel_ratios++] =
					nf->levels[b].median / nf->levels[a].median;
}

void series_use_profile(struct series *s, const struct noise_profile *p)
{
	for (size_t i = 0; i < s->nfigs; i++) {
		struct series_fig *g = &s->figs[i];
		const struct noise_scenario *ns = noise_find(p, g->scenario);

		if (!ns)
			continue;
		if (g->fig != SFIG_PATH)
			take_levels(g, &ns->cycles); /* ns/elem moves with cycles/elem */
		else if (ns->has_path &&
			 (!ns->path_method || path_methods_agree(ns->path_method, g->method)))
			take_levels(g, &ns->path);
	}
}

/* G's level probes in points [A, B), the unprobed left out; how many. */
static size_t probes(const struct series_fig *g, size_t a, size_t b, double *out)
{
	size_t k = 0;

	for (size_t i = a; i < b; i++)
		if (g->probe[i] > 0)
			out[k++] = g->probe[i];
	return k;
}

/*
 * Was step K of G the host's? The level probe over the regimes on either
 * side (Mann-Whitney: its values are coarse, with ties) moved at least
 * LEVEL_NOTE_PCT the way the figure did, at significance ALPHA. A kernel
 * change to page_pool does not move the probe; a host level switch does.
 */
static void host_step(struct series_fig *g, size_t k, double alpha, double *buf)
{
	struct trend_cp *cp = &g->fit.cps[k];
	size_t a = k ? g->fit.cps[k - 1].at : 0;
	size_t b = k + 1 < g->fit.ncps ? g->fit.cps[k + 1].at : g->n;
	size_t na = probes(g, a, cp->at, buf), nb = probes(g, cp->at, b, buf + na);
	struct ttest t;
	double ch;

	if (cp->kind != TREND_STEP || na < 3 || nb < 3 ||
	    mann_whitney_u(buf, na, buf + na, nb, &t) || !t.testable || t.p > alpha)
		return;
	ch = pct_change(median_of(buf, na), median_of(buf + na, nb));
	if (fabs(ch) < LEVEL_NOTE_PCT || (ch > 0) != (cp->change_pct > 0))
		return;
	cp->kind = TREND_HOST;
	cp->alt_pct = ch;
	g->fit.status = TREND_UNSTABLE;
	snprintf(g->fit.reason, sizeof(g->fit.reason),
		 "the change at point %zu (%+.1f%%) came with one of the page_pool-free "
		 "kernel loop (%+.1f%%, p %.2g): the host changed level",
		 cp->at + 1, cp->change_pct, ch, t.p);
}

int series_fit(struct series *s, const struct trend_opts *o)
{
	for (size_t i = 0; i < s->nfigs; i++) {
		struct series_fig *g = &s->figs[i];
		struct trend_opts fo = *o;
		double *buf;
		int err;

		memcpy(fo.level_ratio, g->level_ratio, sizeof(fo.level_ratio));
		fo.nlevel_ratios = g->nlevel_ratios;
		err = trend_fit(g->v, g->n, &fo, &g->fit);
		if (err)
			return err;
		buf = malloc((g->n + 1) * sizeof(*buf));
		if (!buf)
			return -ENOMEM;
		for (size_t k = 0; g->fig != SFIG_PATH && k < g->fit.ncps; k++)
			host_step(g, k, o->alpha, buf);
		free(buf);
	}
	return 0;
}

void series_fig_free(struct series_fig *g)
{
	free(g->scenario);
	free(g->method);
	free(g->aside);
	free(g->pt);
	for (size_t k = 0; k < NR_RAW; k++)
		free(g->raw[k]);
	trend_fit_free(&g->fit);
	memset(g, 0, sizeof(*g));
}

void series_free(struct series *s)
{
	for (size_t i = 0; i < s->npts; i++) {
		free(s->pt[i].file);
		free(s->pt[i].label);
		free(s->pt[i].created);
		free(s->pt[i].kernel);
	}
	for (size_t i = 0; i < s->nfigs; i++)
		series_fig_free(&s->figs[i]);
	for (size_t i = 0; i < s->naside; i++)
		free(s->aside[i]);
	free(s->aside);
	free(s->pt);
	free(s->figs);
	free(s->cpu_model);
	free(s->clock_kind);
	free(s->clock_unit);
	memset(s, 0, sizeof(*s));
}

/* Is CP a change the gate looks at: in the window, up by more than PCT? */
static bool gated_cp(const struct series_fig *g, const struct trend_cp *cp, double pct,
		     size_t first)
{
	if (g->pt[cp->at] < first || !(cp->change_pct > pct))
		return false;
	return cp->kind != TREND_SPREAD; /* the others are named; only steps gate */
}

size_t series_gate(const struct series *s, enum series_figure metric, double pct, size_t window,
		   struct series_hit *hits, size_t max)
{
	size_t first = s->npts > window ? s->npts - window : 0, n = 0;

	for (size_t i = 0; i < s->nfigs; i++) {
		const struct series_fig *g = &s->figs[i];

		if (g->fig != metric)
			continue;
		for (size_t k = 0; k < g->fit.ncps; k++) {
			const struct trend_cp *cp = &g->fit.cps[k];

			if (!gated_cp(g, cp, pct, first))
				continue;
			if (n < max)
				hits[n++] = (struct series_hit){
					.fig = g,
					.cp = cp,
					.unstable = cp->kind != TREND_STEP,
				};
		}
	}
	return n;
}

size_t series_passes(const struct series *s, const struct series_fig *g, double pct, size_t window)
{
	size_t first = s->npts > window ? s->npts - window : 0, upto = g->n, from = 0;

	for (size_t k = 0; k < g->fit.ncps; k++) {
		const struct trend_cp *cp = &g->fit.cps[k];

		if (cp->kind == TREND_STEP && gated_cp(g, cp, pct, first) && cp->at < upto)
			upto = cp->at;
	}
	/* a regression before it: the figure failed there, and counts again from it */
	for (size_t k = 0; k < g->fit.ncps; k++) {
		const struct trend_cp *cp = &g->fit.cps[k];

		if (cp->kind == TREND_STEP && cp->change_pct > pct && cp->at < upto &&
		    cp->at > from)
			from = cp->at;
	}
	return upto - from;
}
