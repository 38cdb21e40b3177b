// SPDX-License-Identifier: GPL-2.0
/* Instruction profiles as text, and in the result file. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "model/pathfig.h"
#include "vm/prof_report.h"
#include "report/report.h"
#include "sys/log.h"
#include "sys/outfile.h"

/* ---- a path figure against another, function by function ---- */

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
			if (!strcmp(g->fn[k].name, f->name) &&
			    !strcmp(g->fn[k].module ?: "", f->module ?: ""))
				x = &g->fn[k];
		if (!x) {
			fn = realloc(g->fn, (g->nfn + 1) * sizeof(*fn));
			if (!fn)
				return -ENOMEM;
			g->fn = fn;
			x = &g->fn[g->nfn++];
			*x = (struct prof_gap_fn){ f->name, f->module, f->group, 0, 0 };
		}
		*(new ? &x->new : &x->old) += v;
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

/* ---- profiles as text ---- */

/* The profile of the upstream module's loop run beside SCENARIO among P, or NULL. */
static const struct prof *prof_module(const struct prof *p, size_t n, const char *scenario)
{
	char want[96];

	snprintf(want, sizeof(want), "scenario=%s", scenario);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(p[i].kind, "module") && !strcmp(p[i].extra, want))
			return &p[i];
	return NULL;
}

/* "page_pool_alloc_netmems", "veth_poll [veth]", "xdp_drop [bpf]" */
static const char *fn_label(const char *name, const char *module, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", name, module ? " [" : "", module ?: "", module ? "]" : "");
	return buf;
}

static void fmt_rep(double v, char *buf, size_t len)
{
	if (v > 0)
		snprintf(buf, len, "%9.2f", v);
	else
		snprintf(buf, len, "%9s", "");
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100 * part / whole : NAN;
}

static void print_head(FILE *f, const struct prof *p, double total, double clock)
{
	bool scn = !strcmp(p->kind, "scenario");
	char e[32];

	fprintf(f, "profile %s%s%s: %s elements, %llu windows%s%s%s\n", scn ? "" : p->kind,
		scn ? "" : " ", p->name, fmt_count(p->elems, e, sizeof(e)),
		(unsigned long long)p->windows, *p->extra ? " (" : "", p->extra,
		*p->extra ? ")" : "");
	if (!strcmp(p->kind, "module"))
		fprintf(f, "  the longer of its two loads less the shorter (both whole windows: "
			   "the load and\n  teardown drop out), per element of the difference\n");
	if (isfinite(clock))
		fprintf(f,
			"  %.2f instructions per element in the windows; the clock's figure %.2f "
			"(%+.2f %%)\n",
			total, clock, pct(total - clock, clock));
	else if (p->elems)
		fprintf(f, "  %.2f instructions per element in the windows\n", total);
	if (p->errors)
		fprintf(f,
			"  NOTE: %llu window%s ended with a span open, left out (a clock read the "
			"plugin missed)\n",
			(unsigned long long)p->errors, p->errors == 1 ? "" : "s");
}

static void print_groups(FILE *f, const struct prof *p, double total)
{
	char rep[16];

	fprintf(f, "  %-16s %9s %6s %9s  %s\n", "group", "instr/el", "%", "rep/el", "of");
	for (int g = 0; g < PG_NR; g++) {
		double v = prof_per_elem(p, p->group_insns[g]);

		fmt_rep(prof_per_elem(p, p->group_rep[g]), rep, sizeof(rep));
		fprintf(f, "  %-16s %9.2f %6.1f %s  %s\n", prof_groups[g].name, v, pct(v, total),
			rep, prof_class_name(prof_groups[g].cls));
	}
	fprintf(f, "  path figure (page_pool, ptr_ring, page allocator): %.2f instr/elem\n",
		prof_path_per_elem(p));
}

/*
 * Listed: at PROF_LIST_PCT of the figure or more, or of the path figure for
 * the path's own functions: where the window holds more than the path (load's
 * holds the traffic's sender), they would hide below the first floor.
 */
static bool listed(const struct prof_fn *fn, double v, double floor, double path_floor)
{
	/* (user space and unmapped addresses are buckets: always shown) */
	return v >= floor || fn->kind == PK_USER || fn->kind == PK_UNMAPPED ||
	       (prof_groups[fn->group].cls == PCLS_PATH && v >= path_floor && v > 0);
}

