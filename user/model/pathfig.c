// SPDX-License-Identifier: GPL-2.0
/* Path figures from per-call timing and the method's error (see pathfig.h). */
#include <errno.h>
#include <math.h>
#include "model/pathfig.h"

int path_ns_per_elem(const struct call_class *cls, size_t n, double probe_ns, uint64_t elems,
		     double *out)
{
	double ns = 0;

	if (!elems || !isfinite(probe_ns))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(cls[i].ns))
			return -EINVAL;
		ns += cls[i].ns - probe_ns * cls[i].calls;
	}
	*out = ns / elems;
	return ns > 0 ? 0 : -ERANGE;
}

double class_ns(uint64_t ns, uint64_t calls, uint64_t clean, uint64_t clean_ns)
{
	if (!clean || clean > calls)
		return (double)ns;
	return (double)clean_ns / clean * calls;
}

#define NR_CLASSES NR_POOL_CLASSES
_Static_assert(PC_RET_RELEASE == 1 << (NR_CLASSES - 1),
	       "enum path_class: a bit per class, in order");

void pool_class_counts(const struct ppb_pool_counts *c, struct pool_class out[NR_POOL_CLASSES])
{
	const struct pool_class v[NR_POOL_CLASSES] = {
		{ c->alloc_cache, c->alloc_cache_ns, c->alloc_cache_clean,
		  c->alloc_cache_clean_ns },
		{ c->alloc_refill, c->alloc_refill_ns, c->alloc_refill_clean,
		  c->alloc_refill_clean_ns },
		{ c->alloc_slow, c->alloc_slow_ns, c->alloc_slow_clean, c->alloc_slow_clean_ns },
		{ c->ret_cache, c->ret_cache_ns, c->ret_cache_clean, c->ret_cache_clean_ns },
		{ c->ret_ring, c->ret_ring_ns, c->ret_ring_clean, c->ret_ring_clean_ns },
		{ c->ret_release, c->ret_release_ns, c->ret_release_clean,
		  c->ret_release_clean_ns },
	};

	for (int i = 0; i < NR_POOL_CLASSES; i++)
		out[i] = v[i];
}

/* The six classes with each one's time estimated (class_ns()). */
static void pool_classes(const struct ppb_pool_counts *c, struct call_class cls[NR_CLASSES])
{
	struct pool_class k[NR_CLASSES];

	pool_class_counts(c, k);
	for (int i = 0; i < NR_CLASSES; i++)
		cls[i] = (struct call_class){ class_ns(k[i].ns, k[i].calls, k[i].clean,
						       k[i].clean_ns),
					      k[i].calls, k[i].calls };
}

int pool_path_ns(const struct ppb_pool_counts *c, double probe_ns, uint64_t elems, double *out)
{
	struct call_class cls[NR_CLASSES];

	pool_classes(c, cls);
	return path_ns_per_elem(cls, NR_CLASSES, probe_ns, elems, out);
}

unsigned int scenario_path_classes(enum scenario_id sc)
{
	switch (sc) {
	case SC_FAST:
		return PC_ALLOC_CACHE | PC_RET_CACHE;
	case SC_RING:
	case SC_RING_XCPU:
		return PC_ALLOC_CACHE | PC_ALLOC_REFILL | PC_RET_RING;
	case SC_SLOW:
		return PC_ALLOC_CACHE | PC_ALLOC_SLOW | PC_RET_RING | PC_RET_RELEASE;
	default:
		return 0;
	}
}

/* One side's classes of CLASSES (bits FIRST.. of three): their ns and calls. */
static void side_sum(const struct call_class *cls, int first, unsigned int classes, double *ns,
		     uint64_t *calls)
{
	*ns = 0;
	*calls = 0;
	for (int i = first; i < first + 3; i++) {
		if (!(classes & (1u << i)))
			continue;
		*ns += cls[i].ns;
		*calls += cls[i].calls;
	}
}

int scenario_path_ns(const struct ppb_pool_counts *c, unsigned int classes, double probe_ns,
		     double *out)
{
	struct call_class cls[NR_CLASSES];
	double ans, rns;
	uint64_t an, rn;

	if (!isfinite(probe_ns))
		return -EINVAL;
	pool_classes(c, cls);
	side_sum(cls, 0, classes, &ans, &an);
	side_sum(cls, 3, classes, &rns, &rn);
	if (!an || !rn)
		return -EINVAL;
	*out = (ans / an - probe_ns) + (rns / rn - probe_ns);
	return *out > 0 ? 0 : -ERANGE;
}

double bulk_ns_per_elem(double call_ns, uint64_t count, double probe_ns)
{
	return count ? (call_ns - probe_ns) / count : NAN;
}

double method_error(double ppbench_figure, double module_figure)
{
	if (!(ppbench_figure > 0) || !(module_figure > 0))
		return NAN;
	return ppbench_figure / module_figure - 1;
}
