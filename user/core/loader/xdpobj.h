/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_XDPOBJ_H
#define PPBENCH_XDPOBJ_H

#include <stdbool.h>
#include <stdint.h>
#include "ppbench.h"

struct bpf_object;
struct xdp_program;
struct observer;

/*
 * The object's XDP programs a user runs (xdpo_opts.progs; 0: all). Each
 * verifier pass of a counting program costs an emulated guest a good part of
 * a second, so an object loads only these; the bare twins are tiny.
 */
enum xdpo_progs {
	XDPO_ACT = 1 << 0,	/* ppb_xdp_act and ppb_xdp_bare */
	XDPO_FASTPASS = 1 << 1, /* ppb_xdp_fastpass and ppb_xdp_fastpass_bare */
	XDPO_GEN = 1 << 2,	/* ppb_xdp_gen and ppb_xdp_gen_bare */
	XDPO_GEN_BARE = 1 << 3, /* ppb_xdp_gen_bare alone */
	XDPO_CALIB = 1 << 4,	/* ppb_xdp_calib, for xdpo_calibrate() */
	XDPO_LOAD = 1 << 5,	/* ppb_xdp_load and ppb_xdp_bare */
	XDPO_PATHS = 1 << 6,	/* ppb_xdp_paths (load --paths) */
};

struct xdpo_opts {
	unsigned int progs;	/* enum xdpo_progs (0: all) */
	struct observer *obs;	/* share its pool maps for proof runs (may be NULL) */
	uint32_t action;	/* PPB_ACT_* of ppb_xdp_act, _load and _paths */
	uint32_t remote_action; /* XDP_* verdict of the cpumap/devmap program */
	uint32_t gen_ifindex;	/* ppb_xdp_gen: redirect target (0: devmap slot 0) */
	uint32_t sample_shift;	/* timing sample every 2^shift elements (default 10) */
	bool frags;		/* load programs with BPF_F_XDP_HAS_FRAGS */
	bool count_bytes;	/* count bytes per role and CPU (load's Mbit/s) */
	uint32_t pace_limit;	/* cpumap producer: most frames in flight (0: no pacing) */
	uint32_t fp_adjust;	/* PPB_ACT_FASTPASS: head moved down by this (0: the twin) */
	uint8_t fp_byte0;	/* PPB_ACT_FASTPASS: the frame's first byte */
	bool second_stage;	/* load the cpumap/devmap programs */
	bool cpumap_timing;	/* consumer timing via xdp_cpumap_kthread */
	bool napi_clock;	/* the napi_poll program that closes ppb_xdp_load's batch clock */
	bool errors;		/* xdp tracepoints: exceptions, redirect errors */
	bool xmits;		/* xdp_devmap_xmit: frames the target device took */
	bool cpumap_drops;	/* xdp_cpumap_enqueue: remote queue full */
	uint32_t page_shift;	/* 0: the running kernel's (a test plants another) */
};

struct xdpo;

int xdpo_open(struct xdpo **x, const struct xdpo_opts *o);
void xdpo_close(struct xdpo *x);
/* The loaded BPF objects: i = 0 ours, 1 libxdp's copy of a program (or NULL). */
struct bpf_object *xdpo_object(struct xdpo *x, int i);
int xdpo_prog_fd(struct xdpo *x, const char *name);

/*
 * Find the vmemmap offset the proof sampler needs to map a frame's address
 * to its struct page (one live-frames frame; checks the result, that the
 * frame's page carries page_pool's signature from the kernel config and
 * that the kernel's pages are as large as the loader said: -EBADMSG if not). On failure
 * xdpo_calib_error() says why, in a phrase.
 */
int xdpo_calibrate(struct xdpo *x);
const char *xdpo_calib_error(const struct xdpo *x);
bool xdpo_calibrated(const struct xdpo *x);

/* Next run: timing spans restart; proof on/off; who counts allocations. */
void xdpo_begin_run(struct xdpo *x, bool proof, enum ppb_role elems_role);
/* Pacing: producer minus consumer frame counts now (all frames delivered). */
void xdpo_set_pace_offset(struct xdpo *x, uint64_t offset);