static void print_functions(FILE *f, const struct prof *p, double total)
{
	double floor = total * PROF_LIST_PCT / 100, rest = 0, rest_rep = 0;
	double path_floor = prof_path_per_elem(p) * PROF_LIST_PCT / 100;
	char name[200], rep[16];
	size_t nrest = 0;

	fprintf(f,
		"  functions at %g %% of the figure or more (%.2f instr/elem), the path's at %g %% "
		"of the path figure (%.2f):\n",
		PROF_LIST_PCT, floor, PROF_LIST_PCT, path_floor);
	fprintf(f, "  %9s %6s %9s  %-16s %s\n", "instr/el", "%", "rep/el", "group", "function");
	for (size_t i = 0; i < p->nfn; i++) {
		const struct prof_fn *fn = &p->fn[i];
		double v = prof_per_elem(p, fn->insns);

		if (!listed(fn, v, floor, path_floor)) {
			rest += v;
			rest_rep += prof_per_elem(p, fn->rep);
			nrest++;
			continue;
		}
		fmt_rep(prof_per_elem(p, fn->rep), rep, sizeof(rep));
		fprintf(f, "  %9.2f %6.1f %s  %-16s %s\n", v, pct(v, total), rep,
			prof_groups[fn->group].name,
			fn_label(fn->name, fn->module, name, sizeof(name)));
	}
	if (nrest) {
		fmt_rep(rest_rep, rep, sizeof(rep));
		fprintf(f, "  %9.2f %6.1f %s  %-16s (%zu function%s below %g %%)\n", rest,
			pct(rest, total), rep, "", nrest, nrest == 1 ? "" : "s", PROF_LIST_PCT);
	}
}

struct by_what {
	const struct prof_graph *g;
	bool self;
};

