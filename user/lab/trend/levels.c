// SPDX-License-Identifier: GPL-2.0
/*
 * Host levels of a series: a host may run kernel-side work at speeds far
 * apart, at random, so clusters that alternate in time are levels, compared
 * only within themselves; a gap between before and after is a change's.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "trend/trendfit.h"
#include "model/spread.h"
#include "model/stats.h"

struct lctx {
	const double *x; /* logarithms, in time order */
	size_t n;
	size_t *idx;  /* point indices; a cluster is a range of it, sorted by value */
	double *gaps; /* scratch */
	bool *upper;  /* scratch, per point: above the gap under test */
	int *cluster; /* per point: its cluster */
	size_t nclusters;
	double cap;   /* the widest a cluster may be (logarithms); INFINITY: no bound */
	double ratio; /* the widest ratio between two alternating clusters seen (logarithms) */
};

/* The narrowest gap between levels: bench's mode rule, on logarithms. */
static double gap_floor(const struct lctx *c, size_t lo, size_t hi)
{
	size_t m = hi - lo - 1;

	for (size_t i = 0; i < m; i++)
		c->gaps[i] = c->x[c->idx[lo + i + 1]] - c->x[c->idx[lo + i]];
	return fmax(log1p(MODE_GAP_REL), MODE_GAP_K * median_of(c->gaps, m));
}

/*
 * Do [lo, cut) and [cut, hi) follow one another in time: one cut in time,
 * LEVEL_TEMPORAL_SIDE points a side, puts one before and the other after,
 * but for one point in sixteen (a spike)?
 */
static bool follows_in_time(struct lctx *c, size_t lo, size_t cut, size_t hi)
{
	size_t m = hi - lo, budget = m / 16, up_total = hi - cut, seen = 0, up_before = 0;

	/* a lone point (or two) beyond a gap is a spike, never a change */
	if (cut - lo < LEVEL_TEMPORAL_SIDE + budget || hi - cut < LEVEL_TEMPORAL_SIDE + budget)
		return false;
	for (size_t i = lo; i < hi; i++)
		c->upper[c->idx[i]] = i >= cut;
	/* walk the cluster's points in time order: cut after each one */
	for (size_t t = 0; t < c->n; t++) {
		size_t lo_after, up_after, lo_before;

		if (c->cluster[t] != -2)
			continue;
		seen++;
		up_before += c->upper[t];
		if (seen < LEVEL_TEMPORAL_SIDE || m - seen < LEVEL_TEMPORAL_SIDE)
			continue;
		lo_before = seen - up_before;
		up_after = up_total - up_before;
		lo_after = (m - up_total) - lo_before;
		if (up_before + lo_after <= budget || lo_before + up_after <= budget)
			return true;
	}
	return false;
}

static int cmp_gap_desc(const void *pa, const void *pb, void *ctx)
{
	const struct lctx *c = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	double ga = c->x[c->idx[a + 1]] - c->x[c->idx[a]];
	double gb = c->x[c->idx[b + 1]] - c->x[c->idx[b]];

	return ga > gb ? -1 : ga < gb ? 1 : (a > b) - (a < b);
}

static void mark(struct lctx *c, size_t lo, size_t hi, int v)
{
	for (size_t i = lo; i < hi; i++)
		c->cluster[c->idx[i]] = v;
}

/* Median of the values of [LO, HI) that fall in the time window [T0, T1]; NAN if none. */
static double median_between(struct lctx *c, size_t lo, size_t hi, size_t t0, size_t t1)
{
	size_t m = 0;

	for (size_t i = lo; i < hi; i++)
		if (c->idx[i] >= t0 && c->idx[i] <= t1)
			c->gaps[m++] = c->x[c->idx[i]];
	return median_of(c->gaps, m);
}

/*
 * The ratio (logarithms) of alternating [lo, cut) and [cut, hi): their
 * medians over the time both are seen in, so that what a change brought
 * after one ended does not count; NAN for fewer than LEVEL_MIN_POINTS a side.
 */
static double alt_ratio(struct lctx *c, size_t lo, size_t cut, size_t hi)
{
	size_t f[2] = { c->n, c->n }, l[2] = { 0, 0 }, t0, t1;

	if (cut - lo < LEVEL_MIN_POINTS || hi - cut < LEVEL_MIN_POINTS)
		return NAN;
	for (size_t i = lo; i < hi; i++) {
		size_t t = c->idx[i], s = i >= cut;

		f[s] = t < f[s] ? t : f[s];
		l[s] = t > l[s] ? t : l[s];
	}
	t0 = f[0] > f[1] ? f[0] : f[1];
	t1 = l[0] < l[1] ? l[0] : l[1];
	return median_between(c, cut, hi, t0, t1) - median_between(c, lo, cut, t0, t1);
}

