// SPDX-License-Identifier: GPL-2.0
/* The source lines that carry a scenario's change between two profiles (line_diff.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/line_diff.h"

/* The rows of SCENARIO's profile.lines in R, or NULL. */
static const json_t *rows_of(const struct result *r, const char *scenario)
{
	const json_t *s;
	size_t i;

	json_array_foreach(json_object_get(r->doc, "scenarios"), i, s) {
		const char *name = json_string_value(json_object_get(s, "name"));

		if (name && !strcmp(name, scenario))
			return json_object_get(
				json_object_get(json_object_get(s, "profile"), "lines"), "rows");
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

static int add_side(struct ldiff *d, const struct result *files, size_t n, const char *scenario,
		    bool new)
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

static int by_change(const void *a, const void *b)
{
	const struct ldiff_line *x = a, *y = b;
	double u = fabs(x->new - x->old), v = fabs(y->new - y->old);

	if (u != v)
		return u > v ? -1 : 1;
	return strcmp(x->at, y->at);
}

int ldiff_build(const struct result *old, size_t nold, const struct result *new, size_t nnew,
		const char *scenario, double floor, struct ldiff *d)
{
	int err;

	memset(d, 0, sizeof(*d));
	if (!with_lines(old, nold, scenario) || !with_lines(new, nnew, scenario))
		return 1;
	err = add_side(d, old, nold, scenario, false) ?: add_side(d, new, nnew, scenario, true);
	if (err) {
		ldiff_free(d);
		return err;
	}
	if (d->n)
		qsort(d->l, d->n, sizeof(*d->l), by_change);
	while (d->nlisted < d->n && fabs(d->l[d->nlisted].new - d->l[d->nlisted].old) >= floor)
		d->nlisted++;
	return 0;
}

void ldiff_free(struct ldiff *d)
{
	free(d->l);
	memset(d, 0, sizeof(*d));
}
