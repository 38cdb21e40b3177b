/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_RECIPE_RUN_H
#define PPBENCH_RECIPE_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include "ppbench.h"
#include "loader/observer.h"
#include "loader/xdpobj.h"

/* Bytes lf-fastpass moves the head down: below XDP_PACKET_HEADROOM, generic XDP copies. */
#define FASTPASS_ADJUST 32
/* Frames whose copy takes a whole page: SKB_HEAD_ALIGN(size) + headroom > PAGE_SIZE / 2. */
#define FASTPASS_MIN_SIZE 1500
/* nic-drop: seconds to wait for the interface's traffic (and 10 us per element more). */
#define NIC_WAIT_S 10
#include "model/counts.h"
#include "model/scenario.h"
#include "sys/vethenv.h"

/*
 * Recipes: ways of driving pages through page_pool with XDP/BPF only
 * (ppbench-recipe(8), DESCRIPTION). Each runs on the private veth pair;
 * bench times them and the observer proves which path the pages took.
 */
struct recipe_params {
	uint32_t batch;	       /* live frames batch size (1..256) */
	uint32_t repeat;       /* frames per BPF_PROG_RUN, or packets per run (socket recipes) */
	uint32_t runs;	       /* BPF_PROG_RUN calls per run (live recipes) */
	uint32_t size;	       /* L2 frame size */
	int cpu;	       /* CPU to run on */
	int remote_cpu;	       /* RCP_XCPU: the cpumap CPU */
	uint32_t qsize;	       /* RCP_XCPU: cpumap queue size */
	uint32_t sample_shift; /* timing sample every 2^shift elements (0: 10) */
	bool no_proof;	       /* timed runs only: skip what only proof runs need */
};

struct recipe_desc {
	const char *name;
	const char *text; /* one line, printed as "recipe:" */
	bool live;	  /* driven by live-frames BPF_PROG_RUN */
	enum ppb_role elems_role;
	enum ppb_pool_kind pool; /* the kind of pool it allocates from */
	bool passive;		 /* waits for traffic that arrives by itself */
};
extern const struct recipe_desc recipes[NR_RECIPES];
int recipe_by_name(const char *name);
/* One-CPU live-frames recipes: timed runs (no_proof) run programs without
 * maps or clock, timed by the kernel's test-run clock. */
bool recipe_kernel_clocked(enum recipe_id id);

/* Per-CPU figures of one run of one XDP program role. */
struct role_stats {
	struct ppb_xdp_stats *percpu; /* deltas over the run */
	struct ppb_xdp_stats total;
};

struct recipe_result {
	uint64_t elems;		  /* elements driven (counted by the elems role) */
	uint64_t duration_frames; /* live recipes: frames their syscalls ran ... */
	double clock_ns_sum; /* ... and their kernel ns, truncation resolved (testrun_clock.h) */
	uint32_t clock_syscalls, clock_resolved; /* ... by the wall time in how many */
	struct role_stats roles[PPB_NR_ROLES];
	uint64_t cpumap_drops; /* xcpu: frames the full cpumap queue dropped (producer CPU) */
	bool proof;
	struct obs_snapshot counts; /* observer delta (proof runs) */
};

struct recipe_ctx;

int recipe_setup(struct recipe_ctx **c, enum recipe_id id, struct ppb_env *env,
		 struct observer *obs, const struct recipe_params *p);
int recipe_run(struct recipe_ctx *c, bool proof, struct recipe_result *res);
void recipe_result_free(struct recipe_result *res);
void recipe_teardown(struct recipe_ctx *c);
/* Change the amount of work of the next runs (proof runs are shorter). */
void recipe_set_loops(struct recipe_ctx *c, uint32_t repeat, uint32_t runs);
/* Cross-CPU recipes: whether the consumer kthread runs at SCHED_FIFO. */
bool recipe_consumer_fifo(const struct recipe_ctx *c);

/* What names one setup, into S: each recipe_setup() makes new ones (0: none). */
struct setup_rec;
void recipe_ids(struct recipe_ctx *c, struct setup_rec *s);

/* Sum of a result's counts over pools of one kind (all kinds: kind < 0), per CPU too. */
int recipe_counts_by_kind(const struct recipe_result *res, int kind, int nr_cpus,
			  struct kind_counts *out);

#endif
