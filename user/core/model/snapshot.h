/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_SNAPSHOT_H
#define PPBENCH_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ppbench.h"

/* What the observer (loader/observer.c) copies out: each pool's record and counts. */
enum obs_backend { OBS_FENTRY, OBS_TRACEPOINT };

/* What an observer counts, as the banners of bench, watch and load say it. */
struct obs_desc {
	enum obs_backend backend;
	const char *backend_name;  /* "fentry" / "tracepoint" */
	const char *fentry_reason; /* why not fentry, or NULL */
	const char *not_counted;   /* what no hook of this kernel counts, or NULL */
};

struct pool_snap {
	struct ppb_pool_key key;
	struct ppb_pool_info info;
	struct ppb_pool_counts total;
	struct ppb_pool_counts *percpu; /* nr_cpus entries */
	int folded;			/* >0: this row sums that many pools */
	bool pending;			/* freed, and taken out of the maps before this snapshot */
	bool retired;			/* the counts of freed pools of one kind and device:
					 * key.ptr = netns << 32 | ifindex, key.id = kind, key.pad = 1 */
};

struct obs_snapshot {
	uint64_t ts_ns;
	bool fentry; /* taken from the fentry backend */
	int nr_cpus;
	int nr_pools;
	struct pool_snap *pools;
	/* Pools that found the observer's table full, and their events (summed over
	 * CPUs): nothing of theirs is counted. */
	uint64_t untracked_pools, untracked_events;
	/* Runs of the observer's programs the kernel skipped (its recursion
	 * guard: a hooked call interrupted while the same program ran). */
	uint64_t prog_misses;
	int capacity; /* the table's room for pools, live and freed unread */
	int map_peak; /* most records the maps held at a read since the last snapshot */
};

/* Flags of a pool as short words for output ("coarse,no-elems"). */
void pool_flags_str(const struct ppb_pool_info *pi, enum obs_backend b, char *buf, size_t len);

void snap_free(struct obs_snapshot *s);
/* A deep copy of p appended to s. */
int snap_append(struct obs_snapshot *s, const struct pool_snap *p);
/* p is freed (page_pool_release found nothing in flight): shown once, then retired. */
bool snap_gone(const struct pool_snap *p);
/* Pools in s that are not freed (retired, folded and gone rows left out). */
int snap_live_pools(const struct obs_snapshot *s);
/* Tracepoint backend, a freed pool whose allocations were counted: the
 * returns it did not see (after destroy began) as ret.unclassified. */
void snap_settle_unclassified(struct pool_snap *p, bool fentry);
/*
 * Add a freed pool's counts to its retired row in acc (its kind, device and
 * namespace; once acc holds max_rows rows, its kind's row with no device).
 */
int snap_retire(struct obs_snapshot *acc, const struct pool_snap *p, int max_rows);
/*
 * d = b - a per row (rows only in b are taken whole). A pool of a that b no
 * longer has was retired in between: what a had counted of it is taken out
 * of its retired row, so d holds only what happened between a and b.
 */
int snap_delta(const struct obs_snapshot *a, const struct obs_snapshot *b, struct obs_snapshot *d);
/*
 * Replace the pools of a kind that have no device (test-run pools come and go
 * by the thousand) by one row summing them, if there are more than 'max'.
 */
int snap_fold_kind(struct obs_snapshot *s, uint32_t kind, int max);

#endif
