/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_REPORT_H
#define PPBENCH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include <stddef.h>
#include "ppbench.h"
#include "model/bench_types.h"
#include "model/counts.h"
#include "model/features.h"
#include "model/load_types.h"
#include "model/noise.h"
#include "model/pkt.h"
#include "model/result.h"
#include "model/snapshot.h"
#include "report/json.h"
#include "sys/nl.h"
#include "sys/tsc_clock.h"

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

/*
 * The "host" object of a result (ppbench-bench(8), "JSON"): what a
 * comparison of two runs needs to know - kernel, CPU, TSC, clock source,
 * speculation mitigations, the kernel config options that change page_pool
 * costs, fentry and live frames.
 */
void json_host(struct json *j, const struct tsc_info *tsc, bool fentry, bool live_frames);
/*
 * HOST, a host block json_host() wrote and a loader read back, written again
 * as it is (a noise profile's, of its first run), but for its clock's kind
 * and unit, which are CLOCK's (a counter's view: "pmu").
 */
void json_host_copy(struct json *j, const json_t *host, const struct result_clock *clock);
/*
 * The "clock" object: what the figures count, TSC cycles or, under qemu's
 * instruction clock, guest instructions ({"kind", "unit", "qemu"}).
 */
void json_clock(struct json *j);
/* The kernel config options recorded. */
extern const char *const host_config_options[];

/* The first lines (struct bench_sink's banner): clock, observer, where the scenarios run. */
void bench_print_banner(void *ctx, const struct bench_ctx *b, const struct obs_desc *o,
			const char *where);
void bench_print_line(const struct bench_ctx *b, const struct sc_result *r);
void bench_print_summary(const struct bench_ctx *b);
int bench_write_json(const struct bench_ctx *b, const char *path, const char *cmdline);
void overhead_report(const struct overhead_figs *f);

/*
 * One bench_page_pool_simple time_bench line (ppbench-bench(8), "COMPARING WITH
 * BENCH_PAGE_POOL_SIMPLE"), so existing greps keep working:
 *   Type:NAME Per elem: C cycles(tsc) N.NNN ns (step:0) - (measurement period
 *   time:S.SSSSSSSSS sec time_interval:NS) - (invoke count:N tsc_interval:C)
 * Per-element values are truncated like time_bench's. Returns the length.
 */
int fmt_time_bench(char *buf, size_t len, const char *name, uint64_t tsc_total, uint64_t ns_total,
		   uint64_t invoked);

/*
 * Every published bench_page_pool_simple run orders its paths fast <
 * ptr_ring < slow. When fast, ring and slow all ran here and the figures
 * bench shows for them (the path figure where there is one, else the
 * scenario figure) do not order so, write one line into NOTE saying why and
 * return true; false (NOTE empty) otherwise. UNIT names what the figures
 * count ("cycles", "instr").
 */
bool bench_order_note(const struct sc_result res[NR_SCENARIOS], const char *unit, char *note,
		      size_t len);

/*
 * Writes profile P as JSON (schema ppbench-noise/1) to PATH, stamped with
 * the current time and CMDLINE. 0, or -1 after a one-line error.
 */
int noise_write(const struct noise_profile *p, const char *path, const char *cmdline);
/* calibrate's result: the profile, and the file it was written to. */
void calibrate_report(const struct noise_profile *p, const char *path);

/* The interface `ppbench probe IFACE` looked at. */
struct iface_info {
	const char *name;
	int ifindex;
	char driver[64];
	char kind[32];
	uint64_t xdp_features;
	int xdp_features_err;
	__u32 prog_id;
	const char *attach_mode;
	/* page_pool: the driver's BTF (ppb_driver_page_pool(): 1, 0, -ENOENT) and the
	 * kernel's list of the device's pools (nr_pools < 0: -errno, no list) */
	int drv_pool;
	char drv_pool_member[128];
	int nr_pools;
	struct nl_page_pool pools[16];
};

/*
 * The text (unless JSON goes to stdout, "-") and, with JSON, the JSON of
 * probe; ii NULL: no interface. 0, or -1 after a one-line error.
 */
