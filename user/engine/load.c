// SPDX-License-Identifier: GPL-2.0
/* ppbench load: attach, report per interval, detach on every exit path. */
#include <errno.h>
#include <linux/if_link.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>
#include "engine/load.h"
#include "loader/kfeatures.h"
#include "loader/observer.h"
#include "loader/reaper.h"
#include "loader/xdpobj.h"
#include "model/counts.h"
#include "out/json.h"
#include "out/report.h"
#include "sys/cpus.h"
#include "sys/log.h"
#include "sys/nl.h"
#include "sys/ticker.h"
#include "sys/tsc.h"
#include "sys/util.h"

/* A pool-state sample every 64 packets per CPU at least, every half ring of
 * the pool if that is more (bpf/xdp.bpf.c). */
#define PROOF_SHIFT 6

struct load {
	struct load_cfg *cfg;
	struct observer *obs;
	struct xdpo *x;
	struct xdp_program *xp;
	struct reaper reaper; /* removes xp if we die (libxdp has no bpf_link) */
	int link;
	struct tsc_info tsc;
	int nr_cpus;
	struct ppb_xdp_stats *first[2], *prev[2]; /* ACTION, SECOND */
	struct ppb_xdp_errs *efirst, *eprev;
	struct obs_snapshot sfirst, sprev;
	struct json *j;
	uint64_t t0, tprev;
	int intervals;
	char driver[64];
};

static const char *const action_names[] = { "drop", "pass", "tx", "redirect", "cpu" };

static int open_objects(struct load *l)
{
	struct load_cfg *c = l->cfg;
	struct obs_opts oo = { .no_fentry = c->backend == OBS_WANT_TRACEPOINT };
	struct xdpo_opts o = { .action = c->action,
			       .remote_action = c->remote_action,
			       .frags = c->frags,
			       .count_bytes = true,
			       .second_stage = c->action == PPB_ACT_CPU || c->egress_drop,
			       .cpumap_timing = c->action == PPB_ACT_CPU,
			       .napi_clock = true,
			       .errors = true,
			       .xmits = c->action == PPB_ACT_REDIRECT ||
					c->remote_action == XDP_REDIRECT,
			       .cpumap_drops = c->action == PPB_ACT_CPU };

	if (!c->bare && !c->no_paths) {
		if (obs_open(&l->obs, &oo) || obs_start(l->obs))
			return -EINVAL;
		o.obs = l->obs;
	}
	if (xdpo_open(&l->x, &o))
		return -EINVAL;
	/* The observer's samplers need virt_to_page; without it no pool is found. */
	if (l->obs && xdpo_calibrate(l->x))
		pr_warn("cannot map packets to their page_pool: no path mix for them\n");
	xdpo_set_proof(l->x, l->obs != NULL, PROOF_SHIFT, PPB_ROLE_ACTION);
	return l->obs ? obs_set_elems_active(l->obs, true) : 0;
}

static uint32_t netns_inode(void)
{
	struct stat st;

	return stat("/proc/thread-self/ns/net", &st) ? 0 : (uint32_t)st.st_ino;
}

static int setup_maps(struct load *l)
{
	struct load_cfg *c = l->cfg;
	int err = 0;

	if (c->action == PPB_ACT_REDIRECT)
		err = xdpo_set_devmap(l->x, c->target_ifindex, c->egress_drop);
	if (c->action == PPB_ACT_CPU) {
		err = xdpo_set_cpumap(l->x, c->cpu, c->qsize);
		if (!err && c->remote_action == XDP_REDIRECT)
			err = xdpo_set_devmap(l->x, c->remote_ifindex, false);
	}
	if (err)
		pr_err("cannot set up the %s map: %s\n",
		       c->action == PPB_ACT_CPU ? "cpumap" : "devmap", strerror(-err));
	xdpo_set_err_filter(l->x,
			    c->action == PPB_ACT_REDIRECT      ? c->target_ifindex
			    : c->remote_action == XDP_REDIRECT ? c->remote_ifindex
							       : 0,
			    netns_inode());
	return err ?: xdpo_attach_tracing(l->x);
}

