// SPDX-License-Identifier: GPL-2.0
/* Noise profiles: built from bench results, loaded, matched to a result's host. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/json_reader.h"
#include "model/noise.h"
#include "model/pathfig.h"

double noise_floor_pct(const double *v, size_t n, size_t family, double min_pct)
{
	struct summary s;
	double pair, normal;

	if (n < 2 || !family || summarize(v, n, &s) || !(s.min > 0))
		return NAN;
	pair = (s.max / s.min - 1) * 100;
	normal = t_quantile(1 - NOISE_ALPHA / 2 / family, n - 1) * sqrt(2) * s.cv * 100;
	return fmax(min_pct, fmax(pair, normal));
}

void noise_fig_range(const struct noise_fig *f, size_t family, double *lo, double *hi)
{
	double q = 0;

	*lo = f->min;
	*hi = f->max;
	if (f->n >= 2 && family)
		q = t_quantile(1 - NOISE_ALPHA / 2 / family, f->n - 1) * f->cv_between *
		    sqrt(1 + 1.0 / f->n);
	if (isfinite(q)) {
		*lo = fmin(*lo, f->median * (1 - q));
		*hi = fmax(*hi, f->median * (1 + q));
	}
}

int noise_fig_from(const double *v, const double *within, size_t n, size_t family, double min_pct,
		   struct noise_fig *f)
{
	struct summary s;
	struct modes m;
	int err;

	memset(f, 0, sizeof(*f));
	if (n < 2)
		return -EINVAL;
	err = summarize(v, n, &s) ?: find_modes(v, n, &m);
	if (err)
		return err;
	f->n = n;
	f->median = s.median;
	f->min = s.min;
	f->max = s.max;
	f->cv_between = s.cv;
	f->cv_within = within ? median_of(within, n) : 0;
	f->max_pair_pct = s.min > 0 ? (s.max / s.min - 1) * 100 : NAN;
	f->floor_pct = noise_floor_pct(v, n, family, min_pct);
	if (!isfinite(f->floor_pct) || !isfinite(f->cv_within))
		return -EINVAL;
	f->nr_levels = m.nr_modes;
	memcpy(f->levels, m.m, sizeof(f->levels));
	return 0;
}

double result_level_probe(const struct result *r, const char *name)
{
	const struct result_scenario *sc = result_find(r, name);

	return sc && sc->level_probe_ns > 0 ? sc->level_probe_ns : NAN;
}

/* Cycles against the level probe over the runs: what a linear fit leaves. */
static void level_fit(const double *y, const double *x, size_t n, struct noise_scenario *ns)
{
	struct summary sy, sx;
	double r;

	if (n < 3 || summarize(y, n, &sy) || summarize(x, n, &sx))
		return;
	r = correlation(x, y, n);
	if (!isfinite(r) || !(sy.mean > 0))
		return;
	ns->has_level = true;
	ns->level_median_ns = sx.median;
	ns->level_r = r;
	ns->level_cv_resid = sy.stddev * sqrt((1 - r * r) * (n - 1) / (n - 2)) / sy.mean;
}

/* One scenario over the files; 1 if fewer than two files measured it. */
static int build_scenario(const struct result *files, size_t n, const char *name, size_t family,
			  struct noise_scenario *ns)
{
	double *v = calloc(4 * n + 1, sizeof(*v)), *w = v + n, *lv = w + n, *pc = lv + n;
	double min_pct = unit_floor_pct(result_clock_of(&files[0])->unit);
	size_t k = 0, kp = 0;
	bool first = true;
	int err = 1;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct result_scenario *sc = result_find(&files[i], name);

