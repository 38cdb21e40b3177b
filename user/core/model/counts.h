/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_COUNTS_H
#define PPBENCH_COUNTS_H

#include <stdbool.h>
#include <stdint.h>
#include "ppbench.h"

void counts_add(struct ppb_pool_counts *acc, const struct ppb_pool_counts *c);
/* r = a - b, field by field (a later snapshot minus an earlier one). */
void counts_sub(struct ppb_pool_counts *r, const struct ppb_pool_counts *a,
		const struct ppb_pool_counts *b);
bool counts_zero(const struct ppb_pool_counts *c);
/* Any allocation, return or release (samples and elements alone are not traffic). */
bool counts_traffic(const struct ppb_pool_counts *c);
uint64_t counts_allocs(const struct ppb_pool_counts *c);
uint64_t counts_returns(const struct ppb_pool_counts *c);
/* A class's (enum ppb_class) side, "alloc" or "ret", and its name in it ("cache", ...). */
const char *class_side(int cls);
const char *class_name(int cls);
const char *pool_kind_name(uint32_t kind);

/*
 * What a backend could count for a pool: the tracepoint backend has no
 * allocation count for some pools, and counts of theirs are unknown, never
 * a made-up 0.
 */
enum {
	KNOWN_CACHE = 1 << 0, /* alloc.cache, alloc.refill, ret.cache */
	KNOWN_RING = 1 << 1,  /* ret.ring, refill pages */
	KNOWN_ALL = KNOWN_CACHE | KNOWN_RING,
};
/* Which counts a backend could count for a pool with these PPB_POOL_F_* flags. */
unsigned path_known(bool fentry, uint32_t pool_flags);
/* The class CLS (enum ppb_class) is among the counts KNOWN (KNOWN_*). */
bool class_known(int cls, unsigned known);

/* The counts of every pool of one kind, summed, and per CPU. */
struct kind_counts {
	int pools;
	uint32_t flags; /* union of PPB_POOL_F_* */
	struct ppb_pool_counts total;
	struct ppb_pool_counts *percpu;
};

#endif
