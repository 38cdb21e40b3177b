/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_ENGINE_BENCH_H
#define PPBENCH_ENGINE_BENCH_H

#include "model/bench.h"

/* --iface (cfg->ifindex already resolved) has native XDP. */
int bench_check_iface(struct bench_cfg *cfg);
int bench_main(struct bench_cfg *cfg);

#endif
