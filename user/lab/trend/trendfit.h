/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_TRENDFIT_H
#define PPBENCH_TRENDFIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The host levels of a series (ppbench-trend(8), Levels): clusters of a
 * figure's values whose members come and go over the series. Pure; works on
 * logarithms, so a gap is a ratio.
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
 * Change points by e-divisive means (Matteson and James, JASA 109(505),
 * 2014) inside strata: only points of one stratum are compared, and the
 * permutation test shuffles them only among their stratum's positions, so
 * moving between strata at random is no change. Stratum -1 (outliers) counts
 * for min_run only. Pure and deterministic: the permutations' generator is
 * seeded by the options and the segment.
 */
struct ediv_opts {
	size_t min_run;	       /* points on each side of a change point, >= 1 */
	double alpha;	       /* a split is kept when its p-value is <= alpha */
	unsigned permutations; /* of the test; p = (exceedances + 1) / (permutations + 1) */
	uint64_t seed;
};

struct ediv_cp {
	size_t at; /* index of the first point after the change */
	double p;  /* its permutation p-value */
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
 * One figure's series (a value per result, in series order): its host
 * levels, its change points and what each one is (ppbench-trend(8)). Pure.
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
	/* a noise profile's ratios between the host's levels (> 1) */
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
