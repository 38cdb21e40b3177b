// SPDX-License-Identifier: GPL-2.0
/*
 * The perf-profile rows of a scenario's change between two profiles, and
 * the source lines that carry it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/prof_diff.h"

/* The rows of SCENARIO's profile.lines in R, or NULL. */
static const json_t *rows_of(const struct result *r, const char *scenario)
{
	const json_t *s;
	size_t i;

	json_array_foreach(json_object_get(r->doc, "scenarios"), i, s) {
		const char *name = json_string_value(json_object_get(s, "name"));

		if (name && !strcmp(name, scenario))
			return jpath(s, "profile.lines.rows");
	}
	return NULL;
}

static size_t with_lines(const struct result *files, size_t n, const char *scenario)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += json_is_array(rows_of(&files[i], scenario));
	return k;
}

/* Each row of R's lines into D, weighted W, on the NEW side or the old. */
static int add_rows(struct ldiff *d, const json_t *rows, bool new, double w)
{
	const json_t *e;
	size_t i;

	json_array_foreach(rows, i, e) {
		const char *at = json_string_value(json_object_get(e, "line"));
		const json_t *v = json_object_get(e, "per_elem");
		struct ldiff_line *l = NULL;

		if (!at || !json_is_number(v))
			continue;
		for (size_t k = 0; k < d->n && !l; k++)
			if (!strcmp(d->l[k].at, at))
				l = &d->l[k];
		if (!l) {
			l = realloc(d->l, (d->n + 1) * sizeof(*l));
			if (!l)
				return -ENOMEM;
			d->l = l;
			l = &d->l[d->n++];
			*l = (struct ldiff_line){
				at, json_string_value(json_object_get(e, "function")) ?: "", 0, 0
			};
		}
		*(new ? &l->new : &l->old) += json_number_value(v) * w;
	}
	return 0;
}

static int add_line_side(struct ldiff *d, const struct result *files, size_t n,
			 const char *scenario, bool new)
{
	size_t with = with_lines(files, n, scenario);
	int err = 0;

	for (size_t i = 0; !err && i < n; i++) {
		const json_t *rows = rows_of(&files[i], scenario);

		if (json_is_array(rows))
			err = add_rows(d, rows, new, 1.0 / with);
	}
	return err;
}

static int by_line_change(const void *a, const void *b)
{
	const struct ldiff_line *x = a, *y = b;
	double u = fabs(x->new - x->old), v = fabs(y->new - y->old);

	if (u != v)
		return u > v ? -1 : 1;
	return strcmp(x->at, y->at);
}

static void ldiff_free(struct ldiff *d)
{
	free(d->l);
	memset(d, 0, sizeof(*d));
}

/*
 * The lines of SCENARIO in OLD (NOLD files) and NEW (NNEW) into D, those
 * that moved by FLOOR instructions per element or more listed: 0, 1 where a
 * side has no file with lines (D is empty), or -ENOMEM.
 */
static int ldiff_build(const struct result *old, size_t nold, const struct result *new, size_t nnew,
		       const char *scenario, double floor, struct ldiff *d)
{
	int err;

	memset(d, 0, sizeof(*d));
	if (!with_lines(old, nold, scenario) || !with_lines(new, nnew, scenario))
		return 1;
	err = add_line_side(d, old, nold, scenario, false)
		      ?: add_line_side(d, new, nnew, scenario, true);
	if (err) {
		ldiff_free(d);
		return err;
	}
	if (d->n)
		qsort(d->l, d->n, sizeof(*d->l), by_line_change);
	while (d->nlisted < d->n && fabs(d->l[d->nlisted].new - d->l[d->nlisted].old) >= floor)
		d->nlisted++;
	return 0;
}

const char *prow_kind_name(enum prow_kind k)
{
	static const char *const names[NR_PROW_KINDS] = { "calltrace", "children", "self" };

	return names[k];
}

char *prow_lkp_name(enum prow_kind k, const char *name)
{
	char *s;

	return asprintf(&s, "perf-profile.%s." PROW_EVENT ".%s", prow_kind_name(k), name) < 0 ? NULL
											      : s;
}

/* The rows of one scenario, every entry of every file before they merge. */
struct rows {
	struct prow *r;
	size_t n;
};

static int add(struct rows *v, enum prow_kind k, const char *name, const char *module,
	       const char *group, bool new, double value)
{
	struct prow *r = realloc(v->r, (v->n + 1) * sizeof(*r));

	if (!r)
		return -ENOMEM;
	v->r = r;
	v->r[v->n++] = (struct prow){ .kind = k,
				      .name = name,
				      .module = module,
				      .group = group,
				      .old = new ? 0 : value,
				      .new = new ? value : 0 };
	return 0;
}

/* One file's profile P into V, weighted W (1 / its side's files); GRAPH: its chains too. */
static int add_profile(struct rows *v, const struct result_profile *p, bool new, double w,
		       bool graph)
{
	int err = 0;

	for (size_t i = 0; !err && i < p->nfn; i++)
		err = add(v, PROW_SELF, p->fn[i].name, p->fn[i].module, p->fn[i].group, new,
			  p->fn[i].per_elem * w);
	for (size_t i = 0; graph && !err && i < p->ngfn; i++)
		err = add(v, PROW_CHILDREN, p->gfn[i].name, p->gfn[i].module, NULL, new,
			  p->gfn[i].children * w);
	for (size_t i = 0; graph && !err && i < p->nchain; i++)
		err = add(v, PROW_CALLTRACE, p->chain[i].chain, NULL, NULL, new,
			  p->chain[i].children * w);
	return err;
}

