// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include "report/json.h"
#include "sys/outfile.h"

#define JSON_MAX_DEPTH 32

struct json {
	FILE *f;
	bool pretty;
	bool own;
	struct outfile out; /* when own */
	int depth;
	bool first[JSON_MAX_DEPTH]; /* no member written yet at this depth */
};

struct json *json_new(FILE *f, bool pretty)
{
	struct json *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->f = f;
	j->pretty = pretty;
	j->first[0] = true;
	return j;
}

static struct json *json_open_mode(const char *path, bool pretty, enum outfile_mode mode)
{
	struct json *j = json_new(NULL, pretty);

	if (!j)
		return NULL;
	if (outfile_open(&j->out, path, mode)) {
		free(j);
		return NULL;
	}
	j->f = j->out.f;
	j->own = true;
	return j;
}

struct json *json_open(const char *path, bool pretty)
{
	return json_open_mode(path, pretty, OUTFILE_WHOLE);
}

struct json *json_open_stream(const char *path, bool pretty)
{
	return json_open_mode(path, pretty, OUTFILE_STREAM);
}

int json_close(struct json *j)
{
	int err = 0;

	if (!j)
		return 0;
	if (j->own)
		err = outfile_commit(&j->out);
	else if (fflush(j->f) || ferror(j->f))
		err = -EIO;
	free(j);
	return err;
}

void json_flush_line(struct json *j)
{
	fputc('\n', j->f);
	fflush(j->f);
	j->first[0] = true;
}

void json_doc_begin(struct json *j, const char *schema)
{
	char created[32];
	time_t t = time(NULL);

	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	json_obj_begin(j, NULL);
	json_str(j, "schema", schema);
	json_obj_begin(j, "tool");
	json_str(j, "name", "ppbench");
	json_str(j, "version", PPBENCH_VERSION);
	json_obj_end(j);
	json_str(j, "created", created);
}

int json_doc_end(struct json *j)
{
	json_obj_end(j);
	json_flush_line(j);
	return json_close(j);
}

static void indent(struct json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/*
 * Length of the UTF-8 character at S, which starts with a byte above ASCII
 * (RFC 3629: no overlong form, no surrogate, nothing above U+10FFFF), or 0
 * where S holds none.
 */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] < 0xc2 ? 0 : s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : s[0] < 0xf5 ? 4 : 0;
	unsigned int cp = s[0] & (0x7f >> n);

	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * JSON text is UTF-8 (RFC 8259, 8.1), and the reader refuses anything else:
 * a byte that is no UTF-8 (a host name, a label, /proc text) is written as
 * U+FFFD, the replacement character, so that the file reads back.
 */
static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		int n = c >= 0x80 ? utf8_len((const unsigned char *)s) : 1;

		if (n > 1) {
			fwrite(s, 1, n, f);
			s += n - 1;
			continue;
		}
		if (!n)
			fputs("\\ufffd", f);
		else if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Separator, indentation and key before a value. */
static void begin_value(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	if (j->depth > 0)
		indent(j);
	j->first[j->depth] = false;
	if (key) {
		put_string(j->f, key);
		fputs(j->pretty ? ": " : ":", j->f);
	}
}

static void open_container(struct json *j, const char *key, char c)
{
	begin_value(j, key);
	fputc(c, j->f);
	if (j->depth < JSON_MAX_DEPTH - 1)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_container(struct json *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->f);
}

void json_obj_begin(struct json *j, const char *key)
{
	open_container(j, key, '{');
}

void json_obj_end(struct json *j)
{
	close_container(j, '}');
}

void json_arr_begin(struct json *j, const char *key)
{
	open_container(j, key, '[');
}

void json_arr_end(struct json *j)
{
	close_container(j, ']');
}

void json_str(struct json *j, const char *key, const char *v)
{
	begin_value(j, key);
	if (v)
		put_string(j->f, v);
	else
		fputs("null", j->f);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	begin_value(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_i64(struct json *j, const char *key, int64_t v)
{
	begin_value(j, key);
	fprintf(j->f, "%lld", (long long)v);
}

void json_double(struct json *j, const char *key, double v)
{
	char text[32];

	begin_value(j, key);
	if (!isfinite(v)) {
		fputs("null", j->f);
		return;
	}
	if (fabs(v) < 1e15 && v == (double)(long long)v) { /* no cast out of range */
		fprintf(j->f, "%.1f", v);
		return;
	}
	/* Ten digits, unless they round past the largest double: all of them then */
	snprintf(text, sizeof(text), "%.10g", v);
	if (!isfinite(strtod(text, NULL)))
		snprintf(text, sizeof(text), "%.17g", v);
	fputs(text, j->f);
}

void json_double_exact(struct json *j, const char *key, double v)
{
	char text[32];

	snprintf(text, sizeof(text), "%.10g", v);
	if (!isfinite(v) || strtod(text, NULL) == v) {
		json_double(j, key, v);
		return;
	}
	begin_value(j, key);
	fprintf(j->f, "%.17g", v);
}

void json_bool(struct json *j, const char *key, bool v)
{
	begin_value(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_none(struct json *j, const char *key)
{
	begin_value(j, key);
	fputs("null", j->f);
}
