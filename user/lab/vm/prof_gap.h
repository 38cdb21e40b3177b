/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROF_GAP_H
#define PPBENCH_PROF_GAP_H

#include <stddef.h>
#include "vm/prof_build.h"

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

/*
 * What the two methods differ in by design, each measured in the two
 * profiles: the part of the gap such a difference carries is excused, and
 * the rest, the residual, is an error of the method.
 */
enum prof_gap_why {
	/*
	 * The module calls page_pool's inline helpers from its own code, and the
	 * compiler may keep a copy there (page_pool's group, the module's code);
	 * the scenario runs the same helpers inlined into XDP's return, outside
	 * the path's groups. Measured: the module's copy's functions.
	 */
	PGW_INLINE_COPY,
	/*
	 * Each timed run's pool starts empty: its first pages come from the page
	 * allocator, cleared where init_on_alloc is on, while the module's loop,
	 * the difference of two loads that fill their pools alike, takes none.
	 * Measured: the page allocator's functions, where the module's loop has
	 * none of them (else they are the path itself and excuse nothing).
	 */
	PGW_FIRST_PAGES,
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

#endif
