// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics against values worked out by hand or read from printed tables
 * (Student-t critical values, Mann-Whitney U tables); the closed forms of the
 * t distribution for 1 and 2 degrees of freedom pin the incomplete beta.
 */
#include <errno.h>
#include <math.h>
#include "model/stats.h"
#include "unit.h"

void test_stats_summary(void)
{
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct summary s;

	if (!ASSERT_OK(summarize(v, 8, &s), "summarize"))
		return;
	ASSERT_EQ(s.n, 8, "n");
	ASSERT_NEAR(s.min, 2, 0, "min");
	ASSERT_NEAR(s.max, 9, 0, "max");
	ASSERT_NEAR(s.median, 4.5, 1e-12, "median of an even count");
	ASSERT_NEAR(s.mean, 5, 1e-12, "mean");
	/* sum of squared deviations 32, over n - 1 = 7 */
	ASSERT_NEAR(s.stddev, sqrt(32.0 / 7), 1e-12, "sample stddev");
	ASSERT_NEAR(s.cv, sqrt(32.0 / 7) / 5, 1e-12, "cv");
}

void test_stats_summary_odd_unsorted(void)
{
	const double v[] = { 30, 10, 20 };
	struct summary s;

	if (!ASSERT_OK(summarize(v, 3, &s), "summarize"))
		return;
	ASSERT_NEAR(s.median, 20, 0, "median");
	ASSERT_NEAR(s.stddev, 10, 1e-12, "stddev");
	ASSERT_NEAR(v[0], 30, 0, "input left unsorted");
}

void test_stats_summary_n1_and_zero(void)
{
	const double one = 42, zeros[] = { 0, 0, 0 }, bad[] = { 1, NAN };
	struct summary s;

	if (!ASSERT_OK(summarize(&one, 1, &s), "n=1"))
		return;
	ASSERT_NEAR(s.stddev, 0, 0, "n=1 stddev");
	ASSERT_NEAR(s.cv, 0, 0, "n=1 cv");
	ASSERT_NEAR(s.median, 42, 0, "n=1 median");
	ASSERT_OK(summarize(zeros, 3, &s), "zeros");
	ASSERT_TRUE(isfinite(s.cv) && s.cv == 0, "cv of a zero mean is 0, not NaN");
	ASSERT_EQ(summarize(&one, 0, &s), -EINVAL, "n=0");
	ASSERT_EQ(summarize(bad, 2, &s), -EINVAL, "NaN input refused");
}

void test_stats_quantile(void)
{
	const double v[] = { 1, 2, 3, 4, 5 };

	ASSERT_NEAR(quantile_sorted(v, 5, 0.25), 2, 1e-12, "q1");
	ASSERT_NEAR(quantile_sorted(v, 5, 0.75), 4, 1e-12, "q3");
	ASSERT_NEAR(quantile_sorted(v, 4, 0.5), 2.5, 1e-12, "interpolated");
	ASSERT_NEAR(quantile_sorted(v, 5, 0), 1, 0, "q0");
	ASSERT_NEAR(quantile_sorted(v, 5, 1), 5, 0, "q100");
}

void test_stats_quartiles(void)
{
	const double v[] = { 5, 1, 4, 2, 3 }, one = 7;
	double q1, q3;

	ASSERT_OK(quartiles(v, 5, &q1, &q3), "quartiles");
	ASSERT_NEAR(q1, 2, 1e-12, "q1 of unsorted input");
	ASSERT_NEAR(q3, 4, 1e-12, "q3 of unsorted input");
	ASSERT_NEAR(v[0], 5, 0, "input left alone");
	ASSERT_OK(quartiles(&one, 1, &q1, &q3), "n=1");
	ASSERT_TRUE(q1 == 7 && q3 == 7, "n=1 quartiles");
	ASSERT_ERR(quartiles(v, 0, &q1, &q3), "n=0");
}

void test_stats_pct_change(void)
{
	ASSERT_NEAR(pct_change(100, 110), 10, 1e-12, "+10%");
	ASSERT_NEAR(pct_change(200, 190), -5, 1e-12, "-5%");
	ASSERT_NEAR(pct_change(-50, -25), 50, 1e-12, "negative base");
	ASSERT_NEAR(pct_change(0, 0), 0, 0, "0 -> 0");
	ASSERT_TRUE(isinf(pct_change(0, 3)) && pct_change(0, 3) > 0, "0 -> 3 is +inf");
	ASSERT_FALSE(isnan(pct_change(0, -3)), "0 -> -3 is not NaN");
}

