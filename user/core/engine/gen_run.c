// SPDX-License-Identifier: GPL-2.0
/* The sender of ppbench gen: live-frames threads, one per CPU, and their reports. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "engine/gen_run.h"
#include "loader/kfeatures.h"
#include "loader/xdpobj.h"
#include "model/pkt.h"
#include "sys/log.h"
#include "sys/ticker.h"
#include "sys/util.h"

/* ---- the sending threads -------------------------------------------------- */

#define CHUNK 65536 /* frames per BPF_PROG_RUN: short enough to stop promptly */
/* The redirect-only program: the threads count the frames they push. */
#define GEN_PROG "ppb_xdp_gen_bare"

struct sender {
	pthread_t tid;
	struct gen *g;
	int cpu;
	uint64_t quota; /* 0: unlimited */
	_Atomic uint64_t sent;
	uint64_t t_end; /* when its last frame went */
	int err;
};

struct gen {
	struct gen_cfg *cfg;
	struct xdpo *x;
	uint8_t pkt[PKT_MAX_SIZE];
	uint32_t len;
	_Atomic bool stop;
	struct sender *s;
	int nr;
	const struct gen_sink *sink;
	uint64_t t0;
	int pin_link;
};

static void *send_loop(void *arg)
{
	struct sender *s = arg;
	struct gen *g = s->g;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		s->err = -EINVAL;
		return NULL;
	}
	while (!atomic_load(&g->stop) && (!s->quota || s->sent < s->quota)) {
		uint64_t left = s->quota ? s->quota - s->sent : CHUNK;
		uint32_t n = left < CHUNK ? (uint32_t)left : CHUNK;

		s->err = xdpo_live_run(g->x, GEN_PROG, g->cfg->batch, n, g->pkt, g->len, NULL);
		if (s->err) {
			atomic_store(&g->stop, true);
			break;
		}
		atomic_fetch_add(&s->sent, n);
	}
	s->t_end = now_ns();
	return NULL;
}

static int start_senders(struct gen *g)
{
	uint64_t per = g->cfg->count / g->cfg->nr_cpus, extra = g->cfg->count % g->cfg->nr_cpus;
	int i = 0, err;

	g->s = calloc(g->cfg->nr_cpus, sizeof(*g->s));
	if (!g->s)
		return -ENOMEM;
	for (int cpu = 0; cpu < gen_possible_cpus(); cpu++) {
		if (!g->cfg->cpus[cpu])
			continue;
		g->s[i] = (struct sender){ .g = g, .cpu = cpu };
		g->s[i].quota = g->cfg->count ? per + (i < (int)extra) : 0;
		/* pthread_create returns its error; it does not set errno. */
		err = pthread_create(&g->s[i].tid, NULL, send_loop, &g->s[i]);
		if (err) {
			pr_err("cannot start the sending thread of CPU %d: %s\n", cpu,
			       strerror(err));
			return -err;
		}
		g->nr = ++i;
	}
	return 0;
}

static bool all_done(const struct gen *g)
{
	for (int i = 0; i < g->nr; i++)
		if (!g->s[i].quota || g->s[i].sent < g->s[i].quota)
			return atomic_load(&g->stop);
	return true;
}

/* ---- reporting ------------------------------------------------------------ */

static void read_totals(struct gen *g, struct gen_totals *t)
{
	int n = nr_possible_cpus(); /* > 0: xdpo_open() checked it */
	struct ppb_xdp_errs e[n];

	memset(t, 0, sizeof(*t));
	for (int i = 0; i < g->nr; i++)
		t->frames += atomic_load(&g->s[i].sent);
	if (xdpo_errs(g->x, e))
		return;
	for (int c = 0; c < n; c++) {
		t->taken += e[c].xmit_sent;
		t->not_taken += e[c].xmit_drops;
		t->redirect_err += e[c].redirect_err;
	}
}

/* The interval from totals a to b: per CPU, what it sent since prev_sent. */
static void report_interval(struct gen *g, const struct gen_totals *a, const struct gen_totals *b,
			    double secs, double when, uint64_t *prev_sent)
{
	uint64_t sent[PPB_MAX_CPUS];
	int cpu[PPB_MAX_CPUS];

	for (int i = 0; i < g->nr; i++) {
		uint64_t now = atomic_load(&g->s[i].sent);

		cpu[i] = g->s[i].cpu;
		sent[i] = now - prev_sent[i];
		prev_sent[i] = now;
	}
	g->sink->interval(g->sink->ctx, a, b, secs, when, g->nr, cpu, sent);
}

