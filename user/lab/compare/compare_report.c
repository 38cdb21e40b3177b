// SPDX-License-Identifier: GPL-2.0
/* compare's output: text, Markdown, bench_page_pool_simple's table, JSON; the gate's lines. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/by_counter.h"
#include "compare/compare_report.h"
#include "compare/hardlimit.h"
#include "compare/ktap.h"
#include "report/report.h"
#include "sys/log.h"

/* Label column of the text table: what is left of 100 columns. */
#define LABEL_WIDTH 42
/* the noise sentence: its words and the profile's file name */
#define NOISE_LEN (640 + PATH_MAX)
/* A column's cell after its separating space: %change, mark, value, ±%stddev. */
#define COL_WIDTH 34

/* Text and Markdown show at most this many profile rows of a kind; JSON has them all. */
#define PDIFF_SHOWN 20

/* ---- instruction profiles: LKP's perf-profile rows, old change new ---------- */

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
		fprintf(f, "| %.2f | %+.2f | %.2f | `%s` |\n", r->old, r->new - r->old, r->new,
			r->lkp);
	else
		fprintf(f, "%12.2f %+11.2f %12.2f  %s\n", r->old, r->new - r->old, r->new, r->lkp);
}

/* "+12.3%", "new" (from nothing), "gone" (to nothing), "0.0%": a line's change. */
static void fmt_pct(double old, double new, char *buf, size_t len)
{
	if (!(old > 0))
		snprintf(buf, len, "new");
	else if (!(new > 0))
		snprintf(buf, len, "gone");
	else
		ktap_pct(100 * (new - old) / old, buf, len);
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

static void pdiff_print(FILE *f, const struct pdiff *d, size_t n, bool md)
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

static void pdiff_json(struct json *j, const struct pdiff *d, size_t n)
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
			json_double(j, "change", r->new - r->old);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_lines(j, &d[i]);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void fmt_val(enum fig kind, double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.*f", kind == FIG_NS ? 3 : 2, v);
}

/*
 * '*' a real change (significant and at least the floor; with levels in a
 * file, between their nearest levels), '~' significant but below the floor,
 * '=' beyond the floor with new where the profile's host falls, 'u' a file's
 * setups on two or more levels that may explain the change, '?' not tested.
 */
static bool row_real(const struct row *r)
{
	return r->unstable ? r->level_real : r->real;
}

static char mark(const struct row *r)
{
	if (!r->t.testable)
		return '?';
	if (r->unstable && !r->level_real)
		return 'u';
	if (r->real)
		return '*';
	if (r->known)
		return '=';
	return r->significant ? '~' : ' ';
}

static void file_list(FILE *f, const struct result *files, size_t n, const char *quote)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s%s%s", i ? " " : "", quote, files[i].path, quote);
}

/* Floors of the profile for the scenarios with a cycles row: "ring 71.2%, slow 30.1%". */
static void profile_floors(const struct comparison *c, char *buf, size_t len)
{
	int n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < c->nrows && n < (int)len; i++) {
		const struct row *r = &c->rows[i];

		if (r->kind != FIG_CYCLES)
			continue;
		if (r->nf)
			n += snprintf(buf + n, len - n, "%s%s %.1f%%", n ? ", " : "", r->scenario,
				      r->floor_pct);
		else
			n += snprintf(buf + n, len - n, "%s%s none (not in the profile)",
				      n ? ", " : "", r->scenario);
	}
}

/* One sentence: which noise the verdict used. */
static void fmt_noise(const struct comparison *c, char *buf, size_t len)
{
	const struct noise_profile *p = c->profile;
	const struct row *r = c->nrows ? &c->rows[0] : NULL;
	char floors[400];

	switch (c->noise) {
	case NOISE_FILES:
		snprintf(
			buf, len,
			"noise: between invocations, from the files: each file's median of setups "
			"is one value (%zu old, %zu new files); inside the files the setups spread "
			"by a CV of %.1f%% (old) and %.1f%% (new) on the first row",
			c->nold, c->nnew, r ? r->within_o * 100 : 0, r ? r->within_n * 100 : 0);
		break;
	case NOISE_PROFILE:
		profile_floors(c, floors, sizeof(floors));
		snprintf(buf, len,
			 "noise: between invocations, from the profile %s (%llu runs over %.0f s, "
			 "taken %s); floors: %s",
			 p->path ? p->path : "(in memory)", (unsigned long long)p->invocations,
			 p->span_s, p->created ? p->created : "?", *floors ? floors : "none");
		break;
	case NOISE_SETUPS:
		snprintf(
			buf, len,
			"noise: only the setups inside each file, not how much invocations differ: "
			"the marks compare setups, and no gate decides (--noise PROFILE from "
			"'ppbench calibrate', or two or more files a side)");
		break;
	}
}