/* One live-frames BPF_PROG_RUN on the calling thread's CPU. duration: ns/frame. */
int xdpo_live_run(struct xdpo *x, const char *prog, uint32_t batch, uint32_t repeat,
		  const void *pkt, uint32_t len, uint32_t *duration);
/* The same, also timed from user space: wall ns of the syscall. */
int xdpo_live_run_wall(struct xdpo *x, const char *prog, uint32_t batch, uint32_t repeat,
		       const void *pkt, uint32_t len, uint32_t *duration, double *wall_ns);
/*
 * A syscall's cost outside the kernel's timed loop (model/testrun_clock.h): the
 * median of a few syscalls of one batch, at least 64 frames (so that their
 * pools end as longer ones do, with the same pages to release at teardown),
 * or of REPEAT frames when that is fewer.
 */
int xdpo_live_fixed_ns(struct xdpo *x, const char *prog, uint32_t batch, uint32_t repeat,
		       const void *pkt, uint32_t len, double *fixed_ns);

/* Attach the tracepoint programs the options asked for (links kept in x). */
int xdpo_attach_tracing(struct xdpo *x);
/* Proof sampling for continuous traffic: every 2^shift frames per CPU. */
void xdpo_set_proof(struct xdpo *x, bool on, uint32_t shift, enum ppb_role elems_role);
/* Filters of the error tracepoints: the target device, in the caller's namespace. */
void xdpo_set_err_filter(struct xdpo *x, int xmit_ifindex);
int xdpo_errs(struct xdpo *x, struct ppb_xdp_errs *percpu);
/* Count the errors of program NAME as ROLE's (e.g. a bare variant). */
void xdpo_track_prog(struct xdpo *x, enum ppb_role role, const char *name);

/* Per-CPU stats of a role (nr_cpus entries, caller-allocated). */
int xdpo_stats(struct xdpo *x, enum ppb_role role, struct ppb_xdp_stats *percpu);
int xdpo_nr_cpus(const struct xdpo *x);

/* bpf_link attachment in the calling thread's netns; returns the link fd (close
 * it to detach; the kernel drops it if we die). skb_mode = generic XDP. */
int xdpo_attach(struct xdpo *x, const char *prog, int ifindex, bool skb_mode);
/* Keep prog attached to the lo of a namespace of ours so that BPF_PROG_RUN
 * needs no dispatcher swap; returns the link fd, for xdpo_unpin_dispatcher(). */
int xdpo_pin_dispatcher(struct xdpo *x, const char *prog);
void xdpo_unpin_dispatcher(int link);
/* The namespace whose lo holds pinned LINK (not a new fd: do not close it). */
int xdpo_pin_netns(int link);
/* cpumap entry for cpu (the redirect target), with the second-stage program;
 * devmap slot 0 -> ifindex, optionally with the egress program. */
int xdpo_set_cpumap(struct xdpo *x, int cpu, uint32_t qsize);
/* Ids of program PROG and (cpu >= 0) of the cpumap and its entry's program. */
struct xdpo_ids {
	uint32_t prog, cpumap, cpumap_prog;
};
int xdpo_ids(struct xdpo *x, const char *prog, int cpu, struct xdpo_ids *ids);
/* PROG for libxdp to load and attach (its dispatcher needs it unloaded),
 * sharing this object's maps; NULL and errno on failure. */
struct xdp_program *xdpo_libxdp_prog(struct xdpo *x, const char *prog);
/* The program the xdp error tracepoints see for the action role (libxdp's
 * dispatcher runs ours inside its own). */
void xdpo_set_action_prog_id(struct xdpo *x, uint32_t id);
/* Run the entry's kthread at SCHED_FIFO 1: its pid, or -errno. */
int xdpo_cpumap_kthread_fifo(struct xdpo *x, int cpu);
int xdpo_set_devmap(struct xdpo *x, int ifindex, bool egress_prog);

#endif
