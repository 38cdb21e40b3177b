// SPDX-License-Identifier: GPL-2.0
/* A result file seen through one of its hardware counters (by_counter.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/by_counter.h"

bool unit_is_counter(const char *unit)
{
	return pmu_counter_by_name(unit) >= 0;
}

bool counter_name_ok(const char *name, char *err, size_t len)
{
	if (unit_is_counter(name))
		return true;
	snprintf(err, len, "no counter '%s' (" PMU_COUNTER_NAMES ")", name);
	return false;
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A stat block of bench's JSON (as cycles_per_elem), whose runs are the setups. */
static int load_block(const json_t *b, uint64_t repeat, struct result_stat *st)
{
	const json_t *runs = json_object_get(b, "runs");

	memset(st, 0, sizeof(*st));
	if (!json_is_array(runs) || json_array_size(runs) != repeat)
		return -EINVAL;
	st->min = num(b, "min");
	st->median = num(b, "median");
	st->mean = num(b, "mean");
	st->stddev = num(b, "stddev");
	st->cv = num(b, "cv");
	st->runs = calloc(repeat + 1, sizeof(double));
	if (!st->runs)
		return -ENOMEM;
	st->nruns = repeat;
	for (size_t i = 0; i < repeat; i++) {
		st->runs[i] = json_number_value(json_array_get(runs, i));
		if (!json_is_number(json_array_get(runs, i)) || !isfinite(st->runs[i]))
			return -EINVAL;
	}
	return isfinite(st->min) && isfinite(st->median) && isfinite(st->mean) &&
			       isfinite(st->stddev) && isfinite(st->cv)
		       ? 0
		       : -EINVAL;
}

/* Scenario SC (its JSON S) through counter NAME: 1 when it has it, 0 if skipped. */
static int view_one(struct result_scenario *sc, const json_t *s, const char *name)
{
	const json_t *cnt = json_object_get(s, "counters"), *b;
	struct result_stat st;
	int err;

	if (!sc->ok)
		return 0;
	b = json_object_get(cnt, name);
	if (!b) {
		sc->ok = false;
		sc->status = "skipped";
		sc->reason = json_string_value(json_object_get(cnt, "reason"));
		if (!sc->reason)
			sc->reason = cnt ? "this counter was not counted"
					 : "no counters (bench --counters)";
		return 0;
	}
	err = load_block(b, sc->repeat, &st);
	if (err) {
		free(st.runs);
		return err;
	}
	free(sc->cycles.runs);
	free(sc->ns.runs);
	sc->cycles = st;
	sc->ns = st;
	sc->ns.runs = malloc((st.nruns + 1) * sizeof(double));
	if (!sc->ns.runs)
		return -ENOMEM;
	memcpy(sc->ns.runs, st.runs, st.nruns * sizeof(double));
	/* path and per-CPU figures are the clock's */
	for (size_t j = 0; j < sc->nr_per_cpu; j++)
		free(sc->per_cpu[j].cycles.runs);
	free(sc->per_cpu);
	sc->per_cpu = NULL;
	sc->nr_per_cpu = 0;
	sc->has_path_cost = false;
	sc->path_cost_method = "the path figure is the clock's: the counters have none";
	return 1;
}

static int result_view_counter(struct result *r, const char *name, char *err, size_t len)
{
	const json_t *arr = json_object_get(r->doc, "scenarios");
	int n = 0;

	if (!counter_name_ok(name, err, len))
		return -EINVAL;
	if (unit_is_counter(result_clock_of(r)->unit))
		return 0; /* a view already */
	for (size_t i = 0; i < r->nr_sc; i++) {
		int k = view_one(&r->sc[i], json_array_get(arr, i), name);

		if (k < 0) {
			snprintf(err, len,
				 "%s: scenarios[%zu].counters.%s: not a stat block of %llu "
				 "setups",
				 r->path, i, name, (unsigned long long)r->sc[i].repeat);
			return -EINVAL;
		}
		n += k;
	}
	if (!n && !json_object_get(r->doc, "counters")) {
		snprintf(err, len, "%s has no hardware counters (made without bench --counters)",
			 r->path);
		return -EINVAL;
	}
	/* (the table's string: the name given may not outlive R) */
	name = pmu_counter_name(pmu_counter_by_name(name));
	r->host.clock = (struct result_clock){ .kind = "pmu", .unit = name };
	return 0;
}

int result_load_view(const char *path, struct result *r, const char *counter, char *err, size_t len)
{
	int e = result_load(path, r, err, len);

	if (e || !counter)
		return e;
	e = result_view_counter(r, counter, err, len);
	if (e)
		result_free(r);
	return e;
}
