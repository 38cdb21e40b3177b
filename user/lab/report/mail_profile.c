// SPDX-License-Identifier: GPL-2.0
/* ppbench report's profile rows: per column its change and new, exact (no test). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "export/export_formats.h"
#include "report/mail.h"
#include "report/report.h"

#define MAX_SCN 64

struct pline {
	size_t scn;	      /* its scenario's rank: the headline's 0 */
	const struct prow *r; /* the first column's that has it: kind, name, module */
	char *label;	      /* "ppbench.ring.perf-profile.self.instructions-pp.FUNC" */
	double old;	      /* the base's */
	double *new;	      /* per column; NAN where it has no profile of the scenario */
	double key;	      /* the largest |change| of a column */
};

struct ptable {
	struct pline *l;
	size_t n, cap, ncols;
	const char *scn[MAX_SCN]; /* the scenarios by rank */
	size_t nscn;
	bool seen[MAX_SCN][MAIL_MAX_FILES];  /* the columns with a profile of each */
	const char *no_graph, *no_graph_scn; /* the first file without a call graph, of what */
};

static bool same(const struct prow *a, const struct prow *b)
{
	return a->kind == b->kind && !strcmp(a->name, b->name) &&
	       !strcmp(a->module ?: "", b->module ?: "");
}

static struct pline *pnew(struct ptable *t, size_t scn, const struct prow *r)
{
	struct pline *l;
	char key[64];

	if (t->n == t->cap) {
		l = realloc(t->l, (t->cap * 2 + 16) * sizeof(*l));
		if (!l)
			return NULL;
		t->l = l;
		t->cap = t->cap * 2 + 16;
	}
	l = &t->l[t->n];
	*l = (struct pline){ .scn = scn, .r = r, .old = r->old };
	xfig_key_part(t->scn[scn], key, sizeof(key));
	l->new = malloc(t->ncols * sizeof(*l->new));
	if (!l->new || asprintf(&l->label, "ppbench.%s.%s", key, r->lkp) < 0) {
		free(l->new);
		return NULL;
	}
	for (size_t i = 0; i < t->ncols; i++)
		l->new[i] = t->seen[scn][i] ? 0 : NAN;
	t->n++;
	return l;
}

/* Column COL's rows of scenario D: compare gives every row, so one it lacks is 0 on both. */
static int pdiff_rows(struct ptable *t, size_t col, const struct pdiff *d)
{
	size_t scn = 0;

	while (scn < t->nscn && strcmp(t->scn[scn], d->scenario))
		scn++;
	if (scn == MAX_SCN)
		return -1;
	if (scn == t->nscn)
		t->scn[t->nscn++] = d->scenario;
	t->seen[scn][col] = true;
	if (d->no_graph && !t->no_graph) {
		t->no_graph = d->no_graph;
		t->no_graph_scn = d->scenario;
	}
	for (size_t i = 0; i < t->n; i++)
		if (t->l[i].scn == scn)
			t->l[i].new[col] = 0;
	for (size_t k = 0; k < d->nrow; k++) {
		const struct prow *r = &d->row[k];
		struct pline *l = NULL;

		for (size_t i = 0; i < t->n && !l; i++)
			if (t->l[i].scn == scn && same(t->l[i].r, r))
				l = &t->l[i];
		l = l ?: pnew(t, scn, r);
		if (!l)
			return -1;
		l->new[col] = r->new;
	}
	return 0;
}

/* By scenario, by kind (LKP's order), the largest change first; of chains alike, the deeper. */
static int by_key(const void *a, const void *b)
{
	const struct pline *x = a, *y = b;
	size_t lx = strlen(x->r->name), ly = strlen(y->r->name);

	if (x->scn != y->scn)
		return x->scn < y->scn ? -1 : 1;
	if (x->r->kind != y->r->kind)
		return x->r->kind < y->r->kind ? -1 : 1;
	if (fabs(x->key - y->key) > 1e-9) /* (a sum's last bit tells no change apart) */
		return x->key < y->key ? 1 : -1;
	if (x->r->kind == PROW_CALLTRACE && lx != ly)
		return lx > ly ? -1 : 1;
	return strcmp(x->label, y->label) ?: strcmp(x->r->module ?: "", y->r->module ?: "");
}

static void pline_text(FILE *f, const struct pline *l, size_t ncols)
{
	fprintf(f, "%12.2f %8s", l->old, "");
	for (size_t i = 0; i < ncols; i++)
		if (isnan(l->new[i]))
			fprintf(f, " %10s   %12s %8s", "", "n/a", "");
		else
			fprintf(f, " %+10.2f   %12.2f %8s", l->new[i] - l->old, l->new[i], "");
	fprintf(f, "  %s\n", l->label);
}

