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

#endif
