/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_GEN_H
#define PPBENCH_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include "model/pkt.h"
#include "sys/util.h"

struct gen_cfg {
	const char *ifname;
	int ifindex;
	struct udp_spec spec;
	bool src_mac_set, dst_mac_set, src_ip_set, dst_ip_set, size_set;
	uint64_t count;
	double duration, interval;
	bool cpus[MAX_CPUS];
	int nr_cpus;
	uint32_t batch;
	bool bare, quiet;
	const char *json;
};

/* Sends from one pinned thread per CPU of cfg->cpus, reports; returns an exit code. */
int gen_main(struct gen_cfg *cfg);

#endif
