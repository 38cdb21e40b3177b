// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench watch [IFACE]: the live page_pool path mix of every pool (or one
 * device's), per interval, with no XDP program of ours. Like the kernel's
 * page_pool stats, but without CONFIG_PAGE_POOL_STATS and per CPU.
 * The loop is ticker.c's signalfd + timerfd: signals end it cleanly.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "loader/kfeatures.h"
#include "loader/observer.h"
#include "model/counts.h"
#include "out/json.h"
#include "out/report.h"
#include "sys/log.h"
#include "sys/ticker.h"
#include "sys/util.h"

struct watch_cfg {
	double interval;
	double duration; /* 0: until a signal */
	const char *json;
	const char *ifname;
	int ifindex;
	bool per_cpu;
	int backend; /* enum obs_want */
};

static const struct cli_opt watch_opts[] = {
	CLI_OPT_INTERVAL(struct watch_cfg, interval, "length of an interval (default 1)"),
	CLI_OPT_DURATION(struct watch_cfg, duration,
			 "stop after this long (default: until Ctrl-C)"),
	CLI_OPT_JSON(struct watch_cfg, json,
		     "also write one JSON object per interval and a summary to FILE"),
	{ "per-cpu", 'c', NULL, "add a row per CPU under each pool", .kind = CLI_FLAG,
	  CLI_MEMBER(struct watch_cfg, per_cpu) },
	CLI_OPT_BACKEND(struct watch_cfg, backend, cli_backends,
			"accounting backend (default auto: fentry if allowed)"),
	{ NULL },
};

static void watch_init(void *c)
{
	struct watch_cfg *cfg = c;

	cfg->interval = 1;
}

static int watch_check(void *c, int argc, char **argv)
{
	struct watch_cfg *cfg = c;

	if (!argc)
		return EXIT_OK;
	cfg->ifname = argv[0];
	return iface_index(argv[0], NULL, &cfg->ifindex) ? EXIT_USAGE : EXIT_OK;
}

struct watch {
	struct watch_cfg *cfg;
	struct observer *obs;
	struct json *j;
	struct obs_snapshot first, prev;
	uint64_t t0;
	double probe_ns; /* fentry probe overhead per call, NAN if not measured */
	int intervals;
	bool seen_iface_pool;
};

static bool pool_wanted(const struct watch *w, const struct pool_snap *p)
{
	return !w->cfg->ifindex ||
	       (p->info.ifindex == w->cfg->ifindex && pool_same_netns(&p->info));
}

/* The observer's map: live pools of its room, and pools that found no room. */
static void report_map(struct watch *w, const struct obs_snapshot *d,
		       const struct obs_snapshot *now)
{
	if (d->untracked_pools)
		printf("%-6s UNTRACKED: %llu pools found the observer's map full (%d of %d): their "
		       "pages are not counted\n",
		       "", (unsigned long long)d->untracked_pools, snap_live_pools(now),
		       now->capacity);
	if (!w->j)
		return;
	json_obj_begin(w->j, "map");
	json_u64(w->j, "live_pools", snap_live_pools(now));
	json_u64(w->j, "records_peak", now->map_peak);
	json_u64(w->j, "capacity", now->capacity);
	json_obj_end(w->j);
	json_obj_begin(w->j, "untracked");
	json_u64(w->j, "pools", d->untracked_pools);
	json_u64(w->j, "events", d->untracked_events);
	json_obj_end(w->j);
}

