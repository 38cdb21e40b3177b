/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_BENCH_RUN_H
#define PPBENCH_BENCH_RUN_H

#include "model/bench_types.h"

/* --iface (cfg->ifindex already resolved) has native XDP. */
int bench_check_iface(struct bench_cfg *cfg);
int bench_main(struct bench_cfg *cfg);

#endif
