// SPDX-License-Identifier: GPL-2.0
/*
 * Summary statistics, two-sample tests and the modes of a figure's setups.
 * The Student-t tail comes from the regularized incomplete beta function
 * (its continued fraction, modified Lentz): no statistics library is needed.
 * Setups can land on distinct levels, and a level change between two runs
 * is not a regression: modes are reported, never averaged away.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/spread.h"
#include "model/stats.h"

static bool all_finite(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return false;
	return true;
}

/* Two passes: the second one keeps the variance accurate for large, close values. */
static void mean_var(const double *v, size_t n, double *mean, double *var)
{
	double sum = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	*mean = sum / n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - *mean) * (v[i] - *mean);
	*var = n > 1 ? ss / (n - 1) : 0;
}

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double quantile_sorted(const double *sorted, size_t n, double q)
{
	double pos, frac;
	size_t lo;

	if (!n)
		return 0;
	if (q <= 0)
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];
	pos = q * (n - 1);
	lo = (size_t)pos;
	frac = pos - lo;
	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

static double *sorted_copy(const double *v, size_t n)
{
	double *sorted = malloc(n * sizeof(*sorted));

	if (sorted) {
		memcpy(sorted, v, n * sizeof(*sorted));
		qsort(sorted, n, sizeof(*sorted), cmp_double);
	}
	return sorted;
}

double median_of(const double *v, size_t n)
{
	double *sorted = n ? sorted_copy(v, n) : NULL, m;

	if (!sorted)
		return NAN;
	m = quantile_sorted(sorted, n, 0.5);
	free(sorted);
	return m;
}

int quartiles(const double *v, size_t n, double *q1, double *q3)
{
	double *sorted;

	if (!v || !n || !all_finite(v, n))
		return -EINVAL;
	sorted = sorted_copy(v, n);
	if (!sorted)
		return -ENOMEM;
	*q1 = quantile_sorted(sorted, n, 0.25);
	*q3 = quantile_sorted(sorted, n, 0.75);
	free(sorted);
	return 0;
}

int summarize(const double *v, size_t n, struct summary *s)
{
	double *sorted, var;

	if (!v || !n || !s || !all_finite(v, n))
		return -EINVAL;
	sorted = sorted_copy(v, n);
	if (!sorted)
		return -ENOMEM;
	s->n = n;
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = quantile_sorted(sorted, n, 0.5);
	free(sorted);
	mean_var(v, n, &s->mean, &var);
	s->stddev = sqrt(var);
	s->cv = s->mean != 0 ? s->stddev / fabs(s->mean) : 0;
	return 0;
}

double correlation(const double *x, const double *y, size_t n)
{
	double mx, my, vx, vy, sxy = 0;

	if (n < 3 || !all_finite(x, n) || !all_finite(y, n))
		return NAN;
	mean_var(x, n, &mx, &vx);
	mean_var(y, n, &my, &vy);
	if (vx <= 0 || vy <= 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sxy += (x[i] - mx) * (y[i] - my);
	return sxy / (n - 1) / sqrt(vx * vy);
}

double pct_change(double old, double new)
{
	if (old == new)
		return 0;
	if (old == 0)
		return new > 0 ? INFINITY : -INFINITY;
	return (new - old) / fabs(old) * 100.0;
}

/*
 * Continued fraction of I_x(a, b) (without its prefactor), evaluated with
 * the modified Lentz method; converges fast for x < (a + 1) / (a + b + 2).
 */
static double incbeta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 300; m++) {
		for (int odd = 0; odd < 2; odd++) {
			double coef, delta;

			if (!odd)
				coef = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
			else
				coef = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
			d = 1 + coef * d;
			c = 1 + coef / c;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = fabs(c) < tiny ? tiny : c;
			delta = c * d;
			h *= delta;
			if (odd && fabs(delta - 1) < eps)
				return h;
		}
	}
	return h;
}

double incbeta_reg(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	/* Use the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) where the fraction converges slowly. */
	if (x > (a + 1) / (a + b + 2))
		return 1 - incbeta_reg(b, a, 1 - x);
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	return front * incbeta_cf(a, b, x) / a;
}

double student_t_p2(double t, double df)
{
	double p;

	if (isnan(t) || !(df > 0))
		return 1;
	if (isinf(t))
		return 0;
	p = incbeta_reg(df / 2, 0.5, df / (df + t * t));
	return p < 0 ? 0 : p > 1 ? 1 : p;
}

static int check_samples(const double *a, size_t na, const double *b, size_t nb, struct ttest *out)
{
	if (!out || (na && !a) || (nb && !b) || !all_finite(a, na) || !all_finite(b, nb))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->p = 1;
	if (na < 2 || nb < 2) {
		out->why = "fewer than 2 values on a side";
		return 1;
	}
	out->testable = true;
	return 0;
}

