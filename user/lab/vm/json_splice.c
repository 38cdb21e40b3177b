// SPDX-License-Identifier: GPL-2.0
/* Byte ranges of values in a JSON text (json_splice.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "vm/json_splice.h"

static size_t skip_ws(const char *t, size_t len, size_t at)
{
	while (at < len && strchr(" \t\r\n", t[at]) && t[at])
		at++;
	return at;
}

/* The end of the string whose opening quote is at AT. */
static size_t string_end(const char *t, size_t len, size_t at)
{
	for (at++; at < len; at++) {
		if (t[at] == '\\')
			at++;
		else if (t[at] == '"')
			return at + 1;
	}
	return len + 1; /* (unterminated) */
}

int json_span_value(const char *t, size_t len, size_t at, struct json_span *v)
{
	size_t depth = 0;

	at = skip_ws(t, len, at);
	if (at >= len || strchr(",:]}", t[at]))
		return -EINVAL;
	v->start = at;
	if (t[at] == '"') {
		v->end = string_end(t, len, at);
		return v->end <= len ? 0 : -EINVAL;
	}
	if (t[at] != '{' && t[at] != '[') { /* a number or a literal */
		while (at < len && !strchr(" \t\r\n,:]}", t[at]))
			at++;
		v->end = at;
		return 0;
	}
	for (; at < len; at++) {
		if (t[at] == '"') {
			at = string_end(t, len, at) - 1;
		} else if (t[at] == '{' || t[at] == '[') {
			depth++;
		} else if ((t[at] == '}' || t[at] == ']') && !--depth) {
			v->end = at + 1;
			return 0;
		}
	}
	return -EINVAL;
}

int json_span_member(const char *t, size_t len, struct json_span obj, const char *key,
		     struct json_span *member, struct json_span *val)
{
	size_t at = obj.start + 1, klen = strlen(key);

	if (obj.start >= len || t[obj.start] != '{')
		return -EINVAL;
	for (;;) {
		struct json_span k, v;

		at = skip_ws(t, obj.end, at);
		if (at < obj.end && t[at] == ',')
			at = skip_ws(t, obj.end, at + 1);
		if (at >= obj.end || t[at] != '"')
			return -ENOENT;
		if (json_span_value(t, len, at, &k))
			return -EINVAL;
		at = skip_ws(t, obj.end, k.end);
		if (at >= obj.end || t[at] != ':' || json_span_value(t, len, at + 1, &v))
			return -EINVAL;
		if (k.end - k.start == klen + 2 && !memcmp(t + k.start + 1, key, klen)) {
			*member = (struct json_span){ k.start, v.end };
			*val = v;
			return 0;
		}
		at = v.end;
	}
}

int json_span_element(const char *t, size_t len, struct json_span arr, size_t i,
		      struct json_span *el)
{
	size_t at = arr.start + 1;

	if (arr.start >= len || t[arr.start] != '[')
		return -EINVAL;
	for (size_t k = 0;; k++) {
		at = skip_ws(t, arr.end, at);
		if (k && at < arr.end && t[at] == ',')
			at++;
		if (json_span_value(t, arr.end, at, el))
			return -ENOENT;
		if (k == i)
			return 0;
		at = el->end;
	}
}

void json_span_indent(const char *t, struct json_span obj, char *buf, size_t len)
{
	size_t at = obj.start + 1, nl = 0;
	bool seen = false;

	while (at < obj.end && strchr(" \t\r\n", t[at]) && t[at]) {
		if (t[at] == '\n') {
			nl = at + 1;
			seen = true;
		}
		at++;
	}
	if (!seen || at >= obj.end || t[at] == '}') {
		snprintf(buf, len, "%s", "");
		return;
	}
	snprintf(buf, len, "%.*s", (int)(at - nl), t + nl);
}
