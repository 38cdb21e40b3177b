/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_STATS_H
#define PPBENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Statistics over the repetitions of one figure. Every output is finite:
 * inputs that would produce NaN (empty, non-finite) are refused instead.
 */
struct summary {
	size_t n;
	double min, max, median, mean;
	double stddev; /* sample standard deviation (n - 1); 0 when n == 1 */
	double cv;     /* stddev / |mean|; 0 when the mean is 0 */
};

/* Returns 0, or -EINVAL for n == 0 or a non-finite value, -ENOMEM. */
int summarize(const double *v, size_t n, struct summary *s);

/* Pearson's correlation of X and Y; NAN for n < 3 or a constant side. */
double correlation(const double *x, const double *y, size_t n);

/* qsort(3)'s comparison of doubles, ascending. */
int cmp_double(const void *a, const void *b);
/* Quantile q (0..1) of SORTED values, linear interpolation between ranks. */
double quantile_sorted(const double *sorted, size_t n, double q);
/* The median of V (any order; V is left alone); NAN for n == 0 or no memory. */
double median_of(const double *v, size_t n);
/* First and third quartile of V (any order; V is left alone). 0, -EINVAL, -ENOMEM. */
int quartiles(const double *v, size_t n, double *q1, double *q3);

/* Percent change from OLD to NEW: 0 when equal, +/-INFINITY when only OLD is 0. */
double pct_change(double old, double new);

/* The outcome of a two-sample test (Welch's t or Mann-Whitney U). */
struct ttest {
	bool testable;	 /* false: too few values; p is then 1 and why says so */
	bool exact;	 /* Mann-Whitney: exact distribution, not the normal approximation */
	double stat;	 /* Welch: t (> 0 when b's mean is larger); Mann-Whitney: U of a */
	double df;	 /* Welch: Welch-Satterthwaite degrees of freedom */
	double z;	 /* Mann-Whitney normal approximation: z with continuity correction */
	double p;	 /* two-sided p-value, 0..1 */
	const char *why; /* reason when !testable, else NULL */
};

/*
 * Welch's unequal-variance t-test, two-sided; with no variance at all, equal
 * means give p = 1, others p = 0. 0 (testable or not), or -EINVAL.
 */
int welch_t_test(const double *a, size_t na, const double *b, size_t nb, struct ttest *out);

/*
 * Mann-Whitney U test, two-sided: exact without ties in small samples, else
 * the normal approximation with tie and continuity correction.
 */
int mann_whitney_u(const double *a, size_t na, const double *b, size_t nb, struct ttest *out);

/* Regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1. */
double incbeta_reg(double a, double b, double x);
/* Two-sided tail probability P(|T| >= |t|) of Student's t with df degrees of freedom. */
double student_t_p2(double t, double df);

#endif
