// SPDX-License-Identifier: GPL-2.0
/*
 * A figure's levels, change points, and each change's size, interval and
 * kind, on logarithms: a shift is a ratio, the same on every level.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trend/trendfit.h"
#include "model/spread.h"
#include "model/stats.h"

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
	static const char *const names[] = { "step", "spread", "drift", "unseen", "level", "host" };

	return names[k];
}

/* Everything one fit works on. */
struct fitctx {
	const double *v, *y; /* values, their logarithms */
	const int *level;    /* per point: its level, -1 for an outlier */
	int *st;	     /* per point: the rank of its level in its regime, -1: none */
	int *alt;	     /* scratch strata: one reading of a change */
	double *buf;
	size_t n, ns;			 /* points, levels */
	double lr[TREND_MAX_RATIOS + 1]; /* the host's level ratios (logarithms) */
	size_t nlr;
};

/*
 * Strata: each point's level ranked among those seen in its regime (between
 * two of the NB bounds), so that a change moving every level past the next
 * still pairs the lowest before with the lowest after.
 */
static void regime_ranks(struct fitctx *x, const size_t *bound, size_t nb)
{
	for (size_t r = 0, a = 0; r <= nb; r++) {
		size_t b = r < nb ? bound[r] : x->n;
		bool seen[LEVELS_MAX] = { false };
		int rank[LEVELS_MAX], next = 0;

		for (size_t i = a; i < b; i++)
			if (x->level[i] >= 0)
				seen[x->level[i]] = true;
		for (size_t k = 0; k < x->ns; k++)
			rank[k] = seen[k] ? next++ : -1;
		for (size_t i = a; i < b; i++)
			x->st[i] = x->level[i] < 0 ? -1 : rank[x->level[i]];
		a = b;
	}
}

/* Is there a bound within MIN_RUN of AT? */
static bool bound_near(const size_t *bound, size_t nb, size_t at, size_t min_run)
{
	for (size_t i = 0; i < nb; i++)
		if (bound[i] + min_run > at && at + min_run > bound[i])
			return true;
	return false;
}

/*
 * More regimes: where a level ends for good before another begins (a change
 * no level sees from both sides), a bound midway, added to the NB sorted
 * BOUNDs unless one is near; returns the new NB.
 */
static size_t add_swaps(const struct fitctx *x, size_t min_run, size_t *bound, size_t nb,
			size_t max)
{
	size_t first[LEVELS_MAX], last[LEVELS_MAX];

	for (size_t k = 0; k < x->ns; k++) {
		first[k] = x->n;
		last[k] = 0;
	}
	for (size_t i = 0; i < x->n; i++) {
		if (x->level[i] < 0)
			continue;
		if (first[x->level[i]] == x->n)
			first[x->level[i]] = i;
		last[x->level[i]] = i;
	}
	for (size_t b = 0; b < x->ns && nb < max; b++) {
		size_t end = x->n, at, i;

		for (size_t a = 0; a < x->ns; a++)
			if (last[a] < first[b] && (end == x->n || last[a] > end))
				end = last[a];
		at = (end + 1 + first[b]) / 2;
		if (end == x->n || at < min_run || at + min_run > x->n ||
		    bound_near(bound, nb, at, min_run))
			continue;
		for (i = nb++; i && bound[i - 1] > at; i--)
			bound[i] = bound[i - 1];
		bound[i] = at;
	}
	return nb;
}

static bool same_at(const struct ediv_cp *ec, int n, const size_t *bound, size_t nb)
{
	if ((size_t)n != nb)
		return false;
	for (int i = 0; i < n; i++)
		if (ec[i].at != bound[i])
			return false;
	return true;
}

/*
 * Level L's points in [a, b): the mean of their logarithms (NAN if none)
 * and how far from it one of them may still lie: the noise's gap, or twice
 * their standard deviation if that is wider.
 */
static double level_mean(const struct fitctx *x, size_t a, size_t b, int l, double *reach)
{
	double sum = 0, sq = 0, mean;
	size_t m = 0;

	for (size_t i = a; i < b; i++)
		if (x->level[i] == l) {
			sum += x->y[i];
			sq += x->y[i] * x->y[i];
			m++;
		}
	mean = m ? sum / m : NAN;
	*reach = log1p(MODE_GAP_REL);
	if (m > 1)
		*reach = fmax(*reach, 2 * sqrt(fmax(0, (sq - m * mean * mean) / (m - 1))));
	return mean;
}

