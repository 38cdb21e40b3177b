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
#include "model/by_counter.h"
#include "model/counts.h"
#include "model/pathfig.h"
#include "model/json_reader.h"
#include "model/result.h"
#include "sys/pmu.h"

static int load_top(struct json_reader *c, struct result *r)
{
	const json_t *root = r->doc, *tool;

	if (!json_is_object(root)) {
		jc_err(c, "", "expected a JSON object at the top level, got %s", jtype_name(root));
		return -EINVAL;
	}
	if (!json_object_get(root, "schema")) {
		jc_err(c, "", "no 'schema' field: not a ppbench result (expected schema \"%s\")",
		       RESULT_SCHEMA);
		return -EINVAL;
	}
	r->schema = jc_str(c, root, "", "schema");
	if (r->schema && strcmp(r->schema, RESULT_SCHEMA))
		jc_err(c, "schema", "\"%s\" is not supported (this ppbench reads \"%s\")",
		       r->schema, RESULT_SCHEMA);
	tool = jc_req(c, root, "", "tool", J_OBJ);
	r->tool_name = jc_str(c, tool, "tool", "name");
	r->tool_version = jc_str(c, tool, "tool", "version");
	r->created = jc_str(c, root, "", "created");
	if (r->created && !jc_iso8601_utc(r->created))
		jc_err(c, "created", "\"%s\" is not a UTC ISO 8601 time (2026-11-30T12:00:00Z)",
		       r->created);
	r->command = jc_str(c, root, "", "command");
	r->label = jc_opt_str(c, root, "", "label");
	return c->failed ? -EINVAL : 0;
}

/* An object whose members are all strings (mitigations, config). */
static const json_t *req_str_map(struct json_reader *c, const json_t *obj, const char *key)
{
	const json_t *m = jc_req(c, obj, "host", key, J_OBJ), *v;
	const char *name;
	char at[160];

	json_object_foreach((json_t *)m, name, v) {
		if (json_is_string(v))
			continue;
		snprintf(at, sizeof(at), "host.%s.%s", key, name);
		jc_err(c, at, "expected a string, got %s", jtype_name(v));
		return NULL;
	}
	return m;
}

/* host.clock: optional (older files are TSC cycles), else kind and unit agree. */
static void load_clock(struct json_reader *c, const json_t *h, struct result_clock *k)
{
	const json_t *o = json_object_get(h, "clock");

	*k = (struct result_clock){ .kind = "tsc", .unit = "cycles" };
	if (!h || !o)
		return;
	o = jc_req(c, h, "host", "clock", J_OBJ);
	k->kind = jc_str(c, o, "host.clock", "kind");
	k->unit = jc_str(c, o, "host.clock", "unit");
	k->qemu = jc_opt_str(c, o, "host.clock", "qemu");
	k->qemu_version = jc_opt_str(c, o, "host.clock", "qemu_version");
	k->cpu_features = jc_opt_str(c, o, "host.clock", "cpu_features");
	k->cpu_feature_words = jc_opt_str(c, o, "host.clock", "cpu_feature_words");
	if (c->failed)
		return;
	if (!strcmp(k->kind, "tsc") && strcmp(k->unit, "cycles"))
		jc_err(c, "host.clock.unit", "\"%s\" with kind \"tsc\" (expected \"cycles\")",
		       k->unit);
	else if (!strcmp(k->kind, "icount") && !unit_counts_instructions(k->unit))
		jc_err(c, "host.clock.unit",
		       "\"%s\" with kind \"icount\" (expected \"instructions\")", k->unit);
	else if (!strcmp(k->kind, "ktime") && strcmp(k->unit, "ns"))
		jc_err(c, "host.clock.unit", "\"%s\" with kind \"ktime\" (expected \"ns\")",
		       k->unit);
	else if (!strcmp(k->kind, "pmu") && !unit_is_counter(k->unit))
		jc_err(c, "host.clock.unit", "\"%s\" with kind \"pmu\" (expected a counter's name)",
		       k->unit);
	else if (strcmp(k->kind, "tsc") && strcmp(k->kind, "icount") && strcmp(k->kind, "ktime") &&
		 strcmp(k->kind, "pmu"))
		jc_err(c, "host.clock.kind",
		       "\"%s\" is not \"tsc\", \"icount\", \"ktime\" or \"pmu\"", k->kind);
}

