// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "report/report.h"
#include "unit.h"

static void fig(struct sc_result *r, double scenario, double path)
{
	r->ok = true;
	r->cyc.median = scenario;
	r->has_path = path >= 0;
	r->path_cycles = path;
}

/* The development VM without fentry: only slow has a path figure. */
void test_order_note_scenario_figures(void)
{
	struct sc_result res[NR_SCENARIOS] = {};
	char note[400];

	fig(&res[SC_FAST], 7819.8, -1);
	fig(&res[SC_RING], 198.4, -1);
	fig(&res[SC_SLOW], 589.7, 309.3);
	ASSERT_TRUE(bench_order_note(res, "cycles", note, sizeof(note)), "misordered: a note");
	ASSERT_TRUE(strstr(note, "fast 7819.8, ptr_ring 198.4, slow 309.3 cycles/elem") != NULL,
		    "the figures shown");
	ASSERT_TRUE(strstr(note, ": fast is a scenario figure") != NULL, "fast's reason");
	ASSERT_TRUE(strstr(note, "; ptr_ring is a scenario figure") != NULL, "ring's reason");
	ASSERT_TRUE(strstr(note, "slow is a scenario") == NULL, "slow has a path figure");
	ASSERT_TRUE(bench_order_note(res, "instr", note, sizeof(note)), "the same in instructions");
	ASSERT_TRUE(strstr(note, "slow 309.3 instr/elem do not order") != NULL,
		    "the instruction clock's unit");
}

void test_order_note_ordered(void)
{
	struct sc_result res[NR_SCENARIOS] = {};
	char note[400] = "x";

	fig(&res[SC_FAST], 900, 19);
	fig(&res[SC_RING], 160, 54);
	fig(&res[SC_SLOW], 600, 238);
	ASSERT_TRUE(!bench_order_note(res, "cycles", note, sizeof(note)), "ordered: no note");
	ASSERT_EQ(note[0], '\0', "note empty");
	res[SC_SLOW].ok = false;
	fig(&res[SC_RING], 160, 500);
	ASSERT_TRUE(!bench_order_note(res, "cycles", note, sizeof(note)),
		    "slow did not run: no note");
}

void test_order_note_path_figures(void)
{
	struct sc_result res[NR_SCENARIOS] = {};
	char note[400];

	fig(&res[SC_FAST], 900, 60);
	fig(&res[SC_RING], 160, 54);
	fig(&res[SC_SLOW], 600, 238);
	ASSERT_TRUE(bench_order_note(res, "cycles", note, sizeof(note)), "fast above ring: a note");
	ASSERT_TRUE(strstr(note, "all three are path figures") != NULL, "says they are");
}

/* Without fentry, lf-fastpass gives fast a path figure whose copy makes it large. */
void test_order_note_fastpass_twin(void)
{
	static const struct candidate fp = { RCP_LF_FASTPASS, 0, 0, 1500 };
	struct sc_result res[NR_SCENARIOS] = {};
	char note[400];

	fig(&res[SC_FAST], 1548, 504.5);
	res[SC_FAST].cand = &fp;
	fig(&res[SC_RING], 191.4, -1);
	fig(&res[SC_SLOW], 657.5, 392.7);
	ASSERT_TRUE(bench_order_note(res, "cycles", note, sizeof(note)), "misordered: a note");
	ASSERT_TRUE(strstr(note, ": fast's path figure is its difference to a twin") != NULL,
		    "fast's reason");
	ASSERT_TRUE(strstr(note, "; ptr_ring is a scenario figure") != NULL, "ring's reason");
}
