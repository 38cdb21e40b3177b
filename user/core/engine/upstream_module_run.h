/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_UPMOD_RUN_H
#define PPBENCH_UPMOD_RUN_H

#include "model/bench_types.h"

/*
 * The elements of the upstream module's shorter load (the longer has twice
 * as many): long enough that its time_bench figure is not its clock's
 * resolution, short enough to run twice under vm --profile's plugin in
 * seconds. Unlike a scenario's timed run, the loop has no start-up cost to
 * amortize: its pool is filled before the clock starts.
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