int result_host_load(struct json_reader *c, const json_t *root, struct result_host *o, bool whole)
{
	const json_t *h = jc_req(c, root, "", "host", J_OBJ);

	o->kernel = jc_str(c, h, "host", "kernel");
	o->kernel_version = jc_opt_str(c, h, "host", "kernel_version");
	if (whole || json_object_get(h, "hostname"))
		o->hostname = jc_str(c, h, "host", "hostname");
	o->cpu_model = jc_str(c, h, "host", "cpu_model");
	jc_count(c, h, "host", "nr_cpus", 1, &o->nr_cpus);
	/* 0: no usable TSC on that machine (probe reports it that way). */
	jc_num(c, h, "host", "tsc_hz", 0, INFINITY, false, &o->tsc_hz);
	o->clocksource = jc_str(c, h, "host", "clocksource");
	o->mitigations = req_str_map(c, h, "mitigations");
	o->config = req_str_map(c, h, "config");
	if (whole) {
		jc_bool(c, h, "host", "fentry", &o->fentry);
		jc_bool(c, h, "host", "live_frames", &o->live_frames);
	}
	load_clock(c, h, &o->clock);
	return c->failed ? -EINVAL : 0;
}

static int load_stat(struct json_reader *c, const json_t *obj, const char *where, const char *key,
		     uint64_t repeat, struct result_stat *st)
{
	const json_t *b = jc_req(c, obj, where, key, J_OBJ), *runs;
	char at[160], run_at[176], el[200];

	jc_join(at, sizeof(at), where, key);
	jc_num(c, b, at, "min", -INFINITY, INFINITY, false, &st->min);
	jc_num(c, b, at, "median", -INFINITY, INFINITY, false, &st->median);
	jc_num(c, b, at, "mean", -INFINITY, INFINITY, false, &st->mean);
	jc_num(c, b, at, "stddev", 0, INFINITY, false, &st->stddev);
	jc_num(c, b, at, "cv", 0, INFINITY, false, &st->cv);
	runs = jc_req(c, b, at, "runs", J_ARR);
	if (!runs)
		return -EINVAL;
	jc_join(run_at, sizeof(run_at), at, "runs");
	if (json_array_size(runs) != repeat) {
		jc_err(c, run_at, "has %zu values, expected %llu (the scenario's repeat)",
		       json_array_size(runs), (unsigned long long)repeat);
		return -EINVAL;
	}
	st->runs = calloc(repeat, sizeof(*st->runs));
	if (!st->runs) {
		jc_err(c, run_at, "out of memory");
		return -ENOMEM;
	}
	st->nruns = repeat;
	for (size_t i = 0; i < repeat; i++) {
		const json_t *v = json_array_get(runs, i);

		if (!json_is_number(v)) {
			snprintf(el, sizeof(el), "%s[%zu]", run_at, i);
			jc_err(c, el, "expected a number, got %s", jtype_name(v));
			return -EINVAL;
		}
		st->runs[i] = json_number_value(v);
	}
	return 0;
}

static int load_path(struct json_reader *c, const json_t *s, const char *where,
		     struct result_path *p)
{
	const json_t *path, *alloc, *ret;
	char at[160], sub[176];

	path = jc_req(c, s, where, "path", J_OBJ);
	jc_join(at, sizeof(at), where, "path");
	alloc = jc_req(c, path, at, class_side(0), J_OBJ);
	ret = jc_req(c, path, at, class_side(PPB_NR_ALLOC_CLASSES), J_OBJ);
	for (int i = 0; i < PPB_NR_CLASSES; i++) {
		const json_t *side = i < PPB_NR_ALLOC_CLASSES ? alloc : ret;

		jc_join(sub, sizeof(sub), at, class_side(i));
		/* null: the accounting backend could not know it on that kernel */
		if (json_is_null(json_object_get(side, class_name(i))))
			p->cls[i] = NAN;
		else
			jc_num(c, side, sub, class_name(i), 0, INFINITY, false, &p->cls[i]);
	}
	return c->failed ? -EINVAL : 0;
}

/* Path figure KEY of S: its value (null: not derivable) and its method's text. */
static void load_pathfig(struct json_reader *c, const json_t *s, const char *where, const char *key,
			 bool *has, double *value, const char **method)
{
	const json_t *pc = jc_req(c, s, where, key, J_OBJ), *v;
	char at[160];

	jc_join(at, sizeof(at), where, key);
	v = json_object_get(pc, "value");
	if (pc && !v)
		jc_err(c, at, "missing field 'value' (a number, or null when not derivable)");
	else if (pc && !json_is_null(v)) /* null: not derivable; else it must be a number */
		*has = jc_num(c, pc, at, "value", -INFINITY, INFINITY, false, value);
	*method = jc_str(c, pc, at, "method");
}

/*
 * bench's path figure, and the profile's beside it (vm --profile). Files
 * of an older vm --profile hold the profile's in path_cost_cycles and
 * bench's in path_cost_fentry.
 */
