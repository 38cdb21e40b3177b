/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_JSON_H
#define PPBENCH_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Minimal streaming JSON writer. Keys are given for members of objects and
 * NULL for array elements / the top value. NaN and infinities are written as
 * null so the output is always valid JSON.
 */
struct json;

struct json *json_new(FILE *f, bool pretty);
/*
 * Opens PATH ("-" = stdout) for one document, which appears at PATH whole
 * when json_close() succeeds, or not at all (sys/outfile.h); prints a
 * one-line error and returns NULL on failure.
 */
struct json *json_open(const char *path, bool pretty);
/* The same for a stream of documents, one a line, written in place as they come. */
struct json *json_open_stream(const char *path, bool pretty);
/*
 * Closes the writer; 0, or a negative errno if writing failed. For a file of
 * json_open*() the error line naming the file is printed.
 */
int json_close(struct json *j);
/* Ends a top-level value: newline, flush (for one object per interval). */
void json_flush_line(struct json *j);
/* A result file's object, begun with "schema", "tool" {name, version} and "created" (now). */
void json_doc_begin(struct json *j, const char *schema);
/* Ends the top-level object and closes J: json_close()'s return. */
int json_doc_end(struct json *j);

void json_obj_begin(struct json *j, const char *key);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j, const char *key);
void json_arr_end(struct json *j);
void json_str(struct json *j, const char *key, const char *v);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_i64(struct json *j, const char *key, int64_t v);
void json_double(struct json *j, const char *key, double v);
/* V with every digit it holds: a number read back, written again as it was read. */
void json_double_exact(struct json *j, const char *key, double v);
void json_bool(struct json *j, const char *key, bool v);
/* JSON's null (the name json_null is jansson's, the reader's). */
void json_none(struct json *j, const char *key);

#endif