/* An XDP program already there: refuse, or (--force) remove it if we can. */
static int existing_prog(struct load *l)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	struct load_cfg *c = l->cfg;

	if (bpf_xdp_query(c->ifindex, 0, &q) || !q.prog_id)
		return 0;
	if (!c->force) {
		pr_err("%s already has an XDP program (id %u); --force replaces it\n", c->ifname,
		       q.prog_id);
		return -EBUSY;
	}
	if (bpf_xdp_detach(c->ifindex, q.attach_mode == XDP_ATTACHED_SKB ? XDP_FLAGS_SKB_MODE : 0,
			   NULL)) {
		pr_err("cannot remove XDP program %u from %s (held by another process's "
		       "bpf_link?)\n",
		       q.prog_id, c->ifname);
		return -EBUSY;
	}
	pr_warn("removed XDP program %u from %s (--force)\n", q.prog_id, c->ifname);
	return 0;
}

static int attach_multiprog(struct load *l, const char *prog)
{
	struct load_cfg *c = l->cfg;
	struct xdp_multiprog *mp;
	const char *bpffs;
	int err;

	if (!bpffs_mounted(&bpffs)) {
		pr_err("bpffs is not mounted at %s: --multiprog needs it for libxdp (mount -t bpf "
		       "bpf %s)\n",
		       bpffs, bpffs);
		return -ENOENT;
	}
	l->xp = xdpo_libxdp_prog(l->x, prog);
	err = libxdp_get_error(l->xp);
	if (!err)
		err = xdp_program__attach(l->xp, c->ifindex,
					  c->skb ? XDP_MODE_SKB : XDP_MODE_NATIVE, 0);
	if (err) {
		pr_err("libxdp cannot attach to %s: %s\n", c->ifname, strerror(-err));
		xdp_program__close(l->xp);
		l->xp = NULL;
		return err;
	}
	err = reaper_start(&l->reaper, c->ifindex, xdp_program__id(l->xp));
	if (err)
		pr_warn("no watcher for a killed ppbench (%s): if it is killed, remove the program "
			"with 'ip link set %s xdp off'\n",
			strerror(-err), c->ifname);
	mp = xdp_multiprog__get_from_ifindex(c->ifindex);
	if (libxdp_get_error(mp))
		return 0;
	/* The xdp tracepoints name the program the driver runs: the dispatcher. */
	xdpo_set_action_prog_id(l->x, xdp_program__id(xdp_multiprog__main_prog(mp)));
	if (xdp_multiprog__is_legacy(mp))
		printf("libxdp fell back to a single program on %s (no dispatcher: its reason is "
		       "above; freplace refused?); no other program can share the interface\n",
		       c->ifname);
	else
		printf("libxdp dispatcher %u on %s runs ppbench's program %u (%d program%s)\n",
		       xdp_program__id(xdp_multiprog__main_prog(mp)), c->ifname,
		       xdp_program__id(l->xp), xdp_multiprog__program_count(mp),
		       xdp_multiprog__program_count(mp) == 1 ? "" : "s");
	xdp_multiprog__close(mp);
	return 0;
}

static int attach(struct load *l)
{
	struct load_cfg *c = l->cfg;
	const char *prog = c->bare ? "ppb_xdp_bare" : "ppb_xdp_act";

	if (existing_prog(l))
		return -EBUSY;
	if (c->multiprog)
		return attach_multiprog(l, prog);
	l->link = xdpo_attach(l->x, prog, c->ifindex, c->skb);
	if (l->link < 0) {
		pr_err("cannot attach XDP (%s mode) to %s: %s\n", c->skb ? "generic" : "native",
		       c->ifname, strerror(-l->link));
		return l->link;
	}
	return 0;
}

static void detach(struct load *l)
{
	if (l->link >= 0)
		close(l->link);
	l->link = -1;
	if (l->xp) {
		xdp_program__detach(l->xp, l->cfg->ifindex,
				    l->cfg->skb ? XDP_MODE_SKB : XDP_MODE_NATIVE, 0);
		xdp_program__close(l->xp);
		l->xp = NULL;
	}
	reaper_stop(&l->reaper);
}

/* ---- reporting ------------------------------------------------------------ */

struct rates {
	uint64_t packets, bytes, timed_ns, timed_elems;
};

static void stat_delta(const struct ppb_xdp_stats *a, const struct ppb_xdp_stats *b,
		       struct rates *r)
{
	r->packets = b->packets - a->packets;
	r->bytes = b->bytes - a->bytes;
	r->timed_ns = b->timed_ns - a->timed_ns;
	r->timed_elems = b->timed_elems - a->timed_elems;
}

