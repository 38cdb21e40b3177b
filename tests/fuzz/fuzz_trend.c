// SPDX-License-Identifier: GPL-2.0
/*
 * trend on a series of outside files: the input is up to 16 result files
 * separated by form feeds (which valid JSON never holds), each loaded and
 * checked, added to a series (trend/series.c), fitted (trend/trendfit.c,
 * few permutations) and written as the text and Markdown reports, JSON and
 * SVG (lab/trend/trend*.c) and through the gate. The last byte (a result file's
 * closing newline, which the reader skips) picks the order, the figure and
 * --force, so each file of tests/data is a seed of one point.
 *   fuzz-seeds: tests/data
 *   fuzz-dict: tests/fuzz/json.dict
 *   fuzz-options: -max_len=262144
 */
#include "fuzz.h"
#include "trend/series.h"

#define MAX_FILES 16

/* Adds each form-feed-separated file of IN that loads; the number added. */
static size_t add_files(struct series *s, struct fuzz_in *in, bool force)
{
	size_t n = 0;
	char err[512];

	for (int i = 0; i < MAX_FILES && in->n; i++) {
		const uint8_t *ff = memchr(in->p, '\f', in->n);
		size_t len = ff ? (size_t)(ff - in->p) : in->n;
		struct result r;

		if (!result_load(fuzz_file(in->p, len), &r, err, sizeof(err))) {
			n += !series_add(s, &r, force, err, sizeof(err));
			result_free(&r);
		}
		in->p += len + (ff != NULL);
		in->n -= len + (ff != NULL);
	}
	return n;
}

static void report(struct series *s, uint8_t how)
{
	struct trend_opts o;
	struct trend_view v;
	FILE *null = fopen("/dev/null", "w");

	trend_opts_default(&o);
	o.permutations = 19; /* the fit's cost, not its power, matters here */
	if (!null || series_fit(s, &o))
		abort();
	v = (struct trend_view){ .s = s,
				 .opts = &o,
				 .order = how % 3,
				 .metric = (how >> 2) % NR_SFIGS,
				 .gate = true,
				 .fail_pct = 1,
				 .window = 3,
				 .title = "fuzz" };
	trend_print(null, &v, false);
	trend_print(null, &v, true);
	trend_write_json(&v, "/dev/null");
	trend_write_svg(&v, "/dev/null");
	trend_gate(&v);
	fclose(null);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint8_t how = size ? data[size - 1] : 0;
	struct series s = { 0 };
	char err[512];

	fuzz_quiet();
	if (add_files(&s, &in, how & 0x80) &&
	    !series_finish(&s, (enum series_order)(how % 3), err, sizeof(err)))
		report(&s, how);
	series_free(&s);
	return 0;
}
