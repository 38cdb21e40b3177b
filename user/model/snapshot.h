/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_SNAPSHOT_H
#define PPBENCH_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ppbench.h"

/* What the observer (loader/observer.c) copies out: each pool's record and counts. */
enum obs_backend { OBS_FENTRY, OBS_TRACEPOINT };

struct pool_snap {
	struct ppb_pool_key key;
	struct ppb_pool_info info;
	struct ppb_pool_counts total;
	struct ppb_pool_counts *percpu; /* nr_cpus entries */
	int folded;			/* >0: this row sums that many pools */
	bool retired; /* the observer's row of destroyed pools of one kind and device:
		       * key.ptr = netns << 32 | ifindex, key.id = kind, key.pad = 1 */
};

struct obs_snapshot {
	uint64_t ts_ns;
	bool fentry; /* taken from the fentry backend */
	int nr_cpus;
	int nr_pools;
	struct pool_snap *pools;
	/* Pools that found the observer's map full, and their events (summed over
	 * CPUs): nothing of theirs is counted. */
	uint64_t untracked_pools, untracked_events;
	int capacity; /* the map's room for live pools */
};

/* Flags of a pool as short words for output ("coarse,no-elems"). */
void pool_flags_str(const struct ppb_pool_info *pi, enum obs_backend b, char *buf, size_t len);

#endif