static void report(struct watch *w, const struct obs_snapshot *d, double secs, const char *when,
		   bool summary, const struct obs_snapshot *now)
{
	char pool[16];
	int shown = 0;

	snap_fold_kind((struct obs_snapshot *)d, PPB_POOL_TEST_RUN, 4);
	if (w->j) {
		json_obj_begin(w->j, NULL);
		json_str(w->j, "type", summary ? "summary" : "interval");
		json_double(w->j, "time", (d->ts_ns - w->t0) / 1e9);
		json_double(w->j, "seconds", secs);
		if (d->fentry)
			json_double(w->j, "probe_overhead_ns", w->probe_ns);
		json_arr_begin(w->j, "pools");
	}
	for (int i = 0; i < d->nr_pools; i++) {
		const struct pool_snap *p = &d->pools[i];
		unsigned known = path_known(d->fentry, p->info.flags);

		if (!pool_wanted(w, p) || (!counts_traffic(&p->total) && !summary))
			continue;
		shown++;
		if (p->folded || p->retired)
			snprintf(pool, sizeof(pool), "x%d", p->folded);
		else
			snprintf(pool, sizeof(pool), "%u", p->info.id);
		pool_row(shown == 1 ? when : "", pool, &p->info, &p->total, secs, known);
		for (int c = 0; w->cfg->per_cpu && c < d->nr_cpus; c++) {
			char cpu[16];

			if (counts_zero(&p->percpu[c]))
				continue;
			snprintf(cpu, sizeof(cpu), " cpu%d", c);
			pool_row("", cpu, &p->info, &p->percpu[c], secs, known);
		}
		if (w->j)
			json_pool(w->j, p, d->fentry, w->cfg->per_cpu, d->nr_cpus, w->probe_ns);
	}
	if (!shown)
		printf("%-6s (no page_pool activity%s%s)\n", when, w->cfg->ifname ? " on " : "",
		       w->cfg->ifname ? w->cfg->ifname : "");
	if (w->j)
		json_arr_end(w->j);
	report_map(w, d, now);
	if (w->j) {
		json_obj_end(w->j);
		json_flush_line(w->j);
	}
}

static void note_iface_pools(struct watch *w, const struct obs_snapshot *s)
{
	for (int i = 0; i < s->nr_pools && w->cfg->ifindex && !w->seen_iface_pool; i++)
		if (pool_wanted(w, &s->pools[i])) {
			w->seen_iface_pool = true;
			printf("found a page_pool of %s (pool %u, %s)\n", w->cfg->ifname,
			       s->pools[i].info.id, pool_kind_name(s->pools[i].info.kind));
		}
}

static int tick(struct watch *w)
{
	struct obs_snapshot now, d;
	char when[16];
	double secs;

	obs_flush(w->obs);
	if (obs_snapshot(w->obs, &now) || snap_delta(&w->prev, &now, &d))
		return -ENOMEM;
	secs = (now.ts_ns - w->prev.ts_ns) / 1e9;
	w->intervals++;
	snprintf(when, sizeof(when), "%.1fs", (now.ts_ns - w->t0) / 1e9);
	note_iface_pools(w, &now);
	report(w, &d, secs, when, false, &now);
	snap_free(&d);
	snap_free(&w->prev);
	w->prev = now;
	return 0;
}

static void drain(void *obs)
{
	obs_drain(obs);
}

static int loop(struct watch *w)
{
	struct ticker t;
	int err;

	err = ticker_open(&t, w->cfg->interval);
	while (!err && ticker_wait_idle(&t, OBS_DRAIN_S, drain, w->obs) == TICK_INTERVAL) {
		err = tick(w);
		if (w->cfg->duration && (now_ns() - w->t0) / 1e9 >= w->cfg->duration - 1e-3)
			break;
	}
	ticker_close(&t);
	return err;
}

static void summary(struct watch *w)
{
	struct obs_snapshot now, d;
	double secs;

	obs_flush(w->obs);
	if (obs_snapshot(w->obs, &now) || snap_delta(&w->first, &now, &d))
		return;
	secs = (now.ts_ns - w->t0) / 1e9;
	snap_fold_kind(&d, PPB_POOL_TEST_RUN, 4);
	printf("summary: %.1f s, %d intervals (rates are per second over the whole run)\n", secs,
	       w->intervals);
	pool_header();
	report(w, &d, secs > 0 ? secs : 1, "total", true, &now);
	snap_free(&d);
	snap_free(&now);
}

