/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_OBSERVER_H
#define PPBENCH_OBSERVER_H

#include <stdbool.h>
#include <stdint.h>
#include "ppbench.h"
#include "model/snapshot.h"

struct bpf_object;

/*
 * The page_pool observer, as a library for commands (watch, bench, load):
 *
 *   obs_open()      load the programs the kernel supports (feature probe)
 *   obs_start()     attach them;  obs_stop() detaches (timed runs run without)
 *   obs_snapshot()  copy every pool's record and per-CPU counts
 *   snap_delta()    what happened between two snapshots (model/snapshot.h)
 *   obs_close()
 *
 * A freed pool (page_pool_release found nothing in flight) is marked GONE in
 * BPF; the next snapshot shows it once and deletes its record, keeping its
 * counts in a retired row per kind and device (pool_snap.retired). The maps
 * hold the live pools and those freed since the last read (obs_drain()).
 */
struct observer;

/* What --backend asks for (backend_words, cmd/cmd.h). */
enum obs_want { OBS_WANT_AUTO, OBS_WANT_FENTRY, OBS_WANT_TRACEPOINT };

struct obs_opts {
	bool no_fentry; /* force the tracepoint backend (tests compare both) */
};

int obs_open(struct observer **o, const struct obs_opts *opts);
int obs_start(struct observer *o);
void obs_stop(struct observer *o);
void obs_close(struct observer *o);
/* The loaded BPF object, or NULL (o NULL). */
struct bpf_object *obs_object(struct observer *o);
enum obs_backend obs_backend(const struct observer *o);
const char *obs_backend_name(const struct observer *o);
/* Why fentry is not used, or NULL. */
const char *obs_fentry_reason(const struct observer *o);
/* All four above, for the report layer. */
void obs_describe(const struct observer *o, struct obs_desc *d);
/* Map fds for other BPF objects to share (bpf_map__reuse_fd). */
int obs_pool_info_fd(const struct observer *o);
int obs_pool_counts_fd(const struct observer *o);
/* Our XDP program counts allocations from now on (or stops): only it and
 * flushes keep the allocation-side ledger; sets a common baseline. */
int obs_set_elems_active(struct observer *o, bool on);
/* The observer rodata config, for other objects that include pool.bpf.h. */
const struct ppb_obs_config *obs_config(const struct observer *o);

/*
 * Copy every pool's record and per-CPU counts (in batches), and the retired
 * rows. A pool freed since the last snapshot is in it as itself, once; then
 * its record leaves the maps and its counts join its retired row.
 */
int obs_snapshot(struct observer *o, struct obs_snapshot *s);
/*
 * Between snapshots: take freed pools out of the maps, keeping them for the
 * next snapshot, once a quarter of the room waits or any have waited
 * OBS_DRAIN_S. A check that finds too few costs no system call: watch and
 * load call it every OBS_CHECK_S, a live recipe's proof after each syscall.
 */
int obs_drain(struct observer *o);
#define OBS_DRAIN_S 0.2
#define OBS_CHECK_S 0.005
#define OBS_MAX_PENDING 4096
/*
 * A test-run pool's last pages go back when page_pool_destroy() is done,
 * which may be deferred: wait until every test-run pool of ours (our XDP
 * programs counted its allocations) is freed, up to max_s seconds. On time
 * out, one warning names the pool and what it still holds: -ETIMEDOUT.
 */
int obs_wait_test_run_settled(struct observer *o, double max_s);
/* Empty the retired rows: a proof run then sees only the pools retired in it
 * (and only their flags). */
void obs_clear_retired(struct observer *o);
/* Retired rows kept: one per kind and device, then one per kind. */
#define OBS_MAX_RETIRED_ROWS 1024
/* fentry backend, attached: ns the per-call timing adds to one call (measured
 * around the empty bpf_fentry_test1(), the median of 20 blocks of 1 000). */
int obs_probe_overhead(struct observer *o, double *ns_per_call);
/* Sample every live pool now (tracepoint backend), closing the current window. */
int obs_flush(struct observer *o);

#endif