/* The noise sentence: wrapped in text, after "**Noise:**" in Markdown (MD). */
static void print_noise(FILE *f, const struct comparison *c, bool md)
{
	char noise[NOISE_LEN];

	fmt_noise(c, noise, sizeof(noise));
	if (md)
		fprintf(f, "\n**Noise:** %s\n", noise + strlen("noise: "));
	else
		fprint_wrapped(f, "", noise);
}

/* Differences and notes, as "  what  old -> new" lines, or Markdown list items. */
static void print_context(FILE *f, const struct comparison *c, bool md)
{
	if (c->ndiffs)
		fprintf(f, "%s",
			md ? "\nHost and recipe differences (old -> new):\n\n"
			   : "host and recipe differences (old -> new):\n");
	for (size_t i = 0; i < c->ndiffs; i++) {
		const struct diff *d = &c->diffs[i];

		if (md)
			fprintf(f, "- %s: `%s` -> `%s`\n", d->what, d->old, d->new);
		else if (strlen(d->what) + strlen(d->old) + strlen(d->new) > 90)
			fprintf(f, "  %s:\n    old: %s\n    new: %s\n", d->what, d->old, d->new);
		else
			fprintf(f, "  %-32s %s -> %s\n", d->what, d->old, d->new);
	}
	if (c->nnotes)
		fprintf(f, "%s", md ? "\nNotes:\n\n" : "notes:\n");
	for (size_t i = 0; i < c->nnotes; i++)
		if (md)
			fprintf(f, "- %s\n", c->notes[i]);
		else
			fprint_wrapped(f, "  ", c->notes[i]);
}

/* With columns, each column's sample size of its first row. */
static void legend_columns(FILE *f, const struct cmp_set *set, const char *li, bool md)
{
	char line[400];
	int n = snprintf(line, sizeof(line),
			 "%s±%%stddev: sample stddev / mean; n = %zu in the base", li,
			 set->cmps[0].rows[0].o.n);

	for (size_t i = 0; i < set->n && n < (int)sizeof(line); i++)
		n += snprintf(line + n, sizeof(line) - n, "%s%zu", i ? ", " : " and ",
			      set->cmps[i].nrows ? set->cmps[i].rows[0].n.n : 0);
	if (n < (int)sizeof(line))
		snprintf(line + n, sizeof(line) - n,
			 " in the columns (files where the base and "
			 "the column have two or more, else setups)");
	if (md)
		fprintf(f, "%s\n", line);
	else
		fprint_wrapped(f, "", line);
}

/* Sample sizes of the first row: what "±" and the test were computed over. */
static void legend(FILE *f, const struct cmp_set *set, const struct comparison *c, bool md)
{
	const char *li = md ? "- " : "";

	static const char *const on[] = { "on the setups", "on the file medians",
					  "on the profile's spread" };

	fprintf(f, "%s%s real: significant by %s %s (two-sided, alpha %g), >= floor\n",
		md ? "\n" : "", md ? "- **bold**:" : "*",
		c->noise == NOISE_PROFILE ? "a t-test" : sig_test_name(set->opts->test),
		on[c->noise], set->opts->alpha);
	if (c->noise == NOISE_PROFILE)
		fprintf(f, "%s%s significant but below the floor: the profile's, per scenario\n",
			li, md ? "*(floor)*:" : "~");
	else
		fprintf(f,
			"%s%s significant but below the floor: max(%g%%, the change these %s "
			"detect with 90%% power)\n",
			li, md ? "*(floor)*:" : "~", unit_floor_pct(result_clock_of(c->old)->unit),
			c->noise == NOISE_FILES ? "files" : "setups");
	fprintf(f, "%s%s unstable: a file's setups sit on two or more levels; %s\n", li,
		md ? "*(unstable)*:" : "u",
		set->gate_unstable ? "gated on the medians (--gate-unstable)"
				   : "real only between the nearest levels");
	if (c->noise == NOISE_PROFILE) {
		fprintf(f,
			"%s%s beyond the floor, but new lies where one more run of the profile's "
			"host falls: old sits on a level the profile never saw, so no verdict\n",
			li, md ? "*(known)*:" : "=");
		fprintf(f, "%s? not tested: the noise profile has no such figure\n", li);
	} else
		fprintf(f,
			"%s? not tested: fewer than 2 values on a side (path and purity have one "
			"value per file)\n",
			li);
	if (c->nrows && c->noise == NOISE_PROFILE)
		fprintf(f,
			"%sold, new: each file's median of setups, as the profile measured them\n",
			li);
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].repeats) {
			fprintf(f,
				"%seach figure once: %s rows repeat it (--json and --org keep "
				"them)\n",
				li,
				unit_counts_instructions(result_clock_of(c->old)->unit)
					? "guest ns and a lone CPU's"
					: "a lone CPU's");
			break;
		}
	if (c->nrows && set->n == 1)
		fprintf(f, "%s±%%stddev: sample stddev / mean; n = %zu old, %zu new %s\n", li,
			c->rows[0].o.n, c->rows[0].n.n,
			c->noise == NOISE_FILES ? "files (each its median of setups)" : "setups");
	if (c->nrows && set->n > 1)
		legend_columns(f, set, li, md);
}

