// SPDX-License-Identifier: GPL-2.0
/* ppbench load: attach, report per interval, detach on every exit path. */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>
#include <xdp/libxdp.h>
#include "engine/load_run.h"
#include "instr/guest_profile.h"
#include "loader/kfeatures.h"
#include "loader/observer.h"
#include "loader/xdpobj.h"
#include "sys/cpus.h"
#include "sys/guardian.h"
#include "sys/log.h"
#include "sys/nl.h"
#include "sys/ticker.h"
#include "sys/tsc_clock.h"
#include "sys/util.h"

/* A pool-state sample every 64 packets per CPU at least, every half ring of
 * the pool if that is more (bpf/xdp.bpf.c). */
#define PROOF_SHIFT 6

/*
 * What our BPF programs cost per run, from the kernel's BPF run-time stats
 * (BPF_ENABLE_STATS: on while the returned fd is open, so they go off when
 * the process ends, however it ends).
 */
#define PROGCOST_MAX 32

struct prog_costs {
	int stats_fd; /* holds the stats on (-1: off) */
	int n;
	int fd[PROGCOST_MAX];
	struct prog_cost first[PROGCOST_MAX]; /* at progcost_start() */
};

/* Follow every loaded program of obj. */
static void progcost_add(struct prog_costs *pc, struct bpf_object *obj)
{
	struct bpf_program *p;

	if (!obj)
		return;
	bpf_object__for_each_program(p, obj) {
		if (bpf_program__fd(p) < 0 || pc->n >= PROGCOST_MAX)
			continue;
		pc->fd[pc->n] = bpf_program__fd(p);
		snprintf(pc->first[pc->n].name, sizeof(pc->first[0].name), "%s",
			 bpf_program__name(p));
		pc->n++;
	}
}

static int read_one(int fd, struct prog_cost *c)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	c->run_ns = info.run_time_ns;
	c->runs = info.run_cnt;
	return 0;
}

/* The counters now, as the baseline. */
static int progcost_start(struct prog_costs *pc)
{
	for (int i = 0; i < pc->n; i++)
		if (read_one(pc->fd[i], &pc->first[i]))
			return -EIO;
	return 0;
}

/* Each program's runs and time since progcost_start(), into out[pc->n]. */
static int progcost_read(const struct prog_costs *pc, struct prog_cost *out)
{
	for (int i = 0; i < pc->n; i++) {
		struct prog_cost now;

		if (read_one(pc->fd[i], &now))
			return -EIO;
		out[i] = pc->first[i];
		out[i].run_ns = now.run_ns - pc->first[i].run_ns;
		out[i].runs = now.runs - pc->first[i].runs;
	}
	return 0;
}

/* The programs' counts at one time: per CPU, of both roles and errors; the observer's pools. */
struct sample {
	struct ppb_xdp_stats *st[2]; /* ACTION, SECOND */
	struct ppb_xdp_errs *e;
	struct obs_snapshot s;
};

struct load {
	struct load_cfg *cfg;
	struct observer *obs;
	struct xdpo *x;
	/*
	 * The attached program: a bpf_link (the kernel removes it if we die), or
	 * libxdp's dispatcher (--multiprog), which attaches through netlink: then
	 * a reaper, a guardian's child, removes it if we die.
	 */
	int link;
	struct xdp_program *xp;
	struct guardian reaper;
	struct tsc_info tsc;
	int nr_cpus;
	struct sample first, prev;
	const struct load_sink *sink;
	uint64_t t0, tprev;
	int intervals;
	char driver[64];
	struct prog_costs pc;
};

static const char *const action_names[] = { "drop", "pass", "tx", "redirect", "cpu" };

