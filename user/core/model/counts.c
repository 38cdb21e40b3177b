// SPDX-License-Identifier: GPL-2.0
/* Arithmetic on the observer's per-pool counters. */
#include <string.h>
#include "model/counts.h"

/* The functions below walk struct ppb_pool_counts as an array of __u64. */
#define COUNTS_NR_FIELDS (sizeof(struct ppb_pool_counts) / sizeof(__u64))
_Static_assert(sizeof(struct ppb_pool_counts) % sizeof(__u64) == 0,
	       "struct ppb_pool_counts is not a whole number of __u64");
_Static_assert(sizeof(struct ppb_class_count) % sizeof(__u64) == 0,
	       "struct ppb_class_count is not a whole number of __u64");

/* Each class's side and name, as the JSON "path" object and result files name them. */
static const char *const class_names[PPB_NR_CLASSES] = {
	[PPB_ALLOC_CACHE] = "cache", [PPB_ALLOC_REFILL] = "refill", [PPB_ALLOC_SLOW] = "slow",
	[PPB_RET_CACHE] = "cache",   [PPB_RET_RING] = "ring",	    [PPB_RET_RELEASE] = "release",
};

const char *class_side(int cls)
{
	return cls < PPB_NR_ALLOC_CLASSES ? "alloc" : "ret";
}

const char *class_name(int cls)
{
	return class_names[cls];
}

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
	uint64_t n = 0;

	for (int i = 0; i < PPB_NR_ALLOC_CLASSES; i++)
		n += c->cls[i].calls;
	return n;
}

uint64_t counts_returns(const struct ppb_pool_counts *c)
{
	uint64_t n = 0;

	for (int i = PPB_NR_ALLOC_CLASSES; i < PPB_NR_CLASSES; i++)
		n += c->cls[i].calls;
	return n;
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

bool class_known(int cls, unsigned known)
{
	if (cls == PPB_RET_RING)
		return known & KNOWN_RING;
	if (cls == PPB_ALLOC_SLOW || cls == PPB_RET_RELEASE)
		return true; /* the page allocator's side: every backend counts it */
	return known & KNOWN_CACHE;
}
