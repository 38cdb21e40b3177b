/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_LOAD_REPORT_H
#define PPBENCH_LOAD_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include "ppbench.h"
#include "model/load_types.h"
#include "report/report.h"
#include "sys/tsc_clock.h"

/* What `ppbench load` shows and where. */
struct load_view {
	const char *ifname;
	int ifindex;
	bool cpumap; /* the second stage is a cpumap program (else egress) */
	bool per_cpu;
	const struct tsc_info *tsc;
	struct json *j;
};

/* The engine's sink (struct load_sink), VIEW a struct load_view: what libxdp made of
 * --multiprog, the banner (which sets the view's clock), an interval's rows (the
 * summary's under a head of their own), and --prog-costs: each of the n programs'
 * runs and time; per packet: per run of xdp. */
void load_report_libxdp(void *view, bool legacy, uint32_t dispatcher_id, uint32_t prog_id,
			int nr_progs);
void load_report_banner(void *view, const struct load_setup *s);
void load_report_interval(void *view, const struct load_interval *iv);
void load_report_prog_costs(void *view, const struct prog_cost *c, int n, const char *xdp,
			    uint64_t packets);

#endif
