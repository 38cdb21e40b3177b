/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROF_GAP_H
#define PPBENCH_PROF_GAP_H

#include <stddef.h>
#include "model/prof_build.h"

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

struct prof_gap {
	double old, new;	/* the path figures */
	double error_pct;	/* NAN when OLD is not positive */
	struct prof_gap_fn *fn; /* by |new - old|, largest first */
	size_t nfn;
};

/* The gap of NEW against OLD into G (prof_gap_free() frees it); 0 or -ENOMEM. */
int prof_gap_build(const struct prof *old, const struct prof *new, struct prof_gap *g);
void prof_gap_free(struct prof_gap *g);

#endif
