// SPDX-License-Identifier: GPL-2.0
/*
 * Result-file loader and schema checker. Each step names where it is in
 * jq-like path syntax ("scenarios[1].ns_per_elem.runs"), so the one-line
 * error points at the field without the user counting lines.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/result.h"

struct vctx {
	char *err;
	size_t errlen;
	const char *file;
	bool failed;
};

__attribute__((format(printf, 3, 4))) static void verr(struct vctx *c, const char *where,
						       const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->failed)
		return;
	c->failed = true;
	n = snprintf(c->err, c->errlen, "%s: %s%s", c->file, where, *where ? ": " : "");
	if (n >= 0 && (size_t)n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - n, fmt, ap);
		va_end(ap);
	}
	jmsg_one_line(c->err);
}

static const char *type_name(enum jtype t)
{
	struct jval v = { .type = t };

	return jtype_name(&v);
}

static void join(char *buf, size_t len, const char *where, const char *key)
{
	snprintf(buf, len, "%s%s%s", where, *where ? "." : "", key);
}

/* Member KEY of OBJ of type T; on absence or another type, reports it and returns NULL. */
static const struct jval *req(struct vctx *c, const struct jval *obj, const char *where,
			      const char *key, enum jtype t)
{
	const struct jval *v;
	char at[160];

	if (c->failed)
		return NULL;
	v = jget(obj, key);
	if (!v) {
		verr(c, where, "missing field '%s'", key);
		return NULL;
	}
	if (v->type != t) {
		join(at, sizeof(at), where, key);
		verr(c, at, "expected %s, got %s", type_name(t), jtype_name(v));
		return NULL;
	}
	return v;
}

static const char *req_str(struct vctx *c, const struct jval *obj, const char *where,
			   const char *key)
{
	return jstr(req(c, obj, where, key, J_STR));
}

/* A number in [min, max]; whole numbers only when INTEGER. */
static bool req_num(struct vctx *c, const struct jval *obj, const char *where, const char *key,
		    double min, double max, bool integer, double *out)
{
	const struct jval *v = req(c, obj, where, key, J_NUM);
	char at[160];

	if (!v)
		return false;
	join(at, sizeof(at), where, key);
	if (integer && v->n != floor(v->n))
		verr(c, at, "expected a whole number, got %g", v->n);
	else if (v->n < min || v->n > max)
		verr(c, at, "%g is out of range (%g..%g)", v->n, min, max);
	*out = v->n;
	return !c->failed;
}

static bool req_count(struct vctx *c, const struct jval *obj, const char *where, const char *key,
		      double min, uint64_t *out)
{
	double d = 0;
	/* up to 2^53: every whole number below is exact in a double */
	bool ok = req_num(c, obj, where, key, min, 9007199254740992.0, true, &d);

	*out = ok ? (uint64_t)d : 0; /* a value out of range has no uint64_t */
	return ok;
}

static bool req_bool(struct vctx *c, const struct jval *obj, const char *where, const char *key,
		     bool *out)
{
	const struct jval *v = req(c, obj, where, key, J_BOOL);

	if (v)
		*out = v->b;
	return v;
}

/* "2026-11-30T12:00:00Z", optionally with fractional seconds. */
static bool iso8601_utc(const char *s)
{
	const char *pat = "dddd-dd-ddTdd:dd:dd";

	for (; *pat; pat++, s++)
		if (*pat == 'd' ? (*s < '0' || *s > '9') : *s != *pat)
			return false;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			;
	return s[0] == 'Z' && s[1] == '\0';
}

static int load_top(struct vctx *c, struct result *r)
{
	const struct jval *root = r->doc, *tool;

	if (!jis(root, J_OBJ)) {
		verr(c, "", "expected a JSON object at the top level, got %s", jtype_name(root));
		return -EINVAL;
	}
	if (!jget(root, "schema")) {
		verr(c, "", "no 'schema' field: not a ppbench result (expected schema \"%s\")",
		     RESULT_SCHEMA);
		return -EINVAL;
	}
	r->schema = req_str(c, root, "", "schema");
	if (r->schema && strcmp(r->schema, RESULT_SCHEMA))
		verr(c, "schema", "\"%s\" is not supported (this ppbench reads \"%s\")", r->schema,
		     RESULT_SCHEMA);
	tool = req(c, root, "", "tool", J_OBJ);
	r->tool_name = req_str(c, tool, "tool", "name");
	r->tool_version = req_str(c, tool, "tool", "version");
	r->created = req_str(c, root, "", "created");
	if (r->created && !iso8601_utc(r->created))
		verr(c, "created", "\"%s\" is not a UTC ISO 8601 time (2026-11-30T12:00:00Z)",
		     r->created);
	r->command = req_str(c, root, "", "command");
	return c->failed ? -EINVAL : 0;
}

