// SPDX-License-Identifier: GPL-2.0
/* compare's instruction profiles: LKP's perf-profile rows, old change new. */
#include <math.h>
#include "compare/compare_report.h"
#include "report/report.h"

/* "ring +17.00 instr/elem (300.88 -> 317.88, +5.65 %): 2 functions carry +17.00 (100.0 %)" */
static void pdiff_head(FILE *f, const struct pdiff *d, bool md)
{
	double ch = d->new_total - d->old_total;
	size_t nself = d->nkind[PROW_SELF];
	char line[400], files[64] = "";
	int n;

	if (d->nold > 1 || d->nnew > 1)
		snprintf(files, sizeof(files), ", means of %zu and %zu files", d->nold, d->nnew);
	n = snprintf(line, sizeof(line),
		     "%s%s%s %+.2f instr/elem (%.2f -> %.2f, %+.2f %%%s): ", md ? "**" : "",
		     d->scenario, md ? "**" : "", ch, d->old_total, d->new_total,
		     d->old_total > 0 ? 100 * ch / d->old_total : 0.0, files);
	if (!nself)
		snprintf(line + n, sizeof(line) - n, "no function changed by %g or more", d->floor);
	else if (fabs(ch) < d->floor)
		snprintf(line + n, sizeof(line) - n,
			 "%zu function%s changed by %g or more, net %+.2f", nself,
			 nself == 1 ? "" : "s", d->floor, d->explained);
	else
		snprintf(line + n, sizeof(line) - n, "%zu function%s carr%s %+.2f (%.1f %%)", nself,
			 nself == 1 ? "" : "s", nself == 1 ? "ies" : "y", d->explained,
			 100 * d->explained / ch);
	if (md)
		fprintf(f, "\n%s\n", line);
	else
		fprint_wrapped(f, "", line);
}

/* A row, or past PDIFF_SHOWN of its kind the one line that counts the rest. */
static void pdiff_row(FILE *f, const struct pdiff *d, size_t i, size_t *shown, bool md)
{
	const struct prow *r = &d->row[i];
	size_t *k = &shown[r->kind];

	if (++*k > PDIFF_SHOWN) {
		if (*k == PDIFF_SHOWN + 1 && md)
			fprintf(f, "| | | | %zu more %s rows (`--json` lists them) |\n",
				d->nkind[r->kind] - PDIFF_SHOWN, prow_kind_name(r->kind));
		else if (*k == PDIFF_SHOWN + 1)
			fprintf(f, "%39s%zu more %s rows (--json lists them)\n", "",
				d->nkind[r->kind] - PDIFF_SHOWN, prow_kind_name(r->kind));
		return;
	}
	if (md)
		fprintf(f, "| %.2f | %+.2f | %.2f | `%s` |\n", r->old, prow_change(r), r->new,
			r->lkp);
	else
		fprintf(f, "%12.2f %+11.2f %12.2f  %s\n", r->old, prow_change(r), r->new, r->lkp);
}

/* "+12.3%", "new" (from nothing), "gone" (to nothing), "0.0%": a line's change. */
static void fmt_pct(double old, double new, char *buf, size_t len)
{
	double ch = old > 0 ? 100 * (new - old) / old : NAN;

	if (!(old > 0))
		snprintf(buf, len, "new");
	else if (!(new > 0))
		snprintf(buf, len, "gone");
	else if (fabs(ch) < 0.05)
		snprintf(buf, len, "0.0%%");
	else
		snprintf(buf, len, "%+.1f%%", ch);
}