/* "±0.4%" right-aligned in 8 columns (± is two bytes); blank for a single value. */
static void fmt_sd(const struct summary *s, char *buf, size_t len, bool md)
{
	char v[12];
	int pad;

	snprintf(v, sizeof(v), "%.1f%%", fmin(s->cv * 100, 99999));
	pad = 7 - (int)strlen(v);
	if (md)
		snprintf(buf, len, "%s", s->n < 2 ? "" : v);
	else if (s->n < 2)
		snprintf(buf, len, "%8s", "");
	else
		snprintf(buf, len, "%*s±%s", pad > 0 ? pad : 0, "", v);
}

/* Path figures of two methods: "method differs (fentry, profile)", never a change. */
static const char *differs(const struct row *r, char *buf, size_t len)
{
	snprintf(buf, len, "method differs (%s, %s)", r->method, r->other_method);
	return buf;
}

/* Markdown's words for the marks other than '*' (bold). */
static const char *md_tag(const struct row *r)
{
	return r->unstable		    ? " *(unstable)*"
	       : r->known		    ? " *(known)*"
	       : r->significant && !r->real ? " *(floor)*"
					    : "";
}

/* A column's cell: its change against the base, its mark, its figure. */
static void col_cell(FILE *f, const struct row *r, bool md)
{
	char v[24], ch[16], sd[32], why[160];
	const char *b = r && row_real(r) ? "**" : "";

	if (!r || r->other_method) {
		if (md)
			fprintf(f, r ? " %s | | |" : " | %s | |",
				r ? differs(r, why, sizeof(why)) : "n/a");
		else if (r)
			fprintf(f, " %*s", COL_WIDTH, differs(r, why, sizeof(why)));
		else
			fprintf(f, " %10s   %12s %8s", "", "n/a", "");
		return;
	}
	fmt_val(r->kind, r->nfig, v, sizeof(v));
	ktap_pct(r->change, ch, sizeof(ch));
	fmt_sd(&r->n, sd, sizeof(sd), md);
	if (md)
		fprintf(f, " %s%s%s%s | %s | %s |", b, ch, b, md_tag(r), v, sd);
	else
		fprintf(f, " %10s %c %12s %s", ch, mark(r), v, sd);
}

/* The base's figure and spread, blank without R. */
static void base_cell(FILE *f, const struct row *r, bool md)
{
	char v[24] = "", sd[32] = "";

	if (r) {
		fmt_val(r->kind, r->ofig, v, sizeof(v));
		fmt_sd(&r->o, sd, sizeof(sd), md);
	}
	if (md)
		fprintf(f, " %s | %s |", v, sd);
	else if (r)
		fprintf(f, "%12s %s", v, sd);
	else
		fprintf(f, "%21s", "");
}

static void text_row(FILE *f, const struct row *r)
{
	char why[160];

	if (r->other_method) {
		fprintf(f, "%12s %-43s  %.*s\n", "", differs(r, why, sizeof(why)), LABEL_WIDTH,
			r->label);
		return;
	}
	base_cell(f, r, false);
	col_cell(f, r, false);
	fprintf(f, "  %.*s\n", LABEL_WIDTH, r->label);
}

static void md_row(FILE *f, const struct row *r)
{
	char p[16], why[160];

	if (r->other_method) {
		fprintf(f, "| %s | | | %s | | | |\n", r->label, differs(r, why, sizeof(why)));
		return;
	}
	snprintf(p, sizeof(p), "%.2g", r->t.p);
	fprintf(f, "| %s |", r->label);
	base_cell(f, r, true);
	col_cell(f, r, true);
	fprintf(f, " %s |\n", !r->t.testable ? "?" : r->t.p < 0.0001 ? "<0.0001" : p);
}

/* One comparison in text or Markdown (MD). */
static void print_one(FILE *f, const struct cmp_set *set, const struct comparison *c, bool md)
{
	fprintf(f, md ? "#### ppbench compare: old " : "old: ");
	file_list(f, c->old, c->nold, md ? "`" : "");
	fprintf(f, md ? " vs new " : "\nnew: ");
	file_list(f, c->new, c->nnew, md ? "`" : "");
	fprintf(f, "\n");
	print_context(f, c, md);
	print_noise(f, c, md);
	if (md)
		fprintf(f, "\n| figure | old | ±%%stddev | %%change | new | ±%%stddev | p |\n"
			   "|:---|---:|---:|---:|---:|---:|---:|\n");
	else
		fprintf(f, "\n%12s %8s %10s   %12s %8s  %s\n", "old", "±%stddev", "%change", "new",
			"±%stddev", "figure");
	for (size_t i = 0; i < c->nrows; i++)
		if (!c->rows[i].repeats)
			(md ? md_row : text_row)(f, &c->rows[i]);
	if (!md && !c->nrows)
		fprintf(f, "%12s(no scenario was measured on both sides)\n", "");
	if (!md)
		fprintf(f, "\n");
	legend(f, set, c, md);
	pdiff_print(f, c->pd, c->npd, md);
}

