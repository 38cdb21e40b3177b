/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_BENCH_TYPES_H
#define PPBENCH_BENCH_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include "ppbench.h"
#include "model/proof.h"
#include "model/scenario.h"
#include "model/spread.h"
#include "model/stats.h"
#include "sys/pmu.h"
#include "sys/tsc_clock.h"

/* --repeat's and --batch's defaults. */
#define BENCH_REPEAT 5
#define BENCH_BATCH 64
/* A scenario whose setups' CV is above this gets a NOTE. */
#define BENCH_CV_NOTE 0.05

/* A bench run: its configuration and what each scenario measured. */
struct bench_cfg {
	bool want[NR_SCENARIOS];
	uint32_t repeat;
	uint64_t loops;			 /* 0: per-scenario default */
	uint64_t sc_loops[NR_SCENARIOS]; /* --loops SCENARIO=N; 0: loops */
	uint32_t cpu;
	uint32_t batch;
	bool batch_set; /* --batch given: also for ring-xcpu */
	const char *iface;
	int ifindex;
	const char *json;
	bool quiet;
	bool overhead;
	bool upstream_names;	     /* time_bench lines named as bench_page_pool_simple's */
	bool wait;		     /* queue behind a running bench instead of failing */
	const char *label;	     /* --label: names this result in a series (trend), or NULL */
	bool counters;		     /* --counters: the CPU's instruction counters ... */
	bool counter_cycles;	     /* ... and its cycle counters */
	const char *upstream_module; /* --upstream-module: bench_page_pool.ko, or NULL */
};

/*
 * The upstream bench_page_pool module's loop of a scenario, loaded with
 * LOOPS[0] and LOOPS[1] elements: its time_bench figures of each load
 * (under vm --profile, the loop's profile is the two windows' difference).
 */
#define UPMOD_LOADS 2
struct upstream_module_fig {
	bool tried;
	bool ran;	  /* both loads ran and printed their figure */
	char why[200];	  /* !ran: why not */
	const char *test; /* "no-softirq-page_pool01" */
	uint64_t loops[UPMOD_LOADS];
	uint64_t tsc[UPMOD_LOADS]; /* time_bench: cycles(tsc) per element */
	double ns[UPMOD_LOADS];	   /* and ns per element */
};

/* One CPU's figure of a scenario (ring-xcpu: producer and consumer). */
struct cpu_fig {
	int cpu;
	const char *role;
	uint64_t elems;
	double *cycles; /* per timed run */
	struct summary s;
	double waited_ns; /* producer of a paced recipe: largest wait per element */
};

/* One setup (a repetition): what it took to warm up, and what named it. */
#define SETUP_CHUNKS 8

struct setup_rec {
	double chunk_cycles[SETUP_CHUNKS]; /* the timed chunks' scenario figures */
	uint32_t nr_chunks;
	uint32_t warmups; /* warm-up runs before the timed ones */
	bool settled;	  /* the last two warm-ups agreed (else the bound ended it) */
	uint32_t prog_id, cpumap_id, cpumap_prog_id;
	int kthread_pid;
	double cpu_probe_ns;   /* the machine's speed around the timed chunks (cpu_probe_ns()) */
	double level_probe_ns; /* the host's level, before and after them (level_probe_ns()) */
};

struct sc_result {
	enum scenario_id id;
	bool ok;
	char reason[300];
	const struct candidate *cand;
	char recipe[256];
	char method[320];
	uint64_t loops;
	uint32_t batch;
	double *cycles, *ns; /* per setup: the scenario figure */
	struct summary cyc, nsec;
	struct setup_rec *setups;
	uint32_t nr_setups;
	bool one_setup;	      /* repetitions share one setup (an interface's own XDP) */
	struct modes modes;   /* of cycles over the setups */
	double mde_pct;	      /* smallest detectable change vs a run like this one */
	struct summary probe; /* cpu_probe_ns over the setups */
	double probe_r;	      /* its correlation with the setups' cycles (NAN: n/a) */
	struct summary level; /* level_probe_ns over the setups (n 0: not measured) */
	double level_r;	      /* its correlation with the setups' cycles (NAN: n/a) */
	struct cpu_fig per_cpu[2];
	int nr_cpu;
	uint64_t clock_syscalls, clock_resolved; /* timed syscalls, kernel clock resolved */
	/* the time_bench line: the median run */
	uint64_t tb_elems, tb_ns, tb_tsc;
	/* proof */
	struct proof proof;
	/* proof runs: pools that found the observer's table full, their events, its room */
	uint64_t untracked_pools, untracked_events;
	int pool_room;
	struct ppb_pool_counts counts;
	unsigned known;
	uint64_t proof_elems;
	uint64_t proof_drops; /* ring-xcpu: cpumap queue drops in the proof run */
	const char *backend;
	int foreign_probes; /* other BPF programs on page_pool hooks during the timed runs */
	double delivered;   /* ring-xcpu: least share of a timed run's frames the consumer got */
	/* hardware counters (--counters): per element of each setup's picked chunk */
	bool has_pmu;
	char pmu_why[160]; /* !has_pmu: why this scenario has none */
	double *pmu[NR_PMU_COUNTERS];
	struct summary pmu_s[NR_PMU_COUNTERS];
	struct upstream_module_fig up; /* --upstream-module */
	/* path figure */
	bool has_path;
	double path_cycles;
	char path_method[300];
};

struct bench_ctx {
	struct bench_cfg *cfg;
	struct tsc_info tsc;
	bool live_frames;
	bool fentry;
	int nr_cpus; /* possible CPUs (per-CPU map entries) */
	struct sc_result res[NR_SCENARIOS];
	uint64_t t0;
	bool pmu_on; /* --counters: the CPU's counters are open */
};

/* What bench --overhead measured: ns per frame, and the pairs' differences in %. */
struct overhead_figs {
	uint32_t frames, runs, cpu;
	struct summary timed;	    /* bare program, the kernel's test_run clock */
	struct summary bare;	    /* bare program, wall time of the syscall */
	struct summary counted;	    /* per-packet counting, wall time */
	struct summary timed_pct;   /* timed against bare, per pair */
	struct summary counted_pct; /* counted against bare, per pair */
};

#endif