/* An object whose members are all strings (mitigations, config). */
static const struct jval *req_str_map(struct vctx *c, const struct jval *obj, const char *key)
{
	const struct jval *m = req(c, obj, "host", key, J_OBJ);
	char at[160];

	for (size_t i = 0; m && i < jlen(m); i++) {
		if (jis(jat(m, i), J_STR))
			continue;
		snprintf(at, sizeof(at), "host.%s.%s", key, jkey(m, i));
		verr(c, at, "expected a string, got %s", jtype_name(jat(m, i)));
		return NULL;
	}
	return m;
}

static int load_host(struct vctx *c, struct result *r)
{
	const struct jval *h = req(c, r->doc, "", "host", J_OBJ);
	struct result_host *o = &r->host;

	o->kernel = req_str(c, h, "host", "kernel");
	o->hostname = req_str(c, h, "host", "hostname");
	o->cpu_model = req_str(c, h, "host", "cpu_model");
	req_count(c, h, "host", "nr_cpus", 1, &o->nr_cpus);
	/* 0: no usable TSC on that machine (probe reports it that way). */
	req_num(c, h, "host", "tsc_hz", 0, INFINITY, false, &o->tsc_hz);
	o->clocksource = req_str(c, h, "host", "clocksource");
	o->mitigations = req_str_map(c, h, "mitigations");
	o->config = req_str_map(c, h, "config");
	req_bool(c, h, "host", "fentry", &o->fentry);
	req_bool(c, h, "host", "live_frames", &o->live_frames);
	return c->failed ? -EINVAL : 0;
}

static int load_stat(struct vctx *c, const struct jval *obj, const char *where, const char *key,
		     uint64_t repeat, struct result_stat *st)
{
	const struct jval *b = req(c, obj, where, key, J_OBJ), *runs;
	char at[160], run_at[176], el[200];

	join(at, sizeof(at), where, key);
	req_num(c, b, at, "min", -INFINITY, INFINITY, false, &st->min);
	req_num(c, b, at, "median", -INFINITY, INFINITY, false, &st->median);
	req_num(c, b, at, "mean", -INFINITY, INFINITY, false, &st->mean);
	req_num(c, b, at, "stddev", 0, INFINITY, false, &st->stddev);
	req_num(c, b, at, "cv", 0, INFINITY, false, &st->cv);
	runs = req(c, b, at, "runs", J_ARR);
	if (!runs)
		return -EINVAL;
	join(run_at, sizeof(run_at), at, "runs");
	if (jlen(runs) != repeat) {
		verr(c, run_at, "has %zu values, expected %llu (the scenario's repeat)", jlen(runs),
		     (unsigned long long)repeat);
		return -EINVAL;
	}
	st->runs = calloc(repeat, sizeof(*st->runs));
	if (!st->runs) {
		verr(c, run_at, "out of memory");
		return -ENOMEM;
	}
	st->nruns = repeat;
	for (size_t i = 0; i < repeat; i++) {
		if (jnum(jat(runs, i), &st->runs[i])) {
			snprintf(el, sizeof(el), "%s[%zu]", run_at, i);
			verr(c, el, "expected a number, got %s", jtype_name(jat(runs, i)));
			return -EINVAL;
		}
	}
	return 0;
}

/* A path count: a number, or null where the accounting backend could not
 * know it on that kernel (kept as NaN). */
static void path_num(struct vctx *c, const struct jval *obj, const char *where, const char *key,
		     double *out)
{
	const struct jval *v = jget(obj, key);

	if (obj && v && jis(v, J_NULL))
		*out = NAN;
	else
		req_num(c, obj, where, key, 0, INFINITY, false, out);
}

