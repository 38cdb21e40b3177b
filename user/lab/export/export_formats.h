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
 * A result file's figures as `ppbench export` names them (ppbench-export(8) says how each
 * format spells them): one source, so that no two formats name one figure differently.
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

/* Whether a file counting UNIT exports KIND: the instruction clock's ns are no time. */
bool xfig_exported(enum xfig_kind kind, const char *unit);
/* Figure KIND of scenario SC (purity in percent). */
void xfig_get(const struct result_scenario *sc, enum xfig_kind kind, struct xfig *out);
/* "cycles_per_elem", "path_fentry_instructions_per_elem" (METHOD NULL: none): words by SEP. */
const char *xfig_name(enum xfig_kind kind, const char *unit, const char *method, char sep,
		      char *buf, size_t len);
/* The unit of a value of KIND: "cycles/elem", "instructions/elem", "ns/elem", "%". */
const char *xfig_unit(enum xfig_kind kind, const char *unit, char *buf, size_t len);
/* NAME with every character outside [a-z0-9_] as '_' (LKP's keys): "ring-xcpu" -> "ring_xcpu". */
const char *xfig_key_part(const char *name, char *buf, size_t len);

/* The formats, as ppbench-export(8) describes them. Otava's: the number of metric columns. */
void bmf_write(FILE *f, const struct result *r);
size_t otava_write(FILE *f, const struct series *s, const char *unit);
/* PREFIX: keys with the leading "ppbench.", as LKP ends up naming them. */
void lkp_write(FILE *f, const struct result *r, bool prefix);

/* KernelCI's KCIDB I/O data, schema v5.0 (kernelci/kcidb-io, kcidb_io/schema/v05_00.py). */
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
