// SPDX-License-Identifier: GPL-2.0
/* Path figures from fentry totals, the bulk division, the method error (model/pathfig.c). */
#include <errno.h>
#include "unit.h"
#include "model/pathfig.h"

void test_path_ns_per_elem(void)
{
	/* 1000 elements: 1000 allocs (990 cache, 10 refill) and 1000 ring puts */
	struct call_class c[] = {
		{ .ns = 990 * 40.0, .calls = 990, .elems = 990 },
		{ .ns = 10 * 300.0, .calls = 10, .elems = 10 },
		{ .ns = 1000 * 60.0, .calls = 1000, .elems = 1000 },
	};
	double ns = 0;

	/* probe 25 ns per call: (990*15 + 10*275 + 1000*35) / 1000 */
	ASSERT_OK(path_ns_per_elem(c, 3, 25, 1000, &ns), "per-call overhead");
	ASSERT_NEAR(ns, (990 * 15.0 + 10 * 275.0 + 1000 * 35.0) / 1000, 1e-9, "value");
	ASSERT_EQ(path_ns_per_elem(c, 3, 60, 1000, &ns), -ERANGE, "calls no longer than probes");
	ASSERT_EQ(path_ns_per_elem(c, 3, 25, 0, &ns), -EINVAL, "no elements");
	ASSERT_EQ(path_ns_per_elem(c, 3, NAN, 1000, &ns), -EINVAL, "probe overhead unknown");
}

/*
 * Returns in bulks of 16: the probe overhead is paid once per call, not per
 * element. 64 elements in 4 bulk calls of 16 at 500 ns each (probe 25 ns):
 * (500 - 25) / 16 per element, where per-element subtraction would give
 * (500 - 16 * 25) / 16.
 */
void test_bulk_division(void)
{
	struct call_class bulk = { .ns = 4 * 500.0, .calls = 4, .elems = 64 };
	double ns = 0;

	ASSERT_NEAR(bulk_ns_per_elem(500, 16, 25), 475.0 / 16, 1e-12, "one bulk call");
	ASSERT_TRUE(isnan(bulk_ns_per_elem(500, 0, 25)), "empty bulk");
	ASSERT_OK(path_ns_per_elem(&bulk, 1, 25, 64, &ns), "bulk class");
	ASSERT_NEAR(ns, 475.0 / 16, 1e-12, "as the per-call division");
	ASSERT_NEAR(ns, bulk_ns_per_elem(500, 16, 25), 1e-12, "both agree");
}

void test_method_error(void)
{
	/* ppbench 6.07x the module's ring: +507 % */
	ASSERT_NEAR(method_error(6.07 * 320, 320), 5.07, 1e-12, "ratio - 1");
	ASSERT_NEAR(method_error(160, 200), -0.2, 1e-12, "below the module's");
	ASSERT_NEAR(method_error(200, 200), 0, 0, "exact");
	ASSERT_TRUE(isnan(method_error(200, 0)), "no module figure");
	ASSERT_TRUE(isnan(method_error(-5, 200)), "no path figure");
}

/* A pool's fentry counts give bench's figure: every class, probe paid per call. */
void test_pool_path_ns(void)
{
	struct ppb_pool_counts c = {
		.cls[PPB_ALLOC_CACHE].calls = 63,
		.cls[PPB_ALLOC_CACHE].ns = 63 * 100,
		.cls[PPB_ALLOC_SLOW].calls = 1,
		.cls[PPB_ALLOC_SLOW].ns = 1000,
		.cls[PPB_RET_RELEASE].calls = 64,
		.cls[PPB_RET_RELEASE].ns = 64 * 200,
	};
	double ns = 0;

	ASSERT_OK(pool_path_ns(&c, 50, 64, &ns), "all classes");
	ASSERT_NEAR(ns, (63 * 50.0 + 950 + 64 * 150.0) / 64, 1e-9, "value");
	ASSERT_EQ(pool_path_ns(&c, 50, 0, &ns), -EINVAL, "no elements");
	/* a wrapper's calls are timed at the inner call: no more probes to take */
	c.nested_calls = 64;
	ASSERT_OK(pool_path_ns(&c, 50, 64, &ns), "nested");
	ASSERT_NEAR(ns, (63 * 50.0 + 950 + 64 * 150.0) / 64, 1e-9, "nested: same");
}

