// SPDX-License-Identifier: GPL-2.0
/* ppbench export kcidb: result files and compare's verdicts as KCIDB v5 tests. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "compare/compare_readback.h"
#include "export/export_formats.h"
#include "report/json.h"
#include "sys/util.h"

/* KCIDB forbids null: an unknown string or number is left out. */
static void put_str(struct json *j, const char *key, const char *v)
{
	if (v)
		json_str(j, key, v);
}

static void put_num(struct json *j, const char *key, double v)
{
	if (isfinite(v))
		json_double(j, key, v);
}

/* A test path's node: every character outside [a-zA-Z0-9_-] becomes '_'. */
static void path_node(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s", name);
	for (char *p = buf; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-')
			*p = '_';
}

static void kernel_id(const struct kcidb_opts *o, const struct result *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s:ppbench-kernel-%s", o->origin, r->host.kernel);
}

static void put_str_map(struct json *j, const char *key, const json_t *m)
{
	if (!m)
		return;
	const char *k;
	const json_t *v;

	json_obj_begin(j, key);
	json_object_foreach((json_t *)m, k, v)
		put_str(j, k, json_string_value(v));
	json_obj_end(j);
}

/* Whether an earlier file ran the same kernel (its checkout and build are written). */
static bool kernel_seen(const struct result *r, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(r[k].host.kernel, r[i].host.kernel))
			return true;
	return false;
}

/* The kernel is all ppbench knows of the code under test: one checkout and build for each. */
static void checkouts_builds(struct json *j, const struct result *r, size_t n,
			     const struct kcidb_opts *o)
{
	char id[400], comment[600];

	for (int b = 0; b < 2; b++) {
		json_arr_begin(j, b ? "builds" : "checkouts");
		for (size_t i = 0; i < n; i++) {
			const struct result_host *h = &r[i].host;

			if (kernel_seen(r, i))
				continue;
			kernel_id(o, &r[i], id, sizeof(id));
			if (b)
				snprintf(comment, sizeof(comment), "Linux %s%s%s", h->kernel,
					 h->kernel_version ? " " : "", h->kernel_version ?: "");
			else
				snprintf(comment, sizeof(comment),
					 "Linux %s, as ppbench found it running (no source "
					 "checkout known)",
					 h->kernel);
			json_obj_begin(j, NULL);
			json_str(j, "id", id);
			json_str(j, "origin", o->origin);
			if (b)
				json_str(j, "checkout_id", id);
			json_str(j, "comment", comment);
			if (b) {
				json_obj_begin(j, "misc");
				json_str(j, "kernel", h->kernel);
				put_str(j, "kernel_version", h->kernel_version);
				put_str_map(j, "config", h->config);
				json_obj_end(j);
			}
			json_obj_end(j);
		}
		json_arr_end(j);
	}
}

static void environment(struct json *j, const struct result *r)
{
	const struct result_host *h = &r->host;
	char comment[400];

	snprintf(comment, sizeof(comment), "%s: %s, %llu CPUs, %s of the %s clock", h->hostname,
		 h->cpu_model, (unsigned long long)h->nr_cpus, h->clock.unit, h->clock.kind);
	json_obj_begin(j, "environment");
	json_str(j, "comment", comment);
	json_obj_begin(j, "misc");
	json_str(j, "hostname", h->hostname);
	json_str(j, "cpu_model", h->cpu_model);
	json_u64(j, "nr_cpus", h->nr_cpus);
	put_num(j, "tsc_hz", h->tsc_hz);
	json_str(j, "clocksource", h->clocksource);
	json_str(j, "clock_kind", h->clock.kind);
	json_str(j, "clock_unit", h->clock.unit);
	put_str(j, "clock_qemu", h->clock.qemu);
	json_str(j, "kernel", h->kernel);
	json_bool(j, "fentry", h->fentry);
	json_bool(j, "live_frames", h->live_frames);
	put_str_map(j, "mitigations", h->mitigations);
	json_obj_end(j);
	json_obj_end(j);
}

