/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_LOAD_RUN_H
#define PPBENCH_LOAD_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <net/if.h>
#include "ppbench.h"
#include "model/load_types.h"

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
	bool paths;	 /* the observer and the pool sampler: the path mix */
	bool prog_costs; /* our programs' run time, from the kernel's BPF stats */
	double interval, duration;
	uint64_t count;
	const char *json;
	/* "redirect:DEV"/"cpu:N": what follows the colon (in argv), or NULL: the next argument */
	const char *pending_action;
};

/*
 * Where load's figures go as they are measured (cmd/load.c hands them to
 * report/), each with CTX: what libxdp made of --multiprog, the banner's
 * facts, every interval and then the summary (iv->summary), and with
 * --prog-costs each program's cost, per packet: per run of the program XDP.
 */
struct load_sink {
	void *ctx;
	void (*libxdp)(void *ctx, bool legacy, uint32_t dispatcher_id, uint32_t prog_id,
		       int nr_progs);
	void (*banner)(void *ctx, const struct load_setup *s);
	void (*interval)(void *ctx, const struct load_interval *iv);
	void (*prog_costs)(void *ctx, const struct prog_cost *c, int n, const char *xdp,
			   uint64_t packets);
};

/* Attaches, measures until --duration, --count or a signal, detaches; an exit code. */
int load_main(struct load_cfg *cfg, const struct load_sink *sink);

#endif
