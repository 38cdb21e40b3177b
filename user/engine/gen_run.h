/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_GEN_RUN_H
#define PPBENCH_GEN_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include "ppbench.h"
#include "model/pkt.h"
#include "sys/cpus.h"
#include "sys/util.h"

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

/* Sends from one pinned thread per CPU of cfg->cpus, reports; returns an exit code. */
int gen_main(struct gen_cfg *cfg);

#endif
