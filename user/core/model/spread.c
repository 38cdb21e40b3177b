// SPDX-License-Identifier: GPL-2.0
/*
 * Modes and the smallest detectable change of a figure's setups. Setups of
 * one scenario can land on distinct levels (a cross-CPU queue placed well or
 * badly, the page allocator's lists in one state or another), and a level
 * change between two runs is not a regression: modes are reported, never
 * averaged away.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/spread.h"
#include "model/stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A gap wider than the noise between neighbours: a split between levels. */
static double split_gap(const double *sorted, size_t n)
{
	double *gaps, med, mg;

	if (n < 3)
		return INFINITY; /* two values cannot tell two levels from noise */
	gaps = malloc((n - 1) * sizeof(*gaps));
	if (!gaps)
		return NAN;
	for (size_t i = 0; i + 1 < n; i++)
		gaps[i] = sorted[i + 1] - sorted[i];
	mg = median_of(gaps, n - 1);
	free(gaps);
	med = quantile_sorted(sorted, n, 0.5);
	return fmax(MODE_GAP_REL * fabs(med), MODE_GAP_K * mg);
}

static void add_cluster(struct modes *out, const double *sorted, size_t lo, size_t hi)
{
	size_t cnt = hi - lo;

	if (cnt == 1) {
		if (out->nr_outliers < MODES_MAX)
			out->outlier[out->nr_outliers] = sorted[lo];
		out->nr_outliers++;
		return;
	}
	if (out->nr_modes < MODES_MAX)
		out->m[out->nr_modes] =
			(struct mode){ .median = quantile_sorted(sorted + lo, cnt, 0.5),
				       .lo = sorted[lo],
				       .hi = sorted[hi - 1],
				       .count = cnt };
	out->nr_modes++;
}

int find_modes(const double *v, size_t n, struct modes *out)
{
	double *s, gap;
	size_t start = 0;

	if (!v || !n || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	gap = split_gap(s, n);
	if (isnan(gap)) {
		free(s);
		return -ENOMEM;
	}
	for (size_t i = 1; i <= n; i++) {
		if (i < n && s[i] - s[i - 1] <= gap)
			continue;
		add_cluster(out, s, start, i);
		start = i;
	}
	/* Everything alone: one spread-out level, not n outliers. */
	if (!out->nr_modes) {
		memset(out, 0, sizeof(*out));
		add_cluster(out, s, 0, n);
	}
	if (out->nr_modes > MODES_MAX)
		out->nr_modes = MODES_MAX;
	out->multi = out->nr_modes >= 2;
	free(s);
	return 0;
}

double t_quantile(double p, double df)
{
	double lo = 0, hi = 1e6, want = 2 * (1 - p);

	if (!(p >= 0.5 && p < 1) || !(df > 0))
		return NAN;
	/* student_t_p2 falls from 1 (t = 0) towards 0: bisect for the tail. */
	for (int i = 0; i < 200 && hi - lo > 1e-12 * fmax(1, lo); i++) {
		double mid = (lo + hi) / 2;

		if (student_t_p2(mid, df) > want)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double mde2_pct(double cv1, size_t n1, double cv2, size_t n2, double alpha, double power)
{
	double df, k;

	if (n1 < 2 || n2 < 2 || !(alpha > 0 && alpha < 1) || !(power >= 0.5 && power < 1))
		return NAN;
	df = (double)n1 + n2 - 2;
	k = t_quantile(1 - alpha / 2, df) + t_quantile(power, df);
	return k * sqrt(cv1 * cv1 / n1 + cv2 * cv2 / n2) * 100;
}

double mde_pct(double cv, size_t n1, size_t n2, double alpha, double power)
{
	return mde2_pct(cv, n1, cv, n2, alpha, power);
}
