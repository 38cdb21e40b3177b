// SPDX-License-Identifier: GPL-2.0
/* Instrumentation overhead (bench --overhead, make bench). */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>
#include "engine/overhead.h"
#include "loader/kfeatures.h"
#include "loader/xdpobj.h"
#include "model/stats.h"
#include "sys/log.h"
#include "sys/util.h"

static double wall_ns_per_frame(struct xdpo *x, const char *prog, int ifindex, uint32_t n,
				const uint8_t *pkt, uint32_t len)
{
	uint64_t t0 = now_ns();

	if (xdpo_live_run(x, prog, ifindex, 64, n, pkt, len, NULL))
		return NAN;
	return (double)(now_ns() - t0) / n;
}

/*
 * The ring recipe with all of ppbench's per-packet work on (stats, sampled
 * timing) against the same verdict from a program with no maps and no
 * clock, alternating, timed from user space the same way for both.
 */
int bench_overhead(struct bench_cfg *cfg)
{
	struct xdpo_opts o = { .sample_shift = 10 };
	uint8_t pkt[64] = { [12] = 0x08, [14] = 0x45 };
	uint32_t n = cfg->loops ? (uint32_t)cfg->loops : 5000000, reps = cfg->repeat;
	double on[1000], bare[1000], pair[1000];
	struct summary son, sbare, spair;
	int pins[2];
	struct xdpo *x;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cfg->cpu, &set);
	if (ppb_probe_live_frames() || xdpo_open(&x, &o))
		return EXIT_FAIL;
	pins[0] = xdpo_pin_dispatcher(x, "ppb_xdp_act");
	pins[1] = xdpo_pin_dispatcher(x, "ppb_xdp_bare");
	sched_setaffinity(0, sizeof(set), &set);
	wall_ns_per_frame(x, "ppb_xdp_act", 0, n / 4, pkt, sizeof(pkt)); /* warm-up */
	/* Pairs in alternating order (on-bare, bare-on): a drift of the machine
	 * between the two runs of a pair cancels out over the pairs. */
	for (uint32_t i = 0; i < reps; i++) {
		xdpo_begin_run(x, false, PPB_ROLE_ACTION);
		if (i & 1)
			bare[i] = wall_ns_per_frame(x, "ppb_xdp_bare", 0, n, pkt, sizeof(pkt));
		on[i] = wall_ns_per_frame(x, "ppb_xdp_act", 0, n, pkt, sizeof(pkt));
		if (!(i & 1))
			bare[i] = wall_ns_per_frame(x, "ppb_xdp_bare", 0, n, pkt, sizeof(pkt));
		pair[i] = 100 * (on[i] - bare[i]) / bare[i];
	}
	xdpo_unpin_dispatcher(pins[0]);
	xdpo_unpin_dispatcher(pins[1]);
	xdpo_close(x);
	if (summarize(on, reps, &son) || summarize(bare, reps, &sbare) ||
	    summarize(pair, reps, &spair))
		return EXIT_FAIL;
	printf("instrumentation overhead, ring recipe (live-frames XDP_DROP, batch 64, %u frames "
	       "x %u runs, CPU %u):\n",
	       n, reps, cfg->cpu);
	printf("  with bench's stats + sampled timing  %8.3f ns/frame (median, CV %.1f%%)\n",
	       son.median, 100 * son.cv);
	printf("  bare program (no maps, no clock)     %8.3f ns/frame (median, CV %.1f%%)\n",
	       sbare.median, 100 * sbare.cv);
	printf("  overhead                             %+8.2f %% (median of %u pairs, %+.2f .. "
	       "%+.2f %%;\n                                         target <= 3 %%; reported, "
	       "not asserted)\n",
	       spair.median, reps, spair.min, spair.max);
	return EXIT_OK;
}
