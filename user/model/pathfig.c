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

int pool_path_ns(const struct ppb_pool_counts *c, double probe_ns, uint64_t elems, double *out)
{
	const struct call_class cls[] = {
		{ c->alloc_cache_ns, c->alloc_cache, c->alloc_cache },
		{ c->alloc_refill_ns, c->alloc_refill, c->alloc_refill },
		{ c->alloc_slow_ns, c->alloc_slow, c->alloc_slow },
		{ c->ret_cache_ns, c->ret_cache, c->ret_cache },
		{ c->ret_ring_ns, c->ret_ring, c->ret_ring },
		{ c->ret_release_ns, c->ret_release, c->ret_release },
	};

	return path_ns_per_elem(cls, sizeof(cls) / sizeof(cls[0]), probe_ns, elems, out);
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
