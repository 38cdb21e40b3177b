// SPDX-License-Identifier: GPL-2.0
/* The level probe: a page_pool-free kernel loop timed next to each bench setup. */
#include <math.h>
#include <stdlib.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "loader/kfeatures.h"
#include "loader/levelprobe.h"
#include "model/stats.h"
#include "sys/util.h"
#include "probe.skel.h"

/* Loaded once per process: every setup probes, and a load costs more than a probe. */
static struct probe_bpf *skel;
static int load_err;

double level_probe_ns(void)
{
	unsigned char pkt[64] = { [12] = 0x08, [13] = 0x00, [14] = 0x45 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = LEVEL_REPEAT);
	double v[LEVEL_ROUNDS];

	if (!skel && !load_err)
		skel = ppb_probe_xdp_load(&load_err);
	if (!skel)
		return NAN;
	for (int i = 0; i < LEVEL_ROUNDS; i++) {
		uint64_t t = now_ns();
		double wall;

		if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.ppb_probe_xdp), &o))
			return NAN;
		/*
		 * The kernel's duration leaves out the time the loop yielded the
		 * CPU, but is whole ns per run; wall time is finer but counts a
		 * yield in. Wall time where it agrees with the kernel's, else the
		 * middle of the kernel's ns.
		 */
		wall = (double)(now_ns() - t) / LEVEL_REPEAT;
		v[i] = wall < o.duration + 1.0 ? wall : o.duration + 0.5;
	}
	return median_of(v, LEVEL_ROUNDS);
}

void level_probe_close(void)
{
	probe_bpf__destroy(skel);
	skel = NULL;
	load_err = 0;
}
