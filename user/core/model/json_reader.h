/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_JCHECK_H
#define PPBENCH_JCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/jsonparse.h"

/*
 * Validating reads for loaders of JSON files (model/jsonparse.c). The first failure
 * writes "FILE: WHERE: PROBLEM" to err and sets failed; later calls then do
 * nothing, so a loader may read on and check failed once.
 */
struct json_reader {
	char *err;
	size_t errlen;
	const char *file;
	bool failed;
};

__attribute__((format(printf, 3, 4))) void jc_err(struct json_reader *c, const char *where,
						  const char *fmt, ...);
/* "WHERE.KEY", or KEY at the top. */
void jc_join(char *buf, size_t len, const char *where, const char *key);
/* Member KEY of OBJ of type T; on absence or another type, reports it and returns NULL. */
const json_t *jc_req(struct json_reader *c, const json_t *obj, const char *where, const char *key,
		     enum jtype t);
const char *jc_str(struct json_reader *c, const json_t *obj, const char *where, const char *key);
/* A number in [min, max]; whole numbers only when INTEGER. */
bool jc_num(struct json_reader *c, const json_t *obj, const char *where, const char *key,
	    double min, double max, bool integer, double *out);
/* A whole number >= MIN, up to 2^53. */
bool jc_count(struct json_reader *c, const json_t *obj, const char *where, const char *key,
	      double min, uint64_t *out);
bool jc_bool(struct json_reader *c, const json_t *obj, const char *where, const char *key,
	     bool *out);
/* jc_str() of a member that may be absent (NULL then). */
const char *jc_opt_str(struct json_reader *c, const json_t *obj, const char *where,
		       const char *key);
/*
 * Array KEY of OBJ, each element an object, into an array of SIZE-byte
 * slots: LOAD(c, element, "WHERE.KEY[I]", the array, I, ARG) fills slot I,
 * *N counting those begun. The array (free it, also after a failure), or
 * NULL; check c->failed.
 */
typedef int jc_load_fn(struct json_reader *c, const json_t *e, const char *where, void *arr,
		       size_t i, const void *arg);
void *jc_array(struct json_reader *c, const json_t *obj, const char *where, const char *key,
	       size_t size, size_t *n, jc_load_fn *load, const void *arg);
/* "2026-11-30T12:00:00Z", optionally with fractional seconds. */
bool jc_iso8601_utc(const char *s);

#endif
