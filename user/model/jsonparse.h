/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_JSONPARSE_H
#define PPBENCH_JSONPARSE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A small DOM JSON reader (RFC 8259) for result files: the whole document
 * becomes a tree of struct jval. Errors are one line with the position,
 * e.g. "line 3, column 5: expected ',' or '}'".
 */
enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype type;
	union {
		bool b;
		double n;
		char *s; /* UTF-8, NUL-terminated (\u0000 is refused) */
		struct {
			size_t len, cap;
			struct jval **v;
			char **k; /* member names, objects only */
		} c;
	};
};

/* Parses TEXT; on failure returns NULL and writes the error to ERR. */
struct jval *jparse(const char *text, char *err, size_t errlen);
/* The same for the LEN bytes at TEXT, which need no NUL after them (a NUL inside is an error). */
struct jval *jparse_buf(const char *text, size_t len, char *err, size_t errlen);
/* Reads and parses PATH; errors do not repeat the path (callers add it). */
struct jval *jparse_file(const char *path, char *err, size_t errlen);
void jfree(struct jval *v);

/* Member KEY of an object (the last one if repeated), or NULL. */
struct jval *jget(const struct jval *obj, const char *key);
/* Follows "host.tsc_hz" or "scenarios[1].name" from ROOT; NULL if any step is missing. */
struct jval *jpath(const struct jval *root, const char *path);
/* Number of elements of an array or members of an object; 0 for anything else. */
size_t jlen(const struct jval *v);
/* Element I of an array or value of member I of an object, or NULL. */
struct jval *jat(const struct jval *v, size_t i);
/* Name of member I of an object, or NULL. */
const char *jkey(const struct jval *obj, size_t i);

/* Typed accessors: 0, or -EINVAL when V is NULL or of another type. */
int jnum(const struct jval *v, double *out);
int jbool(const struct jval *v, bool *out);
/* The string, or NULL when V is not a string. */
const char *jstr(const struct jval *v);
bool jis(const struct jval *v, enum jtype t);
/* "a number", "an object", ... for error messages; "nothing" for NULL. */
const char *jtype_name(const struct jval *v);
/*
 * Makes MSG, an error that quotes strings from a file, one line that is safe
 * on a terminal: control characters (newlines, escape sequences) become '?'.
 */
void jmsg_one_line(char *msg);

#endif
