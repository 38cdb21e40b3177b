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

/* The help's list of names is the table's, in its order. */
void test_pmu_counter_names(void)
{
	char list[200] = "";
	size_t n = 0;

	for (int k = 0; k < NR_PMU_COUNTERS; k++)
		n += snprintf(list + n, sizeof(list) - n, "%s%s",
			      !k			 ? ""
			      : k == NR_PMU_COUNTERS - 1 ? " or "
							 : ", ",
			      pmu_counter_name(k));
	ASSERT_STREQ(list, PMU_COUNTER_NAMES, "PMU_COUNTER_NAMES");
	for (int k = 0; k < NR_PMU_COUNTERS; k++)
		ASSERT_EQ(pmu_counter_by_name(pmu_counter_name(k)), k, pmu_counter_name(k));
	ASSERT_EQ(pmu_counter_by_name("instructions"), -1, "the clock's unit is no counter");
	ASSERT_TRUE(pmu_counter_instructions(PMU_INSTR_USER), "user_instructions");
	ASSERT_FALSE(pmu_counter_instructions(PMU_CYCLES_KERNEL), "kernel_cycles");
}
