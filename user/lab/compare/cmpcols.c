// SPDX-License-Identifier: GPL-2.0
/* compare's columns: the rows of comparisons that share a base, figure by figure. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/cmpcols.h"
#include "sys/util.h"

static bool same_figure(const struct row *a, const struct row *b)
{
	return a->kind == b->kind && a->cpu == b->cpu && !strcmp(a->scenario, b->scenario);
}

/* Where R's figure goes: its line, or a new one after its scenario's last. */
static struct col_line *line_for(struct col_table *t, const struct row *r)
{
	size_t at = t->nlines;
	struct col_line *l;

	for (size_t i = 0; i < t->nlines; i++) {
		const struct row *any = t->lines[i].named;

		if (same_figure(any, r))
			return &t->lines[i];
		if (!strcmp(any->scenario, r->scenario))
			at = i + 1;
	}
	l = &t->lines[at];
	memmove(l + 1, l, (t->nlines - at) * sizeof(*l));
	memset(l, 0, sizeof(*l));
	t->nlines++;
	l->cell = calloc(t->ncols, sizeof(*l->cell));
	return l->cell ? l : NULL;
}

/* The base's figures from the first column whose row has them; the label with its method. */
static int add_cell(struct col_table *t, size_t col, const struct row *r)
{
	struct col_line *l = line_for(t, r);

	if (!l)
		return -ENOMEM;
	l->cell[col] = r;
	if (!l->base && isfinite(r->ofig))
		l->base = r;
	if (!l->named || (l->named->other_method && !r->other_method))
		l->named = r;
	return 0;
}

static const char *side_name(const struct result *files, bool stem, char *buf, size_t len)
{
	if (stem)
		return path_stem(files[0].path, buf, len);
	snprintf(buf, len, "%s", files[0].label ? files[0].label : files[0].host.kernel);
	return buf;
}

/* NAMES (set->n + 1 of them): the base's and each column's. */
static void col_names(const struct cmp_set *set, char (*names)[COL_NAME_LEN])
{
	bool stem = false;

	for (int pass = 0; set->n && pass < 2; pass++) {
		side_name(set->cmps[0].old, stem, names[0], COL_NAME_LEN);
		for (size_t i = 0; i < set->n; i++)
			side_name(set->cmps[i].new, stem, names[i + 1], COL_NAME_LEN);
		for (size_t i = 0; i <= set->n; i++)
			for (size_t k = 0; k < i; k++)
				stem |= !strcmp(names[i], names[k]);
		if (!stem)
			return;
	}
}

int col_table_build(const struct cmp_set *set, struct col_table *t)
{
	size_t cap = 0;

	memset(t, 0, sizeof(*t));
	t->ncols = set->n;
	for (size_t i = 0; i < set->n; i++)
		cap += set->cmps[i].nrows;
	t->lines = calloc(cap + 1, sizeof(*t->lines));
	t->names = calloc(set->n + 1, sizeof(*t->names));
	if (!t->lines || !t->names)
		goto fail;
	for (size_t i = 0; i < set->n; i++)
		for (size_t k = 0; k < set->cmps[i].nrows; k++)
			if (!set->cmps[i].rows[k].repeats && add_cell(t, i, &set->cmps[i].rows[k]))
				goto fail;
	col_names(set, t->names);
	return 0;
fail:
	col_table_free(t);
	return -ENOMEM;
}

void col_table_free(struct col_table *t)
{
	for (size_t i = 0; t->lines && i < t->nlines; i++)
		free(t->lines[i].cell);
	free(t->lines);
	free(t->names);
	memset(t, 0, sizeof(*t));
}
