/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_BENCH_H
#define PPBENCH_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include "engine/recipe.h"
#include "model/stats.h"

/* The bench scenarios (DESIGN §4.3), in the order they run. */
enum scenario_id { SC_RING, SC_RING_XCPU, SC_FAST, SC_SLOW, NR_SCENARIOS };

/* A candidate recipe for a scenario: the runner proves which path it takes. */
struct candidate {
	enum recipe_id recipe;
	uint32_t batch;	 /* 0: the --batch value */
	uint32_t repeat; /* frames per syscall; 0: all the loops in one syscall */
	uint32_t size;	 /* frame size */
	bool duration;	 /* timed by the kernel's test_run duration, not BPF samples */
};

struct scenario_def {
	const char *name;
	const char *isolates; /* the path, for the output */
	uint64_t default_loops;
	struct candidate cand[3];
	int nr_cand;
};
extern const struct scenario_def scenario_defs[NR_SCENARIOS];
int scenario_by_name(const char *name);

/* Purity and the path counts of a proof run (pure: unit-tested). */
struct proof {
	double purity;	    /* 0..1, share of elements on the scenario's path */
	double alloc_share; /* share of allocations from the path's source */
	double ret_share;   /* share of returns to the path's destination */
	bool partial;	    /* some counts unknown on this kernel (see note) */
	char note[160];
};
struct ppb_pool_counts;
/*
 * c: counts of the recipe's pool kind; remote: its counts on the remote CPU
 * (ring-xcpu); remote_elems: frames the remote program handled. per_cpu_exact:
 * the backend's per-CPU ring counts are exact (fentry), else they follow the
 * sampler and the remote CPU's ring returns are derived from exact counts.
 */
void proof_eval(enum scenario_id sc, const struct ppb_pool_counts *c, uint64_t elems,
		uint64_t remote_elems, const struct ppb_pool_counts *remote, bool per_cpu_exact,
		bool cache_known, bool ring_known, struct proof *out);

#endif
