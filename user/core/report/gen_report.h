/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_GEN_REPORT_H
#define PPBENCH_GEN_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/pkt.h"
#include "report/report.h"

/* What `ppbench gen` shows and where. */
struct gen_view {
	const char *ifname;
	size_t size; /* bytes per frame */
	bool quiet;  /* no interval lines on stdout */
	bool bare;   /* no xdp tracepoints: taken, not taken, errors unknown */
	struct json *j;
};

/* The engine's sink (struct gen_sink), VIEW a struct gen_view. */
void gen_report_plan(void *view, const struct udp_spec *s, uint64_t count, uint32_t batch);
/* From totals a to b over secs, at `when` s; cpu[i] sent sent[i] frames of them. */
void gen_report_interval(void *view, const struct gen_totals *a, const struct gen_totals *b,
			 double secs, double when, int nr, const int *cpu, const uint64_t *sent);
void gen_report_summary(void *view, const struct gen_totals *t, double secs, int nr_cpus);

#endif