int welch_t_test(const double *a, size_t na, const double *b, size_t nb, struct ttest *out)
{
	double ma, va, mb, vb, sa, sb, se2;
	int err = check_samples(a, na, b, nb, out);

	if (err)
		return err < 0 ? err : 0;
	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	sa = va / na;
	sb = vb / nb;
	se2 = sa + sb;
	if (se2 == 0) {
		/* No noise at all: the means either agree or differ for certain. */
		out->df = na + nb - 2;
		out->stat = ma == mb ? 0 : mb > ma ? INFINITY : -INFINITY;
		out->p = ma == mb ? 1 : 0;
		return 0;
	}
	out->stat = (mb - ma) / sqrt(se2);
	out->df = se2 * se2 / (sa * sa / (na - 1) + sb * sb / (nb - 1));
	out->p = student_t_p2(out->stat, out->df);
	return 0;
}

struct ranked {
	double v;
	int side; /* 0: a, 1: b */
};

static int cmp_ranked(const void *x, const void *y)
{
	return cmp_double(&((const struct ranked *)x)->v, &((const struct ranked *)y)->v);
}

/*
 * Rank the pooled samples (ties get the average rank); returns the rank sum
 * of sample a and, in *ties, the tie term sum(t^3 - t) over groups of ties.
 */
static int rank_sum_a(const double *a, size_t na, const double *b, size_t nb, double *rsum,
		      double *ties)
{
	size_t n = na + nb, i, j;
	struct ranked *r = malloc(n * sizeof(*r));

	if (!r)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		r[i] = i < na ? (struct ranked){ a[i], 0 } : (struct ranked){ b[i - na], 1 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	*rsum = 0;
	*ties = 0;
	for (i = 0; i < n; i = j) {
		double t, avg;

		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		t = j - i;
		avg = (i + 1 + j) / 2.0; /* mean of ranks i+1 .. j */
		*ties += t * t * t - t;
		for (size_t k = i; k < j; k++)
			if (r[k].side == 0)
				*rsum += avg;
	}
	free(r);
	return 0;
}

/*
 * Exact two-sided p for sample sizes na, nb without ties: twice the smaller
 * tail. Counts orderings c(i, j, u), row by row over j: the largest of the
 * i + j values is either from a (it beats all j values of b: c(i-1, j, u-j))
 * or from b (c(i, j-1, u), the row's value before).
 */
static int mwu_exact_p(size_t na, size_t nb, double u, double *p)
{
	size_t umax = na * nb, w = umax + 1, ui = (size_t)u;
	double *c = calloc((na + 1) * w, sizeof(double)), total = 0, lo = 0, hi = 0;

	if (!c)
		return -ENOMEM;
	for (size_t j = 0; j <= nb; j++)
		for (size_t i = 0; i <= na; i++)
			for (size_t k = 0; k <= umax; k++)
				if (i == 0 || j == 0)
					c[i * w + k] = k == 0; /* one ordering, no pairs won */
				else
					c[i * w + k] += k >= j ? c[(i - 1) * w + k - j] : 0;
	for (size_t k = 0; k <= umax; k++) {
		total += c[na * w + k];
		lo += k <= ui ? c[na * w + k] : 0;
		hi += k >= ui ? c[na * w + k] : 0;
	}
	*p = fmin(1.0, 2 * fmin(lo / total, hi / total));
	free(c);
	return 0;
}

/* Exact counts stay exact in a double and cheap to build up to this many values. */
#define MWU_EXACT_MAX 40

int mann_whitney_u(const double *a, size_t na, const double *b, size_t nb, struct ttest *out)
{
	double rsum, ties, mu, var, n = na + nb, dev;
	int err = check_samples(a, na, b, nb, out);

	if (err)
		return err < 0 ? err : 0;
	err = rank_sum_a(a, na, b, nb, &rsum, &ties);
	if (err)
		return err;
	out->stat = rsum - na * (na + 1) / 2.0;
	if (ties == 0 && na + nb <= MWU_EXACT_MAX) {
		out->exact = true;
		return mwu_exact_p(na, nb, out->stat, &out->p);
	}
	mu = na * nb / 2.0;
	var = na * nb / 12.0 * ((n + 1) - ties / (n * (n - 1)));
	if (var <= 0)
		return 0; /* every value tied: no evidence of a difference, p stays 1 */
	dev = fmax(0, fabs(out->stat - mu) - 0.5);
	out->z = copysign(dev / sqrt(var), out->stat - mu);
	out->p = fmin(1.0, erfc(dev / sqrt(var) / M_SQRT2));
	return 0;
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
	s = sorted_copy(v, n);
	if (!s)
		return -ENOMEM;
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