static void banner(const struct watch *w)
{
	const char *why = obs_fentry_reason(w->obs), *nc = obs_not_counted(w->obs);

	printf("ppbench watch: %s backend%s%s%s; every %g s%s\n", obs_backend_name(w->obs),
	       why ? " (" : "", why ? why : "", why ? ")" : "", w->cfg->interval,
	       w->cfg->duration ? "" : ", Ctrl-C to stop");
	if (obs_backend(w->obs) == OBS_TRACEPOINT)
		printf("  not counted (n/a): allocations and direct returns of pools that no XDP\n"
		       "  program of ppbench sees; ring traffic comes from pool-state samples\n");
	if (nc)
		printf("  not counted: %s\n", nc);
	if (w->cfg->ifname)
		printf("no page_pool of %s seen yet: pools show up when they take the slow path,\n"
		       "register for XDP or are polled; watching\n",
		       w->cfg->ifname);
	pool_header();
}

static int watch_run(void *c, int argc, char **argv)
{
	struct watch_cfg *cfg = c;
	struct obs_opts oo = { .no_fentry = cfg->backend == OBS_WANT_TRACEPOINT };
	struct watch w = { .cfg = cfg, .probe_ns = NAN };
	int err = 0;

	(void)argc;
	(void)argv;
	if (obs_open(&w.obs, &oo))
		return EXIT_FAIL;
	if (cfg->json && !(w.j = json_open(cfg->json, false)))
		goto out;
	err = obs_start(w.obs);
	/* The JSON's per-pool path figures subtract it (bench measures it alike). */
	if (!err && w.j && obs_backend(w.obs) == OBS_FENTRY &&
	    obs_probe_overhead(w.obs, &w.probe_ns))
		w.probe_ns = NAN;
	if (!err)
		err = obs_snapshot(w.obs, &w.first) ?: obs_snapshot(w.obs, &w.prev);
	if (err)
		goto out;
	w.t0 = w.first.ts_ns;
	banner(&w);
	err = loop(&w);
	summary(&w);
out:
	snap_free(&w.first);
	snap_free(&w.prev);
	if (json_close(w.j))
		err = -EIO;
	obs_close(w.obs);
	return err ? EXIT_FAIL : EXIT_OK;
}

const struct cli_cmd cmd_watch = {
	.name = "watch",
	.args = "[IFACE]",
	.summary = "live page_pool path mix of every pool (or IFACE's), no XDP program attached",
	.description =
		"Show, per interval and per page_pool (or only IFACE's pools), allocations per\n"
		"second from the alloc cache, ring refills and the page allocator; returns per\n"
		"second to the cache (direct recycle), the ring and the page allocator; pages in\n"
		"flight; and the share of returns on each path (fast / ring / slow). Attaches no\n"
		"XDP program: counts come from the page_pool observer (fentry on the page_pool\n"
		"functions where the kernel allows it, else tracepoints plus pool-state samples).\n"
		"With the tracepoint backend, allocations and direct returns of pools that no\n"
		"XDP program of ppbench sees cannot be counted and show as n/a. Pools are named\n"
		"by their id (netlink page-pool id on 6.8+), kind (test-run, system, veth, nic)\n"
		"and device. Ends with a summary on SIGINT/SIGTERM or after --duration.",
	.examples = "  ppbench watch\n"
		    "  ppbench watch eth0 --interval 2 --per-cpu\n"
		    "  ppbench watch --duration 10 --json watch.json\n",
	.opts = watch_opts,
	.min_args = 0,
	.max_args = 1,
	.cfg_size = sizeof(struct watch_cfg),
	.cfg_init = watch_init,
	.check = watch_check,
	.needs = CLI_NEED_ROOT | CLI_NEED_BTF,
	.run = watch_run,
};
