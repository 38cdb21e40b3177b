// SPDX-License-Identifier: GPL-2.0
/*
 * A noise profile as compare --noise and trend --noise read it: the loader
 * and checker (model/noise.c) from a file of the input's bytes, then the
 * host check against tests/data/base.json (the runner starts in the top
 * directory) and the test of a change against every figure it accepted.
 *   fuzz-seeds: tests/data
 *   fuzz-dict: tests/fuzz/json.dict
 *   fuzz-options: -max_len=65536
 */
#include <math.h>
#include "fuzz.h"
#include "model/noise.h"

static struct result base;

static void check_fig(const struct noise_fig *f)
{
	struct ttest t;

	FUZZ_ASSERT(f->nr_levels <= MODES_MAX, "levels fit their array");
	noise_test(f, 5.0, &t);
	FUZZ_ASSERT(t.p >= 0 && t.p <= 1, "a p-value");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct noise_profile p;
	char err[512], why[256];

	fuzz_quiet();
	if (!base.doc && result_load("tests/data/base.json", &base, err, sizeof(err))) {
		fprintf(stderr, "fuzz_noise: %s (run from the top directory)\n", err);
		abort();
	}
	if (noise_load(fuzz_file(data, size), &p, err, sizeof(err))) {
		FUZZ_ASSERT(err[0] && !strchr(err, '\n'), "a refusal is one line");
		return 0;
	}
	for (size_t i = 0; i < p.nr_sc; i++) {
		FUZZ_ASSERT(noise_find(&p, p.sc[i].name), "a scenario is found by its name");
		check_fig(&p.sc[i].cycles);
		if (p.sc[i].has_path)
			check_fig(&p.sc[i].path);
	}
	noise_host_check(&p, &base, why, sizeof(why));
	noise_free(&p);
	return 0;
}