/* One line of the bpp table: cycles (integers, as time_bench prints them) and ns. */
static void bpp_line(FILE *f, const struct comparison *c, const char *test, const char *scn)
{
	const struct row *cy = find_row(c, scn, FIG_CYCLES), *ns = find_row(c, scn, FIG_NS);
	char chc[16] = "n/a", chn[16] = "n/a";

	if (!cy || !ns) {
		fprintf(f, "| %-8s | %10s | %10s | %9s | %9s | %9s | %9s |\n", test, "n/a", "n/a",
			"n/a", "n/a", "n/a", "n/a");
		return;
	}
	ktap_pct(cy->change, chc, sizeof(chc) - 2);
	ktap_pct(ns->change, chn, sizeof(chn) - 2);
	if (cy->real || cy->unstable)
		strcat(chc, row_real(cy) ? " *" : " u");
	if (ns->real || ns->unstable)
		strcat(chn, row_real(ns) ? " *" : " u");
	fprintf(f, "| %-8s | %10.0f | %10.0f | %9s | %9.3f | %9.3f | %9s |\n", test, cy->ofig,
		cy->nfig, chc, ns->ofig, ns->nfig, chn);
}

/* Markdown whose rule line also starts with "|-", so org-mode reads it as a table too. */
static void print_bpp(FILE *f, const struct cmp_set *set, const struct comparison *c)
{
	fprintf(f, "page_pool path cost, bench_page_pool_simple style (mean per element): old ");
	file_list(f, c->old, c->nold, "");
	fprintf(f, ", new ");
	file_list(f, c->new, c->nnew, "");
	fprintf(f, "\n\n| %-8s | %10s | %10s | %9s | %9s | %9s | %9s |\n", "Test", "cycles old",
		"cycles new", "diff", "ns old", "ns new", "diff");
	fprintf(f, "|----------|-----------:|-----------:|----------:|----------:|----------:"
		   "|----------:|\n");
	bpp_line(f, c, "fast", "fast");
	bpp_line(f, c, "ptr_ring", "ring");
	bpp_line(f, c, "slow", "slow");
	fprintf(f, "\n* real (%s, alpha %g, and at least the floor); u unstable\n",
		c->noise == NOISE_PROFILE ? "t-test against the noise profile"
					  : sig_test_name(set->opts->test),
		set->opts->alpha);
	print_noise(f, c, false);
}

static void json_summary(struct json *j, const char *key, const struct summary *s)
{
	json_obj_begin(j, key);
	json_u64(j, "n", s->n);
	json_double(j, "mean", s->mean);
	json_double(j, "median", s->median);
	json_double(j, "min", s->min);
	json_double(j, "max", s->max);
	json_double(j, "stddev", s->stddev);
	json_double(j, "cv", s->cv);
	json_obj_end(j);
}

static void json_row(struct json *j, const struct cmp_set *set, const struct comparison *c,
		     const struct row *r)
{
	json_obj_begin(j, NULL);
	json_str(j, "scenario", r->scenario);
	json_str(j, "figure", fig_name(r->kind));
	json_str(j, "label", r->label);
	if (r->cpu) {
		json_u64(j, "cpu", r->cpu->cpu);
		json_str(j, "role", r->cpu->role);
	}
	if (r->repeats) /* (the instruction clock's guest ns, a lone CPU's figure) */
		json_str(j, "repeats", fig_name(FIG_CYCLES));
	if (r->other_method) {
		json_none(j, "method");
		json_arr_begin(j, "methods_differ");
		json_str(j, NULL, r->method);
		json_str(j, NULL, r->other_method);
		json_arr_end(j);
	} else if (r->method) {
		json_str(j, "method", r->method);
	}
	json_summary(j, "old", &r->o);
	json_summary(j, "new", &r->n);
	json_double(j, "change_pct", r->change);
	json_bool(j, "testable", r->t.testable);
	json_double(j, "p", r->t.testable ? r->t.p : NAN); /* null: untested */
	json_bool(j, "significant", r->significant);
	json_double(j, "floor_pct", r->floor_pct);
	if (r->noise == NOISE_FILES) {
		json_double(j, "within_cv_old", r->within_o);
		json_double(j, "within_cv_new", r->within_n);
	}
	json_bool(j, "real", r->real);
	if (r->noise == NOISE_PROFILE)
		json_bool(j, "within_profile", r->known);
	json_bool(j, "unstable", r->unstable);
	if (r->unstable && r->noise != NOISE_SETUPS) {
		json_double(j, "level_change_pct", r->level_change);
		json_bool(j, "level_real", r->level_real);
	}
	json_u64(j, "modes_old", r->mo.nr_modes);
	json_u64(j, "modes_new", r->mn.nr_modes);
	json_str(j, "worse", fig_higher_is_worse(r->kind) ? "higher" : "lower");
	json_bool(j, "regression", r->regression);
	json_bool(j, "gated", row_gated(set, r) && !row_xfail(set, c, r));
	if (set->machine_slow)
		json_bool(j, "expected_failure", row_xfail(set, c, r));
	json_obj_end(j);
}