/* What the test measured, beside its number: the setups' spread, the recipe. */
static void test_misc(struct json *j, const struct result *r, const struct result_scenario *sc,
		      const struct xfig *f)
{
	struct xfig ns, purity;

	json_obj_begin(j, "misc");
	json_str(j, "file", r->path);
	put_str(j, "label", r->label);
	json_str(j, "scenario", sc->name);
	if (sc->ok) {
		put_str(j, "recipe", sc->recipe);
		put_str(j, "method",
			f->kind == XFIG_PATH	? sc->path_cost_method
			: f->kind == XFIG_PPATH ? f->method
						: sc->method);
		xfig_get(sc, XFIG_NS, &ns);
		xfig_get(sc, XFIG_PURITY, &purity);
		put_num(j, "purity_percent", purity.value);
	}
	if (f->has && f->kind == XFIG_CYCLES) {
		json_u64(j, "setups", f->n);
		put_num(j, "min", f->lo);
		put_num(j, "max", f->hi);
		put_num(j, "cv", f->cv);
		if (xfig_exported(XFIG_NS, r->host.clock.unit))
			put_num(j, "ns_per_elem", ns.value);
	}
	json_obj_end(j);
}

/* PREFIX.SCENARIO, a path figure's with its method: no path names figures of two methods. */
static void test_path(const char *prefix, const char *scenario, bool path, const char *method,
		      char *buf, size_t len)
{
	char node[128], m[64] = "";

	if (method) {
		m[0] = '.';
		path_node(method, m + 1, sizeof(m) - 1);
	}
	path_node(scenario, node, sizeof(node));
	snprintf(buf, len, "%s.%s%s%s", prefix, node, path ? ".path" : "", path ? m : "");
}

/* A test's object up to its number (HAS: one, V in UNIT); its build the CI's, else BUILD. */
static void test_head(struct json *j, const struct kcidb_opts *o, const char *id, const char *build,
		      const char *path, const char *status, bool has, double v, const char *unit)
{
	json_obj_begin(j, NULL);
	json_str(j, "id", id);
	json_str(j, "origin", o->origin);
	json_str(j, "build_id", o->build_id ?: build);
	json_str(j, "path", path);
	json_str(j, "status", status);
	if (!has)
		return;
	json_obj_begin(j, "number");
	json_double(j, "value", v);
	json_str(j, "unit", unit);
	json_obj_end(j);
}

static void one_test(struct json *j, const struct result *r, const struct result_scenario *sc,
		     const struct xfig *f, const struct kcidb_opts *o)
{
	char path[240], id[700], build[400], unit[48], comment[600];
	bool pathfig = f->kind == XFIG_PATH || f->kind == XFIG_PPATH;

	test_path("ppbench", sc->name, pathfig, f->has ? f->method : NULL, path, sizeof(path));
	snprintf(id, sizeof(id), "%s:ppbench-%s-%s-%s", o->origin, r->host.hostname, r->created,
		 path);
	kernel_id(o, r, build, sizeof(build));
	xfig_unit(f->kind, r->host.clock.unit, unit, sizeof(unit));
	if (f->has && pathfig)
		snprintf(comment, sizeof(comment), "%s: %.10g %s, the path figure by %s", sc->name,
			 f->value, unit, f->method ?: "an unnamed method");
	else if (f->has)
		snprintf(comment, sizeof(comment), "%s: %.10g %s, median of the setups", sc->name,
			 f->value, unit);
	else
		snprintf(comment, sizeof(comment), "%s: %s", sc->name, f->why);
	test_head(j, o, id, build, path, f->has ? "DONE" : "SKIP", f->has, f->value, unit);
	json_str(j, "start_time", r->created);
	json_str(j, "comment", comment);
	environment(j, r);
	test_misc(j, r, sc, f);
	json_obj_end(j);
}

static struct json *begin(FILE *f)
{
	struct json *j = json_new(f, true);

	if (!j)
		return NULL;
	json_obj_begin(j, NULL);
	json_obj_begin(j, "version");
	json_u64(j, "major", KCIDB_MAJOR);
	json_u64(j, "minor", KCIDB_MINOR);
	json_obj_end(j);
	return j;
}

static void end(struct json *j)
{
	json_obj_end(j);
	json_flush_line(j);
	json_close(j);
}

void kcidb_write_results(FILE *out, const struct result *r, size_t n, const struct kcidb_opts *o)
{
	struct json *j = begin(out);
	struct xfig f;

	if (!j)
		return;
	if (!o->build_id)
		checkouts_builds(j, r, n, o);
	json_arr_begin(j, "tests");
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < r[i].nr_sc; k++) {
			const struct result_scenario *sc = &r[i].sc[k];

			xfig_get(sc, XFIG_CYCLES, &f);
			one_test(j, &r[i], sc, &f, o);
			if (!sc->ok)
				continue; /* the scenario's SKIP says it for its path figure */
			xfig_get(sc, XFIG_PATH, &f);
			one_test(j, &r[i], sc, &f, o);
			xfig_get(sc, XFIG_PPATH, &f);
			if (f.has) /* (vm --profile's: only where there is one) */
				one_test(j, &r[i], sc, &f, o);
		}
	}
	json_arr_end(j);
	end(j);
}

