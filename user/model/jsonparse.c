// SPDX-License-Identifier: GPL-2.0
/*
 * Recursive-descent JSON reader. Strict RFC 8259 grammar (no comments, no
 * trailing commas, no leading zeros), because its main user is the checker
 * of the documented result schema: what it accepts, any JSON tool accepts.
 * The first error wins and is reported with line and column.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/jsonparse.h"

#define JSON_MAX_DEPTH 64
#define JSON_MAX_FILE (64u << 20)

struct parser {
	const char *start, *p, *end;
	char *err;
	size_t errlen;
	bool failed;
	bool truncated; /* the text ended inside the value: a file cut short */
	int depth;
};

/* Columns count characters, not bytes: UTF-8 continuation bytes are skipped. */
static void position(const struct parser *ps, const char *at, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (const char *q = ps->start; q < at; q++) {
		if (*q == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)*q & 0xc0) != 0x80) {
			(*col)++;
		}
	}
}

__attribute__((format(printf, 3, 4))) static void fail_at(struct parser *ps, const char *at,
							  const char *fmt, ...)
{
	va_list ap;
	int line, col, n;

	if (ps->failed)
		return;
	ps->failed = true;
	ps->truncated = ps->p >= ps->end || at >= ps->end;
	position(ps, at, &line, &col);
	n = snprintf(ps->err, ps->errlen, "line %d, column %d: ", line, col);
	if (n < 0 || (size_t)n >= ps->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - n, fmt, ap);
	va_end(ap);
}

static void expected(struct parser *ps, const char *what)
{
	if (ps->p >= ps->end)
		fail_at(ps, ps->p, "unexpected end of input, expected %s", what);
	else
		fail_at(ps, ps->p, "expected %s", what);
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && *ps->p && strchr(" \t\r\n", *ps->p))
		ps->p++;
}

static struct jval *new_val(struct parser *ps, enum jtype t)
{
	struct jval *v = calloc(1, sizeof(*v));

	if (!v)
		fail_at(ps, ps->p, "out of memory");
	else
		v->type = t;
	return v;
}

static int push(struct parser *ps, struct jval *c, char *key, struct jval *v)
{
	if (c->c.len == c->c.cap) {
		size_t cap = c->c.cap ? 2 * c->c.cap : 8;
		struct jval **nv = realloc(c->c.v, cap * sizeof(*nv));
		char **nk = nv && c->type == J_OBJ ? realloc(c->c.k, cap * sizeof(*nk)) : NULL;

		if (nv)
			c->c.v = nv;
		if (nk)
			c->c.k = nk;
		if (!nv || (c->type == J_OBJ && !nk)) {
			fail_at(ps, ps->p, "out of memory");
			return -ENOMEM;
		}
		c->c.cap = cap;
	}
	if (c->type == J_OBJ)
		c->c.k[c->c.len] = key;
	c->c.v[c->c.len++] = v;
	return 0;
}

struct sbuf {
	char *s;
	size_t len, cap;
};

static int sbuf_add(struct sbuf *b, const char *src, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 32;
		char *s;

		while (cap < b->len + n + 1)
			cap *= 2;
		s = realloc(b->s, cap);
		if (!s)
			return -ENOMEM;
		b->s = s;
		b->cap = cap;
	}
	memcpy(b->s + b->len, src, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

static int hex4(const char *p, const char *end, unsigned int *out)
{
	*out = 0;
	if (end - p < 4)
		return -EINVAL;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		int d = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;

		if (d < 0)
			return -EINVAL;
		*out = *out << 4 | d;
	}
	return 0;
}