static int open_objects(struct load *l)
{
	struct load_cfg *c = l->cfg;
	struct obs_opts oo = { .no_fentry = c->backend == OBS_WANT_TRACEPOINT };
	/* --bare: the reference program alone, no tracepoint of ours beside it. */
	struct xdpo_opts o = { .progs = XDPO_LOAD,
			       .action = c->action,
			       .remote_action = c->remote_action,
			       .frags = c->frags,
			       .count_bytes = true,
			       .second_stage = c->action == PPB_ACT_CPU || c->egress_drop,
			       .cpumap_timing = c->action == PPB_ACT_CPU && !c->bare,
			       .napi_clock = !c->bare,
			       .errors = !c->bare,
			       .xmits = !c->bare && (c->action == PPB_ACT_REDIRECT ||
						     c->remote_action == XDP_REDIRECT),
			       .cpumap_drops = c->action == PPB_ACT_CPU && !c->bare };

	if (!c->bare && c->paths) {
		if (obs_open(&l->obs, &oo) || obs_start(l->obs))
			return -EINVAL;
		o.obs = l->obs;
		o.progs = XDPO_PATHS | XDPO_CALIB;
	}
	if (xdpo_open(&l->x, &o))
		return -EINVAL;
	/* The observer's samplers need virt_to_page; without it no pool is found. */
	if (l->obs && xdpo_calibrate(l->x))
		pr_warn("cannot map packets to their page_pool (%s): no path mix for them\n",
			xdpo_calib_error(l->x));
	xdpo_set_proof(l->x, l->obs != NULL, PROOF_SHIFT, PPB_ROLE_ACTION);
	return l->obs ? obs_set_elems_active(l->obs, true) : 0;
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
	xdpo_set_err_filter(l->x, c->action == PPB_ACT_REDIRECT	     ? c->target_ifindex
				  : c->remote_action == XDP_REDIRECT ? c->remote_ifindex
								     : 0);
	return err ?: xdpo_attach_tracing(l->x);
}

/* The XDP program load attaches: bare, counting, or counting and sampling pools. */
static const char *xdp_prog(const struct load *l)
{
	return l->cfg->bare ? "ppb_xdp_bare" : l->obs ? "ppb_xdp_paths" : "ppb_xdp_load";
}

/* Our program, if it is still on the interface: as its only program
 * (libxdp's legacy fallback) or as one of its dispatcher's. */
static void remove_if_ours(int ifindex, uint32_t prog_id)
{
	struct xdp_multiprog *mp = xdp_multiprog__get_from_ifindex(ifindex);
	struct xdp_program *p = NULL;
	int err = -ENOENT;

	if (libxdp_get_error(mp))
		return;
	if (xdp_multiprog__is_legacy(mp)) {
		p = xdp_multiprog__main_prog(mp);
		if (p && xdp_program__id(p) == prog_id)
			err = xdp_multiprog__detach(mp);
	} else {
		while ((p = xdp_multiprog__next_prog(p, mp)) && xdp_program__id(p) != prog_id)
			;
		if (p)
			err = xdp_program__detach(p, ifindex, xdp_multiprog__attach_mode(mp), 0);
	}
	if (!err)
		pr_warn("removed XDP program %u that a dead ppbench left on ifindex %d\n", prog_id,
			ifindex);
	else if (err != -ENOENT)
		pr_err("cannot remove XDP program %u that a dead ppbench left on ifindex %d: %s\n",
		       prog_id, ifindex, strerror(-err));
	xdp_multiprog__close(mp);
}

/* The reaper's child: waits for the pipe's end-of-file, then removes the program. */
struct reaper_args {
	int ifindex;
	uint32_t prog_id;
};

static void reaper_main(void *ctx)
{
	const struct reaper_args *a = ctx;
	char c;

	while (read(3, &c, 1) < 0 && errno == EINTR)
		;
	remove_if_ours(a->ifindex, a->prog_id);
}

/* An XDP program already there: refuse, or (--force) remove it if we can. */
static int existing_prog(const struct load_cfg *c)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);

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
	struct reaper_args ra = { c->ifindex };
	struct xdp_multiprog *mp;
	uint32_t dispatcher_id;
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
	ra.prog_id = xdp_program__id(l->xp);
	err = guardian_fork(&l->reaper, "ppbench-reaper", reaper_main, &ra);
	if (err)
		pr_warn("no watcher for a killed ppbench (%s): if it is killed, remove the program "
			"with 'ip link set %s xdp off'\n",
			strerror(-err), c->ifname);
	mp = xdp_multiprog__get_from_ifindex(c->ifindex);
	if (libxdp_get_error(mp))
		return 0;
	dispatcher_id = xdp_program__id(xdp_multiprog__main_prog(mp));
	l->sink->libxdp(l->sink->ctx, xdp_multiprog__is_legacy(mp), dispatcher_id,
			xdp_program__id(l->xp), xdp_multiprog__program_count(mp));
	/* The xdp tracepoints name the program the driver runs: the dispatcher. */
	xdpo_set_action_prog_id(l->x, dispatcher_id);
	xdp_multiprog__close(mp);
	return 0;
}

