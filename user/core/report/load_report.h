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

/* What libxdp made of --multiprog. */
void load_report_libxdp(const struct load_view *v, bool legacy, uint32_t dispatcher_id,
			uint32_t prog_id, int nr_progs);
void load_report_banner(const struct load_view *v, const struct load_setup *s);
/* An interval's rows; the summary's come under a head of their own. */
void load_report_interval(const struct load_view *v, const struct load_interval *iv);
/* --prog-costs: each of the n programs' runs and time; per packet: per run of xdp. */
void load_report_prog_costs(const struct load_view *v, const struct prog_cost *c, int n,
			    const char *xdp, uint64_t packets);

#endif
