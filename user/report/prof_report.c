// SPDX-License-Identifier: GPL-2.0
/* Instruction profiles as text, and in the result file (prof_report.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "model/jspan.h"
#include "report/prof_report.h"
#include "report/report.h"
#include "sys/log.h"
#include "sys/outfile.h"

const struct prof *prof_find(const struct prof *p, size_t n, const char *kind, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(p[i].kind, kind) && !strcmp(p[i].name, name))
			return &p[i];
	return NULL;
}

/* "page_pool_alloc_netmems", "veth_poll [veth]", "xdp_drop [bpf]" */
static const char *fn_label(const struct prof_fn *f, char *buf, size_t len)
{
	if (f->module)
		snprintf(buf, len, "%s [%s]", f->name, f->module);
	else
		snprintf(buf, len, "%s", f->name);
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
			prof_groups[fn->group].name, fn_label(fn, name, sizeof(name)));
	}
	if (nrest) {
		fmt_rep(rest_rep, rep, sizeof(rep));
		fprintf(f, "  %9.2f %6.1f %s  %-16s (%zu function%s below %g %%)\n", rest,
			pct(rest, total), rep, "", nrest, nrest == 1 ? "" : "s", PROF_LIST_PCT);
	}
}

void prof_report_print(FILE *f, const struct prof *p, double clock)
{
	double total = prof_per_elem(p, p->insns);

	print_head(f, p, total, clock);
	if (!p->elems) {
		fprintf(f, "  no elements in its windows: nothing per element\n");
		return;
	}
	print_groups(f, p, total);
	print_functions(f, p, total);
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

void prof_report_all(FILE *f, const struct prof *p, size_t n, const json_t *doc)
{
	fflush(stdout);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "\n");
		prof_report_print(f, &p[i], doc ? clock_figure(doc, &p[i]) : NAN);
	}
	fflush(f);
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
		json_u64(j, "instructions", f->insns);
		json_u64(j, "rep_iterations", f->rep);
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
	json_obj_end(j);
}

void prof_json(struct json *j, const char *key, const struct prof *p, const struct capture *meta)
{
	json_obj_begin(j, key);
	json_str(j, "unit", "instructions");
	json_str(j, "what",
		 strcmp(p->kind, "load")
			 ? "guest instructions executed between the test-run timer's clock reads "
			   "of the timed runs, per element (qemu TCG plugin)"
			 : "guest instructions executed while load's program was attached (all "
			   "the guest ran, the traffic's sender too), per packet load counted "
			   "(qemu TCG plugin)");
	json_u64(j, "elems", p->elems);
	json_u64(j, "windows", p->windows);
	json_u64(j, "spans", p->spans);
	json_u64(j, "errors", p->errors);
	json_u64(j, "instructions", p->insns);
	json_u64(j, "rep_iterations", p->rep);
	json_double(j, "per_elem", prof_per_elem(p, p->insns));
	json_double(j, "rep_per_elem", prof_per_elem(p, p->rep));
	json_double(j, "list_pct", PROF_LIST_PCT);
	json_capture(j, meta);
	json_arr_begin(j, "groups");
	for (int g = 0; g < PG_NR; g++) {
		json_obj_begin(j, NULL);
		json_str(j, "name", prof_groups[g].name);
		json_str(j, "class", prof_class_name(prof_groups[g].cls));
		json_u64(j, "instructions", p->group_insns[g]);
		json_double(j, "per_elem", prof_per_elem(p, p->group_insns[g]));
		json_double(j, "rep_per_elem", prof_per_elem(p, p->group_rep[g]));
		json_obj_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, "functions");
	for (size_t i = 0; i < p->nfn; i++)
		json_fn(j, p, &p->fn[i], true);
	json_arr_end(j);
	json_obj_end(j);
}