/* compare's own verdict: where no gate is on this figure, DONE. */
static const char *cmp_status(const struct compare_readback *d, const struct readback_cmp *m,
			      const struct readback_row *w)
{
	if (!d->gate || strcmp(w->figure, d->metric) || !m->verdict)
		return "DONE";
	if (w->gated)
		return "FAIL";
	return w->testable ? "PASS" : "SKIP";
}

static void str_array(struct json *j, const char *key, const json_t *a)
{
	json_arr_begin(j, key);
	for (size_t i = 0; i < json_array_size(a); i++)
		json_str(j, NULL, json_string_value(json_array_get(a, i)));
	json_arr_end(j);
}

static void cmp_misc(struct json *j, const struct compare_readback *d, const struct readback_cmp *m,
		     const struct readback_row *w)
{
	json_obj_begin(j, "misc");
	str_array(j, "old", m->old);
	str_array(j, "new", m->new);
	json_str(j, "noise", m->noise);
	json_str(j, "unit", m->unit);
	json_str(j, "label", w->label);
	put_num(j, "floor_pct", w->floor_pct);
	put_num(j, "p", w->p);
	json_bool(j, "testable", w->testable);
	json_bool(j, "real", w->real);
	json_bool(j, "unstable", w->unstable);
	json_bool(j, "regression", w->regression);
	json_bool(j, "gated", w->gated);
	if (d->gate)
		put_num(j, "limit_pct", d->fail_above);
	json_u64(j, "old_n", w->old.n);
	json_u64(j, "new_n", w->new.n);
	put_num(j, "old_mean", w->old.mean);
	put_num(j, "new_mean", w->new.mean);
	put_num(j, "old_median", w->old.median);
	put_num(j, "new_median", w->new.median);
	json_obj_end(j);
}

static void cmp_test(struct json *j, const struct compare_readback *d, size_t k,
		     const struct readback_row *w, const struct kcidb_opts *o)
{
	const struct readback_cmp *m = &d->cmps[k];
	const char *status = cmp_status(d, m, w);
	const char *first = json_string_value(json_array_get(m->new, 0));
	char stem[256], path[240], id[800], build[400], comment[600], lim[48] = "";
	char ch[96] = "n/a", fl[24] = "n/a";

	path_stem(first ? first : "new", stem, sizeof(stem));
	test_path("ppbench.compare", w->scenario, strcmp(w->figure, "cycles"), w->method, path,
		  sizeof(path));
	snprintf(id, sizeof(id), "%s:ppbench-compare-%s-%zu-%s", o->origin, stem, k, path);
	snprintf(build, sizeof(build), "%s:ppbench-compare-%s", o->origin, stem);
	if (d->gate)
		snprintf(lim, sizeof(lim), ", limit %g%%", d->fail_above);
	if (isfinite(w->change_pct))
		snprintf(ch, sizeof(ch), "%+.1f%%", w->change_pct);
	else if (w->differ[0])
		snprintf(ch, sizeof(ch), "method differs (%.32s, %.32s)", w->differ[0],
			 w->differ[1]);
	if (isfinite(w->floor_pct))
		snprintf(fl, sizeof(fl), "%.1f%%", w->floor_pct);
	snprintf(comment, sizeof(comment), "%s: %s (floor %s%s; noise from the %s)", w->label, ch,
		 fl, lim, m->noise);
	test_head(j, o, id, build, path, status, strcmp(status, "SKIP") && isfinite(w->change_pct),
		  w->change_pct, "%");
	json_str(j, "comment", comment);
	cmp_misc(j, d, m, w);
	json_obj_end(j);
}

void kcidb_write_compare(FILE *out, const struct compare_readback *d, const struct kcidb_opts *o)
{
	struct json *j = begin(out);

	if (!j)
		return;
	json_arr_begin(j, "tests");
	for (size_t k = 0; k < d->ncmps; k++) {
		for (size_t i = 0; i < d->cmps[k].nrows; i++) {
			const struct readback_row *w = &d->cmps[k].rows[i];

			/* one test per scenario and per path figure, as for result files */
			if (!strcmp(w->figure, "cycles") || !strcmp(w->figure, "path") ||
			    !strcmp(w->figure, "profile_path"))
				cmp_test(j, d, k, w, o);
		}
	}
	json_arr_end(j);
	end(j);
}
