// SPDX-License-Identifier: GPL-2.0
/* The functions that carry a scenario's change between two profiles (prof_diff.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/prof_diff.h"

double pdiff_change(const struct pdiff_fn *f)
{
	return f->new - f->old;
}

static bool same_fn(const struct pdiff_fn *f, const struct result_pfn *r)
{
	return !strcmp(f->name, r->name) && !strcmp(f->module ?: "", r->module ?: "");
}

/* Adds a side's profile (one file's) into D, weighted 1/NFILES. */
static int add_profile(struct pdiff *d, const struct result_profile *p, bool new, double w)
{
	for (size_t i = 0; i < p->nfn; i++) {
		const struct result_pfn *r = &p->fn[i];
		struct pdiff_fn *f = NULL;

		for (size_t k = 0; k < d->nfn && !f; k++)
			if (same_fn(&d->fn[k], r))
				f = &d->fn[k];
		if (!f) {
			f = realloc(d->fn, (d->nfn + 1) * sizeof(*f));
			if (!f)
				return -ENOMEM;
			d->fn = f;
			f = &d->fn[d->nfn++];
			*f = (struct pdiff_fn){ r->name, r->module, r->group, 0, 0 };
		}
		*(new ? &f->new : &f->old) += r->per_elem * w;
	}
	*(new ? &d->new_total : &d->old_total) += p->per_elem * w;
	return 0;
}

static size_t with_profile(const struct result *files, size_t n, const char *name)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct result_scenario *sc = result_find(&files[i], name);

		k += sc && sc->ok && sc->prof.has;
	}
	return k;
}

static int add_side(struct pdiff *d, const struct result *files, size_t n, size_t with, bool new)
{
	for (size_t i = 0; i < n; i++) {
		const struct result_scenario *sc = result_find(&files[i], d->scenario);
		int err = sc && sc->ok && sc->prof.has ? add_profile(d, &sc->prof, new, 1.0 / with)
						       : 0;

		if (err)
			return err;
	}
	return 0;
}

static int by_change(const void *a, const void *b)
{
	double x = fabs(pdiff_change(a)), y = fabs(pdiff_change(b));

	if (x != y)
		return x > y ? -1 : 1;
	return strcmp(((const struct pdiff_fn *)a)->name, ((const struct pdiff_fn *)b)->name);
}

/* The functions named: at least PDIFF_MIN and PDIFF_SHARE % of the change, largest first. */
static void choose(struct pdiff *d)
{
	double change = fabs(d->new_total - d->old_total);
	double floor = fmax(PDIFF_MIN, change * PDIFF_SHARE / 100);

	if (d->nfn)
		qsort(d->fn, d->nfn, sizeof(*d->fn), by_change);
	for (d->nlisted = 0; d->nlisted < d->nfn && d->nlisted < PDIFF_MAX_LIST; d->nlisted++) {
		if (fabs(pdiff_change(&d->fn[d->nlisted])) < floor)
			break;
		d->explained += pdiff_change(&d->fn[d->nlisted]);
	}
}

int pdiff_build(const struct result *old, size_t nold, const struct result *new, size_t nnew,
		struct pdiff **out, size_t *n)
{
	struct pdiff *d = NULL;
	size_t nd = 0;
	int err = 0;

	for (size_t i = 0; !err && nold && i < old[0].nr_sc; i++) {
		const char *name = old[0].sc[i].name;
		size_t wo = with_profile(old, nold, name), wn = with_profile(new, nnew, name);
		struct pdiff *g;

		if (!wo || !wn)
			continue;
		g = realloc(d, (nd + 1) * sizeof(*d));
		if (!g) {
			err = -ENOMEM;
			break;
		}
		d = g;
		g = memset(&d[nd++], 0, sizeof(*g));
		g->scenario = name;
		g->nold = wo;
		g->nnew = wn;
		err = add_side(g, old, nold, wo, false) ?: add_side(g, new, nnew, wn, true);
		if (!err)
			choose(g);
	}
	if (err) {
		pdiff_free(d, nd);
		return err;
	}
	*out = d;
	*n = nd;
	return 0;
}

void pdiff_free(struct pdiff *d, size_t n)
{
	for (size_t i = 0; d && i < n; i++)
		free(d[i].fn);
	free(d);
}