/*
 * The side point I goes with by its level's points in [a0, b0) and [a1, b1):
 * -1 before, 1 after, 0 if they cannot tell (means within the noise's gap).
 */
static int side_for(const struct fitctx *x, size_t i, size_t a0, size_t b0, size_t a1, size_t b1)
{
	double r0, r1, m0, m1;

	if (x->level[i] < 0)
		return 0;
	m0 = level_mean(x, a0, b0, x->level[i], &r0);
	m1 = level_mean(x, a1, b1, x->level[i], &r1);
	if (isnan(m0) != isnan(m1))
		return isnan(m0) ? fabs(x->y[i] - m1) <= r1 : -(fabs(x->y[i] - m0) <= r0);
	if (isnan(m0) || fabs(m0 - m1) <= log1p(MODE_GAP_REL))
		return 0;
	return fabs(x->y[i] - m0) < fabs(x->y[i] - m1) ? -1 : 1;
}

/*
 * The search compares points of one stratum, so where strata tie it can be
 * a few points off: the change near AT moves, by up to MIN_RUN - 1, to the
 * nearest place with the fewest points on a side their level does not go with.
 */
static size_t place(struct fitctx *x, size_t a, size_t at, size_t b, size_t min_run)
{
	size_t lo = at > a + 2 * min_run - 1 ? at - (min_run - 1) : a + min_run;
	size_t hi = at + 2 * min_run - 1 < b ? at + min_run - 1 : b - min_run, best = at;
	size_t fewest = SIZE_MAX;

	for (size_t i = lo; i < hi; i++)
		x->alt[i] = side_for(x, i, a, lo, hi, b);
	for (size_t t = lo; t <= hi; t++) {
		size_t wrong = 0;

		for (size_t i = lo; i < hi; i++)
			wrong += i < t ? x->alt[i] > 0 : x->alt[i] < 0;
		if (wrong < fewest ||
		    (wrong == fewest && labs((long)t - (long)at) < labs((long)best - (long)at))) {
			fewest = wrong;
			best = t;
		}
	}
	return best;
}

#define MAX_ROUNDS 4

/* Rounds that do not agree (a change point near alpha comes and goes): those both found. */
static int keep_bounds(struct ediv_cp *ec, int n, const size_t *bound, size_t nb)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		for (size_t j = 0; j < nb; j++)
			if (ec[i].at == bound[j]) {
				ec[k++] = ec[i];
				break;
			}
	return k;
}

/*
 * The change points into EC (their number returned): e-divisive means on the
 * strata of the regimes the round before found, until two rounds agree.
 */
static int search(struct fitctx *x, const struct trend_opts *o, struct ediv_cp *ec, size_t *bound,
		  int *prev)
{
	struct ediv_opts eo = { .min_run = o->min_run,
				.alpha = o->alpha,
				.permutations = o->permutations,
				.seed = o->seed };
	size_t max = x->n / o->min_run, nb = 0;
	int n = 0;

	for (int round = 0;; round++) {
		regime_ranks(x, bound, nb);
		if (round && !memcmp(prev, x->st, x->n * sizeof(*prev)))
			return n; /* the same strata: the same change points */
		n = ediv_find(x->y, x->st, x->n, &eo, ec, max);
		if (n < 0)
			return n;
		for (int i = 0; i < n; i++)
			ec[i].at = place(x, i ? ec[i - 1].at : 0, ec[i].at,
					 i + 1 < n ? ec[i + 1].at : x->n, o->min_run);
		if (round && same_at(ec, n, bound, nb))
			return n;
		if (round == MAX_ROUNDS)
			return keep_bounds(ec, n, bound, nb);
		memcpy(prev, x->st, x->n * sizeof(*prev));
		for (int i = 0; i < n; i++)
			bound[i] = ec[i].at;
		nb = round ? (size_t)n : add_swaps(x, o->min_run, bound, n, max);
	}
}

/*
 * Is each of the MIN_RUN points from S beyond the 99 % prediction interval
 * (or the noise's gap) of every level of [a, s)? [a, s) must show two
 * levels: one alone may be the host's other.
 */
