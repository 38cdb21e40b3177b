// SPDX-License-Identifier: GPL-2.0
/* The CPU's counters: whether a window was counted whole (sys/pmu.c). */
#include "sys/pmu.h"
#include "unit.h"

/* A read of the group adds its counts only when the group ran all the time it was enabled. */
void test_pmu_window_add(void)
{
	static const struct {
		uint64_t enabled, running;
		enum pmu_window want;
		const char *what;
	} cases[] = {
		{ 1000, 1000, PMU_WHOLE, "ran all the window" },
		{ 1000, 999, PMU_MULTIPLEXED, "ran all but 1 ns: multiplexed" },
		{ 1000, 250, PMU_MULTIPLEXED, "a quarter of it" },
		{ 1000, 0, PMU_UNSCHEDULED, "never ran: counted nothing" },
		{ 0, 0, PMU_UNSCHEDULED, "never enabled: nothing to trust" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* nr, enabled, running, then two counts the group read */
		uint64_t v[3 + NR_PMU_COUNTERS] = { 2, cases[i].enabled, cases[i].running, 300,
						    70 };
		uint64_t acc[NR_PMU_COUNTERS] = { 1, 1, 1, 1 };
		bool whole = cases[i].want == PMU_WHOLE;

		ASSERT_EQ(pmu_window_add(v, acc), cases[i].want, cases[i].what);
		ASSERT_EQ(acc[PMU_INSTR_KERNEL], whole ? 301 : 1, cases[i].what);
		ASSERT_EQ(acc[PMU_INSTR_USER], whole ? 71 : 1, cases[i].what);
		ASSERT_EQ(acc[PMU_CYCLES_KERNEL], 1, "a counter the group does not hold");
	}
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
