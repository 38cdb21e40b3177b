// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "model/order.h"

static double shown(const struct sc_result *r)
{
	return r->has_path ? r->path_cycles : r->cyc.median;
}

bool bench_order_note(const struct sc_result res[NR_SCENARIOS], const char *unit, char *note,
		      size_t len)
{
	static const enum scenario_id order[] = { SC_FAST, SC_RING, SC_SLOW };
	static const char *const upstream[] = { "fast", "ptr_ring", "slow" };
	const struct sc_result *f = &res[SC_FAST], *r = &res[SC_RING], *s = &res[SC_SLOW];
	bool all_path = true;
	int n;

	note[0] = '\0';
	if (!f->ok || !r->ok || !s->ok || (shown(f) < shown(r) && shown(r) < shown(s)))
		return false;
	n = snprintf(note, len,
		     "fast %.1f, ptr_ring %.1f, slow %.1f %s/elem do not order "
		     "fast < ptr_ring < slow as bench_page_pool_simple's paths do",
		     shown(f), shown(r), shown(s), unit);
	for (size_t i = 0; i < 3 && n > 0 && (size_t)n < len; i++) {
		if (res[order[i]].has_path && res[order[i]].cand &&
		    res[order[i]].cand->recipe == RCP_LF_FASTPASS) {
			n += snprintf(note + n, len - n,
				      "%s fast's path figure is its difference to a twin, and "
				      "holds a 1500-byte copy into the system page besides the "
				      "alloc and the direct recycle",
				      all_path ? ":" : ";");
			all_path = false;
			continue;
		}
		if (res[order[i]].has_path)
			continue;
		n += snprintf(note + n, len - n,
			      "%s %s is a scenario figure (no path figure on "
			      "this kernel)",
			      all_path ? ":" : ";", upstream[i]);
		all_path = false;
	}
	if (all_path && n > 0 && (size_t)n < len)
		snprintf(note + n, len - n,
			 ": all three are path figures; see each scenario's "
			 "proof and path method");
	return true;
}