static bool run_off_levels(const struct fitctx *x, size_t a, size_t s, size_t min_run)
{
	double mean[LEVELS_MAX] = { 0 }, ss = 0, half;
	size_t cnt[LEVELS_MAX] = { 0 }, seen = 0, m = 0;

	for (size_t i = a; i < s; i++)
		if (x->level[i] >= 0) {
			mean[x->level[i]] += x->y[i];
			cnt[x->level[i]]++;
			m++;
		}
	for (size_t l = 0; l < x->ns; l++)
		if (cnt[l]) {
			mean[l] /= cnt[l];
			seen++;
		}
	for (size_t i = a; i < s; i++)
		if (x->level[i] >= 0)
			ss += pow(x->y[i] - mean[x->level[i]], 2);
	if (seen < 2 || m <= seen)
		return false;
	half = t_quantile(0.995, m - seen) * sqrt(ss / (m - seen));
	for (size_t i = s; i < s + min_run; i++)
		for (size_t l = 0; l < x->ns; l++)
			if (cnt[l] &&
			    fabs(x->y[i] - mean[l]) <=
				    fmax(log1p(MODE_GAP_REL), half * sqrt(1 + 1.0 / cnt[l])))
				return false;
	return true;
}

/*
 * More change points, which the search misses when a new level's points are
 * too few to test: a run of MIN_RUN points on none of the levels of the 2 x
 * MIN_RUN before. Inserts them (p NAN) into the N sorted EC; the new N.
 */
static int add_runs(const struct fitctx *x, size_t min_run, struct ediv_cp *ec, int n, size_t max)
{
	for (int i = 0; i <= n && (size_t)n < max; i++) {
		size_t a = i ? ec[i - 1].at : 0, b = i < n ? ec[i].at : x->n;

		for (size_t s = a + 2 * min_run; s + min_run <= b; s++) {
			if (!run_off_levels(x, a, s, min_run))
				continue;
			memmove(ec + i + 1, ec + i, (n - i) * sizeof(*ec));
			ec[i] = (struct ediv_cp){ .at = s, .p = NAN };
			n++;
			break;
		}
	}
	return n;
}

/* One reading of a change: its shift (logarithms), standard error, degrees of freedom. */
struct reading {
	double s, se, df;
	size_t off; /* points of the side with fewer levels that sit on no level of the other */
};

/*
 * The step at AT in [a, b) by least squares of y on s (1 from AT on), one
 * intercept per stratum (its means taken out); false if unseen.
 */
static bool fit_step(const double *y, const int *st, size_t ns, size_t a, size_t at, size_t b,
		     struct reading *r)
{
	double yy = 0, ys = 0, ss = 0;
	size_t npts = 0, nst = 0;

	for (size_t k = 0; k < ns; k++) {
		double sy = 0, my, ms;
		size_t c = 0, after = 0;

		for (size_t i = a; i < b; i++) {
			if (st[i] != (int)k)
				continue;
			sy += y[i];
			after += i >= at;
			c++;
		}
		if (c < 2)
			continue;
		my = sy / c;
		ms = (double)after / c;
		nst++;
		npts += c;
		for (size_t i = a; i < b; i++) {
			double dy = y[i] - my, ds = (i >= at) - ms;

			if (st[i] != (int)k)
				continue;
			yy += dy * dy;
			ys += dy * ds;
			ss += ds * ds;
		}
	}
	r->df = (double)npts - nst - 1;
	if (ss <= 0 || r->df < 1)
		return false;
	r->s = ys / ss;
	r->se = sqrt(fmax(0, yy - ys * ys / ss) / r->df / ss);
	return true;
}