static size_t utf8_encode(unsigned int cp, char *o)
{
	if (cp < 0x80) {
		o[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = 0xc0 | cp >> 6;
		o[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = 0xe0 | cp >> 12;
		o[1] = 0x80 | (cp >> 6 & 0x3f);
		o[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	o[0] = 0xf0 | cp >> 18;
	o[1] = 0x80 | (cp >> 12 & 0x3f);
	o[2] = 0x80 | (cp >> 6 & 0x3f);
	o[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/* \uXXXX at ps->p (after the backslash-u), with a following low surrogate if needed. */
static int parse_u_escape(struct parser *ps, struct sbuf *b)
{
	const char *at = ps->p - 2;
	unsigned int cp, lo;
	char o[4];

	if (hex4(ps->p, ps->end, &cp))
		goto bad;
	ps->p += 4;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		goto lone;
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u' ||
		    hex4(ps->p + 2, ps->end, &lo) || lo < 0xdc00 || lo > 0xdfff)
			goto lone;
		ps->p += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (cp == 0) {
		fail_at(ps, at, "\\u0000 (NUL) in a string is not supported");
		return -EINVAL;
	}
	return sbuf_add(b, o, utf8_encode(cp, o));
bad:
	fail_at(ps, at, "\\u must be followed by 4 hex digits");
	return -EINVAL;
lone:
	fail_at(ps, at, "unpaired UTF-16 surrogate in \\u escape");
	return -EINVAL;
}

static int parse_escape(struct parser *ps, struct sbuf *b)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *hit;
	char c;

	ps->p++; /* the backslash */
	if (ps->p >= ps->end) {
		fail_at(ps, ps->p, "unexpected end of input in an escape");
		return -EINVAL;
	}
	c = *ps->p++;
	if (c == 'u')
		return parse_u_escape(ps, b);
	hit = c ? strchr(from, c) : NULL;
	if (!hit) {
		/* a byte that does not print would break the one-line error */
		if (c > ' ' && c < 0x7f)
			fail_at(ps, ps->p - 2, "invalid escape '\\%c'", c);
		else
			fail_at(ps, ps->p - 2, "invalid escape: '\\' then byte 0x%02x",
				(unsigned char)c);
		return -EINVAL;
	}
	return sbuf_add(b, &to[hit - from], 1);
}

/* A string at ps->p (on the opening quote); returns it malloc'ed. */
static char *parse_string(struct parser *ps)
{
	const char *open = ps->p++;
	struct sbuf b = { 0 };

	if (sbuf_add(&b, "", 0))
		goto oom;
	while (ps->p < ps->end && *ps->p != '"') {
		const char *run = ps->p;

		if (*ps->p == '\\') {
			if (parse_escape(ps, &b))
				goto err;
			continue;
		}
		if ((unsigned char)*ps->p < 0x20) {
			fail_at(ps, ps->p, "control character in a string (must be escaped)");
			goto err;
		}
		while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\\' &&
		       (unsigned char)*ps->p >= 0x20)
			ps->p++;
		if (sbuf_add(&b, run, ps->p - run))
			goto oom;
	}
	if (ps->p >= ps->end) {
		fail_at(ps, open, "unterminated string");
		goto err;
	}
	ps->p++;
	return b.s;
oom:
	fail_at(ps, ps->p, "out of memory");
err:
	free(b.s);
	return NULL;
}

static const char *skip_digits(const char *q, const char *end)
{
	while (q < end && *q >= '0' && *q <= '9')
		q++;
	return q;
}

static bool is_digit_at(const char *q, const char *end)
{
	return q < end && *q >= '0' && *q <= '9';
}

/* End of the number at ps->p by the JSON grammar, or NULL after reporting why not. */
static const char *number_end(struct parser *ps)
{
	const char *q = ps->p, *end = ps->end;

	if (*q == '-')
		q++;
	if (!is_digit_at(q, end))
		goto digit;
	q = *q == '0' ? q + 1 : skip_digits(q, end);
	if (q < end && *q == '.') {
		if (!is_digit_at(++q, end))
			goto digit;
		q = skip_digits(q, end);
	}
	if (q < end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < end && (*q == '+' || *q == '-'))
			q++;
		if (!is_digit_at(q, end))
			goto digit;
		q = skip_digits(q, end);
	}
	return q;
digit:
	fail_at(ps, q, "expected a digit");
	return NULL;
}

static struct jval *parse_number(struct parser *ps)
{
	const char *q = number_end(ps);
	struct jval *v;
	char *copy;

	if (!q)
		return NULL;
	/* strtod on a copy: on the text itself it would read on where JSON stops ("0x1"). */
	copy = strndup(ps->p, q - ps->p);
	v = copy ? new_val(ps, J_NUM) : NULL;
	if (!copy)
		fail_at(ps, ps->p, "out of memory");
	if (v)
		v->n = strtod(copy, NULL);
	free(copy);
	if (v && !isfinite(v->n)) {
		fail_at(ps, ps->p, "number out of range");
		free(v);
		return NULL;
	}
	ps->p = q;
	return v;
}

static struct jval *parse_value(struct parser *ps);

static struct jval *parse_array(struct parser *ps)
{
	struct jval *a = new_val(ps, J_ARR), *v;

	ps->p++;
	skip_ws(ps);
	if (a && ps->p < ps->end && *ps->p == ']') {
		ps->p++;
		return a;
	}
	while (a && !ps->failed) {
		v = parse_value(ps);
		if (!v || push(ps, a, NULL, v)) {
			jfree(v);
			break;
		}
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ']') {
			ps->p++;
			return a;
		}
		if (ps->p >= ps->end || *ps->p != ',') {
			expected(ps, "',' or ']'");
			break;
		}
		ps->p++;
	}
	jfree(a);
	return NULL;
}

/* One "name": value member of the object O; returns 1 at the closing brace. */
static int parse_member(struct parser *ps, struct jval *o)
{
	struct jval *v;
	char *key;

	skip_ws(ps);
	if (ps->p >= ps->end || *ps->p != '"') {
		expected(ps, "a member name (a string)");
		return -EINVAL;
	}
	key = parse_string(ps);
	if (!key)
		return -EINVAL;
	skip_ws(ps);
	if (ps->p >= ps->end || *ps->p != ':') {
		free(key);
		expected(ps, "':' after the member name");
		return -EINVAL;
	}
	ps->p++;
	v = parse_value(ps);
	if (!v || push(ps, o, key, v)) {
		free(key);
		jfree(v);
		return -EINVAL;
	}
	skip_ws(ps);
	if (ps->p < ps->end && (*ps->p == ',' || *ps->p == '}'))
		return *ps->p++ == '}';
	expected(ps, "',' or '}'");
	return -EINVAL;
}

static struct jval *parse_object(struct parser *ps)
{
	struct jval *o = new_val(ps, J_OBJ);
	int ret = 0;

	ps->p++;
	skip_ws(ps);
	if (o && ps->p < ps->end && *ps->p == '}') {
		ps->p++;
		return o;
	}
	while (o && ret == 0)
		ret = parse_member(ps, o);
	if (ret == 1)
		return o;
	jfree(o);
	return NULL;
}

static struct jval *parse_literal(struct parser *ps)
{
	static const char *const words[] = { "true", "false", "null" };
	struct jval *v;

	for (int i = 0; i < 3; i++) {
		size_t n = strlen(words[i]);

		if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, words[i], n))
			continue;
		v = new_val(ps, i == 2 ? J_NULL : J_BOOL);
		if (v) {
			v->b = i == 0;
			ps->p += n;
		}
		return v;
	}
	/* "tru" at the end of the text: a literal cut short */
	for (int i = 0; i < 3; i++)
		if ((size_t)(ps->end - ps->p) < strlen(words[i]) &&
		    !memcmp(ps->p, words[i], ps->end - ps->p))
			ps->p = ps->end;
	expected(ps, "a JSON value");
	return NULL;
}