static int attach(struct load *l)
{
	struct load_cfg *c = l->cfg;

	if (existing_prog(c))
		return -EBUSY;
	if (c->multiprog)
		return attach_multiprog(l, xdp_prog(l));
	l->link = xdpo_attach(l->x, xdp_prog(l), c->ifindex, c->skb);
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
	if (l->xp) {
		xdp_program__detach(l->xp, l->cfg->ifindex,
				    l->cfg->skb ? XDP_MODE_SKB : XDP_MODE_NATIVE, 0);
		xdp_program__close(l->xp);
	}
	guardian_reap(&l->reaper);
}

/* ---- reporting ------------------------------------------------------------ */

static void stat_delta(const struct ppb_xdp_stats *a, const struct ppb_xdp_stats *b,
		       struct load_rates *r)
{
	r->packets = b->packets - a->packets;
	r->bytes = b->bytes - a->bytes;
	r->timed_ns = b->timed_ns - a->timed_ns;
	r->timed_elems = b->timed_elems - a->timed_elems;
}

static void errs_delta(const struct ppb_xdp_errs *a, const struct ppb_xdp_errs *b, int nr_cpus,
		       struct ppb_xdp_errs *d)
{
	memset(d, 0, sizeof(*d));
	for (int c = 0; c < nr_cpus; c++) {
		d->exception += b[c].exception - a[c].exception;
		d->redirect_err += b[c].redirect_err - a[c].redirect_err;
		d->xmit_sent += b[c].xmit_sent - a[c].xmit_sent;
		d->xmit_drops += b[c].xmit_drops - a[c].xmit_drops;
		d->cpumap_drops += b[c].cpumap_drops - a[c].cpumap_drops;
	}
}

/* The programs' counts now into x (its snapshot left empty): -ENOMEM, or -EIO. */
static int read_sample(struct load *l, struct sample *x)
{
	x->st[0] = calloc(l->nr_cpus, sizeof(*x->st[0]));
	x->st[1] = calloc(l->nr_cpus, sizeof(*x->st[1]));
	x->e = calloc(l->nr_cpus, sizeof(*x->e));
	if (!x->st[0] || !x->st[1] || !x->e)
		return -ENOMEM;
	if (xdpo_stats(l->x, PPB_ROLE_ACTION, x->st[0]) ||
	    xdpo_stats(l->x, PPB_ROLE_SECOND, x->st[1]) || xdpo_errs(l->x, x->e))
		return -EIO;
	return 0;
}

static void sample_free(struct sample *x)
{
	free(x->st[0]);
	free(x->st[1]);
	free(x->e);
	snap_free(&x->s);
}

/* The interval from sample a to now: per CPU and role, summed errors. */
static int interval_data(struct load *l, const struct sample *a, const struct sample *now,
			 struct load_interval *iv)
{
	for (int r = 0; r < 2; r++) {
		iv->cpu[r] = calloc(l->nr_cpus, sizeof(*iv->cpu[r]));
		if (!iv->cpu[r])
			return -ENOMEM;
		for (int c = 0; c < l->nr_cpus; c++)
			stat_delta(&a->st[r][c], &now->st[r][c], &iv->cpu[r][c]);
	}
	errs_delta(a->e, now->e, l->nr_cpus, &iv->errs);
	return 0;
}

