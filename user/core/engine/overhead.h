/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_OVERHEAD_H
#define PPBENCH_OVERHEAD_H

#include "model/bench_types.h"

/*
 * bench --overhead: the cost of ppbench's per-packet instrumentation (make
 * bench-check), into OUT; 0, or a negative errno after the one-line error.
 */
int bench_overhead(struct bench_cfg *cfg, struct overhead_figs *out);

#endif
