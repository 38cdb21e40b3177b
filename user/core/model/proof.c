// SPDX-License-Identifier: GPL-2.0
/*
 * Which share of a scenario's elements took the path it is named after,
 * from the observer's counts: by page source and destination.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ppbench.h"
#include "model/proof.h"

static double share(double part, double whole)
{
	double s;

	if (whole <= 0)
		return 0;
	s = part / whole;
	return s < 0 ? 0 : s > 1 ? 1 : s;
}

void proof_eval(enum scenario_id sc, const struct ppb_pool_counts *c, uint64_t elems,
		uint64_t remote_elems, const struct ppb_pool_counts *remote, bool per_cpu_exact,
		bool cache_known, bool ring_known, struct proof *p)
{
	double e = (double)elems, ring;

	p->partial = false;
	p->untracked = 0;
	p->note[0] = '\0';
	switch (sc) {
	case SC_RING:
		p->alloc_share = share(c->refill_pages, e);
		p->ret_share = share(c->cls[PPB_RET_RING].calls, e);
		p->partial = !ring_known;
		break;
	case SC_RING_XCPU:
		/* Frames the remote CPU dropped go back into the origin's ring from
		 * there, unless it is full (then they are released there). */
		if (per_cpu_exact && remote)
			ring = (double)remote->cls[PPB_RET_RING].calls;
		else
			ring = (double)remote_elems -
			       (remote ? remote->cls[PPB_RET_RELEASE].calls : 0);
		p->alloc_share = share(c->refill_pages, e);
		p->ret_share = share(ring, e);
		snprintf(p->note, sizeof(p->note),
			 "%.1f%% of frames returned to the ring from the remote CPU",
			 100 * p->ret_share);
		break;
	case SC_FAST:
		p->alloc_share = share(e - c->refill_pages - c->slow_pages, e);
		p->ret_share = share(c->cls[PPB_RET_CACHE].calls, e);
		p->partial = !cache_known;
		break;
	case SC_SLOW:
		p->alloc_share = share(c->slow_pages, e);
		p->ret_share = share(c->cls[PPB_RET_RELEASE].calls, e);
		break;
	default:
		p->alloc_share = p->ret_share = 0;
	}
	if (p->partial)
		snprintf(p->note, sizeof(p->note),
			 "path counts unknown on this kernel without fentry");
	p->purity = p->partial ? NAN : fmin(p->alloc_share, p->ret_share);
}

void proof_set_untracked(struct proof *p, uint64_t pools)
{
	size_t n = strlen(p->note);

	p->untracked = pools;
	if (pools)
		snprintf(p->note + n, sizeof(p->note) - n,
			 "%s%llu pools untracked (observer's table full): incomplete",
			 n ? "; " : "", (unsigned long long)pools);
}

void proof_set_no_pool(struct proof *p, const char *kind)
{
	p->partial = false;
	p->purity = p->alloc_share = p->ret_share = 0;
	snprintf(p->note, sizeof(p->note),
		 "no %s pool took part: no element went through page_pool", kind);
}

bool proof_pure(const struct proof *p, double min)
{
	return !p->partial && !p->untracked && p->purity >= min;
}