void prof_json_path(struct json *j, const char *key, const struct prof *p)
{
	json_obj_begin(j, key);
	json_double(j, "value", prof_path_per_elem(p));
	json_str(j, "method", "profile");
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

typedef void (*member_fn)(struct json *j, const struct prof *p, const struct capture *c);

/*
 * The members FN writes, pretty-printed at INDENT (the object's own
 * members'), each line indented; the first line too unless BARE.
 */
static char *members_text(member_fn fn, const struct prof *p, const struct capture *c,
			  const char *indent, bool bare)
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
	fn(j, p, c);
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
static size_t object_tail(const struct edit *e, struct jspan obj)
{
	size_t at = obj.end - 1; /* its '}' */

	while (at > obj.start + 1 && strchr(" \t\r\n", e->text[at - 1]))
		at--;
	return at;
}

/* Member KEY of OBJ set to what FN writes: in its place, or after the last member. */
static void set_member(struct edit *e, struct jspan obj, const char *key, member_fn fn,
		       const struct prof *p, const struct capture *c)
{
	struct jspan m, v;
	char indent[64], *t, *sep;

	jspan_indent(e->text, obj, indent, sizeof(indent));
	if (!jspan_member(e->text, e->len, obj, key, &m, &v)) {
		splice(e, m.start, m.end, members_text(fn, p, c, indent, true));
		return;
	}
	t = members_text(fn, p, c, indent, false);
	sep = t && asprintf(&sep, ",%s%s", *indent ? "\n" : "", t) >= 0 ? sep : NULL;
	free(t);
	splice(e, object_tail(e, obj), object_tail(e, obj), sep);
}

static void member_profile(struct json *j, const struct prof *p, const struct capture *c)
{
	prof_json(j, "profile", p, c);
}

static void member_reference(struct json *j, const struct prof *p, const struct capture *c)
{
	prof_json(j, "profile_reference", p, c);
}

static void member_path(struct json *j, const struct prof *p, const struct capture *c)
{
	(void)c;
	prof_json_path(j, "path_cost_cycles", p);
}

/*
 * A profiled scenario: its profile, and where it was measured, its path
 * figure from it; bench's own (fentry's, or a reference recipe's) stays
 * beside it as path_cost_fentry. REF: the profile of the reference recipe
 * whose figure bench subtracted from it, or NULL.
 */
static void edit_scenario(struct edit *e, struct jspan obj, const json_t *s, const struct prof *p,
			  const struct prof *ref, const struct capture *c)
{
	bool ok = !strcmp(json_string_value(json_object_get(s, "status")) ?: "", "ok");
	struct jspan m, v, f, fv;
	char indent[64], *t, *out;

	jspan_indent(e->text, obj, indent, sizeof(indent));
	if (ok && p->elems && !jspan_member(e->text, e->len, obj, "path_cost_cycles", &m, &v)) {
		t = members_text(member_path, p, c, indent, true);
		if (jspan_member(e->text, e->len, obj, "path_cost_fentry", &f, &fv) && t &&
		    asprintf(&out, "%s,%s%s\"path_cost_fentry\": %.*s", t, *indent ? "\n" : "",
			     indent, (int)(v.end - v.start), e->text + v.start) >= 0) {
			free(t);
			t = out;
		}
		splice(e, m.start, m.end, t);
	}
	set_member(e, obj, "profile", member_profile, p, c);
	if (ref)
		set_member(e, obj, "profile_reference", member_reference, ref, c);
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
	struct jspan top, m, sv, el;
	int merged = 0, ret;
	size_t i;

	if (jspan_value(text, len, 0, &top))
		return -EINVAL;
	if (!jspan_member(text, len, top, "scenarios", &m, &sv))
		json_array_foreach(arr, i, s) {
			const char *name = json_string_value(json_object_get(s, "name"));
			const struct prof *sp = prof_find(p, n, "scenario", name ?: "");

			if (!sp || !json_is_object(s) || jspan_element(text, len, sv, i, &el))
				continue;
			edit_scenario(&e, el, s, sp, prof_find(p, n, "reference", name), c);
			merged++;
		}
	if (rp) {
		set_member(&e, top, "profile", member_profile, rp, c);
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
