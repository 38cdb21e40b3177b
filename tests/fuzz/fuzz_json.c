// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON reader (model/jsonparse.c) on any bytes, exactly as long as the
 * input: a read past the end is a heap overflow here. Each document read is
 * walked, and its strings and numbers go through the JSON writer
 * (report/json.c) and back: what ppbench writes from outside input it must
 * read again as the same value.
 *   fuzz-seeds: tests/data
 *   fuzz-dict: tests/fuzz/json.dict
 *   fuzz-options: -max_len=65536
 */
#include <math.h>
#include "fuzz.h"

/* V written by the JSON writer as a top-level value, then read back. */
static struct jval *round_trip(const struct jval *v)
{
	struct fuzz_mem m;
	struct json *j = fuzz_json_begin(&m);
	struct jval *back;

	if (v->type == J_STR)
		json_str(j, NULL, v->s);
	else
		json_double(j, NULL, v->n);
	back = fuzz_json_end(&m, j);
	FUZZ_ASSERT(back, "the writer's output reads back");
	return back;
}

static void check_string(const char *s)
{
	struct jval v = { .type = J_STR, .s = (char *)s }, *back = round_trip(&v);

	FUZZ_ASSERT(back->type == J_STR && !strcmp(back->s, s), "a string survives writing");
	jfree(back);
}

static void check_number(double n)
{
	struct jval v = { .type = J_NUM, .n = n }, *back = round_trip(&v);

	/* the writer keeps 10 significant digits */
	FUZZ_ASSERT(back->type == J_NUM && fabs(back->n - n) <= 1e-9 * fabs(n),
		    "a number survives writing");
	jfree(back);
}

static void walk(const struct jval *v)
{
	jtype_name(v);
	if (v->type == J_STR)
		check_string(jstr(v));
	if (v->type == J_NUM)
		check_number(v->n);
	for (size_t i = 0; i < jlen(v); i++) {
		FUZZ_ASSERT(jat(v, i), "every element is there");
		if (v->type == J_OBJ) {
			FUZZ_ASSERT(jget(v, jkey(v, i)), "every member is found by its name");
			check_string(jkey(v, i));
		}
		walk(jat(v, i));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[200];
	struct jval *v;

	fuzz_quiet();
	v = jparse_buf((const char *)data, size, err, sizeof(err));
	if (!v) {
		/* "line L, column C: ...", or "truncated: line ..." at the end of the text */
		FUZZ_ASSERT(!strncmp(err, "line ", 5) || !strncmp(err, "truncated: line ", 16),
			    "a refusal says where");
		return 0;
	}
	walk(v);
	jfree(v);
	return 0;
}