		if (!sc || !sc->ok)
			continue;
		/* (a path figure of one method only) */
		if (sc->has_path_cost && first)
			ns->path_method = sc->path_method;
		kp += sc->has_path_cost && path_methods_agree(ns->path_method, sc->path_method);
		first &= !sc->has_path_cost;
		lv[k] = sc->level_probe_ns > 0 ? sc->level_probe_ns : NAN;
		pc[k] = sc->path_cost;
		w[k] = sc->cycles.cv;
		v[k++] = sc->cycles.median;
	}
	ns->name = name;
	if (k >= 2)
		err = noise_fig_from(v, w, k, family, min_pct, &ns->cycles);
	if (!err && isfinite(lv[0])) /* (fitted where every run has one) */
		level_fit(v, lv, k, ns);
	if (!err && kp == k)
		ns->has_path = !noise_fig_from(pc, NULL, k, family, min_pct, &ns->path);
	free(v);
	return err;
}

int noise_build(const struct result *files, size_t n, struct noise_profile *p)
{
	size_t family = 0;
	int err = 0;

	memset(p, 0, sizeof(*p));
	if (n < 2)
		return -EINVAL;
	p->host = files[0].host;
	p->host.clock = *result_clock_of(&files[0]);
	p->host_doc = json_object_get(files[0].doc, "host");
	p->invocations = n;
	p->first = files[0].created;
	p->last = files[n - 1].created;
	p->sc = calloc(files[0].nr_sc + 1, sizeof(*p->sc));
	if (!p->sc)
		return -ENOMEM;
	/* The gate tests every scenario at once: each floor carries its share of alpha. */
	for (size_t i = 0; i < files[0].nr_sc; i++)
		family += files[0].sc[i].ok;
	for (size_t i = 0; i < files[0].nr_sc && err >= 0; i++) {
		const struct result_scenario *sc = &files[0].sc[i];

		if (sc->ok && !p->repeat)
			p->repeat = sc->repeat;
		err = build_scenario(files, n, sc->name, family ?: 1, &p->sc[p->nr_sc]);
		p->nr_sc += err == 0;
	}
	if (err < 0 || !p->nr_sc) {
		noise_free(p);
		return err < 0 ? err : -EINVAL;
	}
	return 0;
}

static void load_fig(struct json_reader *c, const json_t *o, const char *where, double min_pct,
		     struct noise_fig *f)
{
	const json_t *lv;
	uint64_t n = 0;
	char at[200];

	jc_count(c, o, where, "invocations", 2, &n);
	f->n = n;
	jc_num(c, o, where, "median", 0, INFINITY, false, &f->median);
	jc_num(c, o, where, "min", 0, INFINITY, false, &f->min);
	jc_num(c, o, where, "max", 0, INFINITY, false, &f->max);
	jc_num(c, o, where, "cv_between", 0, INFINITY, false, &f->cv_between);
	jc_num(c, o, where, "cv_within", 0, INFINITY, false, &f->cv_within);
	jc_num(c, o, where, "max_pair_pct", 0, INFINITY, false, &f->max_pair_pct);
	jc_num(c, o, where, "floor_pct", min_pct, INFINITY, false, &f->floor_pct);
	lv = jc_req(c, o, where, "levels", J_ARR);
	if (!c->failed && !(f->min <= f->median && f->median <= f->max))
		jc_err(c, where, "min %g, median %g and max %g are out of order", f->min, f->median,
		       f->max);
	for (size_t i = 0; !c->failed && i < json_array_size(lv) && i < MODES_MAX; i++) {
		struct mode *m = &f->levels[i];
		uint64_t cnt = 0;

		snprintf(at, sizeof(at), "%s.levels[%zu]", where, i);
		jc_num(c, json_array_get(lv, i), at, "median", 0, INFINITY, false, &m->median);
		jc_num(c, json_array_get(lv, i), at, "min", 0, INFINITY, false, &m->lo);
		jc_num(c, json_array_get(lv, i), at, "max", 0, INFINITY, false, &m->hi);
		jc_count(c, json_array_get(lv, i), at, "invocations", 1, &cnt);
		m->count = cnt;
		f->nr_levels = i + 1;
	}
}

