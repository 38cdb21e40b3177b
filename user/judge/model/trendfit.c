// SPDX-License-Identifier: GPL-2.0
/*
 * A figure's series: levels, change points, and for each change point its
 * size, interval and kind. Everything is computed on logarithms, so a shift
 * is a ratio and the same change reads the same on every level.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "judge/model/edivisive.h"
#include "model/spread.h"
#include "model/stats.h"
#include "judge/model/trendfit.h"

void trend_opts_default(struct trend_opts *o)
{
	*o = (struct trend_opts){ .min_run = TREND_MIN_RUN,
				  .alpha = TREND_ALPHA,
				  .permutations = TREND_PERMUTATIONS,
				  .seed = 0x7072656e64ULL };
}

const char *trend_status_name(enum trend_status s)
{
	static const char *const names[] = { "too-few", "stable", "changed", "unstable" };

	return names[s];
}

const char *trend_kind_name(enum trend_kind k)
{
	static const char *const names[] = { "step", "spread", "drift", "unseen", "level" };

	return names[k];
}

/*
 * Sums for the two one-regressor fits of a window, after taking out each
 * level's mean: the step (s = 1 after the change) and the line (s = index).
 */
struct fitsums {
	double yy, ys, ss, yt, tt, st;
	size_t npts, nlv;
};

static void level_means(const double *y, const int *lv, size_t a, size_t b, size_t at, int k,
			double *my, double *ms, double *mt, size_t *cnt)
{
	double sy = 0, ss = 0, st = 0;
	size_t c = 0;

	for (size_t i = a; i < b; i++) {
		if (lv[i] != k)
			continue;
		sy += y[i];
		ss += i >= at;
		st += i;
		c++;
	}
	*cnt = c;
	*my = c ? sy / c : 0;
	*ms = c ? ss / c : 0;
	*mt = c ? st / c : 0;
}

static void window_sums(const double *y, const int *lv, size_t nlevels, size_t a, size_t b,
			size_t at, struct fitsums *f)
{
	memset(f, 0, sizeof(*f));
	for (size_t k = 0; k < nlevels; k++) {
		double my, ms, mt;
		size_t cnt;

		level_means(y, lv, a, b, at, (int)k, &my, &ms, &mt, &cnt);
		if (cnt < 2)
			continue;
		f->nlv++;
		f->npts += cnt;
		for (size_t i = a; i < b; i++) {
			double dy = y[i] - my, ds = (i >= at) - ms, dt = (double)i - mt;

			if (lv[i] != (int)k)
				continue;
			f->yy += dy * dy;
			f->ys += dy * ds;
			f->ss += ds * ds;
			f->yt += dy * dt;
			f->tt += dt * dt;
			f->st += ds * dt;
		}
	}
}

static int side_of(const double *v, const int *lv, size_t a, size_t b, int k, struct trend_side *s,
		   double *buf)
{
	struct summary sum;
	size_t m = 0;

	for (size_t i = a; i < b; i++)
		if (lv[i] == k)
			buf[m++] = v[i];
	memset(s, 0, sizeof(*s));
	if (!m || summarize(buf, m, &sum))
		return -1;
	*s = (struct trend_side){ .n = m,
				  .mean = sum.mean,
				  .median = sum.median,
				  .sd_pct = sum.mean ? 100 * sum.stddev / sum.mean : 0 };
	return 0;
}

/* The LKP-style rows: every level with points on both sides of the change. */
static void level_rows(const double *v, const int *lv, size_t nlevels, size_t a, size_t at,
		       size_t b, struct trend_cp *cp, double *buf)
{
	size_t best_n = 0;

	cp->nlv = 0;
	cp->change_abs = NAN;
	for (size_t k = 0; k < nlevels && cp->nlv < LEVELS_MAX; k++) {
		struct trend_lvchange *r = &cp->lv[cp->nlv];

		if (side_of(v, lv, a, at, (int)k, &r->before, buf) ||
		    side_of(v, lv, at, b, (int)k, &r->after, buf))
			continue;
		r->level = (int)k;
		r->change_pct = pct_change(r->before.mean, r->after.mean);
		if (r->before.n > best_n) {
			best_n = r->before.n;
			cp->change_abs = r->before.median * cp->change_pct / 100;
		}
		cp->nlv++;
	}
}

/*
 * Does the step stay significant next to a straight line through the same
 * points (both in one least-squares fit)? A step does; in a drift the line
 * takes it all. Two-sided t-test of the step's coefficient at 5 %.
 */
