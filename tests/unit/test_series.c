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

/*
 * Four results; "slow" only in the second and fourth. Its figures, once
 * compacted to those two points, keep each point's range and level probe.
 */
void test_series_compact_pairs(void)
{
	double runs[2][3] = { { 110, 111, 115 }, { 130, 131, 135 } };
	struct result_scenario sc[2] = { { .name = "fast", .ok = true, .cycles.median = 10 } };
	struct result r = { .created = "2026-12-01T10:00:00Z",
			    .host = { .kernel = "6.18", .cpu_model = "EPYC", .tsc_hz = 2e9 },
			    .sc = sc };
	struct series s = { 0 };
	const struct series_fig *g = NULL;
	char err[256], path[8];

	for (int i = 0; i < 4; i++) {
		double *run = runs[i / 2];

		snprintf(path, sizeof(path), "r%d", i);
		r.path = path;
		r.nr_sc = 1 + i % 2;
		sc[1] = (struct result_scenario){
			.name = "slow",
			.ok = true,
			.cycles = { .min = run[0], .median = run[1], .runs = run, .nruns = 3 },
			.level_probe_ns = 1000 + i,
		};
		if (!ASSERT_OK(series_add(&s, &r, false, err, sizeof(err)), "add"))
			goto out;
	}
	if (!ASSERT_OK(series_finish(&s, SERIES_GIVEN, err, sizeof(err)), "finish") ||
	    !ASSERT_EQ(s.nfigs, 2, "fast and slow cycles") || !ASSERT_EQ(s.figs[1].n, 2, "slow's"))
		goto out;
	g = &s.figs[1];
	for (size_t j = 0; j < 2; j++) {
		ASSERT_EQ(g->pt[j], 2 * j + 1, "slow's point");
		ASSERT_NEAR(g->v[j], runs[j][1], 0, "its median");
		ASSERT_NEAR(g->lo[j], runs[j][0], 0, "its least setup");
		ASSERT_NEAR(g->hi[j], runs[j][2], 0, "its largest setup");
		ASSERT_NEAR(g->probe[j], 1001 + 2 * j, 0, "its level probe");
	}
out:
	series_free(&s);
}