static void json_files(struct json *j, const char *key, const struct result *files, size_t n)
{
	json_arr_begin(j, key);
	for (size_t i = 0; i < n; i++)
		json_str(j, NULL, files[i].path);
	json_arr_end(j);
}

/* Which noise the verdict used, and whether there is one. */
static void json_noise(struct json *j, const struct comparison *c)
{
	char noise[NOISE_LEN];

	fmt_noise(c, noise, sizeof(noise));
	json_obj_begin(j, "noise");
	json_str(j, "source", noise_src_name(c->noise));
	json_bool(j, "verdict", c->noise != NOISE_SETUPS);
	json_str(j, "description", noise + strlen("noise: "));
	if (c->profile) {
		json_str(j, "profile", c->profile->path);
		json_str(j, "profile_created", c->profile->created);
		json_u64(j, "profile_invocations", c->profile->invocations);
	}
	json_obj_end(j);
}

static void json_comparison(struct json *j, const struct cmp_set *set, const struct comparison *c,
			    const char *name)
{
	json_obj_begin(j, NULL);
	json_str(j, "name", name);
	json_files(j, "old", c->old, c->nold);
	json_files(j, "new", c->new, c->nnew);
	json_str(j, "unit", c->nold ? c->old[0].host.clock.unit : "cycles");
	json_arr_begin(j, "differences");
	for (size_t i = 0; i < c->ndiffs; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "what", c->diffs[i].what);
		json_str(j, "old", c->diffs[i].old);
		json_str(j, "new", c->diffs[i].new);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_noise(j, c);
	json_arr_begin(j, "notes");
	for (size_t i = 0; i < c->nnotes; i++)
		json_str(j, NULL, c->notes[i]);
	json_arr_end(j);
	json_arr_begin(j, "rows");
	for (size_t i = 0; i < c->nrows; i++)
		json_row(j, set, c, &c->rows[i]);
	json_arr_end(j);
	if (c->npd)
		pdiff_json(j, c->pd, c->npd);
	json_obj_end(j);
}

static int write_json(const struct cmp_set *set, const char (*names)[COL_NAME_LEN],
		      const char *path)
{
	struct json *j = json_open(path, true);

	if (!j)
		return EXIT_FAIL;
	json_obj_begin(j, NULL);
	json_str(j, "schema", "ppbench-compare/1");
	json_obj_begin(j, "test");
	json_str(j, "name", set->opts->test == TEST_WELCH ? "welch" : "mann-whitney");
	json_str(j, "description", sig_test_name(set->opts->test));
	json_double(j, "alpha", set->opts->alpha);
	json_bool(j, "two_sided", true);
	json_obj_end(j);
	if (set->gate) {
		json_obj_begin(j, "gate");
		json_str(j, "metric", fig_name(set->metric));
		json_double(j, "fail_above_pct", set->fail_above);
		json_bool(j, "gate_unstable", set->gate_unstable);
		json_obj_end(j);
	}
	if (set->n)
		json_str(j, "base", names[0]);
	json_arr_begin(j, "comparisons");
	for (size_t i = 0; i < set->n; i++)
		json_comparison(j, set, &set->cmps[i], names[i + 1]);
	json_arr_end(j);
	limit_json(j, set->limits, set->nlimits);
	json_obj_end(j);
	json_flush_line(j);
	if (json_close(j)) /* its error line names the file */
		return EXIT_FAIL;
	return EXIT_OK;
}

/* ---- several columns: LKP's table, each column against the base ------------- */

static void col_files(FILE *f, const char *name, const struct result *files, size_t n, bool md)
{
	fprintf(f, md ? "- **%s**: " : "  %-16s ", name);
	file_list(f, files, n, md ? "`" : "");
	fprintf(f, " (%s)\n", files[0].host.kernel);
}

/* The columns, then each one's differences from the base, notes and noise. */
static void col_context(FILE *f, const struct cmp_set *set, const struct col_table *t, bool md)
{
	fprintf(f,
		md ? "#### ppbench compare: columns against `%s`\n\n"
		   : "columns, each against the first (%s):\n",
		t->names[0]);
	col_files(f, t->names[0], set->cmps[0].old, set->cmps[0].nold, md);
	for (size_t i = 0; i < set->n; i++)
		col_files(f, t->names[i + 1], set->cmps[i].new, set->cmps[i].nnew, md);
	for (size_t i = 0; i < set->n; i++) {
		fprintf(f, md ? "\n##### %s against %s\n" : "\n%s against %s:\n", t->names[i + 1],
			t->names[0]);
		print_context(f, &set->cmps[i], md);
		print_noise(f, &set->cmps[i], md);
	}
}

