/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_WATCH_REPORT_H
#define PPBENCH_WATCH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include "report/report.h"

struct obs_snapshot;
struct pool_snap;

/* What `ppbench watch` shows and where: the table on stdout, JSON lines to a file. */
struct watch_view {
	const char *ifname; /* NULL: every pool */
	int ifindex;
	bool per_cpu;
	double interval, duration;
	uint64_t t0;	 /* the first snapshot's time */
	double probe_ns; /* fentry probe overhead per call (JSON timing), NAN if not measured */
	struct json *j;
};

/* Does the watched interface (or, with none, anything) own this pool? */
bool watch_pool_wanted(const struct watch_view *v, const struct pool_snap *p);
void watch_report_banner(const struct watch_view *v, const struct obs_desc *o);
void watch_report_found_pool(const struct watch_view *v, const struct pool_snap *p);
/* One interval (or, with summary, the whole run) from the delta d; now is the newer snapshot. */
void watch_report_interval(const struct watch_view *v, const struct obs_snapshot *d,
			   const struct obs_snapshot *now, double secs, const char *when,
			   bool summary);
void watch_report_summary_head(double secs, int intervals);

#endif