void test_stats_incbeta(void)
{
	ASSERT_NEAR(incbeta_reg(1, 1, 0.3), 0.3, 1e-12, "I_x(1,1) = x");
	ASSERT_NEAR(incbeta_reg(2, 1, 0.6), 0.36, 1e-12, "I_x(2,1) = x^2");
	ASSERT_NEAR(incbeta_reg(1, 4, 0.3), 1 - pow(0.7, 4), 1e-12, "I_x(1,b) = 1-(1-x)^b");
	ASSERT_NEAR(incbeta_reg(3, 3, 0.5), 0.5, 1e-12, "symmetric");
	ASSERT_NEAR(incbeta_reg(2.5, 0.5, 0), 0, 0, "x=0");
	ASSERT_NEAR(incbeta_reg(2.5, 0.5, 1), 1, 0, "x=1");
}

void test_stats_student_t(void)
{
	/* df = 1 (Cauchy): P(|T| > t) = 1 - 2 atan(t) / pi */
	ASSERT_NEAR(student_t_p2(1, 1), 0.5, 1e-12, "df=1 t=1");
	ASSERT_NEAR(student_t_p2(3, 1), 1 - 2 * atan(3) / M_PI, 1e-12, "df=1 t=3");
	/* df = 2: P(|T| > t) = 1 - t / sqrt(2 + t^2) */
	ASSERT_NEAR(student_t_p2(2, 2), 1 - 2 / sqrt(6), 1e-12, "df=2 t=2");
	/* printed two-sided critical values */
	ASSERT_NEAR(student_t_p2(2.228, 10), 0.05, 2e-4, "t(0.05, 10) = 2.228");
	ASSERT_NEAR(student_t_p2(4.604, 4), 0.01, 2e-5, "t(0.01, 4) = 4.604");
	ASSERT_NEAR(student_t_p2(2.042, 30), 0.05, 2e-4, "t(0.05, 30) = 2.042");
	ASSERT_NEAR(student_t_p2(1.96, 1e7), 0.05, 2e-4, "large df is normal");
	ASSERT_NEAR(student_t_p2(-2.228, 10), student_t_p2(2.228, 10), 1e-15, "two-sided");
	ASSERT_NEAR(student_t_p2(0, 5), 1, 1e-12, "t=0");
	ASSERT_NEAR(student_t_p2(INFINITY, 5), 0, 0, "t=inf");
}

void test_stats_welch(void)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 4, 5, 6, 7 };
	const double c[] = { 0, 2 }, d[] = { 3, 5 };
	const double e[] = { 10, 12, 14 }, f[] = { 20, 30, 25, 25 };
	struct ttest t;

	/* equal variances 2.5: se = 1, t = 2, df = 8; p by numerical integration */
	ASSERT_OK(welch_t_test(a, 5, b, 5, &t), "welch a b");
	ASSERT_TRUE(t.testable, "testable");
	ASSERT_NEAR(t.stat, 2, 1e-12, "t");
	ASSERT_NEAR(t.df, 8, 1e-12, "df");
	ASSERT_NEAR(t.p, 0.0805162, 1e-6, "p");
	/* df = 2 exactly, so the closed form applies: t = 3/sqrt(2) */
	ASSERT_OK(welch_t_test(c, 2, d, 2, &t), "welch c d");
	ASSERT_NEAR(t.df, 2, 1e-12, "df=2");
	ASSERT_NEAR(t.p, 1 - sqrt(4.5 / 6.5), 1e-12, "p df=2");
	/* unequal variances 4 and 16.67: t = 13/sqrt(5.5), df = 4.5312 */
	ASSERT_OK(welch_t_test(e, 3, f, 4, &t), "welch e f");
	ASSERT_NEAR(t.stat, 13 / sqrt(5.5), 1e-12, "t unequal");
	ASSERT_NEAR(t.df, 4.531207, 1e-6, "Welch-Satterthwaite df");
	ASSERT_NEAR(t.p, 0.0035623, 1e-6, "p unequal");
	ASSERT_OK(welch_t_test(b, 5, a, 5, &t), "welch b a");
	ASSERT_NEAR(t.stat, -2, 1e-12, "sign follows b - a");
}