static bool step_beyond_line(const struct fitsums *f)
{
	double det = f->ss * f->tt - f->st * f->st, df = (double)f->npts - f->nlv - 2;
	double bs, bt, rss, se;

	if (det <= 1e-12 * f->ss * f->tt || df < 1)
		return true; /* the two cannot be told apart: keep the step */
	bs = (f->ys * f->tt - f->yt * f->st) / det;
	bt = (f->yt * f->ss - f->ys * f->st) / det;
	rss = fmax(0, f->yy - bs * f->ys - bt * f->yt);
	se = sqrt(rss / df * f->tt / det);
	return se == 0 ? bs != 0 : fabs(bs / se) > t_quantile(0.975, df);
}

/* Size, interval and kind of the change at CP->at, from the points in [a, b). */
static void measure(const double *v, const double *y, const int *lv, size_t nlevels, size_t a,
		    size_t b, struct trend_cp *cp, double *buf)
{
	struct fitsums f;
	double shift, rss, se, t, df;

	window_sums(y, lv, nlevels, a, b, cp->at, &f);
	df = (double)f.npts - f.nlv - 1;
	if (f.ss <= 0 || df < 1) {
		cp->kind = TREND_UNSEEN;
		cp->change_pct = cp->lo_pct = cp->hi_pct = NAN;
		level_rows(v, lv, nlevels, a, cp->at, b, cp, buf);
		return;
	}
	shift = f.ys / f.ss;
	rss = fmax(0, f.yy - f.ys * f.ys / f.ss);
	se = sqrt(rss / df / f.ss);
	t = t_quantile(0.975, df);
	cp->change_pct = expm1(shift) * 100;
	cp->lo_pct = expm1(shift - t * se) * 100;
	cp->hi_pct = expm1(shift + t * se) * 100;
	if (cp->lo_pct <= 0 && cp->hi_pct >= 0)
		cp->kind = TREND_SPREAD;
	else if (!step_beyond_line(&f))
		cp->kind = TREND_DRIFT;
	else
		cp->kind = TREND_STEP;
	level_rows(v, lv, nlevels, a, cp->at, b, cp, buf);
}

/* Solves A x = B for N unknowns (A row-major, both overwritten); false if singular. */
static bool solve(double *a, double *b, size_t n)
{
	for (size_t c = 0; c < n; c++) {
		size_t piv = c;

		for (size_t r = c + 1; r < n; r++)
			if (fabs(a[r * n + c]) > fabs(a[piv * n + c]))
				piv = r;
		if (fabs(a[piv * n + c]) < 1e-12)
			return false;
		for (size_t k = 0; k < n; k++) {
			double t = a[c * n + k];

			a[c * n + k] = a[piv * n + k];
			a[piv * n + k] = t;
		}
		double t = b[c];

		b[c] = b[piv];
		b[piv] = t;
		for (size_t r = c + 1; r < n; r++) {
			double m = a[r * n + c] / a[c * n + c];

			for (size_t k = c; k < n; k++)
				a[r * n + k] -= m * a[c * n + k];
			b[r] -= m * b[c];
		}
	}
	for (size_t c = n; c-- > 0;) {
		for (size_t k = c + 1; k < n; k++)
			b[c] -= a[c * n + k] * b[k];
		b[c] /= a[c * n + c];
	}
	return true;
}

#define MAX_STEPS 16

/* Least-squares sums over the whole series, each level's means taken out. */
struct globalsums {
	size_t k, npts, nlv;
	size_t at[MAX_STEPS];
	double xx[MAX_STEPS * MAX_STEPS], xy[MAX_STEPS], yy, ty, tt;
};

static void global_level(const struct trend_fit *f, const double *y, int lv, struct globalsums *g)
{
	double my = 0, mt = 0, mx[MAX_STEPS] = { 0 }, dx[MAX_STEPS];
	size_t cnt = 0;

	for (size_t i = 0; i < f->n; i++) {
		if (f->level[i] != lv)
			continue;
		cnt++;
		my += y[i];
		mt += i;
		for (size_t c = 0; c < g->k; c++)
			mx[c] += i >= g->at[c];
	}
	if (cnt < 2)
		return;
	g->nlv++;
	g->npts += cnt;
	for (size_t i = 0; i < f->n; i++) {
		double dy = y[i] - my / cnt, dt = i - mt / cnt;

		if (f->level[i] != lv)
			continue;
		for (size_t c = 0; c < g->k; c++)
			dx[c] = (i >= g->at[c]) - mx[c] / cnt;
		for (size_t c = 0; c < g->k; c++) {
			g->xy[c] += dx[c] * dy;
			for (size_t d = 0; d < g->k; d++)
				g->xx[c * g->k + d] += dx[c] * dx[d];
		}
		g->yy += dy * dy;
		g->ty += dt * dy;
		g->tt += dt * dt;
	}
}

