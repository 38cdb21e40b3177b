// SPDX-License-Identifier: GPL-2.0
/* The CPU's counters: whether a window was counted whole (sys/pmu.c). */
#include "sys/pmu.h"
#include "unit.h"

/* Counted whole only when the group ran all the time it was enabled. */
void test_pmu_window_of(void)
{
	ASSERT_EQ(pmu_window_of(1000, 1000), PMU_WHOLE, "ran all the window");
	ASSERT_EQ(pmu_window_of(1000, 999), PMU_MULTIPLEXED, "ran all but 1 ns: multiplexed");
	ASSERT_EQ(pmu_window_of(1000, 250), PMU_MULTIPLEXED, "a quarter of it");
	ASSERT_EQ(pmu_window_of(1000, 0), PMU_UNSCHEDULED, "never ran: counted nothing");
	ASSERT_EQ(pmu_window_of(0, 0), PMU_UNSCHEDULED, "never enabled: nothing to trust");
}