static int side_of(const double *v, const int *st, size_t a, size_t b, int k, struct trend_side *s,
		   double *buf)
{
	struct summary sum;
	size_t m = 0;

	for (size_t i = a; i < b; i++)
		if (st[i] == k)
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

/* The LKP-style rows: every stratum of X->alt with points on both sides of the change. */
static void level_rows(const struct fitctx *x, size_t a, size_t b, struct trend_cp *cp)
{
	size_t best_n = 0;

	cp->nlv = 0;
	cp->change_abs = NAN;
	for (size_t k = 0; k < x->ns && cp->nlv < LEVELS_MAX; k++) {
		struct trend_lvchange *r = &cp->lv[cp->nlv];

		if (side_of(x->v, x->alt, a, cp->at, (int)k, &r->before, x->buf) ||
		    side_of(x->v, x->alt, cp->at, b, (int)k, &r->after, x->buf))
			continue;
		for (size_t i = cp->at; i-- > a;)
			if (x->alt[i] == (int)k) {
				r->level = x->level[i]; /* a regime's rank is one level */
				break;
			}
		r->change_pct = pct_change(r->before.mean, r->after.mean);
		if (r->before.n > best_n) {
			best_n = r->before.n;
			cp->change_abs = r->before.median * cp->change_pct / 100;
		}
		cp->nlv++;
	}
}

/* Ranks seen in [a, b): a regime's are 0 up. */
static size_t nranks(const int *st, size_t a, size_t b)
{
	int top = -1;

	for (size_t i = a; i < b; i++)
		top = st[i] > top ? st[i] : top;
	return (size_t)(top + 1);
}

/* Reading J: the side with fewer levels (after, if AFTER_FEWER) sits J ranks up. */
static void set_reading(struct fitctx *x, size_t a, size_t at, size_t b, bool after_fewer, size_t j)
{
	for (size_t i = a; i < b; i++)
		x->alt[i] =
			x->st[i] >= 0 && (i >= at) == after_fewer ? x->st[i] + (int)j : x->st[i];
}

/*
 * The points of the side with fewer levels that, shift S taken out, sit
 * farther than a quarter of the levels' spacing from each of the other's.
 */
static size_t off_levels(const struct fitctx *x, size_t a, size_t at, size_t b, bool after_fewer,
			 double s)
{
	size_t ma = after_fewer ? a : at, mb = after_fewer ? at : b, m = nranks(x->st, ma, mb);
	double c[LEVELS_MAX] = { 0 }, tol = INFINITY;
	size_t cnt[LEVELS_MAX] = { 0 }, off = 0;

	for (size_t i = ma; i < mb; i++)
		if (x->st[i] >= 0) {
			c[x->st[i]] += x->y[i];
			cnt[x->st[i]]++;
		}
	for (size_t k = 0; k < m; k++)
		c[k] /= cnt[k] ? cnt[k] : 1;
	for (size_t k = 0; k + 1 < m; k++)
		tol = fmin(tol, (c[k + 1] - c[k]) / 4);
	for (size_t i = after_fewer ? at : a; i < (after_fewer ? b : at); i++) {
		double yi = x->y[i] + (after_fewer ? -s : s), d = INFINITY;

		for (size_t k = 0; k < m; k++)
			d = fmin(d, fabs(yi - c[k]));
		off += d > tol;
	}
	return off;
}

/* A reading that cannot tell its change from none. */
static bool holds_zero(const struct reading *r)
{
	return fabs(r->s) <= t_quantile(0.975, r->df) * r->se;
}

/*
 * The change at CP->at in [a, b). Where one side shows fewer levels, each
 * placement of it is a reading; of those leaving the fewest points off
 * levels, the smallest shift, or the rise if they differ in sign (its strata
 * in X->alt). 1 for one level a side, -1 if no level sees both sides;
 * AMBIGUOUS when a kept reading holds 0.
 */
static int pick_reading(struct fitctx *x, size_t a, size_t b, struct trend_cp *cp, bool *ambiguous)
{
	size_t at = cp->at, kb = nranks(x->st, a, at), ka = nranks(x->st, at, b);
	size_t nr = (kb > ka ? kb - ka : ka - kb) + 1, fewest = SIZE_MAX;
	struct reading r[LEVELS_MAX + 1];
	int best = -1;

	for (size_t j = 0; j < nr && j <= LEVELS_MAX; j++) {
		set_reading(x, a, at, b, ka < kb, j);
		if (!fit_step(x->y, x->alt, x->ns, a, at, b, &r[j]))
			return -1;
		r[j].off = nr > 1 ? off_levels(x, a, at, b, ka < kb, r[j].s) : 0;
		fewest = r[j].off < fewest ? r[j].off : fewest;
	}
	*ambiguous = false;
	cp->alt_pct = NAN;
	for (size_t j = 0; j < nr && j <= LEVELS_MAX; j++)
		if (r[j].off == fewest && (best < 0 || fabs(r[j].s) < fabs(r[best].s)))
			best = (int)j;
	for (size_t j = 0; j < nr && j <= LEVELS_MAX; j++) {
		if (r[j].off != fewest || (int)j == best)
			continue;
		*ambiguous |= holds_zero(&r[j]) || holds_zero(&r[best]);
		/* a rise or a fall, either way a change: the gate sees the rise */
		if ((r[j].s > 0) != (r[best].s > 0) && r[j].s > r[best].s) {
			cp->alt_pct = expm1(r[best].s) * 100;
			best = (int)j;
		} else {
			cp->alt_pct = expm1(r[j].s) * 100;
		}
	}
	set_reading(x, a, at, b, ka < kb, best);
	if (isnan(cp->p)) /* a run's: no permutation test, its step's t test */
		cp->p = student_t_p2(r[best].s / r[best].se, r[best].df);
	cp->change_pct = expm1(r[best].s) * 100;
	cp->lo_pct = expm1(r[best].s - t_quantile(0.975, r[best].df) * r[best].se) * 100;
	cp->hi_pct = expm1(r[best].s + t_quantile(0.975, r[best].df) * r[best].se) * 100;
	return kb == 1 && ka == 1 ? 1 : 0;
}

/* Size, interval and kind of the change at CP->at, from the points in [a, b). */
static void measure(struct fitctx *x, size_t a, size_t b, struct trend_cp *cp)
{
	bool ambiguous;
	int one_each = pick_reading(x, a, b, cp, &ambiguous);

	if (one_each < 0) {
		cp->kind = TREND_UNSEEN;
		cp->change_pct = cp->lo_pct = cp->hi_pct = cp->alt_pct = NAN;
		set_reading(x, a, cp->at, b, false, 0);
		level_rows(x, a, b, cp);
		return;
	}
	if (ambiguous)
		cp->kind = TREND_LEVEL;
	else if (cp->lo_pct <= 0 && cp->hi_pct >= 0)
		cp->kind = TREND_SPREAD;
	else
		cp->kind = TREND_STEP;
	for (size_t k = 0; one_each && cp->kind == TREND_STEP && k < x->nlr; k++)
		if (fabs(fabs(log1p(cp->change_pct / 100)) - x->lr[k]) <=
		    TREND_LEVEL_MATCH * x->lr[k])
			cp->kind = TREND_LEVEL;
	level_rows(x, a, b, cp);
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
 * Steps or a line? Least squares with an intercept per level, a step at each
 * change point or one line: the line's slope (per point, logarithms) if its
 * BIC is lower by more than TREND_DRIFT_BIC (*BY), so a staircase that
 * merely follows a line stays steps; else NAN.
 */
static double line_beats_steps(const struct trend_fit *f, const double *y, double *by)
{
	struct globalsums g = { 0 };
	double rss_s, rss_l, n, b[MAX_STEPS], a[MAX_STEPS * MAX_STEPS];

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
	memcpy(a, g.xx, sizeof(a));
	memcpy(b, g.xy, sizeof(b));
	if (!solve(a, b, g.k))
		return NAN;
	for (size_t c = 0; c < g.k; c++)
		rss_s -= b[c] * g.xy[c];
	rss_l = g.yy - g.ty * g.ty / g.tt;
	*by = n * log(fmax(rss_s, 1e-300) / fmax(rss_l, 1e-300)) + (g.k - 1.0) * log(n);
	return *by > TREND_DRIFT_BIC ? g.ty / g.tt : NAN;
}

/* The steps a line explains clearly better become one drift: the figure is unstable. */
static void check_drift(struct trend_fit *f, const double *y)
{
	double by, slope = line_beats_steps(f, y, &by);

	if (isnan(slope))
		return;
	for (size_t i = 0; i < f->ncps; i++)
		if (f->cps[i].kind == TREND_STEP)
			f->cps[i].kind = TREND_DRIFT;
	if (f->status == TREND_UNSTABLE)
		return; /* the reason already given still holds */
	f->status = TREND_UNSTABLE;
	snprintf(f->reason, sizeof(f->reason),
		 "a drift of %+.1f%% over the %zu points: a straight line fits clearly better "
		 "than the steps (BIC lower by %.1f)",
		 expm1(slope * (f->n - 1)) * 100, f->n, by);
}

static void set_status(struct trend_fit *f)
{
	f->status = f->ncps ? TREND_CHANGED : TREND_STABLE;
	for (size_t i = 0; i < f->ncps; i++) {
		const struct trend_cp *cp = &f->cps[i];

		if (cp->kind == TREND_LEVEL && isfinite(cp->alt_pct))
			snprintf(f->reason, sizeof(f->reason),
				 "the change at point %zu is %+.1f%% or %+.1f%%: one side shows "
				 "fewer of the host's levels, and which it sat on is not known",
				 cp->at + 1, cp->change_pct, cp->alt_pct);
		else if (cp->kind == TREND_LEVEL)
			snprintf(f->reason, sizeof(f->reason),
				 "the change at point %zu (%+.1f%%) is as large as a ratio between "
				 "the host's levels: a level it stayed on, or a change",
				 cp->at + 1, cp->change_pct);
		else if (cp->kind == TREND_UNSEEN)
			snprintf(f->reason, sizeof(f->reason),
				 "a change at point %zu that no level sees from both sides",
				 cp->at + 1);
		else
			continue;
		f->status = TREND_UNSTABLE;
		return;
	}
}

static int find_changes(struct trend_fit *f, struct fitctx *x, const struct trend_opts *o)
{
	size_t max = f->n / o->min_run;
	struct ediv_cp *ec = calloc(max + 1, sizeof(*ec));
	size_t *bound = calloc(max + 1, sizeof(*bound));
	int *prev = calloc(f->n, sizeof(*prev)), n = -ENOMEM;

	f->cps = calloc(max + 1, sizeof(*f->cps));
	if (ec && bound && prev && f->cps)
		n = search(x, o, ec, bound, prev);
	if (n >= 0)
		n = add_runs(x, o->min_run, ec, n, max);
	for (int i = 0; i < n; i++)
		bound[i] = ec[i].at;
	if (n >= 0)
		regime_ranks(x, bound, n); /* the strata of the regimes found */
	for (int i = 0; i < n; i++) {
		size_t a = i ? ec[i - 1].at : 0, b = i + 1 < n ? ec[i + 1].at : f->n;

		f->cps[i] = (struct trend_cp){ .at = ec[i].at, .p = ec[i].p };
		measure(x, a, b, &f->cps[i]);
	}
	f->ncps = n > 0 ? (size_t)n : 0;
	free(ec);
	free(bound);
	free(prev);
	return n < 0 ? n : 0;
}

/* Levels, change points, status: the fit of X (allocated, X->y filled). */
static int fit_levels_and_changes(struct trend_fit *f, struct fitctx *x, const struct trend_opts *o)
{
	double cap = 0;
	int err;

	for (size_t k = 0; k < o->nlevel_ratios; k++) {
		cap = fmax(cap, o->level_ratio[k]);
		if (o->level_ratio[k] > 1)
			x->lr[x->nlr++] = log(o->level_ratio[k]);
	}
	err = levels_assign(x->y, x->n, cap, f->level, &f->levels);
	if (err)
		return err;
	if (!x->nlr && isfinite(f->levels.ratio))
		x->lr[x->nlr++] = log(f->levels.ratio);
	x->level = f->level;
	x->ns = f->levels.nlevels;
	err = find_changes(f, x, o);
	if (err)
		return err;
	set_status(f);
	check_drift(f, x->y);
	return 0;
}

int trend_fit(const double *v, size_t n, const struct trend_opts *o, struct trend_fit *out)
{
	struct fitctx x = { .v = v, .n = n };
	double *y;
	int err = -ENOMEM;

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
	x.y = y = calloc(2 * n, sizeof(*y)); /* and x.buf */
	x.st = calloc(2 * n, sizeof(*x.st)); /* and x.alt */
	out->level = calloc(n, sizeof(*out->level));
	if (y && x.st && out->level) {
		x.buf = y + n;
		x.alt = x.st + n;
		for (size_t i = 0; i < n; i++)
			y[i] = log(v[i]);
		err = fit_levels_and_changes(out, &x, o);
	}
	free(y);
	free(x.st);
	if (err)
		trend_fit_free(out);
	return err;
}

void trend_fit_free(struct trend_fit *f)
{
	free(f->level);
	free(f->cps);
	memset(f, 0, sizeof(*f));
}