/* LKP's head: the names, a rule per column, the labels and their markers. */
static void col_head(FILE *f, const struct col_table *t)
{
	fprintf(f, "\n%-21.21s", t->names[0]);
	for (size_t i = 0; i < t->ncols; i++)
		fprintf(f, " %-*.*s", i + 1 < t->ncols ? COL_WIDTH : 0, COL_WIDTH, t->names[i + 1]);
	fprintf(f, "\n%.21s", "------------------------------------------");
	for (size_t i = 0; i < t->ncols; i++)
		fprintf(f, " %.*s", COL_WIDTH, "------------------------------------------");
	fprintf(f, "\n%21s", "%stddev");
	for (size_t i = 0; i < t->ncols; i++)
		fprintf(f, " %10s %23s", "%change", "%stddev");
	fprintf(f, "\n%21s", "\\");
	for (size_t i = 0; i < t->ncols; i++)
		fprintf(f, " %10s %23s", "|", "\\");
	fprintf(f, "\n");
}

static void col_line(FILE *f, const struct col_line *l, size_t ncols, bool md)
{
	if (md)
		fprintf(f, "| %s |", l->named->label);
	base_cell(f, l->base, md);
	for (size_t i = 0; i < ncols; i++)
		col_cell(f, l->cell[i], md);
	if (!md)
		fprintf(f, "  %s", l->named->label);
	fprintf(f, "\n");
}

static void col_md_head(FILE *f, const struct col_table *t)
{
	fprintf(f, "\n| figure | %s | ±%%stddev |", t->names[0]);
	for (size_t i = 0; i < t->ncols; i++)
		fprintf(f, " %%change | %s | ±%%stddev |", t->names[i + 1]);
	fprintf(f, "\n|:---|---:|---:|");
	for (size_t i = 0; i < t->ncols; i++)
		fprintf(f, "---:|---:|---:|");
	fprintf(f, "\n");
}

void compare_print_table(FILE *f, const struct col_table *t, bool md)
{
	if (md)
		col_md_head(f, t);
	else
		col_head(f, t);
	for (size_t i = 0; i < t->nlines; i++)
		col_line(f, &t->lines[i], t->ncols, md);
	if (!t->nlines)
		fprintf(f, "%12s(no scenario was measured in the base and a column)\n", "");
}

/* Text or Markdown: one table, a column per comparison, as LKP's reports have it. */
static void print_columns(FILE *f, const struct cmp_set *set, const struct col_table *t, bool md)
{
	col_context(f, set, t, md);
	compare_print_table(f, t, md);
	if (!md)
		fprintf(f, "\n");
	legend(f, set, &set->cmps[0], md);
	for (size_t i = 0; i < set->n; i++) {
		if (!set->cmps[i].npd)
			continue;
		fprintf(f, md ? "\n##### %s against %s\n" : "\n%s against %s:\n", t->names[i + 1],
			t->names[0]);
		pdiff_print(f, set->cmps[i].pd, set->cmps[i].npd, md);
	}
}

/* One comparison, or a table of its columns, in text, Markdown and Org; bpp's per comparison. */
static void output_tables(const struct cmp_set *set, const struct col_table *t, unsigned formats)
{
	bool cols = set->n > 1, md = formats & CMP_OUT_MARKDOWN, sep = md;

	if (cols && (!formats || md))
		print_columns(stdout, set, t, md);
	else if (!formats || md)
		print_one(stdout, set, &set->cmps[0], md);
	for (size_t i = 0; (formats & CMP_OUT_BPP) && i < set->n; i++, sep = true) {
		if (sep)
			printf("\n");
		print_bpp(stdout, set, &set->cmps[i]);
	}
	if (formats & CMP_OUT_ORG) {
		if (sep)
			printf("\n");
		compare_print_org(stdout, set, cols ? t->names : NULL);
	}
}

int compare_output(const struct cmp_set *set, unsigned formats, const char *json_path)
{
	bool json_only = json_path && !strcmp(json_path, "-");
	bool tables = !json_only && !(formats & CMP_OUT_KTAP);
	struct col_table t;
	int ret = EXIT_OK;

	if (col_table_build(set, &t)) {
		pr_err("comparing failed: out of memory\n");
		return EXIT_FAIL;
	}
	if (!json_only && (formats & CMP_OUT_KTAP))
		compare_print_ktap(stdout, set);
	if (tables && set->n)
		output_tables(set, &t, formats);
	if (tables && set->nlimits) {
		if (set->n)
			printf("\n");
		limit_print_text(stdout, set->limits, set->nlimits);
	}
	if (json_path)
		ret = write_json(set, t.names, json_path);
	col_table_free(&t);
	return ret;
}