static int load_scenario(struct json_reader *c, const json_t *s, const char *where, double min_pct,
			 struct noise_scenario *ns)
{
	const json_t *path = json_object_get(s, "path_cost_cycles"),
		     *lv = json_object_get(s, "level_probe");
	char at[160];

	ns->name = jc_str(c, s, where, "name");
	jc_join(at, sizeof(at), where, "cycles_per_elem");
	load_fig(c, jc_req(c, s, where, "cycles_per_elem", J_OBJ), at, min_pct, &ns->cycles);
	if (path && !json_is_null(path)) {
		jc_join(at, sizeof(at), where, "path_cost_cycles");
		load_fig(c, jc_req(c, s, where, "path_cost_cycles", J_OBJ), at, min_pct, &ns->path);
		ns->path_method = jc_opt_str(c, path, at, "method");
		ns->has_path = true;
	}
	if (lv && !json_is_null(lv)) {
		jc_join(at, sizeof(at), where, "level_probe");
		lv = jc_req(c, s, where, "level_probe", J_OBJ);
		jc_num(c, lv, at, "median_ns", 0, INFINITY, false, &ns->level_median_ns);
		jc_num(c, lv, at, "r_cycles", -1, 1, false, &ns->level_r);
		jc_num(c, lv, at, "cv_resid", 0, INFINITY, false, &ns->level_cv_resid);
		ns->has_level = true;
	}
	return c->failed ? -EINVAL : 0;
}

/* A profile cannot describe a kernel built after it was taken (uname -v's last date). */
static void check_dates(struct json_reader *c, const struct noise_profile *p)
{
	char built[11] = "";

	for (const char *s = p->host.kernel_version; s && *s; s++) {
		const char *pat = "dddd-dd-dd", *q = s;

		for (; *pat && *q; pat++, q++)
			if (*pat == 'd' ? (*q < '0' || *q > '9') : *q != *pat)
				break;
		if (!*pat)
			snprintf(built, sizeof(built), "%.10s", s);
	}
	if (*built && strncmp(p->created, built, 10) < 0)
		jc_err(c, "created",
		       "%.10s is older than the kernel it describes (built %s): calibrate again",
		       p->created, built);
}

static int load_top(struct json_reader *c, struct noise_profile *p)
{
	const json_t *root = p->doc, *arr;
	const char *schema;
	char at[64];

	if (!json_is_object(root) || !json_object_get(root, "schema")) {
		jc_err(c, "", "not a noise profile (expected schema \"%s\")", NOISE_SCHEMA);
		return -EINVAL;
	}
	schema = jc_str(c, root, "", "schema");
	if (schema && strcmp(schema, NOISE_SCHEMA))
		jc_err(c, "schema", "\"%s\" is not supported (this ppbench reads \"%s\")", schema,
		       NOISE_SCHEMA);
	p->created = jc_str(c, root, "", "created");
	if (p->created && !jc_iso8601_utc(p->created))
		jc_err(c, "created", "\"%s\" is not a UTC ISO 8601 time", p->created);
	jc_count(c, root, "", "invocations", 2, &p->invocations);
	jc_count(c, root, "", "repeat", 1, &p->repeat);
	jc_num(c, root, "", "span_s", 0, INFINITY, false, &p->span_s);
	p->host_doc = json_object_get(root, "host");
	if (result_host_load(c, root, &p->host, false))
		return -EINVAL;
	check_dates(c, p);
	arr = jc_req(c, root, "", "scenarios", J_ARR);
	if (c->failed)
		return -EINVAL;
	p->sc = calloc(json_array_size(arr) + 1, sizeof(*p->sc));
	if (!p->sc)
		return -ENOMEM;
	for (size_t i = 0; i < json_array_size(arr); i++) {
		snprintf(at, sizeof(at), "scenarios[%zu]", i);
		if (load_scenario(c, json_array_get(arr, i), at, unit_floor_pct(p->host.clock.unit),
				  &p->sc[i]))
			return -EINVAL;
		p->nr_sc = i + 1;
	}
	if (!p->nr_sc)
		jc_err(c, "scenarios", "empty: the profile describes no scenario");
	return c->failed ? -EINVAL : 0;
}

