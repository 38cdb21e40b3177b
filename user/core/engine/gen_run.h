/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_GEN_RUN_H
#define PPBENCH_GEN_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include "ppbench.h"
#include "model/pkt.h"
#include "sys/cpus.h"

struct gen_cfg {
	const char *ifname;
	int ifindex;
	struct udp_spec spec;
	bool src_mac_set, dst_mac_set, src_ip_set, dst_ip_set, size_set;
	uint64_t count;
	double duration, interval;
	bool cpus[PPB_MAX_CPUS];
	int nr_cpus;
	uint32_t batch;
	bool bare, quiet;
	const char *json;
};

/* CPUs gen can send from: the possible ones, at most PPB_MAX_CPUS (cpus[]); or -errno. */
static inline int gen_possible_cpus(void)
{
	int n = nr_possible_cpus();

	return n > PPB_MAX_CPUS ? PPB_MAX_CPUS : n;
}

/*
 * Where gen's figures go as it sends (cmd/gen.c hands them to report/), each
 * with CTX: the plan; each interval, from totals A to B over SECS at WHEN s
 * since the start, in which CPU[i] sent SENT[i] frames (NR of them); the
 * summary over SECS.
 */
struct gen_sink {
	void *ctx;
	void (*plan)(void *ctx, const struct udp_spec *s, uint64_t count, uint32_t batch);
	void (*interval)(void *ctx, const struct gen_totals *a, const struct gen_totals *b,
			 double secs, double when, int nr, const int *cpu, const uint64_t *sent);
	void (*summary)(void *ctx, const struct gen_totals *t, double secs, int nr_cpus);
};

/* Sends from one pinned thread per CPU of cfg->cpus; returns an exit code. */
int gen_main(struct gen_cfg *cfg, const struct gen_sink *sink);

#endif