static int load_path_cost(struct json_reader *c, const json_t *s, const char *where,
			  struct result_scenario *sc)
{
	bool older = json_object_get(s, "path_cost_fentry");
	const char *pkey = older ? "path_cost_cycles" : "path_cost_profile", *pm = NULL;
	char at[160];

	load_pathfig(c, s, where, older ? "path_cost_fentry" : "path_cost_cycles",
		     &sc->has_path_cost, &sc->path_cost, &sc->path_cost_method);
	sc->path_method = path_method_name(sc->path_cost_method);
	if (!c->failed && (older || json_object_get(s, pkey)))
		load_pathfig(c, s, where, pkey, &sc->prof.has_path, &sc->prof.path, &pm);
	jc_join(at, sizeof(at), where, pkey);
	if (!c->failed && pm && strcmp(pm, PATH_TEXT_PROFILE))
		jc_err(c, at, "method \"%s\": a profile's path figure has method \"%s\"", pm,
		       PATH_TEXT_PROFILE);
	return c->failed ? -EINVAL : 0;
}

static int load_cpu(struct json_reader *c, const json_t *e, const char *where, void *arr, size_t i,
		    const void *repeat)
{
	struct result_cpu *pc = (struct result_cpu *)arr + i;
	uint64_t cpu = 0;

	jc_count(c, e, where, "cpu", 0, &cpu);
	pc->cpu = cpu;
	pc->role = jc_opt_str(c, e, where, "role") ?: "";
	jc_num(c, e, where, "elems", 0, INFINITY, false, &pc->elems);
	if (c->failed)
		return -EINVAL;
	return load_stat(c, e, where, "cycles_per_elem", *(const uint64_t *)repeat, &pc->cycles);
}

static int load_cpus(struct json_reader *c, const json_t *s, const char *where,
		     struct result_scenario *sc)
{
	char at[160];

	sc->cpus = jc_req(c, s, where, "cpus", J_ARR);
	for (size_t i = 0; i < json_array_size(sc->cpus); i++) {
		const json_t *v = json_array_get(sc->cpus, i);
		double cpu = json_number_value(v);

		if (!json_is_number(v) || cpu < 0 || cpu != floor(cpu)) {
			snprintf(at, sizeof(at), "%s.cpus[%zu]", where, i);
			jc_err(c, at, "expected a CPU number, got %s", jtype_name(v));
			return -EINVAL;
		}
	}
	return c->failed ? -EINVAL : 0;
}

static int load_pfn(struct json_reader *c, const json_t *e, const char *where, void *arr, size_t i,
		    const void *arg)
{
	struct result_pfn *f = (struct result_pfn *)arr + i;

	(void)arg;
	f->name = jc_str(c, e, where, "name");
	f->group = jc_str(c, e, where, "group");
	f->module = jc_opt_str(c, e, where, "module");
	jc_num(c, e, where, "per_elem", 0, INFINITY, false, &f->per_elem);
	if (json_object_get(e, "rep_per_elem"))
		jc_num(c, e, where, "rep_per_elem", 0, INFINITY, false, &f->rep_per_elem);
	return c->failed ? -EINVAL : 0;
}

static int load_gfn(struct json_reader *c, const json_t *e, const char *where, void *arr, size_t i,
		    const void *arg)
{
	struct result_cgfn *f = (struct result_cgfn *)arr + i;

	(void)arg;
	f->name = jc_str(c, e, where, "name");
	f->module = jc_opt_str(c, e, where, "module");
	jc_num(c, e, where, "self", -INFINITY, INFINITY, false, &f->self);
	jc_num(c, e, where, "children", -INFINITY, INFINITY, false, &f->children);
	return c->failed ? -EINVAL : 0;
}

static int load_chain(struct json_reader *c, const json_t *e, const char *where, void *arr,
		      size_t i, const void *arg)
{
	struct result_chain *ch = (struct result_chain *)arr + i;

	(void)arg;
	ch->chain = jc_str(c, e, where, "chain");
	jc_num(c, e, where, "self", -INFINITY, INFINITY, false, &ch->self);
	jc_num(c, e, where, "children", -INFINITY, INFINITY, false, &ch->children);
	return c->failed ? -EINVAL : 0;
}

/* "callgraph" of a profile, optional: its functions and its chains. */
static int load_graph(struct json_reader *c, const json_t *prof, const char *where,
		      struct result_profile *p)
{
	const json_t *o;
	char at[192];

