// SPDX-License-Identifier: GPL-2.0
#include "model/spread.h"
#include "unit.h"

/* Ring-like noise around 161 cycles: one level. */
void test_modes_one(void)
{
	const double v[] = { 161.2, 163.0, 160.8, 161.5, 164.1, 166.9, 163.3, 165.8 };
	struct modes m;

	ASSERT_OK(find_modes(v, 8, &m), "find_modes");
	ASSERT_EQ(m.nr_modes, 1, "one mode");
	ASSERT_EQ(m.m[0].count, 8, "all in it");
	ASSERT_EQ(m.nr_outliers, 0, "no outlier");
	ASSERT_FALSE(m.multi, "stable");
}

/* The slow figure: 638-644 and 676-683, two levels 6 % apart. */
void test_modes_two_levels(void)
{
	const double v[] = { 640, 679, 638, 683, 644, 676, 641 };
	struct modes m;

	ASSERT_OK(find_modes(v, 7, &m), "find_modes");
	ASSERT_EQ(m.nr_modes, 2, "two modes");
	ASSERT_TRUE(m.multi, "unstable");
	ASSERT_EQ(m.m[0].count, 4, "lower level");
	ASSERT_NEAR(m.m[0].median, 640.5, 1e-9, "lower median");
	ASSERT_EQ(m.m[1].count, 3, "upper level");
	ASSERT_NEAR(m.m[1].lo, 676, 1e-9, "upper lo");
	ASSERT_NEAR(m.m[1].hi, 683, 1e-9, "upper hi");
}

/* ring-xcpu: 7 setups at ~400, 3 at ~1100. */
void test_modes_xcpu(void)
{
	const double v[] = { 382, 1095, 401, 403, 1102, 393, 401, 414, 1088, 396 };
	struct modes m;

	ASSERT_OK(find_modes(v, 10, &m), "find_modes");
	ASSERT_EQ(m.nr_modes, 2, "two modes");
	ASSERT_EQ(m.m[0].count, 7, "7 at ~400");
	ASSERT_EQ(m.m[1].count, 3, "3 at ~1100");
	ASSERT_NEAR(m.m[1].median, 1095, 1e-9, "~1100");
}

/* One value far off is an outlier, not a mode. */
void test_modes_outlier(void)
{
	const double v[] = { 161, 162, 1095, 160, 163, 161.5 };
	struct modes m;

	ASSERT_OK(find_modes(v, 6, &m), "find_modes");
	ASSERT_EQ(m.nr_modes, 1, "one mode");
	ASSERT_EQ(m.m[0].count, 5, "five in it");
	ASSERT_EQ(m.nr_outliers, 1, "one outlier");
	ASSERT_NEAR(m.outlier[0], 1095, 1e-9, "the outlier");
	ASSERT_FALSE(m.multi, "an outlier is not a second mode");
}

/* Evenly spread values (wide noise, no gap stands out) stay one level. */
void test_modes_even_spread(void)
{
	const double v[] = { 100, 104, 108, 112, 116, 120 };
	struct modes m;

	ASSERT_OK(find_modes(v, 6, &m), "find_modes");
	ASSERT_EQ(m.nr_modes, 1, "one mode");
	ASSERT_EQ(m.nr_outliers, 0, "no outliers");
	ASSERT_OK(find_modes(v, 2, &m), "two values");
	ASSERT_EQ(m.nr_modes, 1, "two values: one level");
	ASSERT_ERR(find_modes(v, 0, &m), "no values");
}

/* Student's t quantiles from the tables: t(0.975, 8) = 2.306004, t(0.9, 8) = 1.396815. */
void test_t_quantile(void)
{
	ASSERT_NEAR(t_quantile(0.975, 8), 2.306004, 1e-6, "t 0.975 8");
	ASSERT_NEAR(t_quantile(0.9, 8), 1.396815, 1e-6, "t 0.9 8");
	ASSERT_NEAR(t_quantile(0.975, 1), 12.706205, 1e-5, "t 0.975 1");
	ASSERT_NEAR(t_quantile(0.5, 4), 0, 1e-9, "median");
	ASSERT_TRUE(isnan(t_quantile(0.2, 4)), "lower tail refused");
}

/*
 * Worked example: 5 setups a side, CV 1 %:
 * (2.306004 + 1.396815) * 1 % * sqrt(1/5 + 1/5) = 3.702820 * 0.632456 = 2.3419 %.
 * At 20 setups a side (df 38: 2.024394 + 1.304230) it is 1.0526 %.
 */
void test_mde_worked_example(void)
{
	ASSERT_NEAR(mde_pct(0.01, 5, 5, 0.05, 0.9), 2.3419, 1e-4, "5 a side");
	ASSERT_NEAR(mde_pct(0.01, 20, 20, 0.05, 0.9), 1.0526, 1e-4, "20 a side");
	ASSERT_NEAR(mde_pct(0.02, 5, 5, 0.05, 0.9), 2 * 2.3419, 2e-4, "linear in the CV");
	ASSERT_NEAR(mde2_pct(0.01, 5, 0.01, 5, 0.05, 0.9), 2.3419, 1e-4, "same CVs");
	ASSERT_TRUE(isnan(mde_pct(0.01, 1, 5, 0.05, 0.9)), "one value: none");
}
