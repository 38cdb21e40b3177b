/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_BENCH_RUN_H
#define PPBENCH_BENCH_RUN_H

#include "model/bench_types.h"

/* A recipe is taken when this share of its proof run's elements took the path. */
#define PURITY_MIN 0.95
/* Below this the best recipe measures another path: skip rather than mislabel. */
#define PURITY_FLOOR 0.5
/* Elements of a proof run, at most. */
#define PROOF_LOOPS 100000
/*
 * Other work on the machine (the host's, in a VM) only ever adds time, and
 * it comes and goes within a setup's timed run: of its SETUP_CHUNKS chunks
 * the fastest are the undisturbed ones. The second fastest (rank 1 from 0),
 * not the fastest, so that one lucky chunk does not make the figure.
 */
#define CHUNK_RANK 1
/* Warm-up runs until two in a row agree within WARM_TOL, at most WARM_MAX. */
#define WARM_TOL 0.03
#define WARM_MAX 6

/* Scenario ID's --loops: its own (SCENARIO=N), else every scenario's, else 0. */
static inline uint64_t bench_loops(const struct bench_cfg *cfg, enum scenario_id id)
{
	return cfg->sc_loops[id] ? cfg->sc_loops[id] : cfg->loops;
}

/* --iface (cfg->ifindex already resolved) has native XDP. */
int bench_check_iface(struct bench_cfg *cfg);

/* Where bench's first lines go (cmd/bench.c hands them to report/), with CTX. */
struct obs_desc;
struct bench_sink {
	void *ctx;
	/* the clock, the observer O and WHERE the scenarios run, before they do */
	void (*banner)(void *ctx, const struct bench_ctx *b, const struct obs_desc *o,
		       const char *where);
};

/*
 * Runs the scenarios of b->cfg into b->res (each one's ok says whether it
 * gave a figure). Returns 0, or a negative errno when nothing could run (the
 * one-line error is printed). bench_free() frees the results.
 */
int bench_main(struct bench_ctx *b, const struct bench_sink *sink);
void bench_free(struct bench_ctx *b);

/*
 * bench --overhead: the cost of ppbench's per-packet instrumentation (make
 * bench-check), into OUT; 0, or a negative errno after the one-line error.
 */
int bench_overhead(struct bench_cfg *cfg, struct overhead_figs *out);

/*
 * Elements of the upstream module's shorter load (the longer has twice as
 * many): above its clock's resolution, yet seconds under vm --profile. Its
 * pool is filled before its clock starts: no start-up cost to amortize.
 */
#define UPMOD_LOOPS 50000

/* The module's test of scenario ID ("no-softirq-page_pool01"), or NULL (ring-xcpu). */
const char *upstream_module_test(enum scenario_id id);

/*
 * bench --upstream-module: for each scenario that ran, its loop of the module
 * run twice (UPMOD_LOOPS elements, then twice as many), each load its
 * own window under vm --profile, into r->up. A scenario whose loop could not
 * run says why there. Returns 0, or -ENOEXEC when no loop ran (the reasons
 * are in the results).
 */
int upstream_module_run(struct bench_ctx *b);

#endif
