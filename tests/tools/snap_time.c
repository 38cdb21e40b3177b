// SPDX-License-Identifier: GPL-2.0
/*
 * How long one observer snapshot takes with N pools in its maps: the maps
 * are filled with N records from user space (no pool behind them), then
 * obs_snapshot() is timed, 5 times. For the README's table; not a test.
 *
 *   snap-time [N]     (default PPB_MAX_POOLS, the table's room)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include "loader/observer.h"
#include "sys/cpus.h"
#include "sys/log_libbpf.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int fill(struct observer *o, int n)
{
	int nr_cpus = nr_possible_cpus();
	struct ppb_pool_counts *c = calloc(nr_cpus, sizeof(*c));
	struct ppb_pool_info pi = { .kind = PPB_POOL_NIC, .ring_size = 1024, .cpuid = -1 };

	if (!c)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		struct ppb_pool_key k = { .ptr = 0xffff888000000000ull + 4096ull * i, .id = i + 1 };

		pi.ptr = k.ptr;
		pi.id = k.id;
		c[0].cls[PPB_ALLOC_CACHE].calls = i;
		if (bpf_map_update_elem(obs_pool_info_fd(o), &k, &pi, BPF_NOEXIST) ||
		    bpf_map_update_elem(obs_pool_counts_fd(o), &k, c, BPF_NOEXIST)) {
			fprintf(stderr, "snap-time: fill %d: %s\n", i, strerror(errno));
			free(c);
			return -errno;
		}
	}
	free(c);
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : PPB_MAX_POOLS;
	struct obs_opts oo = { .no_fentry = true };
	struct observer *o;
	double best = 1e9, t;

	log_setup_libbpf();
	if (n < 1 || obs_open(&o, &oo) || fill(o, n))
		return 1;
	for (int i = 0; i < 5; i++) {
		struct obs_snapshot s;

		t = now_s();
		if (obs_snapshot(o, &s))
			return 1;
		t = now_s() - t;
		if (i == 0)
			printf("snapshot of %d pools: %d rows\n", n, s.nr_pools);
		snap_free(&s);
		printf("  %.1f ms\n", t * 1e3);
		best = t < best ? t : best;
	}
	printf("fastest of 5: %.1f ms\n", best * 1e3);
	obs_close(o);
	return 0;
}