static int load_path(struct vctx *c, const struct jval *s, const char *where, struct result_path *p)
{
	const struct jval *path, *alloc, *ret;
	char at[160], sub[176];

	path = req(c, s, where, "path", J_OBJ);
	join(at, sizeof(at), where, "path");
	alloc = req(c, path, at, "alloc", J_OBJ);
	ret = req(c, path, at, "ret", J_OBJ);
	join(sub, sizeof(sub), at, "alloc");
	path_num(c, alloc, sub, "cache", &p->alloc_cache);
	path_num(c, alloc, sub, "refill", &p->alloc_refill);
	path_num(c, alloc, sub, "slow", &p->alloc_slow);
	join(sub, sizeof(sub), at, "ret");
	path_num(c, ret, sub, "cache", &p->ret_cache);
	path_num(c, ret, sub, "ring", &p->ret_ring);
	path_num(c, ret, sub, "release", &p->ret_release);
	return c->failed ? -EINVAL : 0;
}

static int load_path_cost(struct vctx *c, const struct jval *s, const char *where,
			  struct result_scenario *sc)
{
	const struct jval *pc = req(c, s, where, "path_cost_cycles", J_OBJ), *v;
	char at[160];

	join(at, sizeof(at), where, "path_cost_cycles");
	v = jget(pc, "value");
	if (pc && !v)
		verr(c, at, "missing field 'value' (a number, or null when not derivable)");
	else if (pc && !jis(v, J_NULL)) /* null: not derivable; else it must be a number */
		sc->has_path_cost =
			req_num(c, pc, at, "value", -INFINITY, INFINITY, false, &sc->path_cost);
	sc->path_cost_method = req_str(c, pc, at, "method");
	return c->failed ? -EINVAL : 0;
}

static int load_cpu(struct vctx *c, const struct jval *e, const char *where, uint64_t repeat,
		    struct result_cpu *pc)
{
	const struct jval *role = jget(e, "role");
	uint64_t cpu = 0;

	if (!jis(e, J_OBJ)) {
		verr(c, where, "expected an object, got %s", jtype_name(e));
		return -EINVAL;
	}
	req_count(c, e, where, "cpu", 0, &cpu);
	pc->cpu = cpu;
	pc->role = role ? req_str(c, e, where, "role") : "";
	req_num(c, e, where, "elems", 0, INFINITY, false, &pc->elems);
	if (c->failed)
		return -EINVAL;
	return load_stat(c, e, where, "cycles_per_elem", repeat, &pc->cycles);
}

static int load_per_cpu(struct vctx *c, const struct jval *s, const char *where,
			struct result_scenario *sc)
{
	const struct jval *arr = jget(s, "per_cpu");
	char at[160];

	if (!arr)
		return 0; /* optional: only scenarios that run on several CPUs have it */
	arr = req(c, s, where, "per_cpu", J_ARR);
	if (!arr)
		return -EINVAL;
	sc->per_cpu = calloc(jlen(arr) + 1, sizeof(*sc->per_cpu));
	if (!sc->per_cpu) {
		verr(c, where, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < jlen(arr); i++) {
		snprintf(at, sizeof(at), "%s.per_cpu[%zu]", where, i);
		sc->nr_per_cpu = i + 1; /* so result_free sees what this one allocates */
		if (load_cpu(c, jat(arr, i), at, sc->repeat, &sc->per_cpu[i]))
			return -EINVAL;
	}
	return 0;
}

static int load_cpus(struct vctx *c, const struct jval *s, const char *where,
		     struct result_scenario *sc)
{
	char at[160];

