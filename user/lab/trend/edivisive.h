/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_EDIVISIVE_H
#define PPBENCH_EDIVISIVE_H

#include <stddef.h>
#include <stdint.h>

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

#endif
