// SPDX-License-Identifier: GPL-2.0
/*
 * compare with an outside file on the new side: the input, once it passes
 * the schema check, against tests/data/base.json (the runner starts in the
 * top directory), through the model and every output format (text,
 * Markdown, bench_page_pool_simple tables, JSON, the Org table, KTAP), both
 * tests, and the gate.
 *   fuzz-seeds: tests/data
 *   fuzz-dict: tests/fuzz/json.dict
 *   fuzz-options: -max_len=65536
 */
#include "fuzz.h"
#include "compare/compare_stats.h"
#include "compare/compare_report.h"

static struct result base;

/* Format 3 is text with JSON beside it. */
static const unsigned formats[] = {
	0, CMP_OUT_MARKDOWN, CMP_OUT_BPP, 0, CMP_OUT_ORG, CMP_OUT_KTAP
};

static void compare_with_base(const struct result *r, enum sig_test test, int format)
{
	struct cmp_opts o = { .test = test, .alpha = 0.05 };
	struct comparison c = { .old = &base, .nold = 1, .new = r, .nnew = 1 };
	struct cmp_set set = { .opts = &o, .cmps = &c, .n = 1, .gate = true, .fail_above = 1 };

	if (comparison_build(&c, &o))
		abort();
	compare_output(&set, formats[format], format == 3 ? "/dev/null" : NULL);
	compare_gate(&set);
	comparison_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result r;
	char err[512];

	fuzz_quiet();
	if (!base.doc && result_load("tests/data/base.json", &base, err, sizeof(err))) {
		fprintf(stderr, "fuzz_compare: %s (run from the top directory)\n", err);
		abort();
	}
	if (result_load(fuzz_file(data, size), &r, err, sizeof(err)))
		return 0;
	for (int format = 0; format < 6; format++)
		compare_with_base(&r, format & 1 ? TEST_MANN_WHITNEY : TEST_WELCH, format);
	result_free(&r);
	return 0;
}
