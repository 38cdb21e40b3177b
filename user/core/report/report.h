/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_REPORT_H
#define PPBENCH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "ppbench.h"
#include "model/counts.h"
#include "report/json.h"

/*
 * The "path" object of the JSON output (ppbench-watch(8), "What is counted"):
 * alloc {cache, refill, slow} and ret {cache, ring, release}, plus the
 * details behind them. Fields KNOWN (KNOWN_*, model/counts.h) leaves out are
 * null rather than a made-up 0.
 */
void json_path(struct json *j, const char *key, const struct ppb_pool_counts *c, unsigned known);
/*
 * PREFIX then TEXT, wrapped at spaces to 100 columns and continued under
 * TEXT's first column; a word longer than a line (a path) stays whole.
 */
void fprint_wrapped(FILE *f, const char *prefix, const char *text);
/* The same at WIDTH columns (a mail's prose: 72). */
void fprint_wrapped_at(FILE *f, const char *prefix, const char *text, int width);
/*
 * "alloc cache N refill N slow N (P pages) | ret cache N ring N release N",
 * n/a for the counts KNOWN leaves out; TEARDOWN adds " (teardown N)" after the
 * releases. Returns BUF.
 */
const char *fmt_classes(char *buf, size_t len, const struct ppb_pool_counts *c, unsigned known,
			bool teardown);
/* "1,234,567" */
const char *fmt_count(uint64_t v, char *buf, size_t len);

/* Pool tables shared by watch and load. */
struct pool_snap;
struct ppb_pool_info;
bool pool_same_netns(const struct ppb_pool_info *pi);
void pool_header(void);
void pool_row(const char *when, const char *pool, const struct ppb_pool_info *pi,
	      const struct ppb_pool_counts *c, double secs, unsigned known);
/* fentry: ns per class of timed calls and the path figure (allocations as elements). */
void json_timing(struct json *j, const struct ppb_pool_counts *c, double probe_ns);
/* Observer runs the kernel skipped (obs_snapshot's prog_misses): a MISSED: line
 * after indent if there were any, and JSON prog_misses if j. */
void report_prog_misses(struct json *j, const char *indent, uint64_t n);
/* Pools (and their events) that found the observer's table of capacity full:
 * an UNTRACKED: line after indent (NULL: none) if there were any, and JSON
 * untracked if j. */
void report_untracked(struct json *j, const char *indent, uint64_t pools, uint64_t events,
		      int capacity);
/* probe_ns: the fentry probe overhead per call (NAN if unknown), for the timing object. */
void json_pool(struct json *j, const struct pool_snap *p, bool fentry, bool per_cpu, int nr_cpus,
	       double probe_ns);
/* KEY: [{median, min, max, COUNT}] of the N levels M. */
struct mode;
void json_levels(struct json *j, const char *key, const struct mode *m, size_t n,
		 const char *count);
/* "per_cpu": [{cpu, path}] of the CPUs with counts. */
void json_per_cpu_paths(struct json *j, const struct ppb_pool_counts *percpu, int nr_cpus,
			unsigned known);

/*
 * The JSON lines of watch, load and gen: opens PATH ("-": stdout; NULL: no
 * JSON) into *j; 0, or -1 after a one-line error. The close: 0, or a
 * negative errno if writing failed.
 */
int report_json_open(struct json **j, const char *path);
int report_json_close(struct json **j);

/* `ppbench env` without a command: each side's interface, address and namespace. */
void env_report_up(const char *const ifname[2], const char *const ip[2], const char *const ns[2]);

#endif
