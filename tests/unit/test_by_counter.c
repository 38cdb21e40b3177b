// SPDX-License-Identifier: GPL-2.0
/* A bench --counters file seen through one of its counters (model/by_counter.c). */
#include <math.h>
#include <string.h>
#include "model/by_counter.h"
#include "unit.h"

/* tests/data/counters.json: an arm64 guest's bench --counters instructions,cycles. */
#define COUNTERS "tests/data/counters.json"

void test_counter_view_swaps_the_figure(void)
{
	struct result r;
	const struct result_scenario *sc;
	char err[300] = "";

	if (!ASSERT_OK(result_load_view(COUNTERS, &r, "kernel_instructions", err, sizeof(err)),
		       "view of the counters file"))
		return;
	ASSERT_STREQ(result_clock_of(&r)->kind, "pmu", "the view's clock is the PMU's");
	ASSERT_STREQ(result_clock_of(&r)->unit, "kernel_instructions", "its unit the counter");
	ASSERT_TRUE(unit_counts_instructions(result_clock_of(&r)->unit), "it counts instructions");
	sc = result_find(&r, "ring");
	if (ASSERT_TRUE(sc && sc->ok, "ring has the counter")) {
		ASSERT_TRUE(fabs(sc->cycles.median - 332.014552) < 1e-6,
			    "ring: the counter's median");
		ASSERT_EQ(sc->cycles.nruns, 5, "one value per setup");
		ASSERT_FALSE(sc->has_path_cost, "no path figure: it is the clock's");
		ASSERT_EQ(sc->nr_per_cpu, 0, "no per-CPU figures: they are the clock's");
	}
	sc = result_find(&r, "ring-xcpu");
	ASSERT_TRUE(sc && !sc->ok, "a scenario skipped in the file stays skipped");
	result_free(&r);
}

void test_counter_view_refuses(void)
{
	struct result r;
	char err[300] = "";

	ASSERT_ERR(result_load_view(COUNTERS, &r, "instructions", err, sizeof(err)),
		   "the instruction clock's unit is no counter");
	ASSERT_HAS_SUBSTR(err, "no counter 'instructions'", "the error names the word");
	ASSERT_ERR(result_load_view("tests/data/icount.json", &r, "kernel_instructions", err,
				    sizeof(err)),
		   "a file made without --counters");
	ASSERT_HAS_SUBSTR(err, "has no hardware counters", "the error says why");
	ASSERT_FALSE(unit_is_counter("cycles"), "TSC cycles are no counter's");
	ASSERT_TRUE(unit_is_counter("kernel_cycles"), "kernel_cycles is");
}
