// SPDX-License-Identifier: GPL-2.0
/* Arithmetic on the observer's per-pool counters (pure, unit-tested). */
#include <string.h>
#include "model/counts.h"

/*
 * The functions below walk struct ppb_pool_counts as an array of __u64: it
 * must be __u64 fields only, no padding. 34 of them today: a new field must
 * be a __u64, and this count follows it.
 */
_Static_assert(sizeof(struct ppb_pool_counts) % sizeof(__u64) == 0,
	       "struct ppb_pool_counts is not a whole number of __u64");
_Static_assert(COUNTS_NR_FIELDS == 34, "struct ppb_pool_counts: expected 34 __u64 fields");

void counts_add(struct ppb_pool_counts *acc, const struct ppb_pool_counts *c)
{
	__u64 *a = (__u64 *)acc;
	const __u64 *b = (const __u64 *)c;

	for (size_t i = 0; i < COUNTS_NR_FIELDS; i++)
		a[i] += b[i];
}

void counts_sub(struct ppb_pool_counts *r, const struct ppb_pool_counts *a,
		const struct ppb_pool_counts *b)
{
	const __u64 *x = (const __u64 *)a, *y = (const __u64 *)b;
	__u64 *o = (__u64 *)r;

	/* Counters only grow; a pool re-created at the same key restarts at 0. */
	for (size_t i = 0; i < COUNTS_NR_FIELDS; i++)
		o[i] = x[i] >= y[i] ? x[i] - y[i] : x[i];
}

bool counts_zero(const struct ppb_pool_counts *c)
{
	const __u64 *x = (const __u64 *)c;

	for (size_t i = 0; i < COUNTS_NR_FIELDS; i++)
		if (x[i])
			return false;
	return true;
}

bool counts_traffic(const struct ppb_pool_counts *c)
{
	return counts_allocs(c) || counts_returns(c) || c->slow_pages || c->rel_teardown ||
	       c->refill_pages;
}

uint64_t counts_allocs(const struct ppb_pool_counts *c)
{
	return c->alloc_cache + c->alloc_refill + c->alloc_slow;
}

uint64_t counts_returns(const struct ppb_pool_counts *c)
{
	return c->ret_cache + c->ret_ring + c->ret_release;
}

const char *pool_kind_name(uint32_t kind)
{
	static const char *const names[] = { "unknown", "test-run", "system", "veth", "nic" };

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown";
}

unsigned path_known(bool fentry, uint32_t f)
{
	unsigned k = 0;

	if (fentry)
		return KNOWN_ALL;
	/* sampled less often than the ring may wrap: ring and cache unknown */
	if ((f & PPB_POOL_F_WRAP_RISK) || !(f & PPB_POOL_F_DENSE))
		return 0;
	if (!(f & PPB_POOL_F_TINY_RING))
		k |= KNOWN_RING;
	if ((f & PPB_POOL_F_ELEMS) && !(f & (PPB_POOL_F_TINY_RING | PPB_POOL_F_FRAG)))
		k |= KNOWN_CACHE;
	return k;
}