int noise_load(const char *path, struct noise_profile *p, char *err, size_t errlen)
{
	struct json_reader c = { .err = err, .errlen = errlen, .file = path };
	char perr[200];

	memset(p, 0, sizeof(*p));
	p->path = path;
	p->doc = jparse_file(path, perr, sizeof(perr));
	if (!p->doc) {
		snprintf(err, errlen, "%s: %s", path, perr);
		return -EINVAL;
	}
	if (load_top(&c, p)) {
		if (!c.failed)
			snprintf(err, errlen, "%s: out of memory", path);
		noise_free(p);
		return -EINVAL;
	}
	return 0;
}

void noise_free(struct noise_profile *p)
{
	free(p->sc);
	json_decref(p->doc);
	memset(p, 0, sizeof(*p));
}

const struct noise_scenario *noise_find(const struct noise_profile *p, const char *name)
{
	for (size_t i = 0; p && i < p->nr_sc; i++)
		if (!strcmp(p->sc[i].name, name))
			return &p->sc[i];
	return NULL;
}

/* The first member where two name -> string maps differ, as "what KEY A vs B". */
static bool map_differs(const char *what, const json_t *a, const json_t *b, char *why, size_t len)
{
	const json_t *x[2] = { a, b }, *v;
	const char *k;

	for (int s = 0; s < 2; s++)
		json_object_foreach((json_t *)x[s], k, v) {
			const char *va = json_string_value(json_object_get(a, k));
			const char *vb = json_string_value(json_object_get(b, k));

			if (va && vb && !strcmp(va, vb))
				continue;
			snprintf(why, len, "%s %s \"%s\" vs \"%s\"", what, k, va ? va : "(absent)",
				 vb ? vb : "(absent)");
			return true;
		}
	return false;
}

int noise_host_check(const struct noise_profile *p, const struct result *r, char *why, size_t len)
{
	const struct result_host *a = &p->host, *b = &r->host;
	double hi = fmax(a->tsc_hz, b->tsc_hz);

	if (strcmp(a->cpu_model, b->cpu_model))
		snprintf(why, len, "CPU model \"%s\" vs \"%s\"", a->cpu_model, b->cpu_model);
	else if (hi > 0 && fabs(a->tsc_hz - b->tsc_hz) / hi > 0.01)
		snprintf(why, len, "TSC %.0f Hz vs %.0f Hz", a->tsc_hz, b->tsc_hz);
	else if (strcmp(a->kernel, b->kernel))
		snprintf(why, len, "kernel %s vs %s", a->kernel, b->kernel);
	else if (a->kernel_version && b->kernel_version &&
		 strcmp(a->kernel_version, b->kernel_version))
		snprintf(why, len, "kernel build \"%s\" vs \"%s\"", a->kernel_version,
			 b->kernel_version);
	else if (!map_differs("mitigation", a->mitigations, b->mitigations, why, len) &&
		 !map_differs("config", a->config, b->config, why, len))
		return 0;
	return -EINVAL;
}

int noise_clock_check(const struct noise_profile *p, const char *path, const struct result *r,
		      char *why, size_t len)
{
	return result_clock_same(&p->host.clock, path, result_clock_of(r), r->path, why, len);
}

void noise_test(const struct noise_fig *f, double change_pct, struct ttest *t)
{
	double se = sqrt(2) * f->cv_between * 100;

	memset(t, 0, sizeof(*t));
	t->p = 1;
	if (f->n < 2 || !isfinite(change_pct)) {
		t->why = "the profile has fewer than 2 invocations of it";
		return;
	}
	t->testable = true;
	t->df = f->n - 1;
	if (se > 0) {
		t->stat = change_pct / se;
		t->p = student_t_p2(t->stat, t->df);
	} else {
		t->p = change_pct == 0 ? 1 : 0;
	}
}
