/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PATHFIG_H
#define PPBENCH_PATHFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ppbench.h"
#include "model/scenario.h"

/*
 * Path figures from per-call fentry/fexit timing, and their error against
 * a figure whose cost is known (the upstream module's own loops).
 *
 * One class of timed calls (alloc from the cache, ring produce, ...): the
 * ns spent inside them, probe overhead included, how many calls were timed
 * and how many elements they handled. A single put or alloc handles one
 * element; a bulk return (page_pool_put_netmem_bulk) handles its count in
 * one call, so its probe overhead is paid once and its time is shared by
 * its elements.
 */
struct call_class {
	double ns;
	uint64_t calls;
	uint64_t elems;
};

/*
 * ns per element of the path: the classes' time less probe_ns per timed
 * call, over ELEMS elements (the scenario's, each of which took one
 * allocation and one return). -EINVAL for no elements or a non-finite
 * input, -ERANGE when the calls took no longer than the probes (below the
 * method's resolution); else 0.
 */
int path_ns_per_elem(const struct call_class *cls, size_t n, double probe_ns, uint64_t elems,
		     double *out);

/*
 * The same for one pool's fentry counts: every timed class of allocation and
 * return (enum ppb_class), each call a single
 * alloc or put of one element (the observer counts bulk returns by element
 * but does not time them), over ELEMS elements. Where a hooked wrapper
 * calls another hooked function, the observer times the inner call only,
 * so each timed call holds one probe window. This is bench's path figure,
 * and watch's per pool with ELEMS its allocations.
 */
int pool_path_ns(const struct ppb_pool_counts *c, double probe_ns, uint64_t elems, double *out);

/*
 * One class's time in ns: CLEAN_NS over its CLEAN calls (those no interrupt
 * landed in) times its CALLS, or NS, the interrupts' handler time left out,
 * where none was clean. An interrupt's entry and exit code stays in the
 * time of a call it hit, and which calls the ticks hit differs from boot to
 * boot; the clean calls' mean does not.
 */
double class_ns(uint64_t ns, uint64_t calls, uint64_t clean, uint64_t clean_ns);

/*
 * The call classes that make a scenario's path, one bit each (PATH_CLASS()).
 * A path figure takes only these: the pool's first fill (a bulk refill from
 * the page allocator) is not fast's or ring's path, and spread over the
 * proof run's elements it would make their figures follow its length.
 */
#define PATH_CLASS(cls) (1u << (cls))
/*
 * fast: allocations from the cache, direct recycles; ring and ring-xcpu:
 * allocations from the cache and ring refills, ring returns; slow:
 * allocations from the cache and the page allocator (a slow call fills the
 * cache with a bulk), returns to the ring and releases.
 */
unsigned int scenario_path_classes(enum scenario_id sc);
/*
 * A scenario's path figure from a pool's fentry counts: per side, the mean
 * time of a call of its CLASSES (class_ns()) less probe_ns, an allocation's
 * plus a return's, in ns per element. -EINVAL where a side has no call of
 * its classes or an input is not finite, -ERANGE where the calls took no
 * longer than the probes; else 0.
 */
int scenario_path_ns(const struct ppb_pool_counts *c, unsigned int classes, double probe_ns,
		     double *out);

/* One bulk call's time per element, its probe overhead paid once. */
double bulk_ns_per_elem(double call_ns, uint64_t count, double probe_ns);

/*
 * A path figure's method (its "method" in a result file) is a text that
 * begins with one of these; its name says which. Figures of two methods
 * count different things, so they never compare.
 */
#define PATH_TEXT_FENTRY "fentry/fexit per-call timing"
#define PATH_TEXT_REFERENCE "difference of medians to the same loop"
#define PATH_TEXT_TWIN "difference of medians to its twin"
#define PATH_TEXT_PROFILE "profile"

/*
 * The name of the method whose text is TEXT: "fentry", "reference", "twin",
 * "profile", or "difference" (the first ppbench's "ring minus fast
 * (scenario medians)"); any other text is its own name, and NULL stays NULL.
 */
const char *path_method_name(const char *text);
/* Whether figures of the methods named A and B compare (the same name; NULL only with NULL). */
bool path_methods_agree(const char *a, const char *b);

/* The method's error: ppbench's figure over the module's, less 1 (NAN if either is not > 0). */
double method_error(double ppbench_figure, double module_figure);

#endif
