// SPDX-License-Identifier: GPL-2.0
/* The text and JSON of `ppbench watch`: per interval, the pools' path mix. */
#include "report/report.h"

bool watch_pool_wanted(const struct watch_view *v, const struct pool_snap *p)
{
	return !v->ifindex || (p->info.ifindex == v->ifindex && pool_same_netns(&p->info));
}

/* The observer's map: live pools of its room, and pools that found no room. */
static void report_map(const struct watch_view *v, const struct obs_snapshot *d,
		       const struct obs_snapshot *now)
{
	report_untracked(v->j, "       ", d->untracked_pools, d->untracked_events, now->capacity);
	report_prog_misses(v->j, "       ", d->prog_misses);
	if (!v->j)
		return;
	json_obj_begin(v->j, "map");
	json_u64(v->j, "live_pools", snap_live_pools(now));
	json_u64(v->j, "records_peak", now->map_peak);
	json_u64(v->j, "capacity", now->capacity);
	json_obj_end(v->j);
}

static void pool_rows(const struct watch_view *v, const struct obs_snapshot *d,
		      const struct pool_snap *p, double secs, const char *when)
{
	unsigned known = path_known(d->fentry, p->info.flags);
	char pool[16];

	if (p->folded || p->retired)
		snprintf(pool, sizeof(pool), "x%d", p->folded);
	else
		snprintf(pool, sizeof(pool), "%u", p->info.id);
	pool_row(when, pool, &p->info, &p->total, secs, known);
	for (int c = 0; v->per_cpu && c < d->nr_cpus; c++) {
		char cpu[16];

		if (counts_zero(&p->percpu[c]))
			continue;
		snprintf(cpu, sizeof(cpu), " cpu%d", c);
		pool_row("", cpu, &p->info, &p->percpu[c], secs, known);
	}
}

void watch_report_interval(const struct watch_view *v, const struct obs_snapshot *d,
			   const struct obs_snapshot *now, double secs, const char *when,
			   bool summary)
{
	int shown = 0;

	snap_fold_kind((struct obs_snapshot *)d, PPB_POOL_TEST_RUN, 4);
	if (v->j) {
		json_obj_begin(v->j, NULL);
		json_str(v->j, "type", summary ? "summary" : "interval");
		json_double(v->j, "time", (d->ts_ns - v->t0) / 1e9);
		json_double(v->j, "seconds", secs);
		if (d->fentry)
			json_double(v->j, "probe_overhead_ns", v->probe_ns);
		json_arr_begin(v->j, "pools");
	}
	for (int i = 0; i < d->nr_pools; i++) {
		const struct pool_snap *p = &d->pools[i];

		if (!watch_pool_wanted(v, p) || (!counts_traffic(&p->total) && !summary))
			continue;
		pool_rows(v, d, p, secs, ++shown == 1 ? when : "");
		if (v->j)
			json_pool(v->j, p, d->fentry, v->per_cpu, d->nr_cpus, v->probe_ns);
	}
	if (!shown)
		printf("%-6s (no page_pool activity%s%s)\n", when, v->ifname ? " on " : "",
		       v->ifname ? v->ifname : "");
	if (v->j)
		json_arr_end(v->j);
	report_map(v, d, now);
	if (v->j) {
		json_obj_end(v->j);
		json_flush_line(v->j);
	}
}

void watch_report_found_pool(const struct watch_view *v, const struct pool_snap *p)
{
	printf("found a page_pool of %s (pool %u, %s)\n", v->ifname, p->info.id,
	       pool_kind_name(p->info.kind));
}

void watch_report_summary_head(double secs, int intervals)
{
	printf("summary: %.1f s, %d intervals (rates are per second over the whole run)\n", secs,
	       intervals);
	pool_header();
}

void watch_report_banner(const struct watch_view *v, const struct obs_desc *o)
{
	const char *why = o->fentry_reason;

	printf("ppbench watch: %s backend%s%s%s; every %g s%s\n", o->backend_name, why ? " (" : "",
	       why ? why : "", why ? ")" : "", v->interval, v->duration ? "" : ", Ctrl-C to stop");
	if (o->backend == OBS_TRACEPOINT)
		printf("  not counted (n/a): allocations and direct returns of pools that no XDP\n"
		       "  program of ppbench sees; ring traffic comes from pool-state samples\n");
	if (o->not_counted)
		printf("  not counted: %s\n", o->not_counted);
	if (v->ifname)
		printf("no page_pool of %s seen yet: pools show up when they take the slow path,\n"
		       "register for XDP or are polled; watching\n",
		       v->ifname);
	pool_header();
}