	sc->cpus = req(c, s, where, "cpus", J_ARR);
	for (size_t i = 0; i < jlen(sc->cpus); i++) {
		const struct jval *v = jat(sc->cpus, i);

		if (!jis(v, J_NUM) || v->n < 0 || v->n != floor(v->n)) {
			snprintf(at, sizeof(at), "%s.cpus[%zu]", where, i);
			verr(c, at, "expected a CPU number, got %s", jtype_name(v));
			return -EINVAL;
		}
	}
	return c->failed ? -EINVAL : 0;
}

/* The figures of a scenario whose status is "ok". */
static int load_figures(struct vctx *c, const struct jval *s, const char *where,
			struct result_scenario *sc)
{
	sc->recipe = req_str(c, s, where, "recipe");
	sc->method = req_str(c, s, where, "method");
	sc->replication = jstr(jget(s, "replication"));
	sc->setups = jis(jget(s, "setups"), J_ARR) ? jget(s, "setups") : NULL;
	load_cpus(c, s, where, sc);
	req_count(c, s, where, "loops", 1, &sc->loops);
	req_count(c, s, where, "repeat", 1, &sc->repeat);
	req_count(c, s, where, "batch", 1, &sc->batch);
	if (c->failed)
		return -EINVAL;
	if (load_stat(c, s, where, "cycles_per_elem", sc->repeat, &sc->cycles) ||
	    load_stat(c, s, where, "ns_per_elem", sc->repeat, &sc->ns) ||
	    load_path(c, s, where, &sc->path))
		return -EINVAL;
	req_num(c, s, where, "purity", 0, 1, false, &sc->purity);
	if (c->failed || load_path_cost(c, s, where, sc))
		return -EINVAL;
	return load_per_cpu(c, s, where, sc);
}

static int load_scenario(struct vctx *c, const struct jval *s, const char *where,
			 struct result_scenario *sc)
{
	if (!jis(s, J_OBJ)) {
		verr(c, where, "expected an object, got %s", jtype_name(s));
		return -EINVAL;
	}
	sc->name = req_str(c, s, where, "name");
	sc->status = req_str(c, s, where, "status");
	if (c->failed)
		return -EINVAL;
	if (!*sc->name) {
		verr(c, where, "empty scenario name");
		return -EINVAL;
	}
	if (!strcmp(sc->status, "skipped")) {
		sc->reason = req_str(c, s, where, "reason");
		return c->failed ? -EINVAL : 0;
	}
	if (strcmp(sc->status, "ok")) {
		verr(c, where, "status \"%s\" is neither \"ok\" nor \"skipped\"", sc->status);
		return -EINVAL;
	}
	sc->ok = true;
	return load_figures(c, s, where, sc);
}

static int load_scenarios(struct vctx *c, struct result *r)
{
	const struct jval *arr = req(c, r->doc, "", "scenarios", J_ARR);
	char at[64];

	if (!arr)
		return -EINVAL;
	r->sc = calloc(jlen(arr) + 1, sizeof(*r->sc));
	if (!r->sc) {
		verr(c, "scenarios", "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < jlen(arr); i++) {
		snprintf(at, sizeof(at), "scenarios[%zu]", i);
		r->nr_sc = i + 1;
		if (load_scenario(c, jat(arr, i), at, &r->sc[i]))
			return -EINVAL;
		for (size_t j = 0; j < i; j++) {
			if (strcmp(r->sc[j].name, r->sc[i].name))
				continue;
			verr(c, at, "scenario \"%s\" appears twice (also scenarios[%zu])",
			     r->sc[i].name, j);
			return -EINVAL;
		}
	}
	return 0;
}

int result_load(const char *path, struct result *r, char *err, size_t errlen)
{
	struct vctx c = { .err = err, .errlen = errlen, .file = path };
	char perr[200];

	memset(r, 0, sizeof(*r));
	r->path = path;
	r->doc = jparse_file(path, perr, sizeof(perr));
	if (!r->doc) {
		snprintf(err, errlen, "%s: %s", path, perr);
		return -EINVAL;
	}
	if (load_top(&c, r) || load_host(&c, r) || load_scenarios(&c, r)) {
		result_free(r);
		return -EINVAL;
	}
	return 0;
}

void result_free(struct result *r)
{
	for (size_t i = 0; i < r->nr_sc; i++) {
		struct result_scenario *sc = &r->sc[i];

		free(sc->cycles.runs);
		free(sc->ns.runs);
		for (size_t j = 0; j < sc->nr_per_cpu; j++)
			free(sc->per_cpu[j].cycles.runs);
		free(sc->per_cpu);
	}
	free(r->sc);
	jfree(r->doc);
	memset(r, 0, sizeof(*r));
}

const struct result_scenario *result_find(const struct result *r, const char *name)
{
	for (size_t i = 0; i < r->nr_sc; i++)
		if (!strcmp(r->sc[i].name, name))
			return &r->sc[i];
	return NULL;
}
