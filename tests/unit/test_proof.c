// SPDX-License-Identifier: GPL-2.0
/* Purity from path counts: count sets the recipes gave on real kernels. */
#include <math.h>
#include "model/proof.h"
#include "model/scenario.h"
#include "ppbench.h"
#include "unit.h"

/* live frames, XDP_DROP, batch 64, 100000 frames (measured on 6.18) */
void test_proof_ring_lf_drop(void)
{
	struct ppb_pool_counts c = { .cls[PPB_ALLOC_CACHE].calls = 98437,
				     .cls[PPB_ALLOC_REFILL].calls = 1562,
				     .cls[PPB_ALLOC_SLOW].calls = 1,
				     .slow_pages = 64,
				     .refill_pages = 99936,
				     .cls[PPB_RET_RING].calls = 100000 };
	struct proof p;

	proof_eval(SC_RING, &c, 100000, 0, NULL, false, true, true, &p);
	ASSERT_NEAR(p.alloc_share, 0.99936, 1e-9, "pages refilled from the ring");
	ASSERT_NEAR(p.ret_share, 1.0, 1e-12, "returns to the ring");
	ASSERT_NEAR(p.purity, 0.99936, 1e-9, "purity is the smaller share");
	ASSERT_FALSE(p.partial, "complete");
}

void test_proof_slow_tiny_ring(void)
{
	/* batch 1, repeat 64, 10 syscalls: 640 holds, 630 ring-full releases */
	struct ppb_pool_counts c = { .cls[PPB_ALLOC_SLOW].calls = 10,
				     .slow_pages = 640,
				     .cls[PPB_RET_RELEASE].calls = 630 };
	struct proof p;

	proof_eval(SC_SLOW, &c, 640, 0, NULL, false, false, false, &p);
	ASSERT_NEAR(p.alloc_share, 1.0, 1e-12, "every page from the allocator");
	ASSERT_NEAR(p.ret_share, 630.0 / 640, 1e-12, "63 of 64 released");
	ASSERT_TRUE(p.purity >= 0.95, "above the 95 % line");
}

void test_proof_fast_and_unknown(void)
{
	struct ppb_pool_counts c = { .cls[PPB_ALLOC_CACHE].calls = 1000,
				     .cls[PPB_RET_CACHE].calls = 1000 };
	struct proof p;

	proof_eval(SC_FAST, &c, 1000, 0, NULL, false, true, true, &p);
	ASSERT_NEAR(p.purity, 1.0, 1e-12, "all direct");
	proof_eval(SC_FAST, &c, 1000, 0, NULL, false, false, true, &p);
	ASSERT_TRUE(p.partial && isnan(p.purity), "unknown without an allocation count");
	ASSERT_HAS_SUBSTR(p.note, "unknown", "says so");
	c.cls[PPB_RET_CACHE].calls = 0;
	c.cls[PPB_RET_RING].calls = 1000;
	proof_eval(SC_FAST, &c, 1000, 0, NULL, false, true, true, &p);
	ASSERT_NEAR(p.purity, 0.0, 1e-12, "ring returns are not the fast path");
}

void test_proof_xcpu(void)
{
	/* tracepoint backend: remote drops 48448 frames of 50000, 1464 released there */
	struct ppb_pool_counts c = { .refill_pages = 47000 },
			       r = { .cls[PPB_RET_RELEASE].calls = 1464 };
	struct proof p;

	proof_eval(SC_RING_XCPU, &c, 50000, 48448, &r, false, true, true, &p);
	ASSERT_NEAR(p.ret_share, (48448.0 - 1464) / 50000, 1e-12, "remote ring returns");
	ASSERT_NEAR(p.alloc_share, 0.94, 1e-12, "refilled pages");
	ASSERT_NEAR(p.purity, 0.93968, 1e-9, "smaller share");
	/* fentry: the remote CPU's ring count is exact */
	r.cls[PPB_RET_RING].calls = 40000;
	proof_eval(SC_RING_XCPU, &c, 50000, 48448, &r, true, true, true, &p);
	ASSERT_NEAR(p.ret_share, 0.8, 1e-12, "fentry remote ring returns");
}

/* Pools the observer could not track: the proof is incomplete, never pure. */
void test_proof_untracked_not_pure(void)
{
	struct ppb_pool_counts c = { .cls[PPB_ALLOC_REFILL].calls = 1,
				     .refill_pages = 1000,
				     .cls[PPB_RET_RING].calls = 1000 };
	struct proof p;

	proof_eval(SC_RING, &c, 1000, 0, NULL, false, true, true, &p);
	ASSERT_TRUE(proof_pure(&p, 0.95), "complete and on the path: pure");
	proof_set_untracked(&p, 0);
	ASSERT_TRUE(proof_pure(&p, 0.95), "nothing missed: still pure");
	ASSERT_STREQ(p.note, "", "no note");
	proof_set_untracked(&p, 3);
	ASSERT_NEAR(p.purity, 1.0, 1e-12, "the counted share is what it is");
	ASSERT_FALSE(proof_pure(&p, 0.95), "3 pools missed: not pure");
	ASSERT_HAS_SUBSTR(p.note, "3 pools untracked", "the note says why");
	proof_eval(SC_FAST, &c, 1000, 0, NULL, false, false, true, &p);
	ASSERT_FALSE(proof_pure(&p, 0.95), "counts unknown (partial): not pure either");
}

/* 6.1's generic XDP copies into no page_pool: without fentry the counts of
 * the system pool are unknown, but there is no such pool: purity 0, complete. */
void test_proof_no_pool(void)
{
	struct ppb_pool_counts c = { 0 };
	struct proof p;

	proof_eval(SC_FAST, &c, 100000, 0, NULL, false, false, true, &p);
	ASSERT_TRUE(p.partial, "unknown counts alone leave the proof partial");
	proof_set_no_pool(&p, "system");
	ASSERT_FALSE(p.partial, "no pool: nothing unknown");
	ASSERT_NEAR(p.purity, 0, 1e-12, "no element on the path");
	ASSERT_FALSE(proof_pure(&p, 0.5), "not pure");
	ASSERT_HAS_SUBSTR(p.note, "no system pool took part", "the note says why");
}

/* bench, calibrate and bisect read --scenario alike, and name the table's scenarios. */
void test_scenario_list_parse(void)
{
	bool want[NR_SCENARIOS] = { false };
	char err[128];

	ASSERT_STREQ(scenario_name_list(), "ring, ring-xcpu, fast, slow", "the table's order");
	ASSERT_OK(scenario_list_parse("slow,ring-xcpu", want, err, sizeof(err)), "two names");
	ASSERT_TRUE(want[SC_SLOW] && want[SC_RING_XCPU] && !want[SC_RING] && !want[SC_FAST],
		    "those two only");
	ASSERT_OK(scenario_list_parse("fast", NULL, err, sizeof(err)), "checked only");
	ASSERT_ERR(scenario_list_parse("ring,warp", want, err, sizeof(err)), "unknown");
	ASSERT_STREQ(err, "unknown scenario 'warp' (ring, ring-xcpu, fast, slow)", "names it");
}