/* One report: from snapshot a to now; the summary is from the start. */
static int report(struct load *l, bool summary, uint64_t *packets)
{
	struct sample now = {}, *a = summary ? &l->first : &l->prev;
	struct obs_snapshot d = {};
	uint64_t t = now_ns();
	struct load_interval iv = { .summary = summary,
				    .intervals = l->intervals,
				    .time = (t - l->t0) / 1e9,
				    .secs = (t - (summary ? l->t0 : l->tprev)) / 1e9,
				    .nr_cpus = l->nr_cpus };

	if (read_sample(l, &now) || interval_data(l, a, &now, &iv)) {
		free(iv.cpu[0]), free(iv.cpu[1]);
		sample_free(&now);
		return -ENOMEM;
	}
	if (l->obs) {
		obs_flush(l->obs);
		if (!obs_snapshot(l->obs, &now.s) && !snap_delta(&a->s, &now.s, &d))
			iv.d = &d;
	}
	l->sink->interval(l->sink->ctx, &iv);
	snap_free(&d);
	free(iv.cpu[0]), free(iv.cpu[1]);
	*packets = 0;
	for (int c = 0; c < l->nr_cpus; c++)
		*packets += now.st[0][c].packets - l->first.st[0][c].packets;
	if (summary) {
		sample_free(&now);
		return 0;
	}
	sample_free(&l->prev);
	l->prev = now;
	l->tprev = t;
	return 0;
}

static void banner(struct load *l)
{
	struct load_cfg *c = l->cfg;
	struct obs_desc od;
	uint64_t f = 0;
	char tgt[48] = "";
	struct load_setup st = { .driver = l->driver,
				 .action = action_names[c->action],
				 .target = tgt,
				 .skb = c->skb,
				 .multiprog = c->multiprog,
				 .bare = c->bare,
				 .tsc = &l->tsc };

	if (ethtool_driver(c->ifname, l->driver, sizeof(l->driver)))
		snprintf(l->driver, sizeof(l->driver), "unknown");
	genl_xdp_features(c->ifindex, &f);
	st.native_xdp = f & PPB_XDP_ACT_BASIC;
	if (c->action == PPB_ACT_REDIRECT)
		snprintf(tgt, sizeof(tgt), " %s%s", c->target,
			 c->egress_drop ? " (egress drop)" : "");
	if (c->action == PPB_ACT_CPU)
		snprintf(tgt, sizeof(tgt), " %d (remote %s)", c->cpu,
			 c->remote_action == XDP_DROP	? "drop"
			 : c->remote_action == XDP_PASS ? "pass"
							: c->remote_dev);
	if (l->obs) {
		obs_describe(l->obs, &od);
		st.obs = &od;
	}
	l->sink->banner(l->sink->ctx, &st);
}

static int init_state(struct load *l)
{
	int err = read_sample(l, &l->first) ?: read_sample(l, &l->prev);

	if (err)
		return err;
	if (l->obs && (obs_snapshot(l->obs, &l->first.s) || obs_snapshot(l->obs, &l->prev.s)))
		return -EIO;
	l->t0 = l->tprev = now_ns();
	return 0;
}

static void drain(void *obs)
{
	obs_drain(obs);
}

/*
 * Everything the programs counted so far: packets of both roles and every
 * error; and for --action cpu the frames passed to the cpumap that have
 * neither run there nor been dropped at its queue (still in it).
 */
static int activity(struct load *l, uint64_t *sum, int64_t *queued)
{
	struct sample x = {};
	int64_t q = 0;
	int err = read_sample(l, &x);

	*sum = 0;
	for (int c = 0; !err && c < l->nr_cpus; c++) {
		const struct ppb_xdp_errs *e = &x.e[c];

		*sum += x.st[0][c].packets + x.st[1][c].packets;
		*sum += e->exception + e->redirect_err + e->xmit_sent + e->xmit_drops +
			e->cpumap_drops;
		q += x.st[0][c].packets - e->exception - e->redirect_err - x.st[1][c].packets -
		     e->cpumap_drops;
	}
	*queued = l->cfg->action == PPB_ACT_CPU ? q : 0;
	sample_free(&x);
	return err;
}

/*
 * --count is reached on the receiving CPU, while frames it passed on may still
 * sit in the cpumap's queue or a devmap's bulk: let the counts settle (two
 * reads 50 ms apart agree; at most LOAD_SETTLE_S) before the summary. Frames
 * known to be in the cpumap's queue are waited for up to LOAD_QUEUED_S: its
 * kthread can be kept off its CPU for longer than the counts take to agree.
 */