/*
 * A class's time is its clean calls' mean times its calls: 10 calls of 100
 * ns, one hit by a tick whose handler (left out) came with 300 ns of entry
 * and exit code (not left out): 1 300 ns in all, 1 000 counted. With no
 * clean call, the time as it is.
 */
void test_class_ns_clean_calls(void)
{
	struct ppb_pool_counts c = {
		.cls[PPB_ALLOC_CACHE].calls = 10,
		.cls[PPB_ALLOC_CACHE].ns = 1300,
		.cls[PPB_ALLOC_CACHE].clean = 9,
		.cls[PPB_ALLOC_CACHE].clean_ns = 900,
	};
	double ns = 0;

	ASSERT_NEAR(class_ns(1300, 10, 9, 900), 1000, 1e-9, "clean mean x calls");
	ASSERT_NEAR(class_ns(1300, 10, 0, 0), 1300, 1e-9, "none clean: as it is");
	ASSERT_NEAR(class_ns(1300, 10, 11, 900), 1300, 1e-9, "more clean than calls: as it is");
	ASSERT_OK(pool_path_ns(&c, 50, 10, &ns), "the pool's figure");
	ASSERT_NEAR(ns, (1000 - 10 * 50.0) / 10, 1e-9, "from the clean calls");
}

/*
 * A scenario's path figure takes its classes only, a side's mean call each:
 * fast's proof run (20 000 elements) with the pool's first fill, one slow
 * call of 310 000 ns, is 100 + 200 - 2 x 50, not 15.5 more; ring adds
 * refills to the allocations and takes ring returns.
 */
void test_scenario_path_ns(void)
{
	struct ppb_pool_counts c = {
		.cls[PPB_ALLOC_CACHE].calls = 19999,
		.cls[PPB_ALLOC_CACHE].ns = 19999 * 100,
		.cls[PPB_ALLOC_SLOW].calls = 1,
		.cls[PPB_ALLOC_SLOW].ns = 310000,
		.cls[PPB_RET_CACHE].calls = 20000,
		.cls[PPB_RET_CACHE].ns = 20000 * 200,
	};
	double ns = 0;

	ASSERT_OK(scenario_path_ns(&c, scenario_path_classes(SC_FAST), 50, &ns), "fast");
	ASSERT_NEAR(ns, 100 + 200 - 2 * 50.0, 1e-9, "fast: the fill left out");
	ASSERT_EQ(scenario_path_ns(&c, scenario_path_classes(SC_RING), 50, &ns), -EINVAL,
		  "ring: no ring return timed");
	c.cls[PPB_RET_RING].calls = 10;
	c.cls[PPB_RET_RING].ns = 10 * 300;
	c.cls[PPB_ALLOC_REFILL].calls = 1;
	c.cls[PPB_ALLOC_REFILL].ns = 2000;
	ASSERT_OK(scenario_path_ns(&c, scenario_path_classes(SC_RING), 50, &ns), "ring");
	ASSERT_NEAR(ns, (19999 * 100 + 2000) / 20000.0 + 300 - 2 * 50.0, 1e-9,
		    "ring: cache and refill allocations, ring returns");
	ASSERT_EQ(scenario_path_ns(&c, scenario_path_classes(SC_FAST), 400, &ns), -ERANGE,
		  "within the probe window");
}

/* Each method bench and vm --profile write has its name; another text is its own. */
void test_path_method_names(void)
{
	ASSERT_STREQ(path_method_name(PATH_TEXT_FENTRY " of the proof run: ..."), "fentry",
		     "fentry");
	ASSERT_STREQ(path_method_name(PATH_TEXT_REFERENCE " at batch 1 ..."), "reference",
		     "the reference recipe");
	ASSERT_STREQ(path_method_name(PATH_TEXT_TWIN " lf-fastpass-twin ..."), "twin", "the twin");
	ASSERT_STREQ(path_method_name("profile"), "profile", "a profile");
	ASSERT_STREQ(path_method_name("ring minus fast (scenario medians)"), "difference",
		     "the first ppbench's");
	ASSERT_STREQ(path_method_name("profile of sorts"), "profile of sorts", "another text");
	ASSERT_TRUE(!path_method_name(NULL), "none");
	ASSERT_TRUE(path_methods_agree("fentry", "fentry"), "one method");
	ASSERT_FALSE(path_methods_agree("fentry", "profile"), "two");
	ASSERT_FALSE(path_methods_agree("fentry", NULL), "one unnamed");
	ASSERT_TRUE(path_methods_agree(NULL, NULL), "both unnamed");
}
