/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROOF_H
#define PPBENCH_PROOF_H

#include <stdbool.h>
#include <stdint.h>
#include "model/scenario.h"

/* Purity and the path counts of a proof run (pure: unit-tested). */
struct proof {
	double purity;	    /* 0..1, share of elements on the scenario's path */
	double alloc_share; /* share of allocations from the path's source */
	double ret_share;   /* share of returns to the path's destination */
	bool partial;	    /* some counts unknown on this kernel (see note) */
	uint64_t untracked; /* pools that found the observer's table full: not counted */
	char note[160];
};
struct ppb_pool_counts;
/*
 * c: counts of the recipe's pool kind; remote: its counts on the remote CPU
 * (ring-xcpu), remote_elems the frames the remote program handled.
 * per_cpu_exact: the per-CPU ring counts are exact (fentry), else the remote
 * CPU's ring returns are derived from exact counts.
 */
void proof_eval(enum scenario_id sc, const struct ppb_pool_counts *c, uint64_t elems,
		uint64_t remote_elems, const struct ppb_pool_counts *remote, bool per_cpu_exact,
		bool cache_known, bool ring_known, struct proof *out);

/* Pools the observer could not track: the proof is incomplete whatever its purity. */
void proof_set_untracked(struct proof *p, uint64_t pools);
/* No pool of the recipe's KIND took part: the proof is complete, its purity 0. */
void proof_set_no_pool(struct proof *p, const char *kind);
/* The proof shows the path: known counts, nothing missed, purity >= min. */
bool proof_pure(const struct proof *p, double min);

#endif
