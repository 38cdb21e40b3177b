/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_JCHECK_H
#define PPBENCH_JCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/jsonparse.h"

/*
 * Validating reads for loaders of ppbench's JSON files. The first failure
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
/* "2026-11-30T12:00:00Z", optionally with fractional seconds. */
bool jc_iso8601_utc(const char *s);

#endif
