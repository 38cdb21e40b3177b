/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROF_BUILD_H
#define PPBENCH_PROF_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "vm/prof_capture.h"
#include "vm/prof_graph.h"
#include "vm/prof_lines.h"
#include "vm/prof_syms.h"

/*
 * Instruction profiles: a capture's counts per function and per group, for
 * each scenario (or recipe, or module loop) whose windows it counted.
 *
 * Groups, by the rules below (prof_rules[], the first that matches a name):
 * the path's own code (page_pool, ptr_ring, page allocator), the recipe's
 * frame (xdp, test_run, skb), bpf (programs, trampolines, helpers, maps),
 * other (interrupts, timers, locks, copies, the scheduler...), user and
 * unmapped. A path figure is the sum of the path's own groups.
 */
enum prof_class { PCLS_PATH, PCLS_FRAME, PCLS_BPF, PCLS_OTHER, PCLS_USER, PCLS_UNMAPPED };

enum prof_group {
	PG_PAGE_POOL,
	PG_PTR_RING,
	PG_PAGE_ALLOC,
	PG_XDP,
	PG_TEST_RUN,
	PG_SKB,
	PG_BPF,
	PG_OTHER,
	PG_USER,
	PG_UNMAPPED,
	PG_NR
};

struct prof_group_def {
	const char *name; /* "page_pool", "page allocator", ... */
	enum prof_class cls;
};
extern const struct prof_group_def prof_groups[PG_NR];

/* "name", "prefix*", "*suffix" or "*part*": a function name's group. */
struct prof_rule {
	const char *pattern;
	enum prof_group group;
};
extern const struct prof_rule prof_rules[];
extern const size_t prof_nrules;

const char *prof_class_name(enum prof_class c); /* "path", "frame", "bpf", ... */
enum prof_group prof_group_of(enum prof_kind kind, const char *name);
/* The group called NAME, or PG_NR. */
enum prof_group prof_group_named(const char *name);
const char *prof_kind_name(enum prof_kind k); /* "kernel", "module", "bpf", "user", "unmapped" */

struct prof_fn {
	char *name, *module; /* module: NULL in the kernel, "bpf" for BPF code */
	enum prof_kind kind;
	enum prof_group group;
	int64_t insns, rep; /* instructions; of them rep-string iterations */
};

/* A profile: what one scenario's (recipe's, module loop's) windows executed. */
struct prof {
	char *kind, *name, *extra; /* the tags line: scenario ring recipe=lf-drop */
	size_t ntags;		   /* its windows' tags */
	uint64_t elems, windows, spans, errors;
	int64_t insns, rep; /* signed: a module loop's are a difference */
	int64_t group_insns[PG_NR], group_rep[PG_NR];
	struct prof_fn *fn; /* by instructions, most first */
	size_t nfn;
	struct prof_graph *graph; /* its call graph, NULL where the capture has none */
	struct prof_lines *lines; /* per source line, NULL without the kernel's debug info */
	char *nolines;		  /* then why (NULL: none was looked for) */
};

/*
 * The profiles of capture C, one per KIND and NAME of its tags (a bench
 * scenario's setups may each have a tag: their counts add up), in the
 * order of the tags. A module loop's two loads (kind "module", their
 * windows whole, of N and 2N elements) are differenced: the longer's counts
 * less the shorter's, per element of the N more, so that the load, the
 * pool's creation and its teardown, the same in both, drop out; a
 * function's count may then be negative by what the two loads' fixed parts
 * differ. A module loop without exactly two loads of different lengths
 * gives no profile. 0, or -EINVAL with one line in ERR (a tag counted in
 * qprof.txt that 'tags' does not list).
 */
int prof_build(const struct capture *c, struct prof **out, size_t *n, char *err, size_t errlen);
void prof_free_all(struct prof *p, size_t n);

/* COUNT per element of P (NAN without elements). */
double prof_per_elem(const struct prof *p, int64_t count);
/* The path figure: the path's own groups, instructions per element. */
double prof_path_per_elem(const struct prof *p);

#endif