static int by_key(const void *a, const void *b)
{
	const struct prow *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->name, y->name) ?: strcmp(x->module ?: "", y->module ?: "");
}

/*
 * By kind (LKP's order), then the largest |change| first; of chains that
 * change alike, the longer first: a chain's callers' chains are shorter, so
 * the deepest, which says the most, leads.
 */
static int by_change(const void *a, const void *b)
{
	const struct prow *x = a, *y = b;
	double cx = fabs(x->new - x->old), cy = fabs(y->new - y->old);
	size_t lx = strlen(x->name), ly = strlen(y->name);

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (cx != cy)
		return cx > cy ? -1 : 1;
	if (x->kind == PROW_CALLTRACE && lx != ly)
		return lx > ly ? -1 : 1;
	return by_key(a, b);
}

/* V's entries of one key summed into one row, and only the rows of FLOOR or more kept. */
static int merge(struct pdiff *d, struct rows *v)
{
	size_t n = 0;

	if (v->n)
		qsort(v->r, v->n, sizeof(*v->r), by_key);
	for (size_t i = 0; i < v->n; i++) {
		if (n && !by_key(&v->r[n - 1], &v->r[i])) {
			v->r[n - 1].old += v->r[i].old;
			v->r[n - 1].new += v->r[i].new;
			v->r[n - 1].group = v->r[n - 1].group ?: v->r[i].group;
		} else {
			v->r[n++] = v->r[i];
		}
	}
	d->nrow = 0;
	for (size_t i = 0; i < n; i++)
		if (fabs(v->r[i].new - v->r[i].old) + 1e-9 >= d->floor) /* (0.1 is no double) */
			v->r[d->nrow++] = v->r[i];
	d->row = v->r;
	v->r = NULL;
	if (d->nrow)
		qsort(d->row, d->nrow, sizeof(*d->row), by_change);
	for (size_t i = 0; i < d->nrow; i++) {
		struct prow *r = &d->row[i];

		d->nkind[r->kind]++;
		if (r->kind == PROW_SELF)
			d->explained += r->new - r->old;
		r->lkp = prow_lkp_name(r->kind, r->name);
		if (!r->lkp)
			return -ENOMEM;
	}
	return 0;
}

static const struct result_scenario *profiled(const struct result *r, const char *name)
{
	const struct result_scenario *sc = result_find(r, name);

	return sc && sc->ok && sc->prof.has ? sc : NULL;
}

static size_t with_profile(const struct result *files, size_t n, const char *name)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += !!profiled(&files[i], name);
	return k;
}

/* The first file of FILES whose profile of D's scenario has no call graph. */
static void find_no_graph(struct pdiff *d, const struct result *files, size_t n)
{
	for (size_t i = 0; i < n && !d->no_graph; i++) {
		const struct result_scenario *sc = profiled(&files[i], d->scenario);

		if (sc && !sc->prof.has_graph)
			d->no_graph = files[i].path;
	}
}

static int add_side(struct pdiff *d, struct rows *v, const struct result *files, size_t n, bool new)
{
	size_t with = new ? d->nnew : d->nold;

	for (size_t i = 0; i < n; i++) {
		const struct result_scenario *sc = profiled(&files[i], d->scenario);
		int err = sc ? add_profile(v, &sc->prof, new, 1.0 / with, !d->no_graph) : 0;

		if (err)
			return err;
		if (sc)
			*(new ? &d->new_total : &d->old_total) += sc->prof.per_elem / with;
	}
	return 0;
}

static int build_one(struct pdiff *d, const struct result *old, size_t nold,
		     const struct result *new, size_t nnew)
{
	struct rows v = { 0 };
	int err;

	find_no_graph(d, old, nold);
	find_no_graph(d, new, nnew);
	err = add_side(d, &v, old, nold, false) ?: add_side(d, &v, new, nnew, true) ?: merge(d, &v);
	free(v.r);
	if (!err)
		err = ldiff_build(old, nold, new, nnew, d->scenario, d->floor, &d->lines);
	d->has_lines = !err;
	return err > 0 ? 0 : err;
}

int pdiff_build(const struct result *old, size_t nold, const struct result *new, size_t nnew,
		double floor, struct pdiff **out, size_t *n)
{
	/* (a pdiff per scenario of the first old file at most) */
	struct pdiff *d = calloc(nold ? old[0].nr_sc + 1 : 1, sizeof(*d));
	size_t nd = 0;
	int err = d ? 0 : -ENOMEM;

	for (size_t i = 0; !err && nold && i < old[0].nr_sc; i++) {
		const char *name = old[0].sc[i].name;
		size_t wo = with_profile(old, nold, name), wn = with_profile(new, nnew, name);

		if (!wo || !wn)
			continue;
		d[nd] = (struct pdiff){ .scenario = name, .nold = wo, .nnew = wn, .floor = floor };
		err = build_one(&d[nd++], old, nold, new, nnew);
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
	for (size_t i = 0; d && i < n; i++) {
		for (size_t k = 0; k < d[i].nrow; k++)
			free(d[i].row[k].lkp);
		free(d[i].row);
		ldiff_free(&d[i].lines);
	}
	free(d);
}
