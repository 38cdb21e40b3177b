/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_RESULT_H
#define PPBENCH_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ppbench.h"
#include "model/jsonparse.h"

/*
 * A `ppbench bench --json` result file (ppbench-bench(8), "JSON"). result_load()
 * is the schema checker: every field the schema names is required with its
 * type (figures only where status is "ok"); others are ignored.
 */
#define RESULT_SCHEMA "ppbench/1"

/* A "cycles_per_elem" / "ns_per_elem" block. */
struct result_stat {
	double min, median, mean, stddev, cv;
	double *runs; /* one value per repetition: nruns == the scenario's repeat */
	size_t nruns;
};

struct result_cpu {
	unsigned int cpu;
	const char *role; /* "" when the file has none */
	double elems;
	struct result_stat cycles;
};

/* The proof run's count of each class (enum ppb_class); NAN: null in the file. */
struct result_path {
	double cls[PPB_NR_CLASSES];
};

/* A function of a scenario's instruction profile (ppbench-vm(8), "The profile object"). */
struct result_pfn {
	const char *name;
	const char *module; /* NULL in the kernel */
	const char *group;
	double per_elem, rep_per_elem;
};

/* A function of a profile's call graph: instructions per element, its own and with all below. */
struct result_cgfn {
	const char *name;
	const char *module; /* NULL in the kernel */
	double self, children;
};

/* A chain of a profile's call graph: its functions leaf first, joined by '.' (LKP's calltrace). */
struct result_chain {
	const char *chain;
	double children, self; /* instructions per element */
};

/* A scenario's "profile", where ppbench vm --profile put one. */
struct result_profile {
	bool has;
	double per_elem, rep_per_elem; /* instructions per element; of them rep iterations */
	double elems;		       /* the elements of its windows; 0 where the file has none */
	bool has_path;
	double path;	       /* path_cost_profile */
	struct result_pfn *fn; /* most first */
	size_t nfn;
	bool has_graph;	    /* "callgraph": older files and arm64's have none */
	double chain_floor; /* the chains below it per element are not in the file */
	struct result_cgfn *gfn;
	size_t ngfn;
	struct result_chain *chain;
	size_t nchain;
};

struct result_scenario {
	const char *name, *status;
	bool ok;	    /* status "ok": the figures below are valid */
	const char *reason; /* status "skipped": why */
	const char *recipe, *method;
	/* "setup": each run its own setup; "run": runs of one setup; NULL: older, one setup */
	const char *replication;
	const json_t *setups; /* NULL in older files */
	const json_t *cpus;
	uint64_t loops, repeat, batch;
	struct result_stat cycles, ns;
	struct result_path path;
	double purity;	       /* 0..1 */
	double level_probe_ns; /* the page_pool-free kernel loop's median ns per run; 0: none */
	/*
	 * bench's path figure (path_cost_cycles; path_cost_fentry in older vm
	 * --profile files), its method's text and name (path_method_name())
	 */
	bool has_path_cost;
	double path_cost; /* cycles, valid when has_path_cost */
	const char *path_cost_method, *path_method;
	struct result_cpu *per_cpu;
	size_t nr_per_cpu;
	struct result_profile prof; /* optional */
};

/*
 * What a result's figures count (host.clock; absent: the TSC's cycles). The
 * fields keep their names (cycles_per_elem) whatever the unit.
 */
struct result_clock {
	const char *kind; /* "tsc", "icount", "ktime" or "pmu" */
	const char *unit; /* "cycles", "instructions", "ns" or a counter's name */
	const char *qemu; /* icount: the qemu options that made it; else NULL */
	/* qemu's release, the digest of the guest CPU's feature words and the
	 * words (sys/cpufeat.h); NULL where the file has none */
	const char *qemu_version, *cpu_features, *cpu_feature_words;
};

struct result_host {
	const char *kernel, *hostname, *cpu_model, *clocksource;
	const char *kernel_version; /* uname -v; NULL where the file has none */
	struct result_clock clock;
	uint64_t nr_cpus;
	double tsc_hz;
	const json_t *mitigations, *config; /* objects of strings */
	bool fentry, live_frames;
};

struct result {
	const char *path;
	const char *schema, *tool_name, *tool_version, *created, *command;
	const char *label; /* bench --label, or NULL when the file has none */
	struct result_host host;
	struct result_scenario *sc;
	size_t nr_sc;
	json_t *doc; /* strings above point into it */
};

/*
 * Loads and validates PATH. On failure returns -EINVAL (nothing to free) and
 * one line in ERR, e.g. "old.json: host.tsc_hz: expected a number, got a string".
 */
int result_load(const char *path, struct result *r, char *err, size_t errlen);
void result_free(struct result *r);
/* The scenario called NAME, or NULL. */
const struct result_scenario *result_find(const struct result *r, const char *name);
/* 0 when A and B count the same unit on the same clock; else -EINVAL and WHY. */
int result_same_clock(const struct result *a, const struct result *b, char *why, size_t len);
/*
 * 0 when A and B, of one of qemu's clocks, were counted by the same qemu
 * release on a guest CPU of the same features (or a file does not say);
 * else -EINVAL and WHY: a kernel picks its code by the CPU's features.
 */
int result_same_qemu(const struct result *a, const struct result *b, char *why, size_t len);
struct json_reader;
/*
 * The "host" block of ROOT (a result's or a noise profile's) into O, checked.
 * WHOLE (a result's) also requires hostname, fentry and live_frames.
 */
int result_host_load(struct json_reader *c, const json_t *root, struct result_host *o, bool whole);
/* result_same_clock() of clocks A (of the file AP) and B (of BP). */
int result_clock_same(const struct result_clock *a, const char *ap, const struct result_clock *b,
		      const char *bp, char *why, size_t len);
/* R's clock, "tsc"/"cycles" where nothing set it (a result made by hand). */
const struct result_clock *result_clock_of(const struct result *r);
/*
 * The smallest change called real in figures of UNIT, however small the
 * noise measured: 1 % of cycles (a VM's kernel work moves by more between
 * invocations), 0.1 % of instructions (above two boots' difference).
 */
double unit_floor_pct(const char *unit);
/* UNIT counts instructions: qemu's instruction clock's, or an instruction counter's. */
bool unit_counts_instructions(const char *unit);

#endif