static struct jval *parse_value(struct parser *ps)
{
	struct jval *v = NULL;
	char c;

	skip_ws(ps);
	if (ps->p >= ps->end) {
		expected(ps, "a JSON value");
		return NULL;
	}
	if (++ps->depth > JSON_MAX_DEPTH) {
		fail_at(ps, ps->p, "nested deeper than %d levels", JSON_MAX_DEPTH);
		return NULL;
	}
	c = *ps->p;
	if (c == '{') {
		v = parse_object(ps);
	} else if (c == '[') {
		v = parse_array(ps);
	} else if (c == '"') {
		char *s = parse_string(ps);

		v = s ? new_val(ps, J_STR) : NULL;
		if (v)
			v->s = s;
		else
			free(s);
	} else if (c == '-' || (c >= '0' && c <= '9')) {
		v = parse_number(ps);
	} else {
		v = parse_literal(ps);
	}
	ps->depth--;
	return v;
}

/* "truncated: " before the error in ERR, as much of it as fits. */
static void prefix_err(char *err, size_t errlen, const char *pre)
{
	size_t n = strlen(pre), len = strlen(err);

	if (errlen <= n)
		return;
	if (len + n >= errlen)
		len = errlen - n - 1;
	memmove(err + n, err, len);
	memcpy(err, pre, n);
	err[n + len] = '\0';
}

struct jval *jparse_buf(const char *text, size_t len, char *err, size_t errlen)
{
	struct parser ps = {
		.start = text, .p = text, .end = text + len, .err = err, .errlen = errlen
	};
	const char *nul = memchr(text, '\0', len);
	struct jval *v;