	if (!json_object_get(prof, "callgraph"))
		return 0;
	o = jc_req(c, prof, where, "callgraph", J_OBJ);
	jc_join(at, sizeof(at), where, "callgraph");
	jc_num(c, o, at, "chain_floor", 0, INFINITY, false, &p->chain_floor);
	if (!jc_req(c, o, at, "functions", J_ARR) || !jc_req(c, o, at, "chains", J_ARR))
		return -EINVAL;
	p->gfn = jc_array(c, o, at, "functions", sizeof(*p->gfn), &p->ngfn, load_gfn, NULL);
	p->chain = jc_array(c, o, at, "chains", sizeof(*p->chain), &p->nchain, load_chain, NULL);
	p->has_graph = !c->failed;
	return c->failed ? -EINVAL : 0;
}

/* "profile" (ppbench vm --profile), optional: its figure and functions. */
static int load_profile(struct json_reader *c, const json_t *s, const char *where,
			struct result_profile *p)
{
	const json_t *o;
	char at[160];

	if (!json_object_get(s, "profile"))
		return 0;
	o = jc_req(c, s, where, "profile", J_OBJ);
	jc_join(at, sizeof(at), where, "profile");
	jc_num(c, o, at, "per_elem", 0, INFINITY, false, &p->per_elem);
	if (json_object_get(o, "rep_per_elem"))
		jc_num(c, o, at, "rep_per_elem", 0, INFINITY, false, &p->rep_per_elem);
	if (json_object_get(o, "elems"))
		jc_num(c, o, at, "elems", 0, INFINITY, false, &p->elems);
	p->fn = jc_array(c, o, at, "functions", sizeof(*p->fn), &p->nfn, load_pfn, NULL);
	if (c->failed)
		return -EINVAL;
	p->has = true;
	return load_graph(c, o, at, p);
}

/* The figures of a scenario whose status is "ok". */
static int load_figures(struct json_reader *c, const json_t *s, const char *where,
			struct result_scenario *sc)
{
	sc->recipe = jc_str(c, s, where, "recipe");
	sc->method = jc_str(c, s, where, "method");
	sc->replication = json_string_value(json_object_get(s, "replication"));
	sc->setups =
		json_is_array(json_object_get(s, "setups")) ? json_object_get(s, "setups") : NULL;
	load_cpus(c, s, where, sc);
	jc_count(c, s, where, "loops", 1, &sc->loops);
	jc_count(c, s, where, "repeat", 1, &sc->repeat);
	jc_count(c, s, where, "batch", 1, &sc->batch);
	if (c->failed)
		return -EINVAL;
	if (load_stat(c, s, where, "cycles_per_elem", sc->repeat, &sc->cycles) ||
	    load_stat(c, s, where, "ns_per_elem", sc->repeat, &sc->ns) ||
	    load_path(c, s, where, &sc->path))
		return -EINVAL;
	jc_num(c, s, where, "purity", 0, 1, false, &sc->purity);
	sc->level_probe_ns = fmax(json_number_value(jpath(s, "level_probe.median_ns")), 0);
	if (c->failed || load_path_cost(c, s, where, sc))
		return -EINVAL;
	if (json_object_get(s, "per_cpu")) /* only scenarios that run on several CPUs have it */
		sc->per_cpu = jc_array(c, s, where, "per_cpu", sizeof(*sc->per_cpu),
				       &sc->nr_per_cpu, load_cpu, &sc->repeat);
	return c->failed ? -EINVAL : load_profile(c, s, where, &sc->prof);
}

static int load_scenario(struct json_reader *c, const json_t *s, const char *where, void *arr,
			 size_t i, const void *arg)
{
	struct result_scenario *all = arr, *sc = &all[i];

	(void)arg;
	sc->name = jc_str(c, s, where, "name");
	sc->status = jc_str(c, s, where, "status");
	if (c->failed)
		return -EINVAL;
	if (!*sc->name)
		jc_err(c, where, "empty scenario name");
	else if (!strcmp(sc->status, "skipped"))
		sc->reason = jc_str(c, s, where, "reason");
	else if (strcmp(sc->status, "ok"))
		jc_err(c, where, "status \"%s\" is neither \"ok\" nor \"skipped\"", sc->status);
	else
		sc->ok = !load_figures(c, s, where, sc);
	for (size_t j = 0; !c->failed && j < i; j++)
		if (!strcmp(all[j].name, sc->name))
			jc_err(c, where, "scenario \"%s\" appears twice (also scenarios[%zu])",
			       sc->name, j);
	return c->failed ? -EINVAL : 0;
}