/* Frames are pushed but none leaves: say why instead of reporting 0 pps. */
static int check_flow(struct gen *g, const struct gen_totals *t)
{
	if (!t->frames || t->taken || !t->redirect_err)
		return 0;
	pr_err("frames are not leaving %s: %llu redirect errors and none sent (does the "
	       "interface take XDP frames?)\n",
	       g->cfg->ifname, (unsigned long long)t->redirect_err);
	return -EIO;
}

static int run(struct gen *g)
{
	uint64_t prev_sent[PPB_MAX_CPUS] = {}, last = g->t0, t;
	struct gen_totals a = {}, b;
	bool checked = false;
	struct ticker tk;
	int err = ticker_open(&tk, 0.05);

	while (!err && ticker_wait(&tk) == TICK_INTERVAL) {
		t = now_ns();
		read_totals(g, &b);
		if (!checked && b.frames >= 1000) {
			err = check_flow(g, &b);
			checked = true;
		}
		if ((t - last) / 1e9 >= g->cfg->interval - 1e-3) {
			report_interval(g, &a, &b, (t - last) / 1e9, (t - g->t0) / 1e9, prev_sent);
			a = b;
			last = t;
		}
		if (all_done(g) || (g->cfg->duration && (t - g->t0) / 1e9 >= g->cfg->duration))
			break;
	}
	ticker_close(&tk);
	return err;
}

/* The senders' time, from the start to the last frame: not the reporting
 * loop's, which notices the end of a --count run only at its next tick. */
static double send_secs(const struct gen *g)
{
	uint64_t t = g->t0;

	for (int i = 0; i < g->nr; i++)
		if (g->s[i].t_end > t)
			t = g->s[i].t_end;
	return (t - g->t0) / 1e9;
}

static int stop_senders(struct gen *g)
{
	int err = 0;

	atomic_store(&g->stop, true);
	for (int i = 0; i < g->nr; i++) {
		pthread_join(g->s[i].tid, NULL);
		if (g->s[i].err && !err) {
			err = g->s[i].err;
			pr_err("BPF_PROG_RUN on CPU %d failed: %s\n", g->s[i].cpu, strerror(-err));
		}
	}
	return err;
}

int gen_main(struct gen_cfg *cfg, const struct gen_sink *sink)
{
	/* The frames pushed are counted here; the program counts nothing per frame,
	 * and only the xdp tracepoints (per bulk of up to 16, or per error) report. */
	struct xdpo_opts o = { .progs = XDPO_GEN_BARE,
			       .gen_ifindex = cfg->ifindex,
			       .errors = !cfg->bare,
			       .xmits = !cfg->bare };
	struct gen g = { .cfg = cfg, .pin_link = -1, .sink = sink };
	struct gen_totals t;
	int err, len;

	len = pkt_build_udp(&cfg->spec, g.pkt, sizeof(g.pkt));
	if (len < 0 || ppb_probe_live_frames()) {
		pr_err(len < 0 ? "cannot build the frame\n"
			       : "this kernel has no live-frames BPF_PROG_RUN: gen needs it\n");
		return EXIT_FAIL;
	}
	g.len = len;
	if (xdpo_open(&g.x, &o))
		return EXIT_FAIL;
	xdpo_set_err_filter(g.x, cfg->ifindex);
	xdpo_track_prog(g.x, PPB_ROLE_GEN, GEN_PROG);
	err = xdpo_attach_tracing(g.x);
	g.pin_link = xdpo_pin_dispatcher(g.x, GEN_PROG);
	if (!err) {
		sink->plan(sink->ctx, &cfg->spec, cfg->count, cfg->batch);
		g.t0 = now_ns();
		err = start_senders(&g);
		err = err ?: run(&g);
		err = stop_senders(&g) ?: err;
		read_totals(&g, &t);
		sink->summary(sink->ctx, &t, send_secs(&g), g.nr);
	}
	xdpo_unpin_dispatcher(g.pin_link);
	free(g.s);
	xdpo_close(g.x);
	return err ? EXIT_FAIL : EXIT_OK;
}