static double cycles_per(const struct load *l, const struct rates *r)
{
	return r->timed_elems ? tsc_ns_to_cycles(&l->tsc, (double)r->timed_ns / r->timed_elems)
			      : NAN;
}

static void print_rate_row(const struct load *l, const char *when, const char *cpu,
			   const struct rates *r, double secs)
{
	char pk[32], cyc[16];
	double c = cycles_per(l, r);

	if (isnan(c))
		snprintf(cyc, sizeof(cyc), "-");
	else
		snprintf(cyc, sizeof(cyc), "%.1f", c);
	printf("%-6s %-9s %14s %10.1f %11s\n", when, cpu, fmt_count(r->packets / secs, pk, 32),
	       r->bytes * 8 / secs / 1e6, cyc);
}

static void json_rates(struct json *j, const struct load *l, const struct rates *r, double secs)
{
	json_u64(j, "packets", r->packets);
	json_double(j, "pps", r->packets / secs);
	json_u64(j, "bytes", r->bytes);
	json_double(j, "bps", r->bytes * 8 / secs);
	json_double(j, "cycles_per_packet", cycles_per(l, r));
}

static void report_cpus(struct load *l, struct ppb_xdp_stats **a, struct ppb_xdp_stats **b,
			double secs, const char *when, struct rates *tot)
{
	const char *second = l->cfg->action == PPB_ACT_CPU ? "cpumap" : "egress";
	const char *roles[2] = { "", l->cfg->action == PPB_ACT_CPU ? "cpumap " : "egress " };
	char name[32];

	memset(tot, 0, sizeof(*tot));
	if (l->j)
		json_arr_begin(l->j, "per_cpu");
	for (int r = 0; r < 2; r++) {
		for (int c = 0; c < l->nr_cpus; c++) {
			struct rates x;

			stat_delta(&a[r][c], &b[r][c], &x);
			if (!x.packets)
				continue;
			snprintf(name, sizeof(name), "%scpu%d", roles[r], c);
			print_rate_row(l, tot->packets || r ? "" : when, name, &x, secs);
			if (l->j) {
				json_obj_begin(l->j, NULL);
				json_u64(l->j, "cpu", c);
				json_str(l->j, "role", r ? second : "rx");
				json_rates(l->j, l, &x, secs);
				json_obj_end(l->j);
			}
			if (!r) {
				tot->packets += x.packets, tot->bytes += x.bytes;
				tot->timed_ns += x.timed_ns, tot->timed_elems += x.timed_elems;
			}
		}
	}
	if (l->j)
		json_arr_end(l->j);
}

static void report_errs(struct load *l, const struct ppb_xdp_errs *a, const struct ppb_xdp_errs *b,
			double secs)
{
	struct ppb_xdp_errs d = {};

	for (int c = 0; c < l->nr_cpus; c++) {
		d.exception += b[c].exception - a[c].exception;
		d.redirect_err += b[c].redirect_err - a[c].redirect_err;
		d.xmit_sent += b[c].xmit_sent - a[c].xmit_sent;
		d.xmit_drops += b[c].xmit_drops - a[c].xmit_drops;
		d.cpumap_drops += b[c].cpumap_drops - a[c].cpumap_drops;
	}
	printf("       errors/s: exception %.0f redirect %.0f | xmit/s %.0f, not taken %.0f | "
	       "cpumap queue full %.0f\n",
	       d.exception / secs, d.redirect_err / secs, d.xmit_sent / secs, d.xmit_drops / secs,
	       d.cpumap_drops / secs);
	if (!l->j)
		return;
	json_obj_begin(l->j, "errors");
	json_u64(l->j, "exception", d.exception);
	json_u64(l->j, "redirect_err", d.redirect_err);
	json_u64(l->j, "xmit_sent", d.xmit_sent);
	json_u64(l->j, "xmit_drops", d.xmit_drops);
	json_u64(l->j, "cpumap_drops", d.cpumap_drops);
	json_obj_end(l->j);
}