#define LOAD_SETTLE_S 1.0
#define LOAD_QUEUED_S 5.0
static void settle(struct load *l)
{
	uint64_t a, b = 0, t0 = now_ns();
	int64_t queued;

	if (activity(l, &a, &queued))
		return;
	for (;;) {
		usleep(50 * 1000);
		if (activity(l, &b, &queued) || (b == a && queued <= 0))
			return;
		if ((now_ns() - t0) / 1e9 >= (queued > 0 ? LOAD_QUEUED_S : LOAD_SETTLE_S))
			return;
		a = b;
	}
}

static int run_loop(struct load *l)
{
	struct ticker t;
	uint64_t packets = 0;
	enum tick k;
	int err;

	err = ticker_open(&t, l->cfg->interval);
	while (!err && (k = l->obs ? ticker_wait_idle(&t, OBS_CHECK_S, drain, l->obs)
				   : ticker_wait(&t)) == TICK_INTERVAL) {
		l->intervals++;
		if (!l->cfg->bare)
			err = report(l, false, &packets);
		if (l->cfg->count && packets >= l->cfg->count) {
			settle(l);
			break;
		}
		if (l->cfg->duration && (now_ns() - l->t0) / 1e9 >= l->cfg->duration - 1e-3)
			break;
	}
	ticker_close(&t);
	return err;
}

/* --prog-costs: the kernel's run-time stats on, and every program of ours followed. */
static int costs_start(struct load *l)
{
	int err;

	l->pc.stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (l->pc.stats_fd < 0) {
		err = -errno;
		pr_err("cannot turn on the kernel's BPF run-time stats: %s\n", strerror(-err));
		return err;
	}
	progcost_add(&l->pc, xdpo_object(l->x, 0));
	progcost_add(&l->pc, xdpo_object(l->x, 1));
	progcost_add(&l->pc, obs_object(l->obs));
	return progcost_start(&l->pc);
}

/* Per packet: divided by the runs of the attached XDP program (ours or libxdp's copy). */
static void costs_report(struct load *l)
{
	const char *xdp = xdp_prog(l);
	struct prog_cost c[PROGCOST_MAX];
	uint64_t packets = 0;

	if (progcost_read(&l->pc, c))
		return;
	for (int i = 0; i < l->pc.n; i++)
		if (!strcmp(c[i].name, xdp))
			packets += c[i].runs;
	l->sink->prog_costs(l->sink->ctx, c, l->pc.n, xdp, packets);
}

int load_main(struct load_cfg *cfg, const struct load_sink *sink)
{
	struct load l = { .cfg = cfg,
			  .nr_cpus = nr_possible_cpus(),
			  .link = -1,
			  .reaper = { .pid = -1, .fd = -1 },
			  .pc.stats_fd = -1,
			  .sink = sink };
	struct instr_window w = { INSTR_WHOLE };
	struct guest_prof prof;
	uint64_t packets = 0;
	char extra[32];
	int err;

	if (l.nr_cpus < 0)
		return EXIT_FAIL;
	/* vm --profile: before anything is translated for the window */
	guest_prof_arm();
	tsc_calibrate(&l.tsc);
	err = open_objects(&l) ?: setup_maps(&l) ?: attach(&l);
	/*
	 * vm --profile: the attached run is one window of everything the guest
	 * runs, per packet counted (no XDP attach or detach in it). It opens
	 * before the first counts are read (init_state), and after the symbols
	 * are written, which takes long enough for thousands of packets.
	 */
	snprintf(extra, sizeof(extra), "action=%s", action_names[cfg->action]);
	guest_prof_add(&prof, err ? 0 : guest_prof_tag("load", cfg->ifname, extra));
	guest_prof_bpf_syms(prof.tag);
	err = err ?: instr_begin(&w) ?: init_state(&l);
	if (!err && cfg->prog_costs)
		err = costs_start(&l);
	if (!err) {
		banner(&l);
		err = run_loop(&l);
		if (!err && !cfg->bare)
			report(&l, true, &packets);
	}
	err = instr_end(&w, packets, err);
	instr_remove(&prof.in);
	if (!err && cfg->prog_costs)
		costs_report(&l);
	if (l.pc.stats_fd >= 0)
		close(l.pc.stats_fd);
	detach(&l);
	sample_free(&l.first);
	sample_free(&l.prev);
	xdpo_close(l.x);
	obs_close(l.obs);
	return err ? EXIT_FAIL : EXIT_OK;
}
