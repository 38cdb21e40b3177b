/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_JSONPARSE_H
#define PPBENCH_JSONPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

/*
 * Reading JSON documents with jansson: the loaders walk jansson's tree
 * (json_object_get(), json_array_get(), json_number_value(), ...) and this
 * adds what jansson has not: one-line errors with the position, e.g.
 * "line 3, column 5: '}' expected near '"c"'", a path lookup and type names
 * for the loaders' errors. Every number reads as a double (a JSON_REAL), a
 * member name that repeats is an error and so is \u0000 in a string.
 */

/* Parses the LEN bytes at TEXT (no NUL needed after them); on failure returns NULL and writes the
 * error to ERR. */
json_t *jparse_buf(const char *text, size_t len, char *err, size_t errlen);
/* Reads and parses PATH; errors do not repeat the path (callers add it). */
json_t *jparse_file(const char *path, char *err, size_t errlen);

/* Follows "host.tsc_hz" or "scenarios[1].name" from ROOT; NULL if any step is missing. */
json_t *jpath(const json_t *root, const char *path);

/* The kinds of value a loader asks for: jansson's integer and real are one number, true and false
 * one boolean. */
enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

/* The kind of V, which must not be NULL. */
enum jtype jtype_of(const json_t *v);
/* "a number", "an object", ... for error messages: of a kind, and of a value ("nothing" for NULL).
 */
const char *jtype_str(enum jtype t);
const char *jtype_name(const json_t *v);
/*
 * Makes MSG, an error that quotes strings from a file, one line that is safe
 * on a terminal: control characters (newlines, escape sequences) become '?'.
 */
void jmsg_one_line(char *msg);

#endif
