// SPDX-License-Identifier: GPL-2.0
/* ppbench watch [IFACE]: the live path mix of every pool; ticker.c's signals end it cleanly. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "loader/kfeatures.h"
#include "loader/observer.h"
#include "model/counts.h"
#include "report/report.h"
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

const struct cli_word backend_words[] = {
	{ "auto", OBS_WANT_AUTO },
	{ "tracepoint", OBS_WANT_TRACEPOINT },
	{ NULL },
};

const struct cli_word backend_words_fentry[] = {
	{ "auto", OBS_WANT_AUTO },
	{ "fentry", OBS_WANT_FENTRY },
	{ "tracepoint", OBS_WANT_TRACEPOINT },
	{ NULL },
};

static const struct cli_opt watch_opts[] = {
	CLI_OPT_INTERVAL(struct watch_cfg, interval, "length of an interval (default 1)"),
	CLI_OPT_DURATION(struct watch_cfg, duration,
			 "stop after this long (default: until Ctrl-C)"),
	CLI_OPT_JSON(struct watch_cfg, json,
		     "also write one JSON object per interval and a summary to FILE"),
	{ "per-cpu", 'c', NULL, "add a row per CPU under each pool", .kind = CLI_FLAG,
	  CLI_MEMBER(struct watch_cfg, per_cpu) },
	CLI_OPT_BACKEND(struct watch_cfg, backend, backend_words,
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
	struct watch_view v;
	struct obs_snapshot first, prev;
	int intervals;
	bool seen_iface_pool;
};

static void note_iface_pools(struct watch *w, const struct obs_snapshot *s)
{
	for (int i = 0; i < s->nr_pools && w->cfg->ifindex && !w->seen_iface_pool; i++)
		if (watch_pool_wanted(&w->v, &s->pools[i])) {
			w->seen_iface_pool = true;
			watch_report_found_pool(&w->v, &s->pools[i]);
		}
}

/* Traffic of a pool that watch shows (all pools, or IFACE's) in d. */
static bool wanted_traffic(const struct watch *w, const struct obs_snapshot *d)
{
	for (int i = 0; i < d->nr_pools; i++)
		if (watch_pool_wanted(&w->v, &d->pools[i]) && counts_traffic(&d->pools[i].total))
			return true;
	return false;
}

/*
 * One interval, from the last one's end to now. The tail (stopped between
 * two ticks) is shown only if it has traffic: then the intervals add up to
 * the summary, which ends at the stop.
 */
static int tick(struct watch *w, bool tail)
{
	struct obs_snapshot now, d;
	char when[16];
	double secs;

	obs_flush(w->obs);
	if (obs_snapshot(w->obs, &now) || snap_delta(&w->prev, &now, &d))
		return -ENOMEM;
	secs = (now.ts_ns - w->prev.ts_ns) / 1e9;
	snprintf(when, sizeof(when), "%.1fs", (now.ts_ns - w->v.t0) / 1e9);
	note_iface_pools(w, &now);
	if (!tail || wanted_traffic(w, &d)) {
		w->intervals++;
		watch_report_interval(&w->v, &d, &now, secs, when, false);
	}
	snap_free(&d);
	snap_free(&w->prev);
	w->prev = now;
	return 0;
}

static void drain(void *obs)
{
	obs_drain(obs);
}

/* Until a stop signal or --duration; *tail: stopped between two ticks. */
static int loop(struct watch *w, bool *tail)
{
	struct ticker t;
	enum tick k = TICK_ERROR;
	int err;

	*tail = false;
	err = ticker_open(&t, w->cfg->interval);
	while (!err && (k = ticker_wait_idle(&t, OBS_CHECK_S, drain, w->obs)) == TICK_INTERVAL) {
		err = tick(w, false);
		if (w->cfg->duration && (now_ns() - w->v.t0) / 1e9 >= w->cfg->duration - 1e-3)
			break;
	}
	if (!err && k == TICK_SIGNAL)
		*tail = true;
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
	secs = (now.ts_ns - w->v.t0) / 1e9;
	snap_fold_kind(&d, PPB_POOL_TEST_RUN, 4);
	watch_report_summary_head(secs, w->intervals);
	watch_report_interval(&w->v, &d, &now, secs > 0 ? secs : 1, "total", true);
	snap_free(&d);
	snap_free(&now);
}

static int watch_run(void *c, int argc, char **argv)
{
	struct watch_cfg *cfg = c;
	struct obs_opts oo = { .no_fentry = cfg->backend == OBS_WANT_TRACEPOINT };
	struct watch w = { .cfg = cfg,
			   .v = { .ifname = cfg->ifname,
				  .ifindex = cfg->ifindex,
				  .per_cpu = cfg->per_cpu,
				  .interval = cfg->interval,
				  .duration = cfg->duration,
				  .probe_ns = NAN } };
	struct obs_desc od;
	bool tail;
	int err = 0;

	(void)argc;
	(void)argv;
	if (obs_open(&w.obs, &oo))
		return EXIT_FAIL;
	err = report_json_open(&w.v.j, cfg->json) ?: obs_start(w.obs);
	/* The JSON's per-pool path figures subtract it (bench measures it alike). */
	if (!err && w.v.j && obs_backend(w.obs) == OBS_FENTRY &&
	    obs_probe_overhead(w.obs, &w.v.probe_ns))
		w.v.probe_ns = NAN;
	if (!err)
		err = obs_snapshot(w.obs, &w.first) ?: obs_snapshot(w.obs, &w.prev);
	if (err)
		goto out;
	w.v.t0 = w.first.ts_ns;
	obs_describe(w.obs, &od);
	watch_report_banner(&w.v, &od);
	err = loop(&w, &tail);
	if (!err && tail)
		err = tick(&w, true);
	summary(&w);
out:
	snap_free(&w.first);
	snap_free(&w.prev);
	if (report_json_close(&w.v.j))
		err = -EIO;
	obs_close(w.obs);
	return err ? EXIT_FAIL : EXIT_OK;
}

/* The figures ppbench-watch(8) states (@{NAME}), from the observer's constants. */
static int watch_figures(struct cli_fig *f)
{
	double counts = sizeof(struct ppb_pool_counts);
	const struct cli_fig v[] = {
		{ "pool_room", PPB_MAX_POOLS },
		{ "counts_bytes", counts },
		{ "record_bytes", sizeof(struct ppb_pool_info) + sizeof(struct ppb_pool_key) },
		{ "mib_64", round(PPB_MAX_POOLS * counts * 64 / (1 << 20)) },
		{ "check_ms", OBS_CHECK_S * 1000 },
		{ "drain_s", OBS_DRAIN_S },
	};

	return CLI_FIGURES(f, v);
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
	.max_args = 1,
	.cfg_size = sizeof(struct watch_cfg),
	.cfg_init = watch_init,
	.check = watch_check,
	.needs = PPB_NEED_ROOT | PPB_NEED_BTF | PPB_NEED_KCONFIG,
	.run = watch_run,
	.figures = watch_figures,
};