/* "2 levels: 3 at ~400, 2 at ~1100" of R's side with levels, new's if both: that side's name. */
static const char *fmt_modes(const struct row *r, char *buf, size_t len)
{
	const struct modes *m = r->mn.multi ? &r->mn : &r->mo;
	int n = snprintf(buf, len, "%zu levels:", m->nr_modes);

	for (size_t i = 0; i < m->nr_modes && i < MODES_MAX && n < (int)len; i++)
		n += snprintf(buf + n, len - n, "%s %zu at ~%.0f", i ? "," : "", m->m[i].count,
			      m->m[i].median);
	return r->mn.multi ? "new" : "old";
}

/* A regression of the medians that the levels in a file explain. */
static void unstable_note(const struct comparison *c, const struct row *r)
{
	char lv[200];
	const char *side = fmt_modes(r, lv, sizeof(lv));

	fprintf(stderr,
		"ppbench compare: unstable, not gated: %s %+.1f%% (%s in %s; between the nearest "
		"levels %+.1f%%, %s; --gate-unstable gates it), %s -> %s\n",
		r->label, r->change, lv, side, r->level_change,
		r->level_real ? "within the limit" : "not real", c->old[0].path, c->new[0].path);
}

int compare_gate(const struct cmp_set *set)
{
	size_t gated = 0, tested = 0;
	char lv[200];

	for (size_t i = 0; i < set->n; i++) {
		const struct comparison *c = &set->cmps[i];

		for (size_t k = 0; k < c->nrows; k++) {
			const struct row *r = &c->rows[k];

			tested += r->kind == set->metric && r->t.testable;
			if (row_unstable_not_gated(set, r)) {
				unstable_note(c, r);
				continue;
			}
			if (!row_gated(set, r))
				continue;
			if (row_xfail(set, c, r)) {
				fprintf(stderr,
					"ppbench compare: expected failure (KSFT_MACHINE_SLOW=yes, "
					"a time): %s %+.1f%% (limit %g%%), %s -> %s\n",
					r->label, r->change, set->fail_above, c->old[0].path,
					c->new[0].path);
				continue;
			}
			gated++;
			lv[0] = 0;
			if (r->unstable) {
				const char *side = fmt_modes(r, lv, sizeof(lv));

				snprintf(lv + strlen(lv), sizeof(lv) - strlen(lv),
					 " in %s, between the nearest levels %+.1f%%", side,
					 r->level_change);
			}
			fprintf(stderr,
				"ppbench compare: regression: %s %+.1f%% (limit %g%%, floor "
				"%.1f%% from the %s, %s p=%.2g%s%s), %s -> %s\n",
				r->label, r->change, set->fail_above, r->floor_pct,
				noise_src_name(c->noise),
				c->noise == NOISE_PROFILE ? "t-test"
							  : sig_test_name(set->opts->test),
				r->t.p, *lv ? "; setups on " : "", lv, c->old[0].path,
				c->new[0].path);
		}
	}
	if (!tested)
		pr_warn("--fail-above: no %s figure could be tested: it needs 2 values per side "
			"(path and purity have one per file: pool files with --old/--new)\n",
			fig_name(set->metric));
	if (!gated)
		return EXIT_OK;
	fprintf(stderr, "ppbench compare: %zu real %s regression%s above %g%%\n", gated,
		set->metric == FIG_CYCLES && set->n && set->cmps[0].nold &&
				unit_is_counter(result_clock_of(set->cmps[0].old)->unit)
			? result_clock_of(set->cmps[0].old)->unit
			: fig_name(set->metric),
		gated == 1 ? "" : "s", set->fail_above);
	return EXIT_REGRESSION;
}

/* ---- compare --org: the page_pool maintainers' Org table, with its #+TBLFM ---- */

/* Scenario SCN's figures as printed, and diffs computed from those strings, as TBLFM does. */
static void org_row(FILE *f, const struct cmp_set *set, const char *scn)
{
	const struct row *cy0 = find_row(&set->cmps[0], scn, FIG_CYCLES);
	const struct row *ns0 = find_row(&set->cmps[0], scn, FIG_NS);
	char cb[32], ca[32], nb[32], na[32], nd[32];
	double before_ns, diff_ns;

	snprintf(cb, sizeof(cb), "%.0f", cy0->ofig);
	snprintf(nb, sizeof(nb), "%.3f", ns0->ofig);
	before_ns = strtod(nb, NULL);
	fprintf(f, "| %-10s | %8s |", scn, cb);
	for (size_t i = 0; i < set->n; i++) {
		snprintf(ca, sizeof(ca), "%.0f", find_row(&set->cmps[i], scn, FIG_CYCLES)->nfig);
		fprintf(f, " %8s | %6lld |", ca, strtoll(ca, NULL, 10) - strtoll(cb, NULL, 10));
	}
	fprintf(f, " %9s |", nb);
	for (size_t i = 0; i < set->n; i++) {
		snprintf(na, sizeof(na), "%.3f", find_row(&set->cmps[i], scn, FIG_NS)->nfig);
		snprintf(nd, sizeof(nd), "%.3f", strtod(na, NULL) - before_ns);
		diff_ns = strtod(nd, NULL);
		fprintf(f, " %9s | %8s |", na, nd);
		if (before_ns != 0)
			fprintf(f, " %6.1f |", diff_ns / before_ns * 100);
		else
			fprintf(f, " %6s |", "n/a");
	}
	fprintf(f, "\n");
}