static int by_node(const void *x, const void *y, void *ctx)
{
	const struct by_what *w = ctx;
	const struct pg_node *a = &w->g->node[*(const size_t *)x],
			     *b = &w->g->node[*(const size_t *)y];
	int64_t u = w->self ? a->self : a->total, v = w->self ? b->self : b->total;

	if (u != v)
		return u > v ? -1 : 1;
	return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

/* The indices of G's nodes but the root, by their self (else total), most first. */
static size_t *nodes_by(const struct prof_graph *g, bool self)
{
	struct by_what w = { g, self };
	size_t *ix = calloc(g->nnode, sizeof(*ix));

	for (size_t i = 1; ix && i < g->nnode; i++)
		ix[i - 1] = i;
	if (ix && g->nnode > 1)
		qsort_r(ix, g->nnode - 1, sizeof(*ix), by_node, &w);
	return ix;
}

static void print_chains(FILE *f, const struct prof *p)
{
	const struct prof_graph *g = p->graph;
	size_t *ix = nodes_by(g, true);

	fprintf(f,
		"  call chains, leaf first, that run the most themselves (instr/elem: their own, "
		"with all below):\n  %9s %9s  %s\n",
		"self", "children", "chain");
	for (size_t i = 0; ix && i < PROF_CHAINS_SHOWN && i + 1 < g->nnode; i++) {
		char *c = prof_graph_chain(g, ix[i], ".", true);

		if (c && strlen(c) > 76)
			strcpy(c + 73, "...");
		fprintf(f, "  %9.2f %9.2f  %s\n", prof_per_elem(p, g->node[ix[i]].self),
			prof_per_elem(p, g->node[ix[i]].total), c ? c : "?");
		free(c);
	}
	free(ix);
	fprintf(f,
		"  %llu recoveries, %llu unmatched: %.3f %% of the windows' instructions charged "
		"after one\n",
		(unsigned long long)g->recoveries, (unsigned long long)g->unmatched,
		g->insns ? 100.0 * g->recovered / g->insns : 0.0);
}

static void print_lines(FILE *f, const struct prof *p)
{
	const struct prof_lines *l = p->lines;

	fprintf(f,
		"  source lines of the path's kernel functions that run the most (instr/elem; "
		"inlined code at its callee's line):\n  %9s  %-44s %s\n",
		"instr/el", "line", "function");
	for (size_t i = 0; i < l->nline && i < PROF_LINES_SHOWN; i++)
		fprintf(f, "  %9.2f  %-44s %s\n", prof_per_elem(p, l->line[i].insns), l->line[i].at,
			l->line[i].fn);
	fprintf(f,
		"  %9.2f  in %zu lines, of the path's %.2f in the kernel; %.2f where the line "
		"table has none\n",
		prof_per_elem(p, l->insns - l->no_line), l->nline, prof_per_elem(p, l->insns),
		prof_per_elem(p, l->no_line));
}

/* The text of one profile, beside CLOCK, the scenario's figure by the clock (or NAN). */
static void prof_report_print(FILE *f, const struct prof *p, double clock)
{
	double total = prof_per_elem(p, p->insns);

	print_head(f, p, total, clock);
	if (!p->elems) {
		fprintf(f, "  no elements in its windows: nothing per element\n");
		return;
	}
	print_groups(f, p, total);
	print_functions(f, p, total);
	if (p->graph)
		print_chains(f, p);
	if (p->lines)
		print_lines(f, p);
}

/* The scenario's figure by the clock in DOC (a bench result), or NAN. */
static double clock_figure(const json_t *doc, const struct prof *p)
{
	const json_t *arr = json_object_get(doc, "scenarios"), *s;
	size_t i;

	if (strcmp(p->kind, "scenario"))
		return NAN;
	json_array_foreach(arr, i, s) {
		const json_t *m = json_object_get(json_object_get(s, "cycles_per_elem"), "median");
		const char *name = json_string_value(json_object_get(s, "name"));

		if (json_is_number(m) && name && !strcmp(name, p->name))
			return json_number_value(m);
	}
	return NAN;
}

/* Scenario SP's path figure against its module loop MP's, function by function; each line after
 * PFX. */
static void print_gap(FILE *f, const struct prof *sp, const struct prof *mp, const char *pfx)
{
	double floor, listed = 0;
	struct prof_gap g;
	char name[200];
	size_t rest = 0;

	if (prof_gap_build(mp, sp, &g))
		return;
	floor = fmax(PROF_GAP_MIN, fabs(g.old) * PROF_LIST_PCT / 100);
	fprintf(f, "%s  %-10s path %.2f, module's %s %.2f: method error %+.2f %%\n", pfx, sp->name,
		g.new, mp->name, g.old, g.error_pct);
	for (size_t i = 0; i < g.nfn; i++) {
		const struct prof_gap_fn *x = &g.fn[i];

		if (fabs(x->new - x->old) < floor) {
			rest++;
			continue;
		}
		listed += x->new - x->old;
		fprintf(f, "%s    %+9.2f  %9.2f -> %9.2f  %s (%s)\n", pfx, x->new - x->old, x->old,
			x->new, fn_label(x->name, x->module, name, sizeof(name)),
			prof_groups[x->group].name);
	}
	fprintf(f, "%s    listed %+.2f of the gap's %+.2f; %zu function%s below %.2f apart\n", pfx,
		listed, g.new - g.old, rest, rest == 1 ? "" : "s", floor);
	fprintf(f, "%s    by design: %s %+.2f, %s %+.2f; the error less them %+.2f %%\n", pfx,
		prof_gap_why_name[PGW_INLINE_COPY], g.why[PGW_INLINE_COPY],
		prof_gap_why_name[PGW_FIRST_PAGES], g.why[PGW_FIRST_PAGES], g.residual_pct);
	prof_gap_free(&g);
}

void prof_report_gaps(FILE *f, const struct prof *p, size_t n, const char *pfx)
{
	bool head = false;

	for (size_t i = 0; i < n; i++) {
		const struct prof *mp =
			strcmp(p[i].kind, "scenario") ? NULL : prof_module(p, n, p[i].name);

		if (!mp || !mp->elems || !p[i].elems)
			continue;
		if (!head)
			fprintf(f,
				"\n%sthe upstream module's loops against the scenarios: path "
				"figures from the profiles,\n%sinstructions per element (module -> "
				"scenario), the path's functions that differ:\n",
				pfx, pfx);
		head = true;
		print_gap(f, &p[i], mp, pfx);
	}
	fflush(f);
}

void prof_report_all(FILE *f, const struct prof *p, size_t n, const json_t *doc)
{
	fflush(stdout);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "\n");
		prof_report_print(f, &p[i], doc ? clock_figure(doc, &p[i]) : NAN);
	}
	if (n && p[0].nolines)
		fprintf(f, "\nno source lines: %s\n", p[0].nolines);
	prof_report_gaps(f, p, n, "");
}

/* ---- JSON -------------------------------------------------------------------- */

static void json_fn(struct json *j, const struct prof *p, const struct prof_fn *f, bool full)
{
	json_obj_begin(j, NULL);
	json_str(j, "name", f->name);
	if (f->module)
		json_str(j, "module", f->module);
	if (full)
		json_str(j, "kind", prof_kind_name(f->kind));
	json_str(j, "group", prof_groups[f->group].name);
	if (full) {
		json_i64(j, "instructions", f->insns);
		json_i64(j, "rep_iterations", f->rep);
	}
	json_double(j, "per_elem", prof_per_elem(p, f->insns));
	if (full)
		json_double(j, "rep_per_elem", prof_per_elem(p, f->rep));
	json_obj_end(j);
}

