// SPDX-License-Identifier: GPL-2.0
/* Noise profiles: the floor, building from invocations, loading and the host check. */
#include <stdlib.h>
#include <string.h>
#include "model/noise.h"
#include "unit.h"

/* 100, 102, 98, 100, 100: CV 1.414 %, t(0.975, 4) = 2.776: floor 5.55 % (> the 4.08 % seen). */
void test_noise_floor(void)
{
	double v[] = { 100, 102, 98, 100, 100 };
	double lv[] = { 35.0, 35.4, 60.0, 35.2, 60.5, 35.3 };
	double quiet[] = { 100, 100.1, 100, 100.1 };

	ASSERT_NEAR(noise_floor_pct(v, 5), 2.7764 * sqrt(2) * sqrt(2), 0.01, "t x sqrt2 x CV");
	/* two levels: CV 28 %, t(0.975, 5) 2.571: 102 %, above the 72.9 % seen */
	ASSERT_TRUE(noise_floor_pct(lv, 6) > 60.5 / 35.0 * 100 - 100, "above the levels' gap");
	ASSERT_NEAR(noise_floor_pct(quiet, 4), 1.0, 1e-9, "never below 1 %");
	ASSERT_TRUE(isnan(noise_floor_pct(v, 1)), "one invocation: no floor");
}

void test_noise_fig_levels(void)
{
	double lv[] = { 35.0, 35.4, 60.0, 35.2, 60.5, 35.3 };
	double w[] = { 0.002, 0.004, 0.003, 0.002, 0.01, 0.002 };
	struct noise_fig f;

	if (!ASSERT_OK(noise_fig_from(lv, w, 6, &f), "fig"))
		return;
	ASSERT_EQ(f.nr_levels, 2, "two levels");
	ASSERT_NEAR(f.levels[0].median, 35.25, 1e-9, "low level");
	ASSERT_EQ(f.levels[1].count, 2, "two invocations high");
	ASSERT_NEAR(f.cv_within, 0.0025, 1e-12, "median within CV");
	ASSERT_NEAR(f.max_pair_pct, 60.5 / 35.0 * 100 - 100, 1e-9, "largest pair");
	ASSERT_NEAR(f.floor_pct, noise_floor_pct(lv, 6), 1e-12, "floor");
}

/* noise_test: a change of 2 x sqrt(2) x CV is t = 2. */
void test_noise_test(void)
{
	struct noise_fig f = { .n = 11, .cv_between = 0.05 };
	struct ttest t;

	noise_test(&f, 2 * sqrt(2) * 5, &t);
	ASSERT_TRUE(t.testable, "testable");
	ASSERT_NEAR(t.stat, 2, 1e-9, "t");
	ASSERT_NEAR(t.p, student_t_p2(2, 10), 1e-12, "p");
	f.n = 1;
	noise_test(&f, 50, &t);
	ASSERT_FALSE(t.testable, "one invocation: untestable");
}
