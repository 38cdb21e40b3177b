// SPDX-License-Identifier: GPL-2.0
/* The test-run clock's truncation resolved by wall time (model/testrun_clock.c). */
#include "unit.h"
#include "model/testrun_clock.h"

void test_kclock_loop_ns(void)
{
	/* 250000 frames at 14.3 ns: duration says 14, wall 3.575 ms + 5 us fixed */
	ASSERT_NEAR(testrun_clock_loop_ns(14, 250000, 3575000 + 5000, 5000), 3575000, 1e-6,
		    "wall time less the fixed cost, inside the kernel's bounds");
	/* A preemption added 1 ms of wall time: the wall says nothing, take the middle. */
	ASSERT_NEAR(testrun_clock_loop_ns(14, 250000, 4580000, 5000), 14.5 * 250000, 1e-6,
		    "above the kernel's interval");
	/* An overestimated fixed cost: below the interval, the middle too. */
	ASSERT_NEAR(testrun_clock_loop_ns(14, 250000, 3500000, 9000), 14.5 * 250000, 1e-6,
		    "below the kernel's interval");
	ASSERT_NEAR(testrun_clock_loop_ns(14, 250000, 3500000, 0), 14.0 * 250000, 1e-6,
		    "the interval's lower end is in it");
	ASSERT_NEAR(testrun_clock_loop_ns(0, 0, 1000, 0), 0, 0, "no frames");
	ASSERT_TRUE(testrun_clock_resolved(14, 250000, 3580000, 5000), "resolved");
	ASSERT_FALSE(testrun_clock_resolved(14, 250000, 4580000, 5000), "not resolved");
}

void test_kclock_fixed_ns(void)
{
	/* 64 frames, duration 14: the loop took 896..960 ns, 928 taken */
	ASSERT_NEAR(testrun_clock_fixed_ns(14, 64, 6000), 6000 - 928, 1e-9,
		    "middle of the interval");
	ASSERT_NEAR(testrun_clock_fixed_ns(14, 64, 900), 0, 0, "never negative");
}
