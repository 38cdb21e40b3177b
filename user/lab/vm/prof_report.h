/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROF_REPORT_H
#define PPBENCH_PROF_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "vm/prof_build.h"
#include "report/json.h"

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

/*
 * Every profile of P, each after an empty line, beside its scenario's
 * figure by the clock in DOC (a bench result; NULL: none); then each
 * scenario's path figure against its upstream module loop's, function by
 * function.
 */
void prof_report_all(FILE *f, const struct prof *p, size_t n, const json_t *doc);

/*
 * Each scenario's path figure against its upstream module loop's, function
 * by function (what prof_report_all() ends with), each line after PFX.
 */
void prof_report_gaps(FILE *f, const struct prof *p, size_t n, const char *pfx);

/*
 * Rewrites the result file PATH, whose TEXT (LEN bytes) reads as DOC,
 * whole (a temporary file renamed over it) and byte for byte as it was but
 * for the profiles: a "profile" object in each scenario of a bench result
 * that P has a profile of, with its path figure from it ("path_cost_profile",
 * right after bench's own "path_cost_cycles", which stays), or at the top of
 * a recipe's. A scenario's "upstream_module" gets its loop's profile, path
 * figure ("path_cost_cycles", the loop's only one) and the
 * method error of the scenario's against it. Returns
 * how many profiles went in (0: the file is left alone), or -1 after a
 * one-line error naming the file.
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
 * The call graph of each of P's profiles as folded stacks, "ROOT;...;LEAF
 * N" (flamegraph.pl's input), N the instructions the leaf ran itself in all
 * the windows (those above 0), beside the result file JSON: JSON less its
 * ".json", then ".SCENARIO.folded" (a recipe's, a reference recipe's,
 * load's: ".KIND-NAME.folded"; a module loop's, a difference: none), each
 * written whole. 0, or -1 after a one-line error.
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
