/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_SPREAD_H
#define PPBENCH_SPREAD_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The spread between setups of one figure (model/stats.c): the levels its
 * values cluster at, and the smallest change a comparison could detect.
 */
#define MODES_MAX 4

struct mode {
	double median, lo, hi;
	size_t count;
};

struct modes {
	size_t nr_modes;	  /* clusters of two or more values */
	struct mode m[MODES_MAX]; /* the largest clusters, lowest level first */
	size_t nr_outliers;	  /* values alone in their cluster */
	double outlier[MODES_MAX];
	bool multi; /* two or more modes: the figure is unstable */
};

/*
 * Clusters of V: split at gaps wider than both MODE_GAP_REL of the median
 * and MODE_GAP_K times the median gap (so even noise is never split).
 */
#define MODE_GAP_REL 0.03
#define MODE_GAP_K 5.0
int find_modes(const double *v, size_t n, struct modes *out);

/* Quantile of Student's t with df degrees of freedom, 0.5 <= p < 1. */
double t_quantile(double p, double df);

/*
 * Smallest detectable change, % of the mean, of a two-sided two-sample
 * t-test at level ALPHA with power POWER, for a CV on both sides:
 *   (t(1 - alpha/2, df) + t(power, df)) * cv * sqrt(1/n1 + 1/n2) * 100,
 * df = n1 + n2 - 2. NAN when a side has fewer than 2 values.
 */
double mde_pct(double cv, size_t n1, size_t n2, double alpha, double power);

/* The same from two sides' own CVs: sqrt(cv1^2/n1 + cv2^2/n2). */
double mde2_pct(double cv1, size_t n1, double cv2, size_t n2, double alpha, double power);

#define MDE_ALPHA 0.05
#define MDE_POWER 0.90

#endif
