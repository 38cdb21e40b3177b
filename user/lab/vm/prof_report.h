/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROF_REPORT_H
#define PPBENCH_PROF_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "vm/prof_build.h"
#include "report/json.h"

/*
 * Two path figures from profiles, function by function: a bench scenario's
 * (NEW) against the upstream module's loop of the same path (OLD, the
 * reference). The method error is (new - old) / old; the functions of the
 * path's own groups (page_pool, ptr_ring, page allocator) carry it, each
 * with its instructions per element on both sides.
 */
struct prof_gap_fn {
	const char *name, *module; /* the profiles' strings */
	enum prof_group group;
	double old, new; /* per element; 0 where a side never ran it */
};

/* What the methods differ in by design (ppbench-vm(8)): the gap's part it carries is excused. */
enum prof_gap_why {
	PGW_INLINE_COPY, /* the module's own copies of page_pool's inline helpers */
	PGW_FIRST_PAGES, /* the page allocator, where the module's loop has next to none of it */
	PGW_NR
};
extern const char *const prof_gap_why_name[PGW_NR]; /* "inline copy", "first pages" */

struct prof_gap {
	double old, new;	/* the path figures */
	double error_pct;	/* NAN when OLD is not positive */
	double why[PGW_NR];	/* the part of new - old each difference carries */
	double residual_pct;	/* the error less them, in % of OLD; NAN as error_pct */
	struct prof_gap_fn *fn; /* by |new - old|, largest first */
	size_t nfn;
};

/* The gap of NEW against OLD into G (prof_gap_free() frees it); 0 or -ENOMEM. */
int prof_gap_build(const struct prof *old, const struct prof *new, struct prof_gap *g);
void prof_gap_free(struct prof_gap *g);

/* Functions at or above this share of a profile's figure are listed (report and SVG). */
#define PROF_LIST_PCT 0.5
/* A function whose two sides differ by less is not listed as carrying a gap (instr/elem). */
#define PROF_GAP_MIN 0.1
/* Call chains of at least this many instructions per element go into the JSON. */
#define PROF_CHAIN_FLOOR 0.05
/* The report's call chains: those that run the most themselves. */
#define PROF_CHAINS_SHOWN 8
/* The report's source lines: those that run the most. */
#define PROF_LINES_SHOWN 12

/* Every profile of P, beside its figure by the clock in DOC (or NULL); then their gaps. */
void prof_report_all(FILE *f, const struct prof *p, size_t n, const json_t *doc);

/* Each scenario's path figure against its upstream module loop's, each line after PFX. */
void prof_report_gaps(FILE *f, const struct prof *p, size_t n, const char *pfx);

/*
 * Rewrites the result file PATH (TEXT, read as DOC) whole, byte for byte as
 * it was but for the profiles: a "profile" in each scenario P has one of,
 * with its "path_cost_profile" after bench's "path_cost_cycles", or at the
 * top of a recipe's; a scenario's "upstream_module" gets its loop's profile,
 * path figure and method error. Returns how many profiles went in (0: the
 * file is left alone), or -1 after a one-line error.
 */
int prof_result_merge(const char *path, const char *text, size_t len, const json_t *doc,
		      const struct prof *p, size_t n, const struct capture *c);
/*
 * Appends to PATH, a result of JSON lines (load's), a line
 * {"type": "profile", "kind", "name", "extra", "profile": {...}} per
 * profile of P; 0, or -1 after a one-line error naming the file.
 */
int prof_stream_append(const char *path, const struct prof *p, size_t n, const struct capture *c);
/*
 * The call graph of each of P's profiles as folded stacks, "ROOT;...;LEAF N"
 * (flamegraph.pl's input, N the leaf's own instructions, above 0), beside
 * JSON: JSON less ".json", then ".SCENARIO.folded" (else ".KIND-NAME.folded";
 * a module loop, a difference, has none). 0, or -1 after a one-line error.
 */
int prof_folded_write(const char *json, const struct prof *p, size_t n);

/*
 * Where values lie in a JSON text, as byte ranges, for a change that keeps
 * the rest of a file byte for byte: a number such as 18446744073709551615
 * survives no reader's round trip, and jansson's dump prints every double
 * with one precision where the writer (report/json.h) chose ten digits or
 * all of them. The text must be valid JSON: the reader (model/jsonparse.h)
 * checks it first; these only find their way.
 */
struct json_span {
	size_t start, end; /* [start, end) */
};

/* The value starting at or after AT (white space skipped); -EINVAL where none does. */
int json_span_value(const char *text, size_t len, size_t at, struct json_span *v);
/*
 * Member KEY of the object OBJ: its value in *VAL and, in *MEMBER, the
 * member from its key's opening quote to the value's end. -ENOENT if OBJ
 * has no such member (keys compared as written, without escapes).
 */
int json_span_member(const char *text, size_t len, struct json_span obj, const char *key,
		     struct json_span *member, struct json_span *val);
/* Element I of the array ARR; -ENOENT past its end. */
int json_span_element(const char *text, size_t len, struct json_span arr, size_t i,
		      struct json_span *el);
/*
 * The white space before the first member of the object OBJ after its last
 * newline (the members' indentation), into BUF; "" for an empty or
 * one-line object.
 */
void json_span_indent(const char *text, struct json_span obj, char *buf, size_t len);

#endif