/* D's source lines that moved, where both sides' profiles have lines. */
static void print_lines(FILE *f, const struct pdiff *d, bool md)
{
	const struct ldiff *ld = &d->lines;
	char ch[16];

	if (!d->has_lines)
		return;
	if (!ld->nlisted)
		fprintf(f,
			md ? "\nNo source line moved by %g or more.\n"
			   : "no source line moved by %g or more\n",
			d->floor);
	else if (md)
		fprintf(f, "\n| old | %%change | new | line | change | function |\n"
			   "|---:|---:|---:|:---|---:|:---|\n");
	else
		fprintf(f, "%12s %10s %12s  %s\n", "old", "%change", "new",
			"source line (of the path's kernel functions)");
	for (size_t k = 0; k < ld->nlisted && k < PDIFF_SHOWN; k++) {
		const struct ldiff_line *l = &ld->l[k];

		fmt_pct(l->old, l->new, ch, sizeof(ch));
		fprintf(f,
			md ? "| %.2f | %s | %.2f | `%s` | %+.2f | `%s` |\n"
			   : "%12.2f %10s %12.2f  %s %+.2f (%s)\n",
			l->old, ch, l->new, l->at, l->new - l->old, l->fn);
	}
	if (ld->nlisted > PDIFF_SHOWN && md)
		fprintf(f, "\n%zu more lines (`--json` lists them)\n", ld->nlisted - PDIFF_SHOWN);
	else if (ld->nlisted > PDIFF_SHOWN)
		fprintf(f, "%39s%zu more lines (--json lists them)\n", "",
			ld->nlisted - PDIFF_SHOWN);
}

void pdiff_print(FILE *f, const struct pdiff *d, size_t n, bool md)
{
	if (!n)
		return;
	fprintf(f, md ? "\n#### Instruction profiles\n\n"
			"Instructions per element, exact and the same from boot to boot (no test): "
			"LKP's perf-profile rows that changed by the floor or more, largest first; "
			"`change` is a difference of instructions per element, not a percentage.\n"
		      : "\n");
	if (!md)
		fprint_wrapped(f, "",
			       "profiles: instructions per element, exact (no test); LKP's "
			       "perf-profile rows, their change a difference of instructions per "
			       "element");
	for (size_t i = 0; i < n; i++) {
		size_t shown[NR_PROW_KINDS] = { 0 };

		pdiff_head(f, &d[i], md);
		if (d[i].no_graph)
			fprintf(f,
				md ? "\nself rows only: `%s` has no call graph\n"
				   : "  self rows only: %s has no call graph\n",
				d[i].no_graph);
		if (d[i].nrow)
			fprintf(f,
				md ? "\n| old | change | new | row |\n|---:|---:|---:|:---|\n"
				   : "%12s %11s %12s  %s\n",
				"old", "change", "new", "row");
		for (size_t k = 0; k < d[i].nrow; k++)
			pdiff_row(f, &d[i], k, shown, md);
		print_lines(f, &d[i], md);
	}
}

/* D's source lines that moved, as print_lines() shows them. */
static void json_lines(struct json *j, const struct pdiff *d)
{
	if (!d->has_lines)
		return;
	json_arr_begin(j, "lines");
	for (size_t k = 0; k < d->lines.nlisted; k++) {
		const struct ldiff_line *l = &d->lines.l[k];

		json_obj_begin(j, NULL);
		json_str(j, "line", l->at);
		json_str(j, "function", l->fn);
		json_double(j, "old", l->old);
		json_double(j, "new", l->new);
		json_double(j, "change", l->new - l->old);
		json_obj_end(j);
	}
	json_arr_end(j);
}

void pdiff_json(struct json *j, const struct pdiff *d, size_t n)
{
	json_arr_begin(j, "profiles");
	for (size_t i = 0; i < n; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "scenario", d[i].scenario);
		json_u64(j, "files_old", d[i].nold);
		json_u64(j, "files_new", d[i].nnew);
		json_double(j, "old", d[i].old_total);
		json_double(j, "new", d[i].new_total);
		json_double(j, "change", d[i].new_total - d[i].old_total);
		json_double(j, "explained", d[i].explained);
		json_double(j, "floor", d[i].floor);
		json_bool(j, "call_graphs", !d[i].no_graph);
		json_arr_begin(j, "rows");
		for (size_t k = 0; k < d[i].nrow; k++) {
			const struct prow *r = &d[i].row[k];

			json_obj_begin(j, NULL);
			json_str(j, "name", r->lkp);
			json_str(j, "kind", prow_kind_name(r->kind));
			json_str(j, r->kind == PROW_CALLTRACE ? "chain" : "function", r->name);
			if (r->module)
				json_str(j, "module", r->module);
			if (r->group)
				json_str(j, "group", r->group);
			json_double(j, "old", r->old);
			json_double(j, "new", r->new);
			json_double(j, "change", prow_change(r));
			json_obj_end(j);
		}
		json_arr_end(j);
		json_lines(j, &d[i]);
		json_obj_end(j);
	}
	json_arr_end(j);
}