int probe_report(const struct ppb_features *f, const struct iface_info *ii, const char *bpffs_path,
		 const char *json);

/* Pool kinds PPB_POOL_UNKNOWN (0) .. PPB_POOL_NIC, the ones recipe reports. */
#define RECIPE_NR_KINDS (PPB_POOL_NIC + 1)

/* One run of `ppbench recipe NAME`: what drove how many elements, and the counts per kind. */
struct recipe_facts {
	const char *name, *text;
	enum obs_backend backend;
	const char *backend_name;
	uint64_t elems;
	uint64_t untracked_pools, untracked_events; /* pools that found the observer's table full */
	int capacity;				    /* the table's room */
	uint64_t packets_action, packets_gen, packets_second, cpumap_drops;
	int nr_cpus;
	double probe_ns; /* fentry probe overhead per call (JSON timing), NAN if unknown */
	struct kind_counts kinds[RECIPE_NR_KINDS]; /* indexed by PPB_POOL_* */
};

/*
 * The text (unless kv, or JSON goes to stdout, "-"), KIND.FIELD=VALUE lines
 * (kv), and the JSON (json: a path, "-" or NULL). 0, or -1 after a one-line
 * error.
 */
int recipe_report(const struct recipe_facts *r, const char *json, bool kv);

/* What `ppbench watch` shows and where: the table on stdout, JSON lines to a file. */
struct watch_view {
	const char *ifname; /* NULL: every pool */
	int ifindex;
	bool per_cpu;
	double interval, duration;
	uint64_t t0;	 /* the first snapshot's time */
	double probe_ns; /* fentry probe overhead per call (JSON timing), NAN if not measured */
	struct json *j;
};

/* Does the watched interface (or, with none, anything) own this pool? */
bool watch_pool_wanted(const struct watch_view *v, const struct pool_snap *p);
void watch_report_banner(const struct watch_view *v, const struct obs_desc *o);
void watch_report_found_pool(const struct watch_view *v, const struct pool_snap *p);
/* One interval (or, with summary, the whole run) from the delta d; now is the newer snapshot. */
void watch_report_interval(const struct watch_view *v, const struct obs_snapshot *d,
			   const struct obs_snapshot *now, double secs, const char *when,
			   bool summary);
void watch_report_summary_head(double secs, int intervals);

/* What `ppbench load` shows and where. */
struct load_view {
	const char *ifname;
	int ifindex;
	bool cpumap; /* the second stage is a cpumap program (else egress) */
	bool per_cpu;
	const struct tsc_info *tsc;
	struct json *j;
};

/* The engine's sink (struct load_sink), VIEW a struct load_view: what libxdp made of
 * --multiprog, the banner (which sets the view's clock), an interval's rows (the
 * summary's under a head of their own), and --prog-costs: each of the n programs'
 * runs and time; per packet: per run of xdp. */
void load_report_libxdp(void *view, bool legacy, uint32_t dispatcher_id, uint32_t prog_id,
			int nr_progs);
void load_report_banner(void *view, const struct load_setup *s);
void load_report_interval(void *view, const struct load_interval *iv);
void load_report_prog_costs(void *view, const struct prog_cost *c, int n, const char *xdp,
			    uint64_t packets);

/* What `ppbench gen` shows and where. */
struct gen_view {
	const char *ifname;
	size_t size; /* bytes per frame */
	bool quiet;  /* no interval lines on stdout */
	bool bare;   /* no xdp tracepoints: taken, not taken, errors unknown */
	struct json *j;
};

/* The engine's sink (struct gen_sink), VIEW a struct gen_view. */
void gen_report_plan(void *view, const struct udp_spec *s, uint64_t count, uint32_t batch);
/* From totals a to b over secs, at `when` s; cpu[i] sent sent[i] frames of them. */
void gen_report_interval(void *view, const struct gen_totals *a, const struct gen_totals *b,
			 double secs, double when, int nr, const int *cpu, const uint64_t *sent);
void gen_report_summary(void *view, const struct gen_totals *t, double secs, int nr_cpus);

#endif