/*
 * Steps or a line, over the whole series? Least squares with one intercept
 * per level either way: a step at every change point measured as one, or a
 * single straight line. The line wins by the BIC (n ln(RSS/n) + k ln n),
 * ties included: a staircase that follows a line is a drift. Returns the
 * line's slope (per point, in logarithms) when it wins, else NAN.
 */
static double line_beats_steps(const struct trend_fit *f, const double *y)
{
	struct globalsums g = { 0 };
	double rss_s, rss_l, n, bic_s, bic_l;

	for (size_t i = 0; i < f->ncps && g.k < MAX_STEPS; i++)
		if (f->cps[i].kind == TREND_STEP)
			g.at[g.k++] = f->cps[i].at;
	if (!g.k || g.k == MAX_STEPS)
		return NAN;
	for (size_t k = 0; k < f->levels.nlevels; k++)
		global_level(f, y, (int)k, &g);
	n = (double)g.npts - g.nlv;
	if (n <= g.k + 1 || g.tt <= 0)
		return NAN;
	rss_s = g.yy;
	{
		double b[MAX_STEPS], a[MAX_STEPS * MAX_STEPS];

		memcpy(a, g.xx, sizeof(a));
		memcpy(b, g.xy, sizeof(b));
		if (!solve(a, b, g.k))
			return NAN;
		for (size_t c = 0; c < g.k; c++)
			rss_s -= b[c] * g.xy[c];
	}
	rss_l = g.yy - g.ty * g.ty / g.tt;
	bic_s = n * log(fmax(rss_s, 1e-300) / n) + g.k * log(n);
	bic_l = n * log(fmax(rss_l, 1e-300) / n) + log(n);
	return bic_l <= bic_s ? g.ty / g.tt : NAN;
}

/* The steps a line explains as well become one drift: the figure is unstable. */
static void check_drift(struct trend_fit *f, const double *y)
{
	double slope = line_beats_steps(f, y);

	if (isnan(slope))
		return;
	for (size_t i = 0; i < f->ncps; i++)
		if (f->cps[i].kind == TREND_STEP)
			f->cps[i].kind = TREND_DRIFT;
	if (f->status == TREND_UNSTABLE)
		return; /* the reason already given still holds */
	f->status = TREND_UNSTABLE;
	snprintf(f->reason, sizeof(f->reason),
		 "a drift of %+.1f%% over the %zu points: a straight line fits as well as "
		 "the steps",
		 expm1(slope * (f->n - 1)) * 100, f->n);
}

/* Is there a change point within MIN_RUN of AT? */
static bool cp_near(const struct trend_fit *f, size_t at, size_t min_run)
{
	for (size_t i = 0; i < f->ncps; i++)
		if (f->cps[i].at + min_run > at && at + min_run > f->cps[i].at)
			return true;
	return false;
}

static void add_swap(struct trend_fit *f, size_t last, size_t first, int from, int to)
{
	const struct level *a = &f->levels.lv[from], *b = &f->levels.lv[to];
	size_t i = f->ncps, at = (last + 1 + first) / 2;

	while (i && f->cps[i - 1].at > at) {
		f->cps[i] = f->cps[i - 1];
		i--;
	}
	f->cps[i] = (struct trend_cp){ .at = at,
				       .kind = TREND_LEVEL,
				       .p = NAN,
				       .change_pct = pct_change(a->median, b->median),
				       .lo_pct = NAN,
				       .hi_pct = NAN,
				       .change_abs = b->median - a->median };
	f->ncps++;
	snprintf(f->reason, sizeof(f->reason),
		 "level %d (~%.4g) last seen at point %zu, level %d (~%.4g) first at point %zu: "
		 "a change as large as a level ratio (%+.1f%%), or the host's levels",
		 from + 1, a->median, last + 1, to + 1, b->median, first + 1, f->cps[i].change_pct);
}

/*
 * A level that ends for good before another begins: no level sees both
 * sides, so no step is measured there, and a change exactly as large as a
 * ratio between two levels would go unnoticed. It is named (kind 'level',
 * no test), never gated. One such swap, the first, is enough to say so.
 */
static void find_level_swap(struct trend_fit *f, const struct trend_opts *o)
{
	size_t first[LEVELS_MAX], last[LEVELS_MAX], nl = f->levels.nlevels;

	for (size_t k = 0; k < nl; k++) {
		first[k] = f->n;
		last[k] = 0;
	}
	for (size_t i = 0; i < f->n; i++) {
		int k = f->level[i];

		if (k < 0)
			continue;
		if (first[k] == f->n)
			first[k] = i;
		last[k] = i;
	}
	for (size_t a = 0; a < nl; a++) {
		for (size_t b = 0; b < nl; b++) {
			size_t at = last[a] + 1;

			if (a == b || last[a] >= first[b] || at < o->min_run ||
			    f->n - at < o->min_run || cp_near(f, at, o->min_run))
				continue;
			add_swap(f, last[a], first[b], (int)a, (int)b);
			return;
		}
	}
}

