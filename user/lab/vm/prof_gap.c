// SPDX-License-Identifier: GPL-2.0
/* A path figure against another, function by function (prof_gap.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "vm/prof_gap.h"

static bool same_fn(const struct prof_gap_fn *g, const struct prof_fn *f)
{
	const char *a = g->module ? g->module : "", *b = f->module ? f->module : "";

	return !strcmp(g->name, f->name) && !strcmp(a, b);
}

/* P's path functions into G, as OLD (NEW false) or NEW per element. */
static int add_side(struct prof_gap *g, const struct prof *p, bool new)
{
	for (size_t i = 0; i < p->nfn; i++) {
		const struct prof_fn *f = &p->fn[i];
		struct prof_gap_fn *x = NULL, *fn;
		double v = prof_per_elem(p, f->insns);

		if (prof_groups[f->group].cls != PCLS_PATH)
			continue;
		for (size_t k = 0; k < g->nfn && !x; k++)
			if (same_fn(&g->fn[k], f))
				x = &g->fn[k];
		if (!x) {
			fn = realloc(g->fn, (g->nfn + 1) * sizeof(*fn));
			if (!fn)
				return -ENOMEM;
			g->fn = fn;
			x = &g->fn[g->nfn++];
			*x = (struct prof_gap_fn){ f->name, f->module, f->group, 0, 0 };
		}
		if (new)
			x->new += v;
		else
			x->old += v;
	}
	return 0;
}

const char *const prof_gap_why_name[PGW_NR] = { "inline copy", "first pages" };

/*
 * The module's loop takes no page from the page allocator when that group
 * carries less than this share of its path figure: its figure is the
 * difference of two loads, which leaves their fixed parts' small differences.
 */
#define NO_PAGE_ALLOC 0.01

/* Which difference by design carries F's gap in G, or PGW_NR: none. */
static enum prof_gap_why why_of(const struct prof_gap *g, const struct prof_gap_fn *f,
				double old_page_alloc)
{
	if (f->module && f->group == PG_PAGE_POOL && !f->new)
		return PGW_INLINE_COPY;
	if (f->group == PG_PAGE_ALLOC && fabs(old_page_alloc) < NO_PAGE_ALLOC * g->old)
		return PGW_FIRST_PAGES;
	return PGW_NR;
}

/* G's excused parts and what is left of its error. */
static void excuse(struct prof_gap *g)
{
	double pa = 0, left = g->new - g->old;
	enum prof_gap_why w;

	for (size_t i = 0; i < g->nfn; i++)
		if (g->fn[i].group == PG_PAGE_ALLOC)
			pa += g->fn[i].old;
	for (size_t i = 0; i < g->nfn; i++) {
		w = why_of(g, &g->fn[i], pa);
		if (w == PGW_NR)
			continue;
		g->why[w] += g->fn[i].new - g->fn[i].old;
		left -= g->fn[i].new - g->fn[i].old;
	}
	g->residual_pct = g->old > 0 ? 100 * left / g->old : NAN;
}

static int by_gap(const void *a, const void *b)
{
	const struct prof_gap_fn *x = a, *y = b;
	double dx = fabs(x->new - x->old), dy = fabs(y->new - y->old);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->name, y->name);
}

int prof_gap_build(const struct prof *old, const struct prof *new, struct prof_gap *g)
{
	memset(g, 0, sizeof(*g));
	g->old = prof_path_per_elem(old);
	g->new = prof_path_per_elem(new);
	g->error_pct = g->old > 0 ? 100 * (g->new - g->old) / g->old : NAN;
	if (add_side(g, old, false) || add_side(g, new, true)) {
		prof_gap_free(g);
		return -ENOMEM;
	}
	if (g->nfn)
		qsort(g->fn, g->nfn, sizeof(*g->fn), by_gap);
	excuse(g);
	return 0;
}

void prof_gap_free(struct prof_gap *g)
{
	free(g->fn);
	memset(g, 0, sizeof(*g));
}
