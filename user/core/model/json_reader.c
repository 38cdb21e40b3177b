// SPDX-License-Identifier: GPL-2.0
/*
 * Checked reads of a parsed JSON document for the file loaders (results,
 * noise profiles): each step names where it is in jq-like path syntax
 * ("scenarios[1].ns_per_elem.runs"), so the one-line error points at the
 * field without the user counting lines. The first error wins.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "model/json_reader.h"

void jc_err(struct json_reader *c, const char *where, const char *fmt, ...)
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

void jc_join(char *buf, size_t len, const char *where, const char *key)
{
	snprintf(buf, len, "%s%s%s", where, *where ? "." : "", key);
}

const json_t *jc_req(struct json_reader *c, const json_t *obj, const char *where, const char *key,
		     enum jtype t)
{
	const json_t *v;
	char at[160];

	if (c->failed)
		return NULL;
	v = json_object_get(obj, key);
	if (!v) {
		jc_err(c, where, "missing field '%s'", key);
		return NULL;
	}
	if (jtype_of(v) != t) {
		jc_join(at, sizeof(at), where, key);
		jc_err(c, at, "expected %s, got %s", jtype_str(t), jtype_name(v));
		return NULL;
	}
	return v;
}

const char *jc_str(struct json_reader *c, const json_t *obj, const char *where, const char *key)
{
	return json_string_value(jc_req(c, obj, where, key, J_STR));
}

const char *jc_opt_str(struct json_reader *c, const json_t *obj, const char *where, const char *key)
{
	return json_object_get(obj, key) ? jc_str(c, obj, where, key) : NULL;
}

void *jc_array(struct json_reader *c, const json_t *obj, const char *where, const char *key,
	       size_t size, size_t *n, jc_load_fn *load, const void *arg)
{
	const json_t *a = jc_req(c, obj, where, key, J_ARR), *e;
	char at[224];
	void *arr;
	size_t i;

	if (!a)
		return NULL;
	arr = calloc(json_array_size(a) + 1, size);
	if (!arr) {
		jc_err(c, *where ? where : key, "out of memory");
		return NULL;
	}
	json_array_foreach(a, i, e) {
		snprintf(at, sizeof(at), "%s%s%s[%zu]", where, *where ? "." : "", key, i);
		*n = i + 1;
		if (!json_is_object(e))
			jc_err(c, at, "expected an object, got %s", jtype_name(e));
		if (c->failed || load(c, e, at, arr, i, arg))
			break;
	}
	return arr;
}

bool jc_num(struct json_reader *c, const json_t *obj, const char *where, const char *key,
	    double min, double max, bool integer, double *out)
{
	const json_t *v = jc_req(c, obj, where, key, J_NUM);
	double n = json_number_value(v);
	char at[160];

	if (!v)
		return false;
	jc_join(at, sizeof(at), where, key);
	if (integer && n != floor(n))
		jc_err(c, at, "expected a whole number, got %g", n);
	else if (n < min || n > max)
		jc_err(c, at, "%g is out of range (%g..%g)", n, min, max);
	*out = n;
	return !c->failed;
}

bool jc_count(struct json_reader *c, const json_t *obj, const char *where, const char *key,
	      double min, uint64_t *out)
{
	double d = 0;
	/* up to 2^53: every whole number below is exact in a double */
	bool ok = jc_num(c, obj, where, key, min, 9007199254740992.0, true, &d);

	*out = ok ? (uint64_t)d : 0; /* a value out of range has no uint64_t */
	return ok;
}

bool jc_bool(struct json_reader *c, const json_t *obj, const char *where, const char *key,
	     bool *out)
{
	const json_t *v = jc_req(c, obj, where, key, J_BOOL);

	if (v)
		*out = json_is_true(v);
	return v;
}

bool jc_iso8601_utc(const char *s)
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