int result_load(const char *path, struct result *r, char *err, size_t errlen)
{
	struct json_reader c = { .err = err, .errlen = errlen, .file = path };
	char perr[200];

	memset(r, 0, sizeof(*r));
	r->path = path;
	r->doc = jparse_file(path, perr, sizeof(perr));
	if (!r->doc) {
		snprintf(err, errlen, "%s: %s", path, perr);
		return -EINVAL;
	}
	if (!load_top(&c, r) && !result_host_load(&c, r->doc, &r->host, true))
		r->sc = jc_array(&c, r->doc, "", "scenarios", sizeof(*r->sc), &r->nr_sc,
				 load_scenario, NULL);
	if (c.failed) {
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
		free(sc->prof.fn);
		free(sc->prof.gfn);
		free(sc->prof.chain);
	}
	free(r->sc);
	json_decref(r->doc);
	memset(r, 0, sizeof(*r));
}

const struct result_scenario *result_find(const struct result *r, const char *name)
{
	for (size_t i = 0; i < r->nr_sc; i++)
		if (!strcmp(r->sc[i].name, name))
			return &r->sc[i];
	return NULL;
}

bool unit_counts_instructions(const char *unit)
{
	int k = pmu_counter_by_name(unit);

	/* the instruction clock's, or a hardware counter's (model/by_counter.h) */
	return (unit && !strcmp(unit, "instructions")) || (k >= 0 && pmu_counter_instructions(k));
}

double unit_floor_pct(const char *unit)
{
	return unit_counts_instructions(unit) ? 0.1 : 1.0;
}

const struct result_clock *result_clock_of(const struct result *r)
{
	static const struct result_clock tsc = { .kind = "tsc", .unit = "cycles" };

	return r->host.clock.kind && r->host.clock.unit ? &r->host.clock : &tsc;
}

int result_clock_same(const struct result_clock *a, const char *ap, const struct result_clock *b,
		      const char *bp, char *why, size_t len)
{
	if (!strcmp(a->kind, b->kind) && !strcmp(a->unit, b->unit))
		return 0;
	snprintf(why, len, "%s counts %s (%s clock) and %s %s (%s clock)", ap, a->unit, a->kind, bp,
		 b->unit, b->kind);
	return -EINVAL;
}

int result_same_clock(const struct result *a, const struct result *b, char *why, size_t len)
{
	return result_clock_same(result_clock_of(a), a->path, result_clock_of(b), b->path, why,
				 len);
}

/* WORD's value in WORDS ("7.0.edx" in "... 7.0.edx=00000010 ..."), NAMELEN long; NULL if none. */
static const char *word_value(const char *words, const char *name, size_t namelen, size_t *vlen)
{
	for (const char *p = words; p && *p;) {
		size_t n = strcspn(p, " ");

		if (n > namelen && p[namelen] == '=' && !strncmp(p, name, namelen)) {
			*vlen = n - namelen - 1;
			return p + namelen + 1;
		}
		p += n + (p[n] == ' ');
	}
	return NULL;
}

/* The first feature word in which A and B differ: "7.0.edx 00000000 vs 00000010". */
static void word_apart(const char *a, const char *b, char *buf, size_t len)
{
	snprintf(buf, len, "no feature words to tell which");
	for (const char *p = a; p && *p;) {
		size_t n = strcspn(p, " "), name = strcspn(p, "= "), vb = 0;
		const char *v = word_value(b, p, name, &vb);

		if (!v || vb != n - name - 1 || strncmp(v, p + name + 1, vb)) {
			snprintf(buf, len, "%.*s %.*s vs %.*s", (int)name, p, (int)(n - name - 1),
				 p + name + 1, v ? (int)vb : 6, v ? v : "absent");
			return;
		}
		p += n + (p[n] == ' ');
	}
}

int result_same_qemu(const struct result *a, const struct result *b, char *why, size_t len)
{
	const struct result_clock *x = result_clock_of(a), *y = result_clock_of(b);
	char apart[128];

	if (!strcmp(x->kind, "tsc") || !strcmp(x->kind, "ktime"))
		return 0;
	if (x->qemu_version && y->qemu_version && strcmp(x->qemu_version, y->qemu_version)) {
		snprintf(why, len, "%s was counted by qemu %s and %s by qemu %s", a->path,
			 x->qemu_version, b->path, y->qemu_version);
		return -EINVAL;
	}
	if (!x->cpu_features || !y->cpu_features || !strcmp(x->cpu_features, y->cpu_features))
		return 0;
	word_apart(x->cpu_feature_words, y->cpu_feature_words, apart, sizeof(apart));
	snprintf(why, len,
		 "%s and %s were counted on guest CPUs of other features (digest %s vs %s; %s)",
		 a->path, b->path, x->cpu_features, y->cpu_features, apart);
	return -EINVAL;
}
