// SPDX-License-Identifier: GPL-2.0
/*
 * The readers behind a result's "host" object, fed strings: /proc/cpuinfo's
 * text (sys/tsc_clock.c) and a sysfs value file (sys/util.c read_file_str, as for
 * the clock source and the mitigations), the input split at the first NUL.
 * What they read goes into the JSON writer (report/json.c) as hostinfo.c
 * writes it, and must read back unchanged (a byte that is no UTF-8 as
 * U+FFFD).
 *   fuzz-options: -max_len=16384
 */
#include "fuzz.h"
#include "sys/tsc_clock.h"
#include "sys/util.h"

/*
 * {"KEY": VALUE} through the writer and the reader: the same VALUE comes
 * back where it is UTF-8 (as jansson judges it), else one with U+FFFD.
 */
static void json_back(const char *key, const char *value)
{
	struct fuzz_mem m;
	struct json *j = fuzz_json_begin(&m);
	json_t *doc, *utf8 = json_string(value);
	const char *back;

	json_obj_begin(j, NULL);
	json_str(j, key, value);
	json_obj_end(j);
	doc = fuzz_json_end(&m, j);
	FUZZ_ASSERT(doc, "the host object reads back");
	back = json_string_value(json_object_get(doc, key));
	FUZZ_ASSERT(json_object_size(doc) == 1 && back, "a host string reads back");
	if (utf8)
		FUZZ_ASSERT(!strcmp(back, value), "a host string reads back unchanged");
	else
		FUZZ_ASSERT(strstr(back, "\xef\xbf\xbd"), "a byte that is no UTF-8 is U+FFFD");
	json_decref(utf8);
	json_decref(doc);
}

static void cpuinfo(const uint8_t *text, size_t len)
{
	struct tsc_info t = { 0 };
	FILE *f = fmemopen((void *)text, len, "r");

	if (!len)
		return;
	if (!f)
		abort();
	tsc_parse_cpuinfo(f, &t);
	fclose(f);
	FUZZ_ASSERT(memchr(t.cpu_model, '\0', sizeof(t.cpu_model)), "the model is a string");
	json_back("cpu_model", t.cpu_model);
}

static void sysfs_value(const uint8_t *text, size_t len)
{
	char val[256];
	int n = read_file_str(fuzz_file(text, len), val, sizeof(val));

	FUZZ_ASSERT(n >= 0 && (size_t)n < sizeof(val), "a value fits its buffer");
	FUZZ_ASSERT(!n || (val[n - 1] != '\n' && val[n - 1] != ' '), "a value is trimmed");
	json_back("spectre_v2", val);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t first = nul ? (size_t)(nul - data) : size;

	fuzz_quiet();
	cpuinfo(data, first);
	if (nul)
		sysfs_value(nul + 1, size - first - 1);
	return 0;
}
