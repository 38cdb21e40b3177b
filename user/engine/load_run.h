/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_LOAD_RUN_H
#define PPBENCH_LOAD_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <net/if.h>
#include "ppbench.h"

struct load_cfg {
	char ifname[IF_NAMESIZE];
	int ifindex;
	uint32_t action;	  /* PPB_ACT_* */
	char target[IF_NAMESIZE]; /* redirect: DEV; cpu: unused */
	int target_ifindex;
	int cpu;
	uint32_t remote_action; /* XDP_DROP / XDP_PASS / XDP_REDIRECT */
	char remote_dev[IF_NAMESIZE];
	int remote_ifindex;
	uint32_t qsize;
	bool egress_drop, skb, frags, multiprog, force, bare, per_cpu;
	int backend;	 /* --backend: enum obs_want */
	bool no_paths;	 /* no observer: rates and cycles only */
	bool prog_costs; /* our programs' run time, from the kernel's BPF stats */
	double interval, duration;
	uint64_t count;
	const char *json;
	/* "redirect:DEV"/"cpu:N": what follows the colon (in argv), or NULL: the next argument */
	const char *pending_action;
};

int load_main(struct load_cfg *cfg);

#endif
