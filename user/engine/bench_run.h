/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_BENCH_RUN_H
#define PPBENCH_BENCH_RUN_H

#include "model/bench_types.h"

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

#endif
