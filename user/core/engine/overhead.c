// SPDX-License-Identifier: GPL-2.0
/* What bench's timing leaves on the ring figure (bench --overhead, make bench). */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include "engine/bench_run.h"
#include "loader/kfeatures.h"
#include "loader/xdpobj.h"
#include "model/testrun_clock.h"
#include "model/stats.h"

#define OVH_PAIRS_MAX 1000

struct ovh_run {
	struct xdpo *x;
	uint8_t pkt[64];
	uint32_t n;
	double fixed_ns; /* the timed program's syscall cost outside the loop */
};

/* ns/frame of one syscall of PROG: the kernel's clock as bench reads it, or the wall. */
static double ns_per_frame(struct ovh_run *o, const char *prog, bool kernel_clock)
{
	uint32_t dur;
	double wall;

	if (xdpo_live_run_wall(o->x, prog, 64, o->n, o->pkt, sizeof(o->pkt), &dur, &wall))
		return NAN;
	if (kernel_clock)
		return testrun_clock_loop_ns(dur, o->n, wall, o->fixed_ns) / o->n;
	return wall / o->n;
}

/* 100 * (a - b) / b per pair, and its summary. */
static int pair_pcts(const double *a, const double *b, uint32_t n, double *pct, struct summary *s)
{
	for (uint32_t i = 0; i < n; i++)
		pct[i] = 100 * (a[i] - b[i]) / b[i];
	return summarize(pct, n, s);
}

/*
 * Three ways through the ring recipe (live-frames XDP_DROP, batch 64),
 * in turns whose order rotates so that a drift of the machine reaches all
 * alike: bench's timed run (the bare program, the kernel's test-run clock
 * as bench reads it), the same bare program timed from user space over the
 * whole syscall, and the counting program that proof runs and load carry
 * (per-CPU stats, sampled clock), timed the same way.
 */
static int run_pairs(struct ovh_run *o, uint32_t reps, double *timed, double *bare, double *cnt)
{
	for (uint32_t i = 0; i < reps; i++) {
		for (uint32_t k = 0; k < 3; k++) {
			switch ((i + k) % 3) {
			case 0:
				timed[i] = ns_per_frame(o, "ppb_xdp_bare", true);
				break;
			case 1:
				bare[i] = ns_per_frame(o, "ppb_xdp_bare", false);
				break;
			default:
				xdpo_begin_run(o->x, false, PPB_ROLE_ACTION);
				cnt[i] = ns_per_frame(o, "ppb_xdp_act", false);
			}
		}
		if (isnan(timed[i]) || isnan(bare[i]) || isnan(cnt[i]))
			return -EIO;
	}
	return 0;
}

int bench_overhead(struct bench_cfg *cfg, struct overhead_figs *out)
{
	struct xdpo_opts xo = { .progs = XDPO_ACT, .sample_shift = 10 };
	struct ovh_run o = { .pkt = { [12] = 0x08, [14] = 0x45 } };
	uint32_t reps = cfg->repeat < OVH_PAIRS_MAX ? cfg->repeat : OVH_PAIRS_MAX;
	double timed[OVH_PAIRS_MAX], bare[OVH_PAIRS_MAX], cnt[OVH_PAIRS_MAX];
	double p1[OVH_PAIRS_MAX], p2[OVH_PAIRS_MAX];
	int pins[2], err;
	cpu_set_t set;

	o.n = bench_loops(cfg, SC_RING) ? (uint32_t)bench_loops(cfg, SC_RING) : 5000000;
	CPU_ZERO(&set);
	CPU_SET(cfg->cpu, &set);
	if (ppb_probe_live_frames() || xdpo_open(&o.x, &xo))
		return -EINVAL;
	pins[0] = xdpo_pin_dispatcher(o.x, "ppb_xdp_act");
	pins[1] = xdpo_pin_dispatcher(o.x, "ppb_xdp_bare");
	sched_setaffinity(0, sizeof(set), &set);
	ns_per_frame(&o, "ppb_xdp_act", false); /* warm-up */
	ns_per_frame(&o, "ppb_xdp_bare", false);
	err = xdpo_live_fixed_ns(o.x, "ppb_xdp_bare", 64, o.n, o.pkt, sizeof(o.pkt), &o.fixed_ns);
	err = err ?: run_pairs(&o, reps, timed, bare, cnt);
	xdpo_unpin_dispatcher(pins[0]);
	xdpo_unpin_dispatcher(pins[1]);
	xdpo_close(o.x);
	if (err || summarize(timed, reps, &out->timed) || summarize(bare, reps, &out->bare) ||
	    summarize(cnt, reps, &out->counted) ||
	    pair_pcts(timed, bare, reps, p1, &out->timed_pct) ||
	    pair_pcts(cnt, bare, reps, p2, &out->counted_pct))
		return -EINVAL;
	out->frames = o.n;
	out->runs = reps;
	out->cpu = cfg->cpu;
	return 0;
}
