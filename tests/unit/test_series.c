// SPDX-License-Identifier: GPL-2.0
/* A series' path figure and its method (trend/series.c). */
#include <string.h>
#include "trend/series.h"
#include "unit.h"

/*
 * Eight results of scenario "slow", each with a path figure; from the
 * fifth on of method M2. One method makes a series of the path figure,
 * named so; two set it aside with a line that names both, the cycles stay.
 */
static void path_series(const char *m2, bool aside)
{
	double runs[3] = { 99, 100, 102 };
	struct result_scenario sc = {
		.name = "slow",
		.ok = true,
		.cycles = { .min = 99, .median = 100, .runs = runs, .nruns = 3 },
		.ns = { .min = 99, .median = 100, .runs = runs, .nruns = 3 },
		.has_path_cost = true,
	};
	struct result r = { .created = "2026-12-01T10:00:00Z",
			    .host = { .kernel = "6.18", .cpu_model = "EPYC", .tsc_hz = 2e9 },
			    .sc = &sc,
			    .nr_sc = 1 };
	struct series s = { 0 };
	char err[256], path[8], label[4];

	for (int i = 0; i < 8; i++) {
		snprintf(path, sizeof(path), "r%d", i);
		snprintf(label, sizeof(label), "%d", i);
		r.path = path;
		r.label = label;
		sc.path_method = i < 4 ? "fentry" : m2;
		sc.path_cost = i < 4 ? 50 : 80;
		if (!ASSERT_OK(series_add(&s, &r, false, err, sizeof(err)), "add"))
			goto out;
	}
	if (!ASSERT_OK(series_finish(&s, SERIES_GIVEN, err, sizeof(err)), "finish"))
		goto out;
	ASSERT_EQ(s.nfigs, aside ? 2 : 3, "cycles and ns stay; the path figure if of one method");
	for (size_t i = 0; i < s.nfigs; i++)
		ASSERT_TRUE(s.figs[i].fig != SFIG_PATH || (!aside && s.figs[i].n == 8 &&
							   !strcmp(s.figs[i].method, "fentry")),
			    "the path figure, of its method");
	ASSERT_EQ(s.naside, aside, "a line for the figure set aside");
	if (aside)
		ASSERT_STREQ(s.aside[0],
			     "slow path: fentry in r0, profile in r4: figures of two methods make "
			     "no series; left out",
			     "it names both methods and where each is");
out:
	series_free(&s);
}

void test_series_path_methods(void)
{
	path_series("fentry", false);
	path_series("profile", true);
}