/* The widest gap of [lo, hi) above the noise at which it splits, or 0 for none. */
static size_t pick_cut(struct lctx *c, size_t lo, size_t hi, size_t *cand)
{
	double floor_gap = gap_floor(c, lo, hi);
	size_t ncand = 0;

	for (size_t i = lo; i + 1 < hi; i++)
		if (c->x[c->idx[i + 1]] - c->x[c->idx[i]] > floor_gap)
			cand[ncand++] = i;
	qsort_r(cand, ncand, sizeof(*cand), cmp_gap_desc, c);
	mark(c, lo, hi, -2); /* the points follows_in_time() looks at */
	for (size_t k = 0; k < ncand; k++) {
		double r;

		if (follows_in_time(c, lo, cand[k] + 1, hi))
			continue;
		r = alt_ratio(c, lo, cand[k] + 1, hi);
		/* two levels nearer than half the host's ratio are the noise of one */
		if (isfinite(c->cap) && r < c->cap / 2)
			continue;
		c->ratio = r > c->ratio ? r : c->ratio;
		return cand[k] + 1;
	}
	/* no level is wider than the host's levels are apart: before and after a change */
	if (ncand && c->x[c->idx[hi - 1]] - c->x[c->idx[lo]] > c->cap)
		return cand[0] + 1;
	return 0;
}

/*
 * Splits the value-sorted range [lo, hi) at its widest gap whose sides
 * alternate in time, recursively; a range without one is a cluster, unless
 * it is wider than the cap.
 */
static int split(struct lctx *c, size_t lo, size_t hi)
{
	size_t *cand, cut = 0;
	int err;

	if (hi - lo >= 3) {
		cand = malloc((hi - lo) * sizeof(*cand));
		if (!cand)
			return -ENOMEM;
		cut = pick_cut(c, lo, hi, cand);
		free(cand);
	}
	if (!cut) {
		mark(c, lo, hi, (int)c->nclusters++);
		return 0;
	}
	mark(c, lo, hi, -1);
	err = split(c, lo, cut);
	return err ?: split(c, cut, hi);
}

/* Cluster K as a level (its values, not their logarithms). */
static void fill_level(const struct lctx *c, int k, struct level *l, double *buf)
{
	size_t m = 0;

	for (size_t i = 0; i < c->n; i++)
		if (c->cluster[i] == k)
			buf[m++] = exp(c->x[i]);
	qsort(buf, m, sizeof(*buf), cmp_double);
	*l = (struct level){
		.median = quantile_sorted(buf, m, 0.5), .lo = buf[0], .hi = buf[m - 1], .count = m
	};
}

/* Clusters big enough become levels, numbered from the lowest; the rest outliers. */
static int number_levels(struct lctx *c, int *stratum, struct level_set *out, double *buf)
{
	size_t *count = calloc(2 * (c->nclusters + 1), sizeof(*count)), *id;

	if (!count)
		return -ENOMEM;
	id = count + c->nclusters + 1; /* a cluster's level + 1, 0: none */
	for (size_t i = 0; i < c->n; i++)
		count[c->cluster[i]]++;
	/* the value order of idx[] visits clusters from the lowest up */
	for (size_t i = 0; i < c->n; i++) {
		int k = c->cluster[c->idx[i]];

		if (count[k] < LEVEL_MIN_POINTS || id[k])
			continue;
		if (out->nlevels == LEVELS_MAX) {
			count[k] = 0; /* more levels than kept: its points are outliers */
			continue;
		}
		fill_level(c, k, &out->lv[out->nlevels], buf);
		id[k] = ++out->nlevels;
	}
	for (size_t i = 0; i < c->n; i++) {
		stratum[i] = (int)id[c->cluster[i]] - 1;
		out->noutliers += stratum[i] < 0;
	}
	free(count);
	return 0;
}

int levels_assign(const double *logx, size_t n, double max_ratio, int *stratum,
		  struct level_set *out)
{
	struct lctx c = { .x = logx, .n = n, .cap = INFINITY };
	double *buf;
	int err;

	if (!logx || !stratum || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->ratio = NAN;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(logx[i]))
			return -EINVAL;
	if (!n)
		return 0;
	c.idx = calloc(n, sizeof(*c.idx));
	c.gaps = calloc(2 * n, sizeof(*c.gaps));
	c.upper = calloc(n, sizeof(*c.upper));
	c.cluster = calloc(n, sizeof(*c.cluster));
	buf = c.gaps + n;
	err = -ENOMEM;
	if (c.idx && c.gaps && c.upper && c.cluster) {
		trend_sort_idx(logx, n, c.idx);
		if (max_ratio > 1)
			c.cap = log(max_ratio);
		err = split(&c, 0, n);
		if (!err && !(max_ratio > 1) && c.ratio > 0) {
			/* again, now that the data say how far apart their levels are */
			c.cap = c.ratio;
			c.nclusters = 0;
			err = split(&c, 0, n);
		}
		err = err ?: number_levels(&c, stratum, out, buf);
		if (isfinite(c.cap))
			out->ratio = exp(c.cap);
	}
	free(c.idx);
	free(c.gaps);
	free(c.upper);
	free(c.cluster);
	return err;
}
