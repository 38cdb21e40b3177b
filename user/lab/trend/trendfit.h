/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_TRENDFIT_H
#define PPBENCH_TRENDFIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The host levels of a series: the values a figure takes when the machine
 * runs kernel-side work at one of its speeds. A level is a cluster of values
 * (split at gaps wider than the noise, as bench's modes are) whose members
 * come and go over the series. A gap whose two sides follow one another in
 * time - everything below it first, everything above it after (or the
 * reverse) - is a change, not a level, and does not split, unless the
 * cluster would be wider than the host's levels are apart: no level is. That
 * bound is the largest ratio between the levels of a noise profile, else the
 * largest ratio between two clusters that alternate in time (their medians
 * over the time both are seen in); two that alternate but are nearer than
 * half of it are one level's noise. Clusters of fewer than LEVEL_MIN_POINTS
 * values are outliers.
 *
 * Pure: no I/O. Works on the logarithms of the values, so a gap is a ratio.
 */
#define LEVELS_MAX 8
#define LEVEL_MIN_POINTS 2
/* Points on each side for a gap to count as a change in time. */
#define LEVEL_TEMPORAL_SIDE 2

struct level {
	double median, lo, hi; /* of the values (not their logarithms) */
	size_t count;
};

struct level_set {
	size_t nlevels;
	struct level lv[LEVELS_MAX]; /* lowest first */
	size_t noutliers;
	double ratio; /* the widest a level may be (max / min), NAN: unbounded */
};

/*
 * Assigns each of the N points (logarithms LOGX, in time order) a level:
 * STRATUM[i] is its index in OUT->lv (0: lowest), or -1 for an outlier.
 * MAX_RATIO (> 1) is the host's widest ratio between levels when a noise
 * profile knows it; otherwise (0) the data's own bounds a level's width.
 * 0, or -EINVAL / -ENOMEM.
 */
int levels_assign(const double *logx, size_t n, double max_ratio, int *stratum,
		  struct level_set *out);
/* IDX[0..N): the indices of X in order of value, ties by index. */
void trend_sort_idx(const double *x, size_t n, size_t *idx);

/*
 * Change points of a series by e-divisive means (Matteson and James, "A
 * Nonparametric Approach for Multiple Change Point Analysis of Multivariate
 * Data", JASA 109(505), 2014): split where the energy distance between the
 * points before and after is largest, keep the split if a permutation test
 * finds it significant, then look again in each part.
 *
 * Stratified: every point belongs to a stratum (a host level), and only
 * points of the same stratum are compared. The statistic of a split is the
 * sum of the strata's statistics, and the permutation test shuffles points
 * only among their stratum's positions, so a series that moves between
 * strata at random has no change point however far apart they are. Points
 * of stratum -1 (outliers) take part in nothing but the min_run counts.
 *
 * Pure: no I/O, no global state; the same input gives the same answer (the
 * permutations come from a generator seeded by the options and the segment).
 */
struct ediv_opts {
	size_t min_run;	       /* points on each side of a change point, >= 1 */
	double alpha;	       /* a split is kept when its p-value is <= alpha */
	unsigned permutations; /* of the test; p = (exceedances + 1) / (permutations + 1) */
	uint64_t seed;
};

struct ediv_cp {
	size_t at;   /* index of the first point after the change */
	double stat; /* the split's statistic (sum over the strata) */
	double p;    /* its permutation p-value */
};

/*
 * The statistic of every split of X[0..N) into x[0..j) and x[j..n):
 * Q[j] = j (n - j) / n * (2/(j (n-j)) sum |a - b| - sum_{a<a'} |a - a'| / C(j, 2)
 *        - sum_{b<b'} |b - b'| / C(n - j, 2)),
 * a term without pairs counting 0, and Q[0] = Q[n] = 0. O(n log n). 0 or -errno.
 */
int ediv_splits(const double *x, size_t n, double *q);

/*
 * Change points of X[0..N) whose strata are STRATUM[0..N) (-1: none), at
 * most MAX of them, in increasing order of position into CPS. Returns their
 * number, or -EINVAL / -ENOMEM.
 */
int ediv_find(const double *x, const int *stratum, size_t n, const struct ediv_opts *o,
	      struct ediv_cp *cps, size_t max);

/*
 * One figure's series (one value per result, in series order): its host
 * levels, its change points and what each one is. Pure: no I/O.
 *
 * The change points come from e-divisive means inside strata (above): a
 * point's stratum is the rank of its level among the levels seen in its
 * regime (between two change points), so a change larger than
 * the levels' spacing still compares the lowest level before with the
 * lowest after. A run of min_run points on none of the levels of the regime
 * before (beyond a prediction interval of its noise) is a change too, at
 * its first point: the search cannot test a new level of one or two points.
 * Each change is measured against the points between its neighbours: the
 * least-squares step of the logarithms with one intercept per stratum, with
 * a t interval. When one side shows fewer levels than the other each
 * placement of it is a reading; readings that disagree in sign, or one that
 * holds 0, make it a 'level', as does a step as large as a ratio between
 * the host's levels where each side shows one level. One straight line that
 * fits the whole series clearly better than its steps (by the BIC) makes
 * them a drift.
 */
#define TREND_MIN_RUN 4
#define TREND_ALPHA 0.01
#define TREND_PERMUTATIONS 499
/* A step within this share of a known level ratio (in logarithms) matches it. */
#define TREND_LEVEL_MATCH 0.2
/* A line is a drift when its BIC beats the steps' by more ("strong", Kass and Raftery 1995). */
#define TREND_DRIFT_BIC 6

#define TREND_MAX_RATIOS 8

struct trend_opts {
	size_t min_run;	       /* points on each side of a change point */
	double alpha;	       /* of the permutation test */
	unsigned permutations; /* of the test */
	uint64_t seed;
	/*
	 * Ratios between the host's levels known from a noise profile (> 1):
	 * the largest bounds a level's width, and a step of about one of them
	 * with one level on each side may be a level the host stayed on.
	 */
	double level_ratio[TREND_MAX_RATIOS];
	size_t nlevel_ratios;
};

enum trend_status {
	TREND_TOO_FEW,	/* fewer than 2 * min_run points */
	TREND_STABLE,	/* no change point */
	TREND_CHANGED,	/* steps only */
	TREND_UNSTABLE, /* a drift, a change no level sees from both sides, or one a level explains
			 */
};

enum trend_kind {
	TREND_STEP,   /* a shift whose interval excludes 0 */
	TREND_SPREAD, /* the distribution changed, the level not significantly */
	TREND_DRIFT,  /* a line fits clearly better than the steps: no single change point */
	TREND_UNSEEN, /* no level has points on both sides: not measurable */
	TREND_LEVEL,  /* readings that disagree, or a step the size of a level ratio */
	TREND_HOST,   /* the page_pool-free kernel loop stepped with it (series.c) */
};

/* One side of a change point inside one stratum. */
struct trend_side {
	size_t n;
	double mean, median, sd_pct; /* sd_pct: sample stddev, % of the mean; 0 for n < 2 */
};

struct trend_lvchange {
	int level; /* index into levels.lv: the stratum's level before the change */
	struct trend_side before, after;
	double change_pct; /* of the means */
};

struct trend_cp {
	size_t at; /* index of the first point after the change */
	enum trend_kind kind;
	double p;	       /* permutation p-value of the split */
	double change_pct;     /* the step, % (e^shift - 1) */
	double lo_pct, hi_pct; /* its 95 % interval */
	double change_abs;     /* in the figure's unit, at the most populated level before */
	double alt_pct;	       /* %: kind level the other reading, host the probe's; NAN */
	size_t nlv;
	struct trend_lvchange lv[LEVELS_MAX];
};

struct trend_fit {
	enum trend_status status;
	char reason[240]; /* why unstable or too few; "" otherwise */
	size_t n;
	struct level_set levels;
	int *level; /* per point: its level, -1 for an outlier */
	struct trend_cp *cps;
	size_t ncps;
};

void trend_opts_default(struct trend_opts *o);
/* Fits V[0..N) (all > 0). 0, or -EINVAL / -ENOMEM (then nothing to free). */
int trend_fit(const double *v, size_t n, const struct trend_opts *o, struct trend_fit *out);
void trend_fit_free(struct trend_fit *f);

const char *trend_status_name(enum trend_status s);
const char *trend_kind_name(enum trend_kind k);

#endif
