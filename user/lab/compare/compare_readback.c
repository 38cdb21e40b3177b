// SPDX-License-Identifier: GPL-2.0
/* A compare --json document, loaded and checked like a result file. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare_readback.h"
#include "model/json_reader.h"

static double num_or_null(struct json_reader *c, const json_t *o, const char *where,
			  const char *key)
{
	const json_t *v = json_object_get(o, key);
	double d = NAN;

	if (v && json_is_null(v))
		return NAN;
	jc_num(c, o, where, key, -INFINITY, INFINITY, false, &d);
	return d;
}

static void load_side(struct json_reader *c, const json_t *row, const char *where, const char *key,
		      struct readback_side *s)
{
	const json_t *o = jc_req(c, row, where, key, J_OBJ);
	uint64_t n = 0;
	char at[160];

	jc_join(at, sizeof(at), where, key);
	jc_count(c, o, at, "n", 0, &n);
	s->n = n;
	s->mean = num_or_null(c, o, at, "mean");
	s->median = num_or_null(c, o, at, "median");
}

/* "method", and "methods_differ": two names, where the files' methods differ. */
static void load_method(struct json_reader *c, const json_t *o, const char *where,
			struct readback_row *r)
{
	const json_t *m = json_object_get(o, "method"), *d = json_object_get(o, "methods_differ");
	char at[192];

	if (m && !json_is_null(m))
		r->method = jc_str(c, o, where, "method");
	if (!d)
		return;
	jc_join(at, sizeof(at), where, "methods_differ");
	if (json_array_size(d) != 2 || !json_is_string(json_array_get(d, 0)) ||
	    !json_is_string(json_array_get(d, 1))) {
		jc_err(c, at, "expected two method names");
		return;
	}
	r->differ[0] = json_string_value(json_array_get(d, 0));
	r->differ[1] = json_string_value(json_array_get(d, 1));
}

static int load_row(struct json_reader *c, const json_t *o, const char *where, void *arr, size_t i,
		    const void *arg)
{
	struct readback_row *r = (struct readback_row *)arr + i;

	(void)arg;
	r->scenario = jc_str(c, o, where, "scenario");
	r->figure = jc_str(c, o, where, "figure");
	r->label = jc_str(c, o, where, "label");
	r->change_pct = num_or_null(c, o, where, "change_pct");
	r->floor_pct = num_or_null(c, o, where, "floor_pct");
	r->p = num_or_null(c, o, where, "p");
	jc_bool(c, o, where, "testable", &r->testable);
	jc_bool(c, o, where, "real", &r->real);
	jc_bool(c, o, where, "unstable", &r->unstable);
	jc_bool(c, o, where, "regression", &r->regression);
	jc_bool(c, o, where, "gated", &r->gated);
	load_side(c, o, where, "old", &r->old);
	load_side(c, o, where, "new", &r->new);
	load_method(c, o, where, r);
	return 0;
}

/* An array of strings (the files of a side). */
static const json_t *files(struct json_reader *c, const json_t *o, const char *where,
			   const char *key)
{
	const json_t *a = jc_req(c, o, where, key, J_ARR);
	char at[160];

	for (size_t i = 0; a && i < json_array_size(a); i++) {
		if (json_is_string(json_array_get(a, i)))
			continue;
		snprintf(at, sizeof(at), "%s.%s[%zu]", where, key, i);
		jc_err(c, at, "expected a string, got %s", jtype_name(json_array_get(a, i)));
	}
	return a;
}

static int load_cmp(struct json_reader *c, const json_t *o, const char *where, void *arr, size_t i,
		    const void *arg)
{
	struct readback_cmp *m = (struct readback_cmp *)arr + i;
	const json_t *noise;
	char at[160];

	(void)arg;
	m->old = files(c, o, where, "old");
	m->new = files(c, o, where, "new");
	m->unit = jc_opt_str(c, o, where, "unit") ?: "cycles";
	jc_join(at, sizeof(at), where, "noise");
	noise = jc_req(c, o, where, "noise", J_OBJ);
	m->noise = jc_str(c, noise, at, "source");
	jc_bool(c, noise, at, "verdict", &m->verdict);
	m->rows = jc_array(c, o, where, "rows", sizeof(*m->rows), &m->nrows, load_row, NULL);
	return c->failed ? -EINVAL : 0;
}

static void load_doc(struct json_reader *c, struct compare_readback *d)
{
	const json_t *gate = json_object_get(d->doc, "gate");

	if (gate) {
		gate = jc_req(c, d->doc, "", "gate", J_OBJ);
		d->gate = true;
		d->metric = jc_str(c, gate, "gate", "metric");
		jc_num(c, gate, "gate", "fail_above_pct", 0, INFINITY, false, &d->fail_above);
	}
	d->cmps =
		jc_array(c, d->doc, "", "comparisons", sizeof(*d->cmps), &d->ncmps, load_cmp, NULL);
}

int readback_load(const char *path, struct compare_readback *d, char *err, size_t errlen)
{
	struct json_reader c = { .err = err, .errlen = errlen, .file = path };
	const char *schema;
	char perr[200];

	memset(d, 0, sizeof(*d));
	d->doc = jparse_file(path, perr, sizeof(perr));
	if (!d->doc) {
		snprintf(err, errlen, "%s: %s", path, perr);
		jmsg_one_line(err);
		return -EINVAL;
	}
	schema = json_string_value(json_object_get(d->doc, "schema"));
	if (!json_is_object(d->doc) || !schema || strcmp(schema, CMPDOC_SCHEMA)) {
		readback_free(d);
		return -ENOMSG;
	}
	load_doc(&c, d);
	if (c.failed)
		readback_free(d);
	return c.failed ? -EINVAL : 0;
}

void readback_free(struct compare_readback *d)
{
	for (size_t i = 0; d->cmps && i < d->ncmps; i++)
		free(d->cmps[i].rows);
	free(d->cmps);
	json_decref(d->doc);
	memset(d, 0, sizeof(*d));
}