/* The device's pools and the pools our program's packets came from. */
static void report_pools(struct load *l, const struct obs_snapshot *d, double secs)
{
	char id[16];
	int n = 0;

	snap_fold_kind((struct obs_snapshot *)d, PPB_POOL_TEST_RUN, 4);
	if (l->j)
		json_arr_begin(l->j, "pools");
	for (int i = 0; i < d->nr_pools; i++) {
		const struct pool_snap *p = &d->pools[i];
		bool dev = p->info.ifindex == l->cfg->ifindex && pool_same_netns(&p->info);

		if ((!dev && !(p->info.flags & PPB_POOL_F_ELEMS)) || !counts_traffic(&p->total))
			continue;
		if (!n++)
			pool_header();
		if (p->folded)
			snprintf(id, sizeof(id), "x%d", p->folded);
		else
			snprintf(id, sizeof(id), "%u", p->info.id);
		pool_row("pool", id, &p->info, &p->total, secs,
			 path_known(d->fentry, p->info.flags));
		if (l->j)
			json_pool(l->j, p, d->fentry, l->cfg->per_cpu, d->nr_cpus, NAN);
	}
	if (l->j)
		json_arr_end(l->j);
}

static int read_stats(struct load *l, struct ppb_xdp_stats **st, struct ppb_xdp_errs *e)
{
	return xdpo_stats(l->x, PPB_ROLE_ACTION, st[0]) ?:
	       xdpo_stats(l->x, PPB_ROLE_SECOND, st[1]) ?: xdpo_errs(l->x, e);
}

static int alloc_stats(struct load *l, struct ppb_xdp_stats **st, struct ppb_xdp_errs **e)
{
	st[0] = calloc(l->nr_cpus, sizeof(**st));
	st[1] = calloc(l->nr_cpus, sizeof(**st));
	*e = calloc(l->nr_cpus, sizeof(**e));
	return st[0] && st[1] && *e ? 0 : -ENOMEM;
}

/* One report: from snapshot a to now; the summary is from the start. */
static int report(struct load *l, bool summary, uint64_t *packets)
{
	struct ppb_xdp_stats *now[2], **a = summary ? l->first : l->prev;
	struct obs_snapshot s = {}, d = {};
	struct ppb_xdp_errs *e;
	uint64_t t = now_ns();
	double secs = (t - (summary ? l->t0 : l->tprev)) / 1e9;
	char when[32];
	struct rates tot;

	if (alloc_stats(l, now, &e) || read_stats(l, now, e))
		return -ENOMEM;
	snprintf(when, sizeof(when), summary ? "total" : "%.1fs", (t - l->t0) / 1e9);
	if (l->j) {
		json_obj_begin(l->j, NULL);
		json_str(l->j, "type", summary ? "summary" : "interval");
		json_double(l->j, "time", (t - l->t0) / 1e9);
		json_double(l->j, "seconds", secs);
	}
	report_cpus(l, a, now, secs, when, &tot);
	if (tot.packets || summary)
		print_rate_row(l, tot.packets ? "" : when, "total", &tot, secs);
	if (l->j) {
		json_obj_begin(l->j, "total");
		json_rates(l->j, l, &tot, secs);
		json_obj_end(l->j);
	}
	report_errs(l, summary ? l->efirst : l->eprev, e, secs);
	if (l->obs) {
		obs_flush(l->obs);
		if (!obs_snapshot(l->obs, &s) &&
		    !snap_delta(summary ? &l->sfirst : &l->sprev, &s, &d))
			report_pools(l, &d, secs);
		snap_free(&d);
	}
	if (l->j) {
		json_obj_end(l->j);
		json_flush_line(l->j);
	}
	*packets = 0;
	for (int c = 0; c < l->nr_cpus; c++)
		*packets += now[0][c].packets - l->first[0][c].packets;
	if (!summary) {
		for (int r = 0; r < 2; r++)
			free(l->prev[r]), l->prev[r] = now[r];
		free(l->eprev);
		l->eprev = e;
		snap_free(&l->sprev);
		l->sprev = s;
		l->tprev = t;
	} else {
		free(now[0]), free(now[1]), free(e);
		snap_free(&s);
	}
	return 0;
}

static void rate_header(void)
{
	printf("%-6s %-9s %14s %10s %11s\n", "time", "cpu", "packets/s", "Mbit/s", "cycles/pkt");
}

