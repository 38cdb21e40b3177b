/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROF_DIFF_H
#define PPBENCH_PROF_DIFF_H

#include "model/result.h"

/*
 * Profiles with source lines (profile.lines): each line's instructions per
 * element on each side, the lines that moved by the floor first, largest first.
 */
struct ldiff_line {
	const char *at, *fn; /* "net/core/page_pool.c:914", the function that ran most of it */
	double old, new;
};

struct ldiff {
	struct ldiff_line *l;
	size_t n;
	size_t nlisted; /* the first nlisted moved */
};

/*
 * Instruction profiles as the LKP robot's perf-profile rows (calltrace,
 * children, self), per element on each side; exact, so no test: a row that
 * moved by the floor moved.
 */
#define PDIFF_FLOOR 0.1 /* instructions per element: the default floor of a row's change */

enum prow_kind { PROW_CALLTRACE, PROW_CHILDREN, PROW_SELF, NR_PROW_KINDS };

/* A row name's event, as LKP spells cycles:pp "cycles-pp". */
#define PROW_EVENT "instructions-pp"

struct prow {
	enum prow_kind kind;
	const char *name;   /* the function, or the chain: leaf first, '.' between */
	const char *module; /* self, children: NULL in the kernel, "bpf" for BPF code */
	const char *group;  /* self: the function's group in the profile */
	char *lkp;	    /* "perf-profile.KIND.instructions-pp.NAME" */
	double old, new;    /* instructions per element, each side's mean over its files */
};

struct pdiff {
	const char *scenario;
	size_t nold, nnew;	     /* files with its profile on each side */
	double old_total, new_total; /* the profiles' figures */
	double floor;		     /* of the rows' change */
	/* the first file of either side without a call graph (self rows only), or NULL */
	const char *no_graph;
	/* the rows whose change is at least the floor: by kind, then largest |change| first */
	struct prow *row;
	size_t nrow, nkind[NR_PROW_KINDS];
	double explained;   /* the self rows' change, summed */
	struct ldiff lines; /* its source lines, where both sides have them (has_lines) */
	bool has_lines;
};

/* The diffs of the scenarios profiled on both sides, rows that moved by FLOOR: 0 or -ENOMEM. */
int pdiff_build(const struct result *old, size_t nold, const struct result *new, size_t nnew,
		double floor, struct pdiff **out, size_t *n);
void pdiff_free(struct pdiff *d, size_t n);
const char *prow_kind_name(enum prow_kind k); /* "calltrace", "children", "self" */
/* "perf-profile.KIND.instructions-pp.NAME", malloc'ed; NULL without memory. */
char *prow_lkp_name(enum prow_kind k, const char *name);

#endif