static void json_capture(struct json *j, const struct capture *c)
{
	static const char *const keys[] = { "arch", "release", "qemu", "api" };

	json_obj_begin(j, "capture");
	for (size_t i = 0; c && i < 4; i++)
		if (capture_meta(c, keys[i]))
			json_str(j, keys[i], capture_meta(c, keys[i]));
	/* the page size the kernel's code in the modules' area was bounded by */
	if (c && capture_meta(c, "page_size"))
		json_u64(j, "page_size", capture_page_size(c));
	json_obj_end(j);
}

/* What a profile of P's kind counts, for its "what". */
static const char *prof_what(const struct prof *p)
{
	if (!strcmp(p->kind, "load"))
		return "guest instructions executed while load's program was attached (all the "
		       "guest ran, the traffic's sender too), per packet load counted (qemu TCG "
		       "plugin)";
	if (!strcmp(p->kind, "module"))
		return "guest instructions executed while the module's longer load ran less those "
		       "of its shorter load (each a whole window: the load, the loop, the "
		       "teardown), per element of the difference (qemu TCG plugin)";
	return "guest instructions executed between the test-run timer's clock reads of the timed "
	       "runs, per element (qemu TCG plugin)";
}

static void json_causes(struct json *j, const struct prof_graph *g)
{
	json_arr_begin(j, "causes");
	for (size_t i = 0; i < g->ncause; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "kind", g->cause[i].unmatched ? "unmatched" : "recover");
		json_str(j, "at", g->cause[i].at);
		json_str(j, "frame", g->cause[i].frame);
		json_u64(j, "count", g->cause[i].count);
		json_u64(j, "instructions", g->cause[i].insns);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static int by_children(const void *x, const void *y, void *ctx)
{
	const struct prof_graph *g = ctx;
	const struct pg_fn *a = &g->fn[*(const size_t *)x], *b = &g->fn[*(const size_t *)y];

	if (a->children != b->children)
		return a->children > b->children ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Every function's self and children, the most inclusive first. */
static void json_graph_fns(struct json *j, const struct prof *p)
{
	const struct prof_graph *g = p->graph;
	size_t *ix = calloc(g->nfn + 1, sizeof(*ix));

	for (size_t i = 0; ix && i < g->nfn; i++)
		ix[i] = i;
	if (ix && g->nfn)
		qsort_r(ix, g->nfn, sizeof(*ix), by_children, (void *)g);
	json_arr_begin(j, "functions");
	for (size_t n = 0; ix && n < g->nfn; n++) {
		const struct pg_fn *f = &g->fn[ix[n]];

		json_obj_begin(j, NULL);
		json_str(j, "name", f->name);
		if (f->module)
			json_str(j, "module", f->module);
		json_double(j, "self", prof_per_elem(p, f->self));
		json_double(j, "children", prof_per_elem(p, f->children));
		json_obj_end(j);
	}
	json_arr_end(j);
	free(ix);
}

/* The chains of at least PROF_CHAIN_FLOOR per element, the most inclusive first. */
static void json_chains(struct json *j, const struct prof *p)
{
	const struct prof_graph *g = p->graph;
	size_t *ix = nodes_by(g, false);

	json_arr_begin(j, "chains");
	for (size_t i = 0; ix && i + 1 < g->nnode; i++) {
		const struct pg_node *n = &g->node[ix[i]];
		char *c;

		if (fabs(prof_per_elem(p, n->total)) < PROF_CHAIN_FLOOR)
			continue;
		c = prof_graph_chain(g, ix[i], ".", true);
		json_obj_begin(j, NULL);
		json_str(j, "chain", c ? c : "?");
		json_double(j, "children", prof_per_elem(p, n->total));
		json_double(j, "self", prof_per_elem(p, n->self));
		json_obj_end(j);
		free(c);
	}
	json_arr_end(j);
	free(ix);
}

static void json_graph(struct json *j, const struct prof *p)
{
	const struct prof_graph *g = p->graph;

	json_obj_begin(j, "callgraph");
	json_str(j, "what",
		 "the instructions per element of each call chain (leaf first, LKP's calltrace) "
		 "and function, itself (self) and with all it calls (children), from a shadow call "
		 "stack per vCPU; interrupts and syscalls are chains of their own");
	json_i64(j, "instructions", g->node[0].total);
	json_double(j, "per_elem", prof_per_elem(p, g->node[0].total));
	json_u64(j, "recoveries", g->recoveries);
	json_u64(j, "unmatched", g->unmatched);
	json_u64(j, "fallthroughs", g->fallthroughs);
	json_u64(j, "switches", g->switches);
	json_u64(j, "recovered_instructions", g->recovered);
	json_double(j, "recovered_pct", g->insns ? 100.0 * g->recovered / g->insns : 0);
	json_causes(j, g);
	json_double(j, "chain_floor", PROF_CHAIN_FLOOR);
	json_graph_fns(j, p);
	json_chains(j, p);
	json_obj_end(j);
}

static void json_lines(struct json *j, const struct prof *p, const struct capture *c)
{
	const struct prof_lines *l = p->lines;

	json_obj_begin(j, "lines");
	json_str(j, "what",
		 "the instructions per element of each source line of the path's kernel functions, "
		 "by the kernel's DWARF line table; inlined code counts at the inlined callee's "
		 "line");
	if (c && c->dbg)
		json_str(j, "debug_info", prof_dbg_path(c->dbg));
	json_i64(j, "instructions", l->insns);
	json_double(j, "per_elem", prof_per_elem(p, l->insns));
	json_double(j, "no_line_per_elem", prof_per_elem(p, l->no_line));
	json_arr_begin(j, "rows");
	for (size_t i = 0; i < l->nline; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "line", l->line[i].at);
		json_str(j, "function", l->line[i].fn);
		json_i64(j, "instructions", l->line[i].insns);
		json_double(j, "per_elem", prof_per_elem(p, l->line[i].insns));
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* The profile object of P as KEY; META: the capture's meta (arch, release, qemu, api) or NULL. */
static void prof_json(struct json *j, const char *key, const struct prof *p,
		      const struct capture *meta)
{
	json_obj_begin(j, key);
	json_str(j, "unit", "instructions");
	json_str(j, "what", prof_what(p));
	json_u64(j, "elems", p->elems);
	json_u64(j, "windows", p->windows);
	json_u64(j, "spans", p->spans);
	json_u64(j, "errors", p->errors);
	json_i64(j, "instructions", p->insns);
	json_i64(j, "rep_iterations", p->rep);
	json_double(j, "per_elem", prof_per_elem(p, p->insns));
	json_double(j, "rep_per_elem", prof_per_elem(p, p->rep));
	json_double(j, "list_pct", PROF_LIST_PCT);
	json_capture(j, meta);
	json_arr_begin(j, "groups");
	for (int g = 0; g < PG_NR; g++) {
		json_obj_begin(j, NULL);
		json_str(j, "name", prof_groups[g].name);
		json_str(j, "class", prof_class_name(prof_groups[g].cls));
		json_i64(j, "instructions", p->group_insns[g]);
		json_double(j, "per_elem", prof_per_elem(p, p->group_insns[g]));
		json_double(j, "rep_per_elem", prof_per_elem(p, p->group_rep[g]));
		json_obj_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, "functions");
	for (size_t i = 0; i < p->nfn; i++)
		json_fn(j, p, &p->fn[i], true);
	json_arr_end(j);
	if (p->graph)
		json_graph(j, p);
	if (p->lines)
		json_lines(j, p, meta);
	json_obj_end(j);
}

/* A path figure of P as KEY: the path's own groups per element, method "profile". */
static void prof_json_path(struct json *j, const char *key, const struct prof *p)
{
	json_obj_begin(j, key);
	json_double(j, "value", prof_path_per_elem(p));
	json_str(j, "method", PATH_TEXT_PROFILE);
	json_arr_begin(j, "groups");
	for (int g = 0; g < PG_NR; g++)
		if (prof_groups[g].cls == PCLS_PATH)
			json_str(j, NULL, prof_groups[g].name);
	json_arr_end(j);
	json_arr_begin(j, "functions");
	for (size_t i = 0; i < p->nfn; i++)
		if (prof_groups[p->fn[i].group].cls == PCLS_PATH)
			json_fn(j, p, &p->fn[i], false);
	json_arr_end(j);
	json_obj_end(j);
}

/* ---- the result file, changed where the profiles go and nowhere else ------------- */

/* Byte ranges of values in a JSON text (prof_report.h says why). */
static size_t skip_ws(const char *t, size_t len, size_t at)
{
	while (at < len && strchr(" \t\r\n", t[at]) && t[at])
		at++;
	return at;
}

/* The end of the string whose opening quote is at AT. */
static size_t string_end(const char *t, size_t len, size_t at)
{
	for (at++; at < len; at++) {
		if (t[at] == '\\')
			at++;
		else if (t[at] == '"')
			return at + 1;
	}
	return len + 1; /* (unterminated) */
}

int json_span_value(const char *t, size_t len, size_t at, struct json_span *v)
{
	size_t depth = 0;

	at = skip_ws(t, len, at);
	if (at >= len || strchr(",:]}", t[at]))
		return -EINVAL;
	v->start = at;
	if (t[at] == '"') {
		v->end = string_end(t, len, at);
		return v->end <= len ? 0 : -EINVAL;
	}
	if (t[at] != '{' && t[at] != '[') { /* a number or a literal */
		while (at < len && !strchr(" \t\r\n,:]}", t[at]))
			at++;
		v->end = at;
		return 0;
	}
	for (; at < len; at++) {
		if (t[at] == '"') {
			at = string_end(t, len, at) - 1;
		} else if (t[at] == '{' || t[at] == '[') {
			depth++;
		} else if ((t[at] == '}' || t[at] == ']') && !--depth) {
			v->end = at + 1;
			return 0;
		}
	}
	return -EINVAL;
}

int json_span_member(const char *t, size_t len, struct json_span obj, const char *key,
		     struct json_span *member, struct json_span *val)
{
	size_t at = obj.start + 1, klen = strlen(key);

	if (obj.start >= len || t[obj.start] != '{')
		return -EINVAL;
	for (;;) {
		struct json_span k, v;

		at = skip_ws(t, obj.end, at);
		if (at < obj.end && t[at] == ',')
			at = skip_ws(t, obj.end, at + 1);
		if (at >= obj.end || t[at] != '"')
			return -ENOENT;
		if (json_span_value(t, len, at, &k))
			return -EINVAL;
		at = skip_ws(t, obj.end, k.end);
		if (at >= obj.end || t[at] != ':' || json_span_value(t, len, at + 1, &v))
			return -EINVAL;
		if (k.end - k.start == klen + 2 && !memcmp(t + k.start + 1, key, klen)) {
			*member = (struct json_span){ k.start, v.end };
			*val = v;
			return 0;
		}
		at = v.end;
	}
}

int json_span_element(const char *t, size_t len, struct json_span arr, size_t i,
		      struct json_span *el)
{
	size_t at = arr.start + 1;

	if (arr.start >= len || t[arr.start] != '[')
		return -EINVAL;
	for (size_t k = 0;; k++) {
		at = skip_ws(t, arr.end, at);
		if (k && at < arr.end && t[at] == ',')
			at++;
		if (json_span_value(t, arr.end, at, el))
			return -ENOENT;
		if (k == i)
			return 0;
		at = el->end;
	}
}

void json_span_indent(const char *t, struct json_span obj, char *buf, size_t len)
{
	const char *in = t + obj.start + 1, *at = in + strspn(in, " \t\r\n");
	const char *nl = memrchr(in, '\n', at - in);

	/* (no member, or the first on the brace's line: no indent) */
	if (!nl || at >= t + obj.end || *at == '}')
		nl = at - 1;
	snprintf(buf, len, "%.*s", (int)(at - nl - 1), nl + 1);
}

/* Replace [at, end) of the file's text with TEXT (owned). */
struct splice {
	size_t at, end;
	char *text;
};

struct edit {
	const char *text; /* the file's */
	size_t len;
	struct splice *sp;
	size_t n;
	bool nomem;
};

static void splice(struct edit *e, size_t at, size_t end, char *text)
{
	struct splice *sp = text ? realloc(e->sp, (e->n + 1) * sizeof(*sp)) : NULL;

	if (!sp) {
		free(text);
		e->nomem = true;
		return;
	}
	e->sp = sp;
	e->sp[e->n++] = (struct splice){ at, end, text };
}

/*
 * Writes member KEY of P; Q: a second profile some members set beside P
 * (the scenario's, beside its module loop's).
 */
typedef void (*member_fn)(struct json *j, const char *key, const struct prof *p,
			  const struct prof *q, const struct capture *c);

/*
 * The members FN writes, pretty-printed at INDENT (the object's own
 * members'), each line indented; the first line too unless BARE.
 */
static char *members_text(member_fn fn, const char *key, const struct prof *p, const struct prof *q,
			  const struct capture *c, const char *indent, bool bare)
{
	char *buf = NULL, *out = NULL, *line, *save;
	size_t n = 0, ni = 0;
	FILE *f = open_memstream(&buf, &n), *o;
	struct json *j = f ? json_new(f, true) : NULL;

	if (!j) {
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	json_obj_begin(j, NULL);
	fn(j, key, p, q, c);
	json_obj_end(j);
	json_close(j);
	fclose(f);
	o = open_memstream(&out, &ni);
	/* the object's own braces are the first and the last line: the members lie between */
	for (line = strtok_r(buf, "\n", &save), line = strtok_r(NULL, "\n", &save);
	     o && line && strcmp(line, "}"); line = strtok_r(NULL, "\n", &save)) {
		fprintf(o, "%s%s%s", ni || ftell(o) ? "\n" : "",
			ni || ftell(o) || !bare ? indent : "", line + 2);
	}
	if (o)
		fclose(o);
	free(buf);
	return out;
}

/* Where the last member of the object OBJ ends: a new one goes there. */
static size_t object_tail(const struct edit *e, struct json_span obj)
{
	size_t at = obj.end - 1; /* its '}' */

	while (at > obj.start + 1 && strchr(" \t\r\n", e->text[at - 1]))
		at--;
	return at;
}

/*
 * Member KEY of OBJ set to what FN writes: in its place, or else at AFTER
 * (0: after the last member).
 */
static void put_member(struct edit *e, struct json_span obj, const char *key, size_t after,
		       member_fn fn, const struct prof *p, const struct prof *q,
		       const struct capture *c)
{
	struct json_span m, v;
	char indent[64], *t, *sep;
	size_t at = after ? after : object_tail(e, obj);

	json_span_indent(e->text, obj, indent, sizeof(indent));
	if (!json_span_member(e->text, e->len, obj, key, &m, &v)) {
		splice(e, m.start, m.end, members_text(fn, key, p, q, c, indent, true));
		return;
	}
	t = members_text(fn, key, p, q, c, indent, false);
	sep = t && asprintf(&sep, ",%s%s", *indent ? "\n" : "", t) >= 0 ? sep : NULL;
	free(t);
	splice(e, at, at, sep);
}

static void member_profile(struct json *j, const char *key, const struct prof *p,
			   const struct prof *q, const struct capture *c)
{
	(void)q;
	prof_json(j, key, p, c);
}

static void member_path(struct json *j, const char *key, const struct prof *p, const struct prof *q,
			const struct capture *c)
{
	(void)q;
	(void)c;
	prof_json_path(j, key, p);
}

/*
 * A profiled scenario: its profile, and where it was measured its path
 * figure from it, path_cost_profile, right after bench's own
 * (path_cost_cycles: fentry's or a reference recipe's), which stays as it
 * was. REF: the profile of the reference recipe whose figure bench
 * subtracted from it, or NULL.
 */
static void edit_scenario(struct edit *e, struct json_span obj, const json_t *s,
			  const struct prof *p, const struct prof *ref, const struct capture *c)
{
	bool ok = !strcmp(json_string_value(json_object_get(s, "status")) ?: "", "ok");
	struct json_span m, v;

	if (ok && p->elems && !json_span_member(e->text, e->len, obj, "path_cost_cycles", &m, &v))
		put_member(e, obj, "path_cost_profile", v.end, member_path, p, NULL, c);
	put_member(e, obj, "profile", 0, member_profile, p, NULL, c);
	if (ref)
		put_member(e, obj, "profile_reference", 0, member_profile, ref, NULL, c);
}

/* The gap's rows: the path's functions of both sides, as prof_gap_build() orders them. */
static void json_gap(struct json *j, const struct prof_gap *g)
{
	json_arr_begin(j, "functions");
	for (size_t i = 0; i < g->nfn; i++) {
		const struct prof_gap_fn *f = &g->fn[i];

		json_obj_begin(j, NULL);
		json_str(j, "name", f->name);
		if (f->module)
			json_str(j, "module", f->module);
		json_str(j, "group", prof_groups[f->group].name);
		json_double(j, "module_loop", f->old);
		json_double(j, "scenario", f->new);
		json_double(j, "change", f->new - f->old);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* The method error: scenario Q's path figure against module loop P's, both from profiles. */
static void member_error(struct json *j, const char *key, const struct prof *p,
			 const struct prof *q, const struct capture *c)
{
	struct prof_gap g;

	(void)c;
	if (prof_gap_build(p, q, &g))
		return;
	json_obj_begin(j, key);
	json_str(j, "what",
		 "the scenario's path figure against the module loop's, both from profiles, "
		 "instructions per element; functions: the path's own of either side");
	json_double(j, "module_loop", g.old);
	json_double(j, "scenario", g.new);
	json_double(j, "pct", g.error_pct);
	json_obj_begin(j, "excused");
	for (int w = 0; w < PGW_NR; w++)
		json_double(j, prof_gap_why_name[w], g.why[w]);
	json_obj_end(j);
	json_double(j, "residual_pct", g.residual_pct);
	json_gap(j, &g);
	json_obj_end(j);
	prof_gap_free(&g);
}

/* The module loop run beside scenario SP: its profile and path figure, and the method error. */
static void edit_module(struct edit *e, struct json_span obj, const struct prof *sp,
			const struct prof *mp, const struct capture *c)
{
	struct json_span m, v;

	if (!mp || json_span_member(e->text, e->len, obj, "upstream_module", &m, &v))
		return;
	put_member(e, v, "profile", 0, member_profile, mp, NULL, c);
	if (!mp->elems)
		return;
	put_member(e, v, "path_cost_cycles", 0, member_path, mp, NULL, c);
	put_member(e, v, "method_error", 0, member_error, mp, sp, c);
}

static int by_at(const void *a, const void *b)
{
	const struct splice *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

static int write_edited(const char *path, struct edit *e)
{
	struct outfile out;
	size_t pos = 0;

	if (outfile_open(&out, path, OUTFILE_WHOLE))
		return -1;
	if (e->n)
		qsort(e->sp, e->n, sizeof(*e->sp), by_at);
	for (size_t i = 0; i < e->n; i++) {
		fwrite(e->text + pos, 1, e->sp[i].at - pos, out.f);
		fputs(e->sp[i].text, out.f);
		pos = e->sp[i].end;
	}
	fwrite(e->text + pos, 1, e->len - pos, out.f);
	return outfile_commit(&out) ? -1 : 0;
}

int prof_result_merge(const char *path, const char *text, size_t len, const json_t *doc,
		      const struct prof *p, size_t n, const struct capture *c)
{
	struct edit e = { .text = text, .len = len };
	const json_t *arr = json_object_get(doc, "scenarios"), *s;
	const struct prof *rp =
		prof_find(p, n, "recipe", json_string_value(json_object_get(doc, "recipe")) ?: "");
	struct json_span top, m, sv, el;
	int merged = 0, ret;
	size_t i;

	if (json_span_value(text, len, 0, &top))
		return -EINVAL;
	if (!json_span_member(text, len, top, "scenarios", &m, &sv))
		json_array_foreach(arr, i, s) {
			const char *name = json_string_value(json_object_get(s, "name"));
			const struct prof *sp = prof_find(p, n, "scenario", name ?: "");

			if (!sp || !json_is_object(s) || json_span_element(text, len, sv, i, &el))
				continue;
			edit_scenario(&e, el, s, sp, prof_find(p, n, "reference", name), c);
			edit_module(&e, el, sp, prof_module(p, n, name), c);
			merged++;
		}
	if (rp) {
		put_member(&e, top, "profile", 0, member_profile, rp, NULL, c);
		merged++;
	}
	ret = e.nomem ? -ENOMEM : merged ? write_edited(path, &e) : 0;
	for (size_t k = 0; k < e.n; k++)
		free(e.sp[k].text);
	free(e.sp);
	if (ret == -ENOMEM)
		pr_err("%s: out of memory for its profiles\n", path);
	return ret < 0 ? -1 : merged;
}

int prof_stream_append(const char *path, const struct prof *p, size_t n, const struct capture *c)
{
	FILE *f = fopen(path, "ae");
	struct json *j;
	int err;

	if (!f) {
		pr_err("%s: cannot add the profile: %s\n", path, strerror(errno));
		return -1;
	}
	j = json_new(f, false);
	for (size_t i = 0; i < n && j; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "type", "profile");
		json_str(j, "kind", p[i].kind);
		json_str(j, "name", p[i].name);
		json_str(j, "extra", p[i].extra);
		prof_json(j, "profile", &p[i], c);
		json_obj_end(j);
		json_flush_line(j);
	}
	err = j ? json_close(j) : -ENOMEM;
	if (fclose(f) || err) {
		pr_err("%s: cannot add the profile: %s\n", path, strerror(err ? -err : errno));
		return -1;
	}
	return 0;
}

static int folded_one(const char *path, const struct prof *p)
{
	const struct prof_graph *g = p->graph;
	struct outfile out;

	if (outfile_open(&out, path, OUTFILE_WHOLE))
		return -1;
	for (size_t i = 1; g && i < g->nnode; i++) {
		char *c;

		if (g->node[i].self <= 0)
			continue;
		c = prof_graph_chain(g, i, ";", false);
		if (!c) {
			pr_err("%s: out of memory\n", path);
			outfile_discard(&out);
			return -1;
		}
		fprintf(out.f, "%s %lld\n", c, (long long)g->node[i].self);
		free(c);
	}
	return outfile_commit(&out) ? -1 : 0;
}

int prof_folded_write(const char *json, const struct prof *p, size_t n)
{
	size_t base = strlen(json);
	char path[PATH_MAX];

	if (base > 5 && !strcmp(json + base - 5, ".json"))
		base -= 5;
	for (size_t i = 0; i < n; i++) {
		bool scn = !strcmp(p[i].kind, "scenario");

		if (!p[i].graph || !strcmp(p[i].kind, "module"))
			continue;
		if (snprintf(path, sizeof(path), "%.*s.%s%s%s.folded", (int)base, json,
			     scn ? "" : p[i].kind, scn ? "" : "-",
			     p[i].name) >= (int)sizeof(path)) {
			pr_err("%s: a name too long for its folded stacks\n", json);
			return -1;
		}
		if (folded_one(path, &p[i]))
			return -1;
	}
	return 0;
}
