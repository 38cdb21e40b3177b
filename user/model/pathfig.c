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

int pool_path_ns(const struct ppb_pool_counts *c, double probe_ns, uint64_t elems, double *out)
{
	const struct call_class cls[] = {
		{ class_ns(c->alloc_cache_ns, c->alloc_cache, c->alloc_cache_clean,
			   c->alloc_cache_clean_ns),
		  c->alloc_cache, c->alloc_cache },
		{ class_ns(c->alloc_refill_ns, c->alloc_refill, c->alloc_refill_clean,
			   c->alloc_refill_clean_ns),
		  c->alloc_refill, c->alloc_refill },
		{ class_ns(c->alloc_slow_ns, c->alloc_slow, c->alloc_slow_clean,
			   c->alloc_slow_clean_ns),
		  c->alloc_slow, c->alloc_slow },
		{ class_ns(c->ret_cache_ns, c->ret_cache, c->ret_cache_clean,
			   c->ret_cache_clean_ns),
		  c->ret_cache, c->ret_cache },
		{ class_ns(c->ret_ring_ns, c->ret_ring, c->ret_ring_clean, c->ret_ring_clean_ns),
		  c->ret_ring, c->ret_ring },
		{ class_ns(c->ret_release_ns, c->ret_release, c->ret_release_clean,
			   c->ret_release_clean_ns),
		  c->ret_release, c->ret_release },
	};

	return path_ns_per_elem(cls, sizeof(cls) / sizeof(cls[0]), probe_ns, elems, out);
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

/* One side's selected classes: their estimated ns and calls, summed. */
static void side_sum(const struct call_class *cls, const unsigned int *bits, size_t n,
		     unsigned int classes, double *ns, uint64_t *calls)
{
	*ns = 0;
	*calls = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(classes & bits[i]))
			continue;
		*ns += cls[i].ns;
		*calls += cls[i].calls;
	}
}

int scenario_path_ns(const struct ppb_pool_counts *c, unsigned int classes, double probe_ns,
		     double *out)
{
	const struct call_class alloc[] = {
		{ class_ns(c->alloc_cache_ns, c->alloc_cache, c->alloc_cache_clean,
			   c->alloc_cache_clean_ns),
		  c->alloc_cache, c->alloc_cache },
		{ class_ns(c->alloc_refill_ns, c->alloc_refill, c->alloc_refill_clean,
			   c->alloc_refill_clean_ns),
		  c->alloc_refill, c->alloc_refill },
		{ class_ns(c->alloc_slow_ns, c->alloc_slow, c->alloc_slow_clean,
			   c->alloc_slow_clean_ns),
		  c->alloc_slow, c->alloc_slow },
	};
	const struct call_class ret[] = {
		{ class_ns(c->ret_cache_ns, c->ret_cache, c->ret_cache_clean,
			   c->ret_cache_clean_ns),
		  c->ret_cache, c->ret_cache },
		{ class_ns(c->ret_ring_ns, c->ret_ring, c->ret_ring_clean, c->ret_ring_clean_ns),
		  c->ret_ring, c->ret_ring },
		{ class_ns(c->ret_release_ns, c->ret_release, c->ret_release_clean,
			   c->ret_release_clean_ns),
		  c->ret_release, c->ret_release },
	};
	static const unsigned int abits[] = { PC_ALLOC_CACHE, PC_ALLOC_REFILL, PC_ALLOC_SLOW };
	static const unsigned int rbits[] = { PC_RET_CACHE, PC_RET_RING, PC_RET_RELEASE };
	double ans, rns;
	uint64_t an, rn;

	if (!isfinite(probe_ns))
		return -EINVAL;
	side_sum(alloc, abits, 3, classes, &ans, &an);
	side_sum(ret, rbits, 3, classes, &rns, &rn);
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