static void pline_md(FILE *f, const struct pline *l, size_t ncols)
{
	fprintf(f, "| `%s` | %.2f |", l->label, l->old);
	for (size_t i = 0; i < ncols; i++)
		if (isnan(l->new[i]))
			fprintf(f, " | n/a |");
		else
			fprintf(f, " %+.2f | %.2f |", l->new[i] - l->old, l->new[i]);
	fprintf(f, "\n");
}

/* "... and 3 more calltrace rows and 12 more self rows ...": those not shown, per kind. */
static void more(FILE *f, const struct mail *m, const size_t *hidden)
{
	char line[400];
	size_t n = 0;

	for (int k = 0; k < NR_PROW_KINDS; k++)
		if (hidden[k])
			n += snprintf(line + n, sizeof(line) - n, "%s %zu more %s row%s",
				      n ? " and" : "... and", hidden[k], prow_kind_name(k),
				      hidden[k] == 1 ? "" : "s");
	if (!n)
		return;
	snprintf(line + n, sizeof(line) - n,
		 " moved by %g or more (a higher --floor leaves them out).", m->floor);
	fprint_wrapped_at(f, "", line, MAIL_WIDTH);
	fprintf(f, "\n");
}

/* The first MAIL_PROF_ROWS rows of each kind of a scenario, the others counted. */
static void print_rows(FILE *f, const struct mail *m, const struct ptable *t)
{
	size_t shown = 0, hidden[NR_PROW_KINDS] = { 0 };

	if (m->md) {
		fprintf(f, "| row | %s |", m->t.names[0]);
		for (size_t i = 0; i < t->ncols; i++)
			fprintf(f, " change | %s |", m->t.names[i + 1]);
		fprintf(f, "\n|:---|---:|");
		for (size_t i = 0; i < t->ncols; i++)
			fprintf(f, "---:|---:|");
		fprintf(f, "\n");
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct pline *l = &t->l[i];

		if (i && (l->scn != l[-1].scn || l->r->kind != l[-1].r->kind))
			shown = 0;
		if (shown == MAIL_PROF_ROWS) {
			hidden[l->r->kind]++;
			continue;
		}
		shown++;
		(m->md ? pline_md : pline_text)(f, l, t->ncols);
	}
	fprintf(f, "\n");
	more(f, m, hidden);
}

/* T's rows whose change is the floor or more, each one's largest change its key; sorted. */
static void keep(struct ptable *t, double floor)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++) {
		struct pline *l = &t->l[i];

		for (size_t c = 0; c < t->ncols; c++)
			if (!isnan(l->new[c]))
				l->key = fmax(l->key, fabs(l->new[c] - l->old));
		if (l->key + 1e-9 >= floor) { /* (0.1 is no double) */
			t->l[n++] = *l;
			continue;
		}
		free(l->label);
		free(l->new);
	}
	t->n = n;
	if (n)
		qsort(t->l, n, sizeof(*t->l), by_key);
}

static void head(FILE *f, const struct mail *m, const struct ptable *t)
{
	char s[600];
	int n;

	n = snprintf(s, sizeof(s),
		     "The profile rows that moved by %g instructions per element or more, as "
		     "LKP's perf-profile rows: calltrace a call chain (leaf first) with all it "
		     "calls, children a function with all it calls, self a function alone; the "
		     "headline's scenario first, then by kind, the largest change first. "
		     "Profiles are exact, the same from boot to boot: the change is a "
		     "difference, not a percentage.",
		     m->floor);
	if (t->no_graph)
		snprintf(s + n, sizeof(s) - n,
			 " Self rows only where a file has no call graph (%s of %s, the first).",
			 t->no_graph_scn, t->no_graph);
	fprintf(f, "%s", m->md ? "#### Profile rows\n\n" : "");
	fprint_wrapped_at(f, "", s, MAIL_WIDTH);
	fprintf(f, "\n");
}

void mail_profile(FILE *f, const struct mail *m)
{
	const struct cmp_set *set = &m->cf->set;
	struct ptable t = { .ncols = set->n, .scn = { m->head->scenario }, .nscn = 1 };
	bool ok = true;
	size_t npd = 0; /* the comparisons' profiles on both sides */

	for (size_t i = 0; i < set->n; i++)
		npd += set->cmps[i].npd;
	if (!npd)
		return;
	for (size_t i = 0; i < set->n && ok; i++)
		for (size_t k = 0; k < set->cmps[i].npd && ok; k++)
			ok = !pdiff_rows(&t, i, &set->cmps[i].pd[k]);
	keep(&t, m->floor);
	head(f, m, &t);
	if (!ok)
		fprintf(f, "(out of memory: no rows)\n\n");
	else if (!t.n)
		fprintf(f, "(none)\n\n");
	else
		print_rows(f, m, &t);
	for (size_t i = 0; i < t.n; i++) {
		free(t.l[i].label);
		free(t.l[i].new);
	}
	free(t.l);
}
