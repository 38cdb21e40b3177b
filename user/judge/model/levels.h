/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_LEVELS_H
#define PPBENCH_LEVELS_H

#include <stddef.h>

/*
 * The host levels of a series: the values a figure takes when the machine
 * runs kernel-side work at one of its speeds. A level is a cluster of values
 * (split at gaps wider than the noise, as bench's modes are) whose members
 * come and go over the series. A gap whose two sides follow one another in
 * time - everything below it first, everything above it after (or the
 * reverse) - is a change, not a level, and does not split. Clusters of fewer
 * than LEVEL_MIN_POINTS values are outliers.
 *
 * Pure: no I/O. Works on the logarithms of the values, so a gap is a ratio.
 */
#define LEVELS_MAX 8
#define LEVEL_MIN_POINTS 3
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
};

/*
 * Assigns each of the N points (logarithms LOGX, in time order) a level:
 * STRATUM[i] is its index in OUT->lv (0: lowest), or -1 for an outlier.
 * 0, or -EINVAL / -ENOMEM.
 */
int levels_assign(const double *logx, size_t n, int *stratum, struct level_set *out);

#endif