void test_stats_welch_degenerate(void)
{
	const double same[] = { 5, 5, 5 }, other[] = { 6, 6, 6 }, one = 5, bad[] = { 1, INFINITY };
	struct ttest t;

	ASSERT_OK(welch_t_test(same, 3, same, 3, &t), "identical constants");
	ASSERT_TRUE(t.testable && t.p == 1, "zero variance, same mean: p = 1");
	ASSERT_OK(welch_t_test(same, 3, other, 3, &t), "different constants");
	ASSERT_TRUE(t.testable && t.p == 0, "zero variance, different means: p = 0");
	ASSERT_OK(welch_t_test(same, 3, &one, 1, &t), "n=1");
	ASSERT_FALSE(t.testable, "n=1 is not testable");
	ASSERT_TRUE(t.p == 1 && t.why && !isnan(t.stat), "untestable: p 1, a reason, no NaN");
	ASSERT_EQ(welch_t_test(bad, 2, same, 3, &t), -EINVAL, "infinite input");
}

void test_stats_mann_whitney_exact(void)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	const double c[] = { 1, 2, 3, 5 }, d[] = { 4, 6, 7, 8 };
	struct ttest t;

	ASSERT_OK(mann_whitney_u(a, 5, b, 5, &t), "complete separation");
	ASSERT_TRUE(t.testable && t.exact, "exact");
	ASSERT_NEAR(t.stat, 0, 0, "U");
	ASSERT_NEAR(t.p, 2.0 / 252, 1e-12, "p = 2 / C(10,5)");
	ASSERT_OK(mann_whitney_u(b, 5, a, 5, &t), "reversed");
	ASSERT_NEAR(t.stat, 25, 0, "U reversed");
	ASSERT_NEAR(t.p, 2.0 / 252, 1e-12, "p reversed");
	/* n = 4, 4: P(U <= 1) = 2/70 (table value 0.029) */
	ASSERT_OK(mann_whitney_u(c, 4, d, 4, &t), "U=1");
	ASSERT_NEAR(t.stat, 1, 0, "U=1");
	ASSERT_NEAR(t.p, 4.0 / 70, 1e-12, "p U=1");
}

void test_stats_mann_whitney_ties(void)
{
	const double a[] = { 1, 2, 2, 3, 4 }, b[] = { 2, 3, 5, 6, 7 }, k[] = { 3, 3, 3 };
	struct ttest t;

	/* ranks of a: 1, 3, 3, 5.5, 7 -> U = 4.5; tie term 24 + 6; var = 200/9 */
	ASSERT_OK(mann_whitney_u(a, 5, b, 5, &t), "ties");
	ASSERT_FALSE(t.exact, "normal approximation");
	ASSERT_NEAR(t.stat, 4.5, 1e-12, "U");
	ASSERT_NEAR(t.z, -7.5 / sqrt(200.0 / 9), 1e-12, "z with continuity correction");
	ASSERT_NEAR(t.p, 0.1116118, 1e-6, "p");
	ASSERT_OK(mann_whitney_u(k, 3, k, 3, &t), "all tied");
	ASSERT_TRUE(t.p == 1 && !isnan(t.z), "all tied: p 1");
	ASSERT_OK(mann_whitney_u(k, 1, k, 3, &t), "n=1");
	ASSERT_FALSE(t.testable, "n=1 untestable");
}

void test_correlation(void)
{
	const double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 6, 8, 10 }, z[] = { 5, 4, 3, 2, 1 };
	const double w[] = { 1, 3, 2, 5, 4 }, c[] = { 7, 7, 7, 7, 7 };

	ASSERT_NEAR(correlation(x, y, 5), 1, 1e-12, "a line");
	ASSERT_NEAR(correlation(x, z, 5), -1, 1e-12, "falling");
	ASSERT_NEAR(correlation(x, w, 5), 0.8, 1e-12, "worked example: 8 / sqrt(10 * 10)");
	ASSERT_TRUE(isnan(correlation(x, c, 5)), "a constant side");
	ASSERT_TRUE(isnan(correlation(x, y, 2)), "two values");
}