	if (errlen)
		err[0] = '\0';
	if (nul) {
		fail_at(&ps, nul, "NUL byte in the input");
		return NULL;
	}
	skip_ws(&ps);
	if (ps.p == ps.end) {
		fail_at(&ps, ps.p, "empty input, expected a JSON value");
		return NULL;
	}
	v = parse_value(&ps);
	skip_ws(&ps);
	if (v && ps.p < ps.end)
		fail_at(&ps, ps.p, "unexpected text after the JSON value");
	if (ps.failed) {
		if (ps.truncated)
			prefix_err(err, errlen, "truncated: ");
		jfree(v);
		return NULL;
	}
	return v;
}

struct jval *jparse(const char *text, char *err, size_t errlen)
{
	return jparse_buf(text, strlen(text), err, errlen);
}

/* Reads all of FD (files, pipes, /dev/stdin alike); NUL-terminates. */
static char *read_all(int fd, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap), *nb;
	ssize_t r;

	while (buf) {
		if (n + 1 >= cap) {
			if (cap >= JSON_MAX_FILE) {
				errno = EFBIG;
				break;
			}
			nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0) {
				buf[n] = '\0';
				*len = n;
				return buf;
			}
			break;
		}
		n += r;
	}
	free(buf);
	return NULL;
}

struct jval *jparse_file(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct jval *v;
	size_t len, i;
	char *buf;

	if (fd < 0) {
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		return NULL;
	}
	buf = read_all(fd, &len);
	if (!buf)
		snprintf(err, errlen, "cannot read: %s", strerror(errno));
	close(fd);
	if (!buf)
		return NULL;
	for (i = 0; i < len && buf[i] && strchr(" \t\r\n", buf[i]); i++)
		;
	if (i == len) {
		snprintf(err, errlen, "file is empty%s", len ? " (only white space)" : "");
		free(buf);
		return NULL;
	}
	v = jparse_buf(buf, len, err, errlen);
	free(buf);
	return v;
}

void jfree(struct jval *v)
{
	if (!v)
		return;
	if (v->type == J_STR)
		free(v->s);
	if (v->type == J_ARR || v->type == J_OBJ) {
		for (size_t i = 0; i < v->c.len; i++) {
			jfree(v->c.v[i]);
			if (v->type == J_OBJ)
				free(v->c.k[i]);
		}
		free(v->c.v);
		free(v->c.k);
	}
	free(v);
}

struct jval *jget(const struct jval *obj, const char *key)
{
	if (!obj || obj->type != J_OBJ || !key)
		return NULL;
	for (size_t i = obj->c.len; i-- > 0;)
		if (!strcmp(obj->c.k[i], key))
			return obj->c.v[i];
	return NULL;
}

struct jval *jpath(const struct jval *root, const char *path)
{
	const struct jval *v = root;
	const char *p = path;
	char key[128];

	while (v && p && *p) {
		if (*p == '[') {
			char *end;
			unsigned long i = strtoul(p + 1, &end, 10);

			if (end == p + 1 || *end != ']' || v->type != J_ARR)
				return NULL;
			v = jat(v, i);
			p = end + 1;
		} else {
			size_t n = strcspn(p, ".[");

			if (n == 0 || n >= sizeof(key))
				return NULL;
			memcpy(key, p, n);
			key[n] = '\0';
			v = jget(v, key);
			p += n;
		}
		if (*p == '.')
			p++;
	}
	return (struct jval *)v;
}

size_t jlen(const struct jval *v)
{
	return v && (v->type == J_ARR || v->type == J_OBJ) ? v->c.len : 0;
}

struct jval *jat(const struct jval *v, size_t i)
{
	return i < jlen(v) ? v->c.v[i] : NULL;
}

const char *jkey(const struct jval *obj, size_t i)
{
	return obj && obj->type == J_OBJ && i < obj->c.len ? obj->c.k[i] : NULL;
}

bool jis(const struct jval *v, enum jtype t)
{
	return v && v->type == t;
}

int jnum(const struct jval *v, double *out)
{
	if (!jis(v, J_NUM))
		return -EINVAL;
	*out = v->n;
	return 0;
}

int jbool(const struct jval *v, bool *out)
{
	if (!jis(v, J_BOOL))
		return -EINVAL;
	*out = v->b;
	return 0;
}

const char *jstr(const struct jval *v)
{
	return jis(v, J_STR) ? v->s : NULL;
}

const char *jtype_name(const struct jval *v)
{
	static const char *const names[] = { "null",	 "a boolean", "a number",
					     "a string", "an array",  "an object" };

	return v ? names[v->type] : "nothing";
}

void jmsg_one_line(char *msg)
{
	for (; *msg; msg++)
		if ((unsigned char)*msg < 0x20 || *msg == 0x7f)
			*msg = '?';
}
