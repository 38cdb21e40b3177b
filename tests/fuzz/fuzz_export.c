// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench export's readers and writers: the input as a compare document
 * (compare/compare_readback.c) or a result file, then every format of it. What they
 * write must hold what the formats promise: KCIDB and BMF are JSON that
 * reads back, KCIDB without a null; every LKP line is "key: number".
 *   fuzz-seeds: tests/data
 *   fuzz-dict: tests/fuzz/json.dict
 *   fuzz-options: -max_len=65536
 */
#include <errno.h>
#include <regex.h>
#include "fuzz.h"
#include "compare/compare_readback.h"
#include "model/result.h"
#include "export/export_formats.h"

static bool has_null(const json_t *v)
{
	const char *k;
	json_t *m;

	if (json_is_null(v))
		return true;
	for (size_t i = 0; json_is_array(v) && i < json_array_size(v); i++)
		if (has_null(json_array_get(v, i)))
			return true;
	json_object_foreach((json_t *)v, k, m)
		if (has_null(m))
			return true;
	return false;
}

/* What WRITE prints into memory, read back as JSON. */
static json_t *written(void (*write)(FILE *, const void *), const void *arg)
{
	char *buf = NULL, err[200];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *doc;

	if (!f)
		abort();
	write(f, arg);
	fclose(f);
	doc = jparse_buf(buf, len, err, sizeof(err));
	free(buf);
	return doc;
}

static const struct kcidb_opts opts = { .origin = "fuzz" };

static void kcidb_results(FILE *f, const void *r)
{
	kcidb_write_results(f, r, 1, &opts);
}

static void kcidb_compare(FILE *f, const void *d)
{
	kcidb_write_compare(f, d, &opts);
}

static void bmf(FILE *f, const void *r)
{
	bmf_write(f, r);
}

static void check_kcidb(void (*write)(FILE *, const void *), const void *arg)
{
	json_t *doc = written(write, arg);

	FUZZ_ASSERT(doc, "KCIDB output is JSON");
	FUZZ_ASSERT(!has_null(doc), "KCIDB output has no null");
	FUZZ_ASSERT(json_is_number(jpath(doc, "version.major")), "KCIDB has its version");
	json_decref(doc);
}

static void check_lkp(const struct result *r)
{
	static regex_t re;
	static bool compiled;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f ||
	    (!compiled &&
	     regcomp(&re,
		     "^[a-z0-9_.]+(\\.perf-profile\\.(calltrace|children|self)\\.instructions-pp"
		     "\\.[A-Za-z0-9_.-]+)?: -?[0-9.e+-]+$",
		     REG_EXTENDED)))
		abort();
	compiled = true;
	lkp_write(f, r, true);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		FUZZ_ASSERT(!regexec(&re, line, 0, NULL, 0), "every LKP line is key: number");
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	struct compare_readback d;
	struct result r;
	json_t *doc;
	char err[512];
	int e;

	fuzz_quiet();
	path = fuzz_file(data, size);
	e = readback_load(path, &d, err, sizeof(err));
	if (!e) {
		check_kcidb(kcidb_compare, &d);
		readback_free(&d);
		return 0;
	}
	if (e != -ENOMSG) {
		FUZZ_ASSERT(e == -EINVAL && err[0] && !strchr(err, '\n'), "a refusal is one line");
		return 0;
	}
	if (result_load(path, &r, err, sizeof(err)))
		return 0;
	check_kcidb(kcidb_results, &r);
	check_lkp(&r);
	doc = written(bmf, &r);
	FUZZ_ASSERT(doc && json_is_object(doc), "BMF is a JSON object");
	json_decref(doc);
	result_free(&r);
	return 0;
}
