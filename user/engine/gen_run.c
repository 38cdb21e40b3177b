// SPDX-License-Identifier: GPL-2.0
/* The sender of ppbench gen: live-frames threads, one per CPU, and their reports. */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "engine/gen_run.h"
#include "loader/kfeatures.h"
#include "loader/xdpobj.h"
#include "model/pkt.h"
#include "report/json.h"
#include "report/report.h"
#include "sys/log.h"
#include "sys/ticker.h"
#include "sys/util.h"

/* ---- the sending threads -------------------------------------------------- */

#define CHUNK 65536 /* frames per BPF_PROG_RUN: short enough to stop promptly */

struct sender {
	pthread_t tid;
	struct gen *g;
	int cpu;
	uint64_t quota; /* 0: unlimited */
	_Atomic uint64_t sent;
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
	struct json *j;
	uint64_t t0;
	int pin_link;
};

static void *send_loop(void *arg)
{
	struct sender *s = arg;
	struct gen *g = s->g;
	const char *prog = g->cfg->bare ? "ppb_xdp_gen_bare" : "ppb_xdp_gen";
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

		s->err = xdpo_live_run(g->x, prog, 0, g->cfg->batch, n, g->pkt, g->len, NULL);
		if (s->err) {
			atomic_store(&g->stop, true);
			break;
		}
		atomic_fetch_add(&s->sent, n);
	}
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

static uint64_t total_sent(const struct gen *g)
{
	uint64_t n = 0;

	for (int i = 0; i < g->nr; i++)
		n += atomic_load(&g->s[i].sent);
	return n;
}

static bool all_done(const struct gen *g)
{
	for (int i = 0; i < g->nr; i++)
		if (!g->s[i].quota || g->s[i].sent < g->s[i].quota)
			return atomic_load(&g->stop);
	return true;
}

/* ---- reporting ------------------------------------------------------------ */

struct gen_totals {
	uint64_t frames, taken, not_taken, redirect_err;
};

static void read_totals(struct gen *g, struct gen_totals *t)
{
	int n = nr_possible_cpus(); /* > 0: xdpo_open() checked it */
	struct ppb_xdp_errs e[n];

	memset(t, 0, sizeof(*t));
	t->frames = total_sent(g);
	if (xdpo_errs(g->x, e))
		return;
	for (int c = 0; c < n; c++) {
		t->taken += e[c].xmit_sent;
		t->not_taken += e[c].xmit_drops;
		t->redirect_err += e[c].redirect_err;
	}
}

static void print_interval(struct gen *g, const struct gen_totals *a, const struct gen_totals *b,
			   double secs, double when, const uint64_t *prev_sent)
{
	char buf[32];

	for (int i = 0; i < g->nr && !g->cfg->quiet; i++)
		printf("%-7.1f cpu%-3d %14s frames/s\n", when, g->s[i].cpu,
		       fmt_count((atomic_load(&g->s[i].sent) - prev_sent[i]) / secs, buf, 32));
	if (!g->cfg->quiet)
		printf("%-7.1f total  %14s frames/s | taken by %s %.0f/s, not taken %.0f/s, "
		       "redirect errors %.0f/s\n",
		       when, fmt_count((b->frames - a->frames) / secs, buf, 32), g->cfg->ifname,
		       (b->taken - a->taken) / secs, (b->not_taken - a->not_taken) / secs,
		       (b->redirect_err - a->redirect_err) / secs);
	if (!g->j)
		return;
	json_obj_begin(g->j, NULL);
	json_str(g->j, "type", "interval");
	json_double(g->j, "time", when);
	json_double(g->j, "seconds", secs);
	json_u64(g->j, "frames", b->frames - a->frames);
	json_double(g->j, "pps", (b->frames - a->frames) / secs);
	json_u64(g->j, "taken", b->taken - a->taken);
	json_u64(g->j, "not_taken", b->not_taken - a->not_taken);
	json_u64(g->j, "redirect_err", b->redirect_err - a->redirect_err);
	json_obj_end(g->j);
	json_flush_line(g->j);
}