/* Whether every column has scenario SCN's cycles and ns. */
static bool in_every_column(const struct cmp_set *set, const char *scn)
{
	for (size_t i = 0; i < set->n; i++)
		if (!find_row(&set->cmps[i], scn, FIG_CYCLES) ||
		    !find_row(&set->cmps[i], scn, FIG_NS))
			return false;
	return true;
}

static bool counts_instructions(const struct comparison *c)
{
	return c->nold && unit_counts_instructions(c->old[0].host.clock.unit);
}

/* "$4=$3-$2::$7=$6-$5;%.3f::$8=(($7/$5)*100);%.1f" for one column; more for more. */
static void org_tblfm(FILE *f, size_t n)
{
	size_t nb = 2 * n + 3; /* the base's ns */

	fprintf(f, "#+TBLFM:");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s$%zu=$%zu-$2", i ? "::" : " ", 4 + 2 * i, 3 + 2 * i);
	for (size_t i = 0, a = nb + 1; i < n; i++, a += 3)
		fprintf(f, "::$%zu=$%zu-$%zu;%%.3f::$%zu=(($%zu/$%zu)*100);%%.1f", a + 1, a, nb,
			a + 2, a + 1, nb);
	fprintf(f, "\n");
}

/* The header: the unit's titles, then Before and After (with columns, their names). */
static void org_head(FILE *f, const struct cmp_set *set, const char (*names)[COL_NAME_LEN])
{
	const struct comparison *c = &set->cmps[0];
	char unit[32];

	/* the unit with a capital; "Instructions" cut to the 8 columns */
	snprintf(unit, sizeof(unit), "%s",
		 counts_instructions(c) ? "Instr."
		 : c->nold		? c->old[0].host.clock.unit
					: "cycles");
	unit[0] = toupper((unsigned char)unit[0]);
	fprintf(f, "| %-10s | %8s |", "Test name", unit);
	for (size_t i = 0; i < set->n; i++)
		fprintf(f, " %8s | %6s |", "", "");
	fprintf(f, " %9s |", counts_instructions(c) ? "Guest ns" : "Nanosec");
	for (size_t i = 0; i < set->n; i++)
		fprintf(f, " %9s | %8s | %6s |", "", "", i ? "" : "%");
	fprintf(f, "\n| %-10s | %8.8s |", "(ppbench)", names ? names[0] : "Before");
	for (size_t i = 0; i < set->n; i++)
		fprintf(f, " %8.8s | %6s |", names ? names[i + 1] : "After", "diff");
	fprintf(f, " %9.9s |", names ? names[0] : "Before");
	for (size_t i = 0; i < set->n; i++)
		fprintf(f, " %9.9s | %8s | %6s |", names ? names[i + 1] : "After", "diff",
			"change");
	fprintf(f, "\n|------------+----------");
	for (size_t i = 0; i < set->n; i++)
		fprintf(f, "+----------+--------");
	fprintf(f, "+-----------");
	for (size_t i = 0; i < set->n; i++)
		fprintf(f, "+-----------+----------+--------");
	fprintf(f, "|\n");
}

void compare_print_org(FILE *f, const struct cmp_set *set, const char (*names)[COL_NAME_LEN])
{
	const struct comparison *c = &set->cmps[0];

	fprintf(f, "# ppbench compare: old ");
	file_list(f, c->old, c->nold, "");
	for (size_t i = 0; i < set->n; i++) {
		fprintf(f, i ? ", then " : ", new ");
		file_list(f, set->cmps[i].new, set->cmps[i].nnew, "");
	}
	fprintf(f, "\n# before, after: %s per element, %s; diff and %% change: #+TBLFM below\n",
		c->noise == NOISE_PROFILE ? "medians" : "means",
		c->noise == NOISE_FILES ? "of the files' medians" : "of the setups");
	/* Under qemu's instruction clock the guest's ns advance one per instruction. */
	if (counts_instructions(c))
		fprintf(f, "# instruction clock: instructions per element; guest ns are "
			   "instructions too (one ns per instruction), not time\n");
	org_head(f, set, names);
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].kind == FIG_CYCLES && in_every_column(set, c->rows[i].scenario))
			org_row(f, set, c->rows[i].scenario);
	org_tblfm(f, set->n);
	for (size_t i = 0; i < set->n; i++)
		for (size_t k = 0; k < set->cmps[i].nnotes; k++)
			fprintf(f, "# %s%s%s\n", names ? names[i + 1] : "", names ? ": " : "",
				set->cmps[i].notes[k]);
}
