/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_LOAD_REPORT_H
#define PPBENCH_LOAD_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include "ppbench.h"
#include "model/snapshot.h"
#include "loader/progcost.h"
#include "report/report.h"
#include "sys/tsc.h"

/* Packets of one CPU (or all) over an interval, and the time our program measured. */
struct load_rates {
	uint64_t packets, bytes, timed_ns, timed_elems;
};

/* One interval of `ppbench load` (or, with summary, the whole run). */
struct load_interval {
	bool summary;
	double time; /* since the start, s */
	double secs; /* its length */
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
};

/* What `ppbench load` shows and where. */
struct load_view {
	const char *ifname;
	int ifindex;
	bool cpumap; /* the second stage is a cpumap program (else egress) */
	bool per_cpu;
	const struct tsc_info *tsc;
	struct json *j;
};

/* What libxdp made of --multiprog. */
void load_report_libxdp(const struct load_view *v, bool legacy, uint32_t dispatcher_id,
			uint32_t prog_id, int nr_progs);
void load_report_banner(const struct load_view *v, const struct load_setup *s);
void load_report_summary_head(double secs, int intervals);
void load_report_interval(const struct load_view *v, const struct load_interval *iv);
/* --prog-costs: each of the n programs' runs and time; per packet: per run of xdp. */
void load_report_prog_costs(const struct load_view *v, const struct prog_cost *c, int n,
			    const char *xdp, uint64_t packets);

#endif