static void print_summary(struct gen *g, const struct gen_totals *t, double secs)
{
	char a[32], b[32];

	printf("summary: %.2f s, %s frames of %zu bytes from %d CPU%s, %s frames/s; taken by %s "
	       "%llu, not taken %llu, redirect errors %llu\n",
	       secs, fmt_count(t->frames, a, 32), g->cfg->spec.size, g->nr, g->nr == 1 ? "" : "s",
	       fmt_count(secs > 0 ? t->frames / secs : 0, b, 32), g->cfg->ifname,
	       (unsigned long long)t->taken, (unsigned long long)t->not_taken,
	       (unsigned long long)t->redirect_err);
	if (!g->j)
		return;
	json_obj_begin(g->j, NULL);
	json_str(g->j, "type", "summary");
	json_double(g->j, "seconds", secs);
	json_u64(g->j, "frames", t->frames);
	json_double(g->j, "pps", secs > 0 ? t->frames / secs : 0);
	json_u64(g->j, "size", g->cfg->spec.size);
	json_u64(g->j, "taken", t->taken);
	json_u64(g->j, "not_taken", t->not_taken);
	json_u64(g->j, "redirect_err", t->redirect_err);
	json_obj_end(g->j);
	json_flush_line(g->j);
}

static void print_plan(const struct gen *g)
{
	const struct udp_spec *s = &g->cfg->spec;
	char sm[24], dm[24], si[64], di[64], cnt[32];

	format_mac(s->src_mac, sm, sizeof(sm));
	format_mac(s->dst_mac, dm, sizeof(dm));
	inet_ntop(s->src.family, &s->src.v4, si, sizeof(si));
	inet_ntop(s->dst.family, &s->dst.v4, di, sizeof(di));
	if (g->cfg->count)
		fmt_count(g->cfg->count, cnt, sizeof(cnt));
	else
		snprintf(cnt, sizeof(cnt), "UDP");
	printf("sending %s%s frames of %zu bytes on %s: %s %s:%u -> %s %s:%u, batch %u\n", cnt,
	       g->cfg->count ? " UDP" : "", s->size, g->cfg->ifname, sm, si, s->sport, dm, di,
	       s->dport, g->cfg->batch);
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
			print_interval(g, &a, &b, (t - last) / 1e9, (t - g->t0) / 1e9, prev_sent);
			for (int i = 0; i < g->nr; i++)
				prev_sent[i] = atomic_load(&g->s[i].sent);
			a = b;
			last = t;
		}
		if (all_done(g) || (g->cfg->duration && (t - g->t0) / 1e9 >= g->cfg->duration))
			break;
	}
	ticker_close(&tk);
	return err;
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

int gen_main(struct gen_cfg *cfg)
{
	struct xdpo_opts o = { .gen_ifindex = cfg->ifindex, .errors = true, .xmits = true };
	struct gen g = { .cfg = cfg, .pin_link = -1 };
	struct gen_totals t;
	struct stat st;
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
	stat("/proc/thread-self/ns/net", &st);
	xdpo_set_err_filter(g.x, cfg->ifindex, (uint32_t)st.st_ino);
	if (cfg->bare)
		xdpo_track_prog(g.x, PPB_ROLE_GEN, "ppb_xdp_gen_bare");
	err = xdpo_attach_tracing(g.x);
	g.pin_link = xdpo_pin_dispatcher(g.x, cfg->bare ? "ppb_xdp_gen_bare" : "ppb_xdp_gen");
	if (!err && cfg->json && !(g.j = json_open(cfg->json, false)))
		err = -EIO;
	if (!err) {
		print_plan(&g);
		g.t0 = now_ns();
		err = start_senders(&g);
		err = err ?: run(&g);
		err = stop_senders(&g) ?: err;
		read_totals(&g, &t);
		print_summary(&g, &t, (now_ns() - g.t0) / 1e9);
	}
	xdpo_unpin_dispatcher(g.pin_link);
	free(g.s);
	if (json_close(g.j))
		err = -EIO;
	xdpo_close(g.x);
	return err ? EXIT_FAIL : EXIT_OK;
}