/* A step as large as a known ratio between the host's levels could be one it stayed on. */
static void match_levels(struct trend_fit *f, const struct trend_opts *o)
{
	for (size_t i = 0; i < f->ncps; i++) {
		struct trend_cp *cp = &f->cps[i];
		double shift = fabs(log1p(cp->change_pct / 100));

		for (size_t k = 0; cp->kind == TREND_STEP && k < o->nlevel_ratios; k++) {
			double lr = log(o->level_ratio[k]);

			if (lr > 0 && fabs(shift - lr) <= TREND_LEVEL_MATCH * lr)
				cp->kind = TREND_LEVEL;
		}
	}
}

static void set_status(struct trend_fit *f)
{
	f->status = f->ncps ? TREND_CHANGED : TREND_STABLE;
	for (size_t i = 0; i < f->ncps; i++) {
		const struct trend_cp *cp = &f->cps[i];

		if (cp->kind == TREND_DRIFT) {
			f->status = TREND_UNSTABLE;
			snprintf(f->reason, sizeof(f->reason),
				 "a drift (%+.1f%% around point %zu): a line fits as well as a "
				 "step",
				 cp->change_pct, cp->at + 1);
			return;
		}
		if (cp->kind == TREND_LEVEL && isnan(cp->p)) {
			f->status = TREND_UNSTABLE; /* find_level_swap() said why */
			return;
		}
		if (cp->kind == TREND_LEVEL) {
			f->status = TREND_UNSTABLE;
			snprintf(f->reason, sizeof(f->reason),
				 "the change at point %zu (%+.1f%%) is as large as a ratio between "
				 "the host's levels (noise profile): a level it stayed on, or a "
				 "change",
				 cp->at + 1, cp->change_pct);
			return;
		}
		if (cp->kind == TREND_UNSEEN) {
			f->status = TREND_UNSTABLE;
			snprintf(f->reason, sizeof(f->reason),
				 "a change at point %zu that no level sees from both sides",
				 cp->at + 1);
			return;
		}
	}
}

static int find_changes(struct trend_fit *f, const double *v, const double *y,
			const struct trend_opts *o)
{
	struct ediv_opts eo = { .min_run = o->min_run,
				.alpha = o->alpha,
				.permutations = o->permutations,
				.seed = o->seed };
	size_t max = f->n / o->min_run;
	struct ediv_cp *ec = calloc(max + 1, sizeof(*ec));
	double *buf = calloc(f->n, sizeof(*buf));
	int n = -ENOMEM;

	f->cps = calloc(max + 2, sizeof(*f->cps)); /* and a level swap */
	if (ec && buf && f->cps)
		n = ediv_find(y, f->level, f->n, &eo, ec, max);
	for (int i = 0; i < n; i++) {
		size_t a = i ? ec[i - 1].at : 0, b = i + 1 < n ? ec[i + 1].at : f->n;

		f->cps[i] = (struct trend_cp){ .at = ec[i].at, .p = ec[i].p };
		measure(v, y, f->level, f->levels.nlevels, a, b, &f->cps[i], buf);
	}
	f->ncps = n > 0 ? (size_t)n : 0;
	free(ec);
	free(buf);
	return n < 0 ? n : 0;
}

int trend_fit(const double *v, size_t n, const struct trend_opts *o, struct trend_fit *out)
{
	double *y;
	int err;

	memset(out, 0, sizeof(*out));
	if (!v || !o || !o->min_run)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0) || !isfinite(v[i]))
			return -EINVAL;
	out->n = n;
	if (n < 2 * o->min_run) {
		out->status = TREND_TOO_FEW;
		snprintf(out->reason, sizeof(out->reason),
			 "%zu points; change points need %zu (2 x min-run %zu)", n, 2 * o->min_run,
			 o->min_run);
		return 0;
	}
	y = calloc(n, sizeof(*y));
	out->level = calloc(n, sizeof(*out->level));
	err = -ENOMEM;
	if (y && out->level) {
		for (size_t i = 0; i < n; i++)
			y[i] = log(v[i]);
		err = levels_assign(y, n, out->level, &out->levels);
		err = err ?: find_changes(out, v, y, o);
	}
	if (err) {
		free(y);
		trend_fit_free(out);
		return err;
	}
	match_levels(out, o);
	find_level_swap(out, o);
	set_status(out);
	check_drift(out, y);
	free(y);
	return 0;
}

void trend_fit_free(struct trend_fit *f)
{
	free(f->level);
	free(f->cps);
	memset(f, 0, sizeof(*f));
}