static void banner(struct load *l)
{
	struct load_cfg *c = l->cfg;
	uint64_t f = 0;
	char tgt[48] = "";

	if (ethtool_driver(c->ifname, l->driver, sizeof(l->driver)))
		snprintf(l->driver, sizeof(l->driver), "unknown");
	genl_xdp_features(c->ifindex, &f);
	if (c->action == PPB_ACT_REDIRECT)
		snprintf(tgt, sizeof(tgt), " %s%s", c->target,
			 c->egress_drop ? " (egress drop)" : "");
	if (c->action == PPB_ACT_CPU)
		snprintf(tgt, sizeof(tgt), " %d (remote %s)", c->cpu,
			 c->remote_action == XDP_DROP	? "drop"
			 : c->remote_action == XDP_PASS ? "pass"
							: c->remote_dev);
	printf("ppbench load %s (ifindex %d, driver %s, native XDP %s): %s%s, %s mode, %s\n",
	       c->ifname, c->ifindex, l->driver, f & PPB_XDP_ACT_BASIC ? "yes" : "no",
	       action_names[c->action], tgt, c->skb ? "generic" : "native",
	       c->multiprog ? "libxdp" : "bpf_link");
	if (l->obs)
		printf("observer: %s backend%s%s; cycles/pkt: TSC cycles per packet, NAPI polls\n",
		       obs_backend_name(l->obs), obs_fentry_reason(l->obs) ? ", " : "",
		       obs_fentry_reason(l->obs) ? obs_fentry_reason(l->obs) : "");
	if (l->obs && obs_not_counted(l->obs))
		printf("  not counted: %s\n", obs_not_counted(l->obs));
	if (c->bare)
		printf("bare program: no statistics (reference for overhead measurements)\n");
	rate_header();
}

static int init_state(struct load *l)
{
	if (alloc_stats(l, l->first, &l->efirst) || alloc_stats(l, l->prev, &l->eprev))
		return -ENOMEM;
	if (read_stats(l, l->first, l->efirst) || read_stats(l, l->prev, l->eprev))
		return -EIO;
	if (l->obs && (obs_snapshot(l->obs, &l->sfirst) || obs_snapshot(l->obs, &l->sprev)))
		return -EIO;
	l->t0 = l->tprev = now_ns();
	return 0;
}

static void drain(void *obs)
{
	obs_drain(obs);
}

static int run_loop(struct load *l)
{
	struct ticker t;
	uint64_t packets = 0;
	enum tick k;
	int err;

	err = ticker_open(&t, l->cfg->interval);
	while (!err && (k = l->obs ? ticker_wait_idle(&t, OBS_DRAIN_S, drain, l->obs)
				   : ticker_wait(&t)) == TICK_INTERVAL) {
		l->intervals++;
		if (!l->cfg->bare)
			err = report(l, false, &packets);
		if (l->cfg->count && packets >= l->cfg->count)
			break;
		if (l->cfg->duration && (now_ns() - l->t0) / 1e9 >= l->cfg->duration - 1e-3)
			break;
	}
	ticker_close(&t);
	return err;
}

static void free_state(struct load *l)
{
	for (int r = 0; r < 2; r++)
		free(l->first[r]), free(l->prev[r]);
	free(l->efirst);
	free(l->eprev);
	snap_free(&l->sfirst);
	snap_free(&l->sprev);
}

int load_main(struct load_cfg *cfg)
{
	struct load l = { .cfg = cfg,
			  .link = -1,
			  .nr_cpus = nr_possible_cpus(),
			  .reaper = { .pid = -1, .fd = -1 } };
	uint64_t packets;
	int err;

	if (l.nr_cpus < 0)
		return EXIT_FAIL;
	tsc_calibrate(&l.tsc);
	if (cfg->json && !(l.j = json_open(cfg->json, false)))
		return EXIT_FAIL;
	err = open_objects(&l) ?: setup_maps(&l) ?: attach(&l) ?: init_state(&l);
	if (!err) {
		banner(&l);
		err = run_loop(&l);
		if (!err && !cfg->bare) {
			printf("summary: %.1f s, %d intervals\n", (now_ns() - l.t0) / 1e9,
			       l.intervals);
			rate_header();
			report(&l, true, &packets);
		}
	}
	detach(&l);
	free_state(&l);
	xdpo_close(l.x);
	obs_close(l.obs);
	if (json_close(l.j))
		err = -EIO;
	return err == -EBUSY ? EXIT_FAIL : err ? EXIT_FAIL : EXIT_OK;
}
