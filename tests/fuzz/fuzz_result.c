// SPDX-License-Identifier: GPL-2.0
/*
 * A result file as compare, plot and schema_check read it: jansson's reader
 * with our one-line errors (core/model/jsonparse.c) and the loader and schema
 * checker (model/result.c), from a file of exactly the input's bytes. A
 * refusal is one line; a file it accepts must hold what the schema promises,
 * and the strings and numbers it took go through the JSON writer
 * (report/json.c) and back unchanged: compare and trend write them again.
 *   fuzz-seeds: tests/data
 *   fuzz-dict: tests/fuzz/json.dict
 *   fuzz-options: -max_len=65536
 */
#include <math.h>
#include "fuzz.h"
#include "model/result.h"

static void check_string(const char *s)
{
	struct fuzz_mem m;
	struct json *j = fuzz_json_begin(&m);
	json_t *back;

	json_str(j, NULL, s);
	back = fuzz_json_end(&m, j);
	FUZZ_ASSERT(json_is_string(back) && !strcmp(json_string_value(back), s),
		    "a string survives writing");
	json_decref(back);
}

static void check_number(double n)
{
	struct fuzz_mem m;
	struct json *j = fuzz_json_begin(&m);
	json_t *back;

	json_double(j, NULL, n);
	back = fuzz_json_end(&m, j);
	/* the writer keeps 10 significant digits */
	FUZZ_ASSERT(json_is_number(back) && fabs(json_number_value(back) - n) <= 1e-9 * fabs(n),
		    "a number survives writing");
	json_decref(back);
}

static void check_scenario(const struct result *r, const struct result_scenario *sc)
{
	FUZZ_ASSERT(sc->name && *sc->name && sc->status, "a scenario has a name and status");
	FUZZ_ASSERT(result_find(r, sc->name) == sc, "a scenario is found by its name");
	check_string(sc->name);
	if (!sc->ok)
		return;
	FUZZ_ASSERT(sc->cycles.nruns == sc->repeat && sc->ns.nruns == sc->repeat,
		    "one run per setup");
	FUZZ_ASSERT(sc->purity >= 0 && sc->purity <= 1, "purity is a share");
	check_string(sc->recipe);
	for (size_t i = 0; i < sc->cycles.nruns; i++)
		check_number(sc->cycles.runs[i]);
	for (size_t i = 0; i < sc->nr_per_cpu; i++)
		FUZZ_ASSERT(sc->per_cpu[i].cycles.nruns == sc->repeat && sc->per_cpu[i].role,
			    "per-CPU runs match");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *name;
	struct result r;
	char err[512];
	json_t *v;

	fuzz_quiet();
	if (result_load(fuzz_file(data, size), &r, err, sizeof(err))) {
		FUZZ_ASSERT(err[0] && !strchr(err, '\n') && !strchr(err, '\033'),
			    "a refusal is one line");
		return 0;
	}
	check_string(r.host.cpu_model);
	json_object_foreach((json_t *)r.host.mitigations, name, v) {
		check_string(name);
		check_string(json_string_value(v));
	}
	check_number(r.host.tsc_hz);
	for (size_t i = 0; i < r.nr_sc; i++)
		check_scenario(&r, &r.sc[i]);
	result_free(&r);
	return 0;
}
