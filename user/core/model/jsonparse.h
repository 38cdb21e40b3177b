/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_JSONPARSE_H
#define PPBENCH_JSONPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

/*
 * What jansson lacks for the loaders: one-line errors with the position
 * ("line 3, column 5: '}' expected near '"c"'"), a path lookup and type
 * names. Every number reads as a double; a repeated member name is an
 * error, and so is \u0000 in a string.
 */

/* Parses the LEN bytes at TEXT; NULL and the error in ERR on failure. */
json_t *jparse_buf(const char *text, size_t len, char *err, size_t errlen);
/* Reads and parses PATH; errors do not repeat the path (callers add it). */
json_t *jparse_file(const char *path, char *err, size_t errlen);

/* Follows "host.tsc_hz" or "scenarios[1].name" from ROOT; NULL if any step is missing. */
json_t *jpath(const json_t *root, const char *path);

/* The kinds of value a loader asks for. */
enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

/* The kind of V, which must not be NULL. */
enum jtype jtype_of(const json_t *v);
/* "a number", "an object", ... of a kind, and of a value ("nothing" for NULL). */
const char *jtype_str(enum jtype t);
const char *jtype_name(const json_t *v);
/* MSG, quoting a file, made one line safe on a terminal: control characters become '?'. */
void jmsg_one_line(char *msg);

#endif
