/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_EXPORT_FORMATS_H
#define PPBENCH_EXPORT_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "model/result.h"

struct series;
struct compare_readback;

/*
 * The figures of a result file as `ppbench export` hands them to other
 * systems: per scenario its cycles (or instructions: whatever host.clock
 * counts) and ns per element (cycle files only) with the setups' range, the
 * path figures (bench's, and a profile's where vm --profile put one) and
 * the purity. One source for their names and units, so that every format
 * says the same thing: a file of qemu's instruction clock exports
 * "instructions_per_elem", never "cycles_per_elem", and a path figure of
 * fentry's "path_fentry_...": never one name for two methods.
 */
enum xfig_kind { XFIG_CYCLES, XFIG_NS, XFIG_PATH, XFIG_PPATH, XFIG_PURITY, NR_XFIGS };

struct xfig {
	enum xfig_kind kind;
	bool has;	 /* a value: false for a skipped scenario, or a path figure that is n/a */
	const char *why; /* !has: the skip reason, or how the path figure would be derived */
	double value;	 /* median over the setups; path, purity: the file's one value */
	double lo, hi;	 /* least and largest setup; path, purity: the value */
	double cv;	 /* between the setups; 0 for path and purity */
	size_t n;	 /* setups behind value; 1 for path and purity */
	const char *method; /* path figures: their method's name (path_method_name()) */
};

/*
 * Whether a file counting UNIT exports figure KIND. Under qemu's instruction
 * clock the guest's ns advance one per instruction: its ns figures are the
 * instructions again, not a time, so no export names them ns.
 */
bool xfig_exported(enum xfig_kind kind, const char *unit);
/* Figure KIND of scenario SC (purity in percent). */
void xfig_get(const struct result_scenario *sc, enum xfig_kind kind, struct xfig *out);
/*
 * The name of figure KIND when the file counts UNIT (host.clock.unit,
 * "cycles" or "instructions"), its words joined by SEP: "cycles_per_elem",
 * "ns_per_elem", "path_fentry_instructions_per_elem" (a path figure of
 * METHOD, as xfig_key_part() spells it; NULL: none), "purity_percent";
 * with '-' "cycles-per-elem".
 */
const char *xfig_name(enum xfig_kind kind, const char *unit, const char *method, char sep,
		      char *buf, size_t len);
/* The unit of a value of KIND: "cycles/elem", "instructions/elem", "ns/elem", "%". */
const char *xfig_unit(enum xfig_kind kind, const char *unit, char *buf, size_t len);
/* NAME with every character outside [a-z0-9_] as '_' (LKP's keys): "ring-xcpu" -> "ring_xcpu". */
const char *xfig_key_part(const char *name, char *buf, size_t len);

/*
 * Bencher Metric Format (bencher.dev, "Bencher Metric Format (BMF)"): one
 * object whose keys name benchmarks, each an object whose keys name measures
 * (a measure's name or slug: at most 64 characters), each {"value" (number,
 * required), "lower_value", "upper_value" (numbers)}. Benchmarks are
 * "ppbench.SCENARIO"; measures "cycles-per-elem" (or "instructions-per-elem",
 * per host.clock), "ns-per-elem" with the least and largest setup as lower
 * and upper value, "path-cycles-per-elem" and "purity-percent" with a value
 * only. A skipped scenario and a path figure that is n/a are left out.
 */
void bmf_write(FILE *f, const struct result *r);

/*
 * The CSV Apache Otava's csv importer reads (otava docs/CSV.md): a header
 * row of column names, then one row per result in series order (trend's
 * --by), the columns chosen in otava.yaml by name: "time" (the result's
 * created, ISO 8601), the attributes "label", "kernel" and "file", and one
 * metric column per scenario and figure, "SCENARIO.cycles_per_elem" (or
 * instructions_per_elem, the files' UNIT), "SCENARIO.ns_per_elem",
 * "SCENARIO.path_cycles_per_elem": the median over the file's setups, the
 * value trend follows. Otava reads every metric cell as a number, so a
 * figure some result lacks (a skipped scenario, a path figure that is n/a)
 * gets no column, and a warning names it. Fields with a comma, a quote or a
 * line break are quoted ("", RFC 4180). Returns the number of metric columns.
 */
size_t otava_write(FILE *f, const struct series *s, const char *unit);

/*
 * The "key: value" lines of an LKP parse program (lkp-tests,
 * programs/NAME/parse; doc/add-testcase.md): one per line, exactly one space
 * after the colon, a number as the value. LKP's dump-stat puts the program's
 * name and a dot before each key, so PREFIX false leaves out our leading
 * "ppbench." (scripts/lkp/programs/ppbench/parse); true prints the name LKP
 * ends up with, "ppbench.ring.cycles_per_elem: 206.6". The figures' keys hold
 * [a-z0-9_.] only; a skipped scenario and a path figure that is n/a have no
 * line (the stats hold numbers only). A profiled scenario's perf-profile rows
 * follow, "ppbench.ring.perf-profile.self.instructions-pp.FUNC: 93.03", the
 * functions named as the kernel spells them, as LKP's perf-profile stats are. Each measured
 * scenario's "SCENARIO.workload" is the elements of its timed runs (loops per setup times the
 * setups), what LKP's lib/matrix.rb divides its perf-stat instructions by when a job has exactly
 * one stat named *.workload (its perf-stat.overall.path-length).
 */
void lkp_write(FILE *f, const struct result *r, bool prefix);

/*
 * KernelCI's KCIDB I/O data, schema version 5.0 (kernelci/kcidb-io,
 * kcidb_io/schema/v05_00.py; a 5.x reader takes any 5.y with y <= x).
 * What it asks of what we write: "version" {major, minor} at the top;
 * checkouts need id and origin, builds id, origin and checkout_id, tests id,
 * origin and build_id; an origin matches ^[a-z0-9_]+$ and every id starts
 * with "ORIGIN:"; a test path matches ^([a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*)?$;
 * status is one of FAIL ERROR MISS PASS DONE SKIP (DONE: a measurement
 * without a verdict); number is {"value" (number, required), "unit"
 * (string)}; no property is null. ppbench-export(8) lists what goes where.
 */
#define KCIDB_MAJOR 5
#define KCIDB_MINOR 0

struct kcidb_opts {
	const char *origin;   /* the submitting CI system, [a-z0-9_]+ (checked by the caller) */
	const char *build_id; /* "ORIGIN:..." of the CI's own build; NULL: a checkout and a build
				 per kernel release, named after it */
};

/* The tests of N result files: per scenario ppbench.SCENARIO, DONE or SKIP, and its path figure. */
void kcidb_write_results(FILE *f, const struct result *r, size_t n, const struct kcidb_opts *o);
/* The rows of compare's verdicts: ppbench.compare.SCENARIO[.path], PASS or FAIL where gated. */
void kcidb_write_compare(FILE *f, const struct compare_readback *d, const struct kcidb_opts *o);

#endif
