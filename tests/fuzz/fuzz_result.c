// SPDX-License-Identifier: GPL-2.0
/*
 * A result file as compare, plot and schema_check read it: the loader and
 * schema checker (model/result.c) from a file of the input's bytes. A file
 * it accepts must hold what the schema promises.
 *   fuzz-seeds: tests/data
 *   fuzz-dict: tests/fuzz/json.dict
 *   fuzz-options: -max_len=65536
 */
#include "fuzz.h"
#include "model/result.h"

static void check_scenario(const struct result *r, const struct result_scenario *sc)
{
	FUZZ_ASSERT(sc->name && *sc->name && sc->status, "a scenario has a name and status");
	FUZZ_ASSERT(result_find(r, sc->name) == sc, "a scenario is found by its name");
	if (!sc->ok)
		return;
	FUZZ_ASSERT(sc->cycles.nruns == sc->repeat && sc->ns.nruns == sc->repeat,
		    "one run per setup");
	FUZZ_ASSERT(sc->purity >= 0 && sc->purity <= 1, "purity is a share");
	for (size_t i = 0; i < sc->nr_per_cpu; i++)
		FUZZ_ASSERT(sc->per_cpu[i].cycles.nruns == sc->repeat && sc->per_cpu[i].role,
			    "per-CPU runs match");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result r;
	char err[512];

	fuzz_quiet();
	if (result_load(fuzz_file(data, size), &r, err, sizeof(err))) {
		FUZZ_ASSERT(err[0] && !strchr(err, '\n'), "a refusal is one line");
		return 0;
	}
	for (size_t i = 0; i < r.nr_sc; i++)
		check_scenario(&r, &r.sc[i]);
	result_free(&r);
	return 0;
}
