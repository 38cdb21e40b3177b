/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_OBSERVER_H
#define PPBENCH_OBSERVER_H

#include <stdbool.h>
#include <stdint.h>
#include "ppbench.h"
#include "model/snapshot.h"

/*
 * The page_pool observer, as a library for commands (watch, bench, load):
 *
 *   obs_open()      load the programs the kernel supports (feature probe)
 *   obs_start()     attach them;  obs_stop() detaches (timed runs run without)
 *   obs_snapshot()  copy every pool's record and per-CPU counts
 *   obs_delta()     what happened between two snapshots
 *   obs_reset()     forget every pool (start of a run)
 *
 * Destroyed pools leave the maps in BPF as soon as their last page is back,
 * their counts summed into a retired row per kind and device, which a
 * snapshot shows as a folded row (pool_snap.retired).
 *   obs_close()
 */
struct observer;

/* What --backend asks for (the cli_backends words). */
enum obs_want { OBS_WANT_AUTO, OBS_WANT_FENTRY, OBS_WANT_TRACEPOINT };

struct obs_opts {
	bool no_fentry; /* force the tracepoint backend (tests compare both) */
};

int obs_open(struct observer **o, const struct obs_opts *opts);
int obs_start(struct observer *o);
void obs_stop(struct observer *o);
void obs_close(struct observer *o);
enum obs_backend obs_backend(const struct observer *o);
const char *obs_backend_name(const struct observer *o);
/* Why fentry is not used, or NULL. */
const char *obs_fentry_reason(const struct observer *o);
/* What this observer cannot count on this kernel, or NULL (one line). */
const char *obs_not_counted(const struct observer *o);
/* Map fds for other BPF objects to share (bpf_map__reuse_fd). */
int obs_pool_info_fd(const struct observer *o);
int obs_pool_counts_fd(const struct observer *o);
int obs_proof_cpu_fd(const struct observer *o);
int obs_ctl_fd(const struct observer *o);
int obs_untracked_fd(const struct observer *o);
/* Our XDP program counts allocations from now on (or stops): only it and
 * flushes keep the allocation-side ledger; sets a common baseline. */
int obs_set_elems_active(struct observer *o, bool on);
/* The observer rodata config, for other objects that include pool.bpf.h. */
const struct ppb_obs_config *obs_config(const struct observer *o);
uint64_t obs_fentry_missed(const struct observer *o);

int obs_snapshot(struct observer *o, struct obs_snapshot *s);
void obs_snapshot_free(struct obs_snapshot *s);
/* Live pools in s (its retired and folded rows left out). */
int obs_live_pools(const struct obs_snapshot *s);
/*
 * A test-run pool's last pages go back when page_pool_destroy() is done,
 * which may be deferred: wait until every test-run pool of ours (our XDP
 * programs counted its allocations) is freed, up to max_s seconds. On time
 * out, one warning names the pool and what it still holds: -ETIMEDOUT.
 */
int obs_wait_test_run_settled(struct observer *o, double max_s);
/* d = b - a per pool (pools only in b are taken whole; a pool of a retired
 * since is taken out of its retired row). */
int obs_delta(const struct obs_snapshot *a, const struct obs_snapshot *b, struct obs_snapshot *d);
const struct pool_snap *obs_find(const struct obs_snapshot *s, uint64_t ptr, uint32_t id);
int obs_reset(struct observer *o);
/* Empty the retired rows: a proof run then sees only the pools retired in it
 * (and only their flags). */
int obs_clear_retired(struct observer *o);
/* fentry backend, attached: ns the per-call timing adds to one call (measured
 * around the empty bpf_fentry_test1()). */
int obs_probe_overhead(struct observer *o, double *ns_per_call);
/* Sample every live pool now (tracepoint backend), closing the current window. */
int obs_flush(struct observer *o);

/*
 * Replace the pools of a kind that have no device (test-run pools come and go
 * by the thousand) by one row summing them, if there are more than 'max'.
 */
int obs_fold_kind(struct obs_snapshot *s, uint32_t kind, int max);
/* Add pool p (its counts) into the folded row of its kind in s. */
int obs_fold_into(struct obs_snapshot *s, const struct pool_snap *p);

#endif
