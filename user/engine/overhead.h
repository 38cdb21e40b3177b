/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_OVERHEAD_H
#define PPBENCH_OVERHEAD_H

#include "model/bench_types.h"

/* bench --overhead: the cost of ppbench's per-packet instrumentation (make bench). */
int bench_overhead(struct bench_cfg *cfg);

#endif
