/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_LOAD_TYPES_H
#define PPBENCH_LOAD_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include "ppbench.h"
#include "model/snapshot.h"
#include "sys/tsc_clock.h"

/* Packets of one CPU (or all) over an interval, and the time our program measured. */
struct load_rates {
	uint64_t packets, bytes, timed_ns, timed_elems;
};

/* One interval of `ppbench load` (or, with summary, the whole run). */
struct load_interval {
	bool summary;
	int intervals; /* the summary: how many intervals the run had */
	double time;   /* since the start, s */
	double secs;   /* its length */
	int nr_cpus;
	struct load_rates *cpu[2];    /* per CPU: the action program, the second stage */
	struct ppb_xdp_errs errs;     /* summed over CPUs */
	const struct obs_snapshot *d; /* the pools' counts over it, or NULL */
};

/* The banner's facts. */
struct load_setup {
	const char *driver;
	bool native_xdp;    /* the driver's XDP features include the basic actions */
	const char *action; /* "drop", "redirect", ... */
	const char *target; /* " DEV (egress drop)", " N (remote drop)", or "" */
	bool skb, multiprog, bare;
	const struct obs_desc *obs; /* NULL: no observer */
	const struct tsc_info *tsc; /* cycles per packet are TSC cycles of this clock */
};

/* What the kernel's BPF run-time stats say one of our programs cost (load --prog-costs). */
struct prog_cost {
	char name[64];
	uint64_t run_ns, runs;
};

#endif
