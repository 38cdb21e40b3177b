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
	/* pools that found the observer's table full, and their events: not counted */
	uint64_t untracked_pools, untracked_events;
	uint64_t prog_misses; /* runs of the observer's programs the kernel's recursion guard
				 skipped */
	int capacity;	      /* the table's room for pools, live and freed unread */
	int map_peak;	      /* most records the maps held at a read since the last snapshot */
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
/* Tracepoint backend: a freed pool's returns it did not see as ret.unclassified. */
void snap_settle_unclassified(struct pool_snap *p, bool fentry);
/* Add a freed pool's counts to its retired row in acc (its kind's once acc holds max_rows). */
int snap_retire(struct obs_snapshot *acc, const struct pool_snap *p, int max_rows);
/*
 * d = b - a per row (rows only in b whole); a pool retired in between has
 * what a counted of it taken out of its retired row.
 */
int snap_delta(const struct obs_snapshot *a, const struct obs_snapshot *b, struct obs_snapshot *d);
/* More than MAX pools of KIND with no device (test-run pools) folded into one row. */
int snap_fold_kind(struct obs_snapshot *s, uint32_t kind, int max);

#endif
