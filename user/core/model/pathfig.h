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
 * One class of timed calls: the ns spent inside them, probe overhead
 * included, how many calls were timed and how many elements they handled
 * (a bulk return pays its probe overhead once for all its elements).
 */
struct call_class {
	double ns;
	uint64_t calls;
	uint64_t elems;
};

/*
 * ns per element of the path: the classes' time less probe_ns per timed
 * call, over ELEMS elements. -EINVAL for no elements or a non-finite input,
 * -ERANGE when the calls took no longer than the probes; else 0.
 */
int path_ns_per_elem(const struct call_class *cls, size_t n, double probe_ns, uint64_t elems,
		     double *out);

/*
 * The same for one pool's fentry counts, each timed call a single alloc or
 * put of one element (the observer times the inner of nested hooked calls
 * only: one probe window each). watch's per pool, ELEMS its allocations.
 */
int pool_path_ns(const struct ppb_pool_counts *c, double probe_ns, uint64_t elems, double *out);

/*
 * One class's time in ns: CLEAN_NS over its CLEAN calls (those no interrupt
 * landed in) times its CALLS, or else NS: which calls the ticks hit differs
 * from boot to boot, the clean calls' mean does not.
 */
double class_ns(uint64_t ns, uint64_t calls, uint64_t clean, uint64_t clean_ns);

/*
 * The call classes that make a scenario's path, one bit each: the pool's
 * first fill is not fast's or ring's path, and would make their figures
 * follow the proof run's length.
 */
#define PATH_CLASS(cls) (1u << (cls))
unsigned int scenario_path_classes(enum scenario_id sc);
/*
 * A scenario's path figure from a pool's fentry counts: per side the mean
 * time of a call of its CLASSES less probe_ns, an allocation's plus a
 * return's. -EINVAL where a side has no such call or an input is not
 * finite, -ERANGE where the calls took no longer than the probes.
 */
int scenario_path_ns(const struct ppb_pool_counts *c, unsigned int classes, double probe_ns,
		     double *out);

/* One bulk call's time per element, its probe overhead paid once. */
double bulk_ns_per_elem(double call_ns, uint64_t count, double probe_ns);

/*
 * A path figure's method (its "method" in a result file) begins with one
 * of these. Figures of two methods count different things: they never compare.
 */
#define PATH_TEXT_FENTRY "fentry/fexit per-call timing"
#define PATH_TEXT_REFERENCE "difference of medians to the same loop"
#define PATH_TEXT_TWIN "difference of medians to its twin"
#define PATH_TEXT_PROFILE "profile"

/*
 * The name of the method whose text is TEXT: "fentry", "reference", "twin",
 * "profile", or "difference" (the first ppbench's "ring minus fast (scenario
 * medians)"); any other text is its own name.
 */
const char *path_method_name(const char *text);
/* Whether figures of the methods named A and B compare (the same name; NULL only with NULL). */
bool path_methods_agree(const char *a, const char *b);

/* The method's error: ppbench's figure over the module's, less 1 (NAN if either is not > 0). */
double method_error(double ppbench_figure, double module_figure);

#endif
