// SPDX-License-Identifier: GPL-2.0
/*
 * JSON documents read by jansson (RFC 8259, strict), errors as one line that
 * says where, and the loaders' checked reads, each naming where it is in
 * jq-like syntax ("scenarios[1].ns_per_elem.runs"). The first error wins.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/json_reader.h"

/*
 * Any value at the top (the loaders say what they expected there); numbers
 * as doubles (a count above 2^63 still reads); a repeated member name
 * refused, a result must not mean two things; \u0000 refused (C strings).
 */
#define JREAD_FLAGS (JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL | JSON_REJECT_DUPLICATES)
#define JSON_MAX_FILE (64u << 20)

/*
 * The LEN bytes of text ended inside the value, as a file cut short does:
 * a premature end, or a token it could not read that runs to the end ("[tr").
 */
static bool cut_short(const json_error_t *e, size_t len)
{
	enum json_error_code code = json_error_code(e);

	return code == json_error_premature_end_of_input ||
	       (code == json_error_invalid_syntax && (size_t)e->position == len &&
		(!strncmp(e->text, "invalid token", 13) ||
		 !strncmp(e->text, "invalid escape", 14)));
}

/* jansson's error as "[truncated: ]line L, column C: TEXT"; its texts quote the input. */
static json_t *done(json_t *v, const json_error_t *e, size_t len, char *err, size_t errlen)
{
	if (v)
		return v;
	/* column 0: just after a newline, before the line's first character */
	snprintf(err, errlen, "%sline %d, column %d: %s", cut_short(e, len) ? "truncated: " : "",
		 e->line, e->column > 0 ? e->column : 1, e->text);
	jmsg_one_line(err);
	return NULL;
}

json_t *jparse_buf(const char *text, size_t len, char *err, size_t errlen)
{
	json_error_t e;

	return done(json_loadb(text, len, JREAD_FLAGS, &e), &e, len, err, errlen);
}

/* A file as jansson reads it (json_load_callback), watched for what it holds. */
struct jsrc {
	int fd;
	size_t size;
	bool text; /* something other than white space */
	int err;   /* the read's errno */
};

static size_t jsrc_read(void *buf, size_t len, void *data)
{
	struct jsrc *s = data;
	ssize_t n;

	do
		n = read(s->fd, buf, len);
	while (n < 0 && errno == EINTR);
	s->err = n < 0 ? errno : 0;
	if (n > 0 && (s->size += n) > JSON_MAX_FILE)
		s->err = EFBIG;
	if (s->err)
		return (size_t)-1; /* jansson stops as at the end of the input */
	for (ssize_t i = 0; i < n && !s->text; i++)
		s->text = !memchr(" \t\r\n", ((const char *)buf)[i], 4);
	return n;
}

json_t *jparse_file(const char *path, char *err, size_t errlen)
{
	struct jsrc s = { .fd = open(path, O_RDONLY | O_CLOEXEC) };
	json_error_t e;
	json_t *v;

	if (s.fd < 0) {
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		return NULL;
	}
	v = json_load_callback(jsrc_read, &s, JREAD_FLAGS, &e);
	close(s.fd);
	if (s.err) {
		json_decref(v);
		snprintf(err, errlen, "cannot read: %s", strerror(s.err));
		return NULL;
	}
	if (!s.text) {
		snprintf(err, errlen, "file is empty%s", s.size ? " (only white space)" : "");
		return NULL;
	}
	return done(v, &e, s.size, err, errlen);
}

json_t *jpath(const json_t *root, const char *path)
{
	const json_t *v = root;
	const char *p = path;
	char key[128];

	while (v && p && *p) {
		if (*p == '[') {
			char *end;
			unsigned long i = strtoul(p + 1, &end, 10);

			if (end == p + 1 || *end != ']')
				return NULL;
			v = json_array_get(v, i);
			p = end + 1;
		} else {
			size_t n = strcspn(p, ".[");

			if (n == 0 || n >= sizeof(key))
				return NULL;
			memcpy(key, p, n);
			key[n] = '\0';
			v = json_object_get(v, key);
			p += n;
		}
		if (*p == '.')
			p++;
	}
	return (json_t *)v;
}

enum jtype jtype_of(const json_t *v)
{
	static const enum jtype kind[] = {
		[JSON_OBJECT] = J_OBJ,	[JSON_ARRAY] = J_ARR, [JSON_STRING] = J_STR,
		[JSON_INTEGER] = J_NUM, [JSON_REAL] = J_NUM,  [JSON_TRUE] = J_BOOL,
		[JSON_FALSE] = J_BOOL,	[JSON_NULL] = J_NULL,
	};

	return kind[json_typeof(v)];
}

const char *jtype_str(enum jtype t)
{
	static const char *const names[] = { "null",	 "a boolean", "a number",
					     "a string", "an array",  "an object" };

	return names[t];
}

const char *jtype_name(const json_t *v)
{
	return v ? jtype_str(jtype_of(v)) : "nothing";
}

void jmsg_one_line(char *msg)
{
	for (; *msg; msg++)
		if ((unsigned char)*msg < 0x20 || *msg == 0x7f)
			*msg = '?';
}

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
