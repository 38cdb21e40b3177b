// SPDX-License-Identifier: GPL-2.0
/* Snapshots across a pool's life: live, freed (shown once), retired. */
#include <stdlib.h>
#include <string.h>
#include "model/snapshot.h"
#include "ppbench.h"
#include "unit.h"

#define NCPU 2

static struct pool_snap pool(uint64_t ptr, uint32_t kind, int32_t ifindex, uint64_t ring, bool gone)
{
	static struct ppb_pool_counts pc[16][NCPU];
	static int next;
	struct pool_snap p = { .key = { .ptr = ptr, .id = (uint32_t)ptr } };

	p.info.kind = kind;
	p.info.ifindex = ifindex;
	p.info.flags = PPB_POOL_F_DYING * gone | PPB_POOL_F_GONE * gone;
	p.percpu = pc[next++ % 16];
	memset(p.percpu, 0, NCPU * sizeof(*p.percpu));
	p.percpu[1].cls[PPB_RET_RING].calls = ring;
	p.total.cls[PPB_RET_RING].calls = ring;
	return p;
}

static struct obs_snapshot snap(void)
{
	return (struct obs_snapshot){ .nr_cpus = NCPU };
}

static const struct pool_snap *row(const struct obs_snapshot *s, bool retired, uint64_t ptr)
{
	for (int i = 0; i < s->nr_pools; i++)
		if (s->pools[i].retired == retired && (retired || s->pools[i].key.ptr == ptr))
			return &s->pools[i];
	return NULL;
}

void test_snapshot_freed_pool_counted_once(void)
{
	struct obs_snapshot a = snap(), b = snap(), c = snap(), acc = snap(), d;
	struct pool_snap p;
	const struct pool_snap *r;

	/* a: P live with 10 ring returns; b: P freed with 15; c: P retired */
	p = pool(0x1000, PPB_POOL_TEST_RUN, 0, 10, false);
	ASSERT_OK(snap_append(&a, &p), "a");
	p = pool(0x1000, PPB_POOL_TEST_RUN, 0, 15, true);
	ASSERT_OK(snap_append(&b, &p), "b");
	ASSERT_OK(snap_retire(&acc, &b.pools[0], 8), "retire P after b showed it");
	ASSERT_OK(snap_append(&c, &acc.pools[0]), "c: the retired row");

	ASSERT_OK(snap_delta(&a, &b, &d), "a..b");
	r = row(&d, false, 0x1000);
	if (ASSERT_TRUE(r, "P in a..b, as itself"))
		ASSERT_EQ(r->total.cls[PPB_RET_RING].calls, 5, "its 5 returns between a and b");
	snap_free(&d);

	ASSERT_OK(snap_delta(&b, &c, &d), "b..c");
	r = row(&d, true, 0);
	if (ASSERT_TRUE(r, "retired row in b..c")) {
		ASSERT_EQ(r->total.cls[PPB_RET_RING].calls, 0, "nothing new: b showed P's counts");
		ASSERT_EQ(r->percpu[1].cls[PPB_RET_RING].calls, 0, "nor on its CPU");
		ASSERT_EQ(r->folded, 0, "no pool retired that b had not shown");
	}
	snap_free(&d);

	ASSERT_OK(snap_delta(&a, &c, &d), "a..c");
	r = row(&d, true, 0);
	if (ASSERT_TRUE(r, "retired row in a..c")) {
		ASSERT_EQ(r->total.cls[PPB_RET_RING].calls, 5, "P's returns since a");
		ASSERT_EQ(r->folded, 1, "one pool retired since a");
	}
	snap_free(&d);
	snap_free(&a);
	snap_free(&b);
	snap_free(&c);
	snap_free(&acc);
}

/* One retired row per kind and device; when they fill up, one per kind. */
void test_snapshot_retired_rows_bounded(void)
{
	struct obs_snapshot acc = snap();
	struct pool_snap p;

	for (int dev = 1; dev <= 5; dev++) {
		p = pool(0x1000 + dev, PPB_POOL_VETH, dev, dev, true);
		ASSERT_OK(snap_retire(&acc, &p, 3), "retire");
		p = pool(0x2000 + dev, PPB_POOL_VETH, dev, dev, true);
		ASSERT_OK(snap_retire(&acc, &p, 3), "retire a second pool of the device");
	}
	ASSERT_EQ(acc.nr_pools, 4, "3 device rows, then the kind's row");
	ASSERT_EQ(acc.pools[0].folded, 2, "a device's two pools in its row");
	ASSERT_EQ(acc.pools[3].info.ifindex, 0, "the kind's row has no device");
	ASSERT_EQ(acc.pools[3].folded, 4, "devices 4 and 5, two pools each");
	ASSERT_EQ(acc.pools[3].total.cls[PPB_RET_RING].calls, 2 * (4 + 5), "their counts");
	snap_free(&acc);
}

/* Five test-run pools folded into one row beside a retired row, which stays as it was. */
void test_snapshot_fold_beside_retired(void)
{
	struct obs_snapshot s = snap();
	struct pool_snap p = pool(0x100, PPB_POOL_VETH, 3, 7, true);

	p.retired = true;
	p.folded = 1;
	ASSERT_OK(snap_append(&s, &p), "the retired row");
	for (int i = 1; i <= 5; i++) {
		p = pool(0x100 + i, PPB_POOL_TEST_RUN, 0, i, false);
		ASSERT_OK(snap_append(&s, &p), "a test-run pool");
	}
	if (!ASSERT_OK(snap_fold_kind(&s, PPB_POOL_TEST_RUN, 4), "fold") ||
	    !ASSERT_EQ(s.nr_pools, 2, "the retired row and the folded one"))
		goto out;
	ASSERT_TRUE(s.pools[0].retired && s.pools[0].folded == 1, "the retired row as it was");
	ASSERT_EQ(s.pools[0].total.cls[PPB_RET_RING].calls, 7, "with its own counts");
	ASSERT_FALSE(s.pools[1].retired, "the folded row is no retired one");
	ASSERT_EQ(s.pools[1].folded, 5, "of the five pools");
	ASSERT_EQ(s.pools[1].percpu[1].cls[PPB_RET_RING].calls, 15, "their counts");
out:
	snap_free(&s);
}
