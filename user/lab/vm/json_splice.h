/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_JSPAN_H
#define PPBENCH_JSPAN_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Where values lie in a JSON text, as byte ranges, for a change that keeps
 * the rest of a file byte for byte (a number such as 18446744073709551615
 * survives no reader's round trip). The text must be valid JSON: the
 * reader (model/jsonparse.h) checks it first; these only find their way.
 */
struct json_span {
	size_t start, end; /* [start, end) */
};

/* The value starting at or after AT (white space skipped); -EINVAL where none does. */
int json_span_value(const char *text, size_t len, size_t at, struct json_span *v);
/*
 * Member KEY of the object OBJ: its value in *VAL and, in *MEMBER, the
 * member from its key's opening quote to the value's end. -ENOENT if OBJ
 * has no such member (keys compared as written, without escapes).
 */
int json_span_member(const char *text, size_t len, struct json_span obj, const char *key,
		     struct json_span *member, struct json_span *val);
/* Element I of the array ARR; -ENOENT past its end. */
int json_span_element(const char *text, size_t len, struct json_span arr, size_t i,
		      struct json_span *el);
/*
 * The white space before the first member of the object OBJ after its last
 * newline (the members' indentation), into BUF; "" for an empty or
 * one-line object.
 */
void json_span_indent(const char *text, struct json_span obj, char *buf, size_t len);

#endif
