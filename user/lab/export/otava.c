// SPDX-License-Identifier: GPL-2.0
/* ppbench export otava: a series of result files as Otava's CSV. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "export/export_figures.h"
#include "export/otava.h"
#include "sys/log.h"

static void field(FILE *f, const char *s, bool first)
{
	if (!first)
		fputc(',', f);
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static enum xfig_kind kind_of(enum series_figure g)
{
	return g == SFIG_CYCLES ? XFIG_CYCLES : g == SFIG_NS ? XFIG_NS : XFIG_PATH;
}

/* A column needs a number in every row; the first row without one is named. */
static bool complete(const struct series *s, const struct series_fig *g, const char *col)
{
	size_t k = 0;

	if (g->n == s->npts)
		return true;
	for (size_t p = 0; p < s->npts; p++) {
		if (k < g->n && g->pt[k] == p) {
			k++;
			continue;
		}
		pr_warn("column %s left out: %s has no value of it (the scenario skipped or not "
			"run, or its path figure n/a), and Otava reads a number in every row\n",
			col, s->pt[p].file);
		break;
	}
	return false;
}

size_t otava_write(FILE *f, const struct series *s, const char *unit)
{
	bool *use = calloc(s->nfigs + 1, sizeof(*use));
	char name[64], col[256], num[32];
	size_t ncols = 0;

	if (!use)
		return 0;
	field(f, "time", true);
	field(f, "label", false);
	field(f, "kernel", false);
	field(f, "file", false);
	for (size_t i = 0; i < s->nfigs; i++) {
		const struct series_fig *g = &s->figs[i];

		snprintf(col, sizeof(col), "%s.%s", g->scenario,
			 xfig_name(kind_of(g->fig), unit, g->method, '_', name, sizeof(name)));
		use[i] = xfig_exported(kind_of(g->fig), unit) && complete(s, g, col);
		if (!use[i])
			continue;
		field(f, col, false);
		ncols++;
	}
	fputc('\n', f);
	for (size_t p = 0; p < s->npts; p++) {
		field(f, s->pt[p].created, true);
		field(f, s->pt[p].label, false);
		field(f, s->pt[p].kernel, false);
		field(f, s->pt[p].file, false);
		for (size_t i = 0; i < s->nfigs; i++) {
			if (!use[i])
				continue;
			snprintf(num, sizeof(num), "%.10g", s->figs[i].v[p]);
			field(f, num, false);
		}
		fputc('\n', f);
	}
	free(use);
	return ncols;
}
