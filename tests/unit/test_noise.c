// SPDX-License-Identifier: GPL-2.0
/* Noise profiles: the floor, building from invocations, loading and the host check. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/by_counter.h"
#include "model/noise.h"
#include "report/report.h"
#include "unit.h"

/*
 * 100, 102, 98, 100, 100: CV 1.414 %, t(0.975, 4) = 2.776: floor 5.55 % (> the
 * 4.08 % seen) for one figure; t(0.995, 4) for five gated together: 9.21 %.
 */
void test_noise_floor(void)
{
	double v[] = { 100, 102, 98, 100, 100 };
	double lv[] = { 35.0, 35.4, 60.0, 35.2, 60.5, 35.3 };
	double quiet[] = { 100, 100.1, 100, 100.1 };
	double still[] = { 100, 100.01, 100, 100.01 }; /* an instruction count's spread */

	ASSERT_NEAR(noise_floor_pct(v, 5, 1, 1.0), 2.7764 * sqrt(2) * sqrt(2), 0.01,
		    "t x sqrt2 x CV");
	/* five figures gated together: each at 0.01 two-sided, t(0.995, 4) = 4.604 */
	ASSERT_NEAR(noise_floor_pct(v, 5, 5, 1.0), 4.6041 * sqrt(2) * sqrt(2), 0.01,
		    "a family of 5");
	/* two levels: CV 28 %, t(0.975, 5) 2.571: 102 %, above the 72.9 % seen */
	ASSERT_TRUE(noise_floor_pct(lv, 6, 1, 1.0) > 60.5 / 35.0 * 100 - 100,
		    "above the levels' gap");
	ASSERT_NEAR(noise_floor_pct(quiet, 4, 4, 1.0), 1.0, 1e-9, "never below 1 %");
	ASSERT_NEAR(noise_floor_pct(still, 4, 4, unit_floor_pct("instructions")), 0.1, 1e-9,
		    "instructions: never below 0.1 %");
	ASSERT_NEAR(unit_floor_pct("cycles"), 1.0, 0, "cycles: 1 %");
	ASSERT_TRUE(isnan(noise_floor_pct(v, 1, 1, 1.0)), "one invocation: no floor");
	ASSERT_TRUE(isnan(noise_floor_pct(v, 5, 0, 1.0)), "no figure: no floor");
}

void test_noise_fig_levels(void)
{
	double lv[] = { 35.0, 35.4, 60.0, 35.2, 60.5, 35.3 };
	double w[] = { 0.002, 0.004, 0.003, 0.002, 0.01, 0.002 };
	struct noise_fig f;

	if (!ASSERT_OK(noise_fig_from(lv, w, 6, 1, 1.0, &f), "fig"))
		return;
	ASSERT_EQ(f.nr_levels, 2, "two levels");
	ASSERT_NEAR(f.levels[0].median, 35.25, 1e-9, "low level");
	ASSERT_EQ(f.levels[1].count, 2, "two invocations high");
	ASSERT_NEAR(f.cv_within, 0.0025, 1e-12, "median within CV");
	ASSERT_NEAR(f.max_pair_pct, 60.5 / 35.0 * 100 - 100, 1e-9, "largest pair");
	ASSERT_NEAR(f.floor_pct, noise_floor_pct(lv, 6, 1, 1.0), 1e-12, "floor");
}

/* The range of one more run: the values seen, widened to the prediction interval. */
void test_noise_fig_range(void)
{
	double v[] = { 100, 102, 98, 100, 100 };
	double wide[] = { 100, 130, 70, 100, 100 };
	double lo, hi, q;
	struct noise_fig f;

	if (!ASSERT_OK(noise_fig_from(v, NULL, 5, 1, 1.0, &f), "fig"))
		return;
	/* CV 1.414 %, t(0.975, 4) 2.776, sqrt(1.2): +/- 4.30 % around 100 */
	q = 2.7764 * 0.014142 * sqrt(1.2);
	noise_fig_range(&f, 1, &lo, &hi);
	ASSERT_NEAR(hi, 100 * (1 + q), 0.01, "upper: the prediction interval");
	ASSERT_NEAR(lo, 100 * (1 - q), 0.01, "lower: the prediction interval");
	noise_fig_range(&f, 4, &lo, &hi);
	ASSERT_TRUE(hi > 100 * (1 + q), "a family widens it");
	if (!ASSERT_OK(noise_fig_from(wide, NULL, 5, 1, 1.0, &f), "wide fig"))
		return;
	f.cv_between = 0.001; /* a narrow interval: what was seen bounds it */
	noise_fig_range(&f, 1, &lo, &hi);
	ASSERT_NEAR(hi, 130, 1e-9, "never below the highest seen");
	ASSERT_NEAR(lo, 70, 1e-9, "never above the lowest seen");
}

/* noise_test: a change of 2 x sqrt(2) x CV is t = 2. */
void test_noise_test(void)
{
	struct noise_fig f = { .n = 11, .cv_between = 0.05 };
	struct ttest t;

	noise_test(&f, 2 * sqrt(2) * 5, &t);
	ASSERT_TRUE(t.testable, "testable");
	ASSERT_NEAR(t.stat, 2, 1e-9, "t");
	ASSERT_NEAR(t.p, student_t_p2(2, 10), 1e-12, "p");
	f.n = 1;
	noise_test(&f, 50, &t);
	ASSERT_FALSE(t.testable, "one invocation: untestable");
}

/* Results of one scenario (ring) with the given per-setup values, on a host. */
struct fake_run {
	struct result r;
	struct result_scenario sc;
	double runs[3];
};

static void fake_run(struct fake_run *f, const char *cpu, const char *kernel, double v)
{
	memset(f, 0, sizeof(*f));
	for (int i = 0; i < 3; i++)
		f->runs[i] = v + i * 0.1;
	f->sc = (struct result_scenario){ .name = "ring", .status = "ok", .ok = true, .repeat = 3 };
	f->sc.cycles =
		(struct result_stat){ .median = v + 0.1, .cv = 0.001, .runs = f->runs, .nruns = 3 };
	f->r = (struct result){ .path = "run.json", .sc = &f->sc, .nr_sc = 1 };
	f->r.host = (struct result_host){ .kernel = kernel,
					  .cpu_model = cpu,
					  .clocksource = "tsc",
					  .tsc_hz = 2.096e9,
					  .nr_cpus = 2 };
}

/* A profile of four runs on two levels; it describes its host and no other. */
void test_noise_build_and_host(void)
{
	struct fake_run f[4], other;
	struct result r[4];
	double lv[] = { 35, 60, 35.2, 60.3 };
	struct noise_profile p;
	char why[256];

	for (int i = 0; i < 4; i++) {
		fake_run(&f[i], "AMD EPYC", "6.18.44", lv[i]);
		r[i] = f[i].r;
		r[i].sc = &f[i].sc;
	}
	if (!ASSERT_OK(noise_build(r, 4, &p), "build"))
		return;
	if (ASSERT_EQ(p.nr_sc, 1, "one scenario")) {
		ASSERT_STREQ(p.sc[0].name, "ring", "name");
		ASSERT_EQ(p.sc[0].cycles.n, 4, "four runs");
		ASSERT_EQ(p.sc[0].cycles.nr_levels, 2, "two levels");
		ASSERT_TRUE(p.sc[0].cycles.floor_pct > 60.4 / 35.1 * 100 - 100, "floor spans them");
		ASSERT_FALSE(p.sc[0].has_level, "no level probes in these runs");
	}
	ASSERT_OK(noise_host_check(&p, &r[0], why, sizeof(why)), "its own host");
	fake_run(&other, "Intel Xeon", "6.18.44", 35);
	ASSERT_ERR(noise_host_check(&p, &other.r, why, sizeof(why)), "another CPU");
	ASSERT_STREQ(why, "CPU model \"AMD EPYC\" vs \"Intel Xeon\"", "why");
	fake_run(&other, "AMD EPYC", "6.19.0", 35);
	ASSERT_ERR(noise_host_check(&p, &other.r, why, sizeof(why)), "another kernel");
	ASSERT_STREQ(why, "kernel 6.18.44 vs 6.19.0", "why");
	other.r.host.kernel = "6.18.44";
	other.r.host.tsc_hz = 2.2e9;
	ASSERT_ERR(noise_host_check(&p, &other.r, why, sizeof(why)), "another TSC");
	noise_free(&p);
	ASSERT_ERR(noise_build(r, 1, &p), "one run is no profile");
}

/* A profile's path figure is of one method, named; runs of two methods give none. */
void test_noise_path_one_method(void)
{
	static const char *const second[] = { "fentry", "profile" };
	struct fake_run f[3];
	struct result r[3];
	struct noise_profile p;

	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < 3; i++) {
			fake_run(&f[i], "AMD EPYC", "6.18.44", 35 + i);
			f[i].sc.has_path_cost = true;
			f[i].sc.path_cost = 20 + i;
			f[i].sc.path_method = i == 2 ? second[k] : "fentry";
			r[i] = f[i].r;
			r[i].sc = &f[i].sc;
		}
		if (!ASSERT_OK(noise_build(r, 3, &p), "build"))
			return;
		ASSERT_EQ(p.sc[0].has_path, !k, second[k]);
		ASSERT_STREQ(p.sc[0].path_method, "fentry", "its method");
		noise_free(&p);
	}
}

/*
 * A profile's host block is its first run's, written by bench, read back by
 * the results' own reader; its clock is what the runs counted: COUNTER's view
 * (kind pmu) or the file's. FILE's host block must come back whole.
 */
static void host_block_round_trip(const char *file, const char *counter, const char *kind,
				  const char *unit)
{
	char path[] = "/tmp/ppbench-unit-noise.XXXXXX", err[100];
	struct result r[2] = { 0 };
	struct noise_profile p, q;
	json_t *doc = NULL, *want = NULL, *got;
	int fd = mkstemp(path);

	ASSERT_TRUE(fd >= 0, "temporary file");
	close(fd);
	for (int i = 0; i < 2; i++)
		if (!ASSERT_OK(result_load_view(file, &r[i], counter, err, sizeof(err)), err))
			return;
	if (ASSERT_OK(noise_build(r, 2, &p), "build")) {
		ASSERT_OK(noise_write(&p, path, "unit"), "write");
		if (ASSERT_OK(noise_load(path, &q, err, sizeof(err)), err)) {
			ASSERT_STREQ(q.host.clock.kind, kind, "the clock's kind");
			ASSERT_STREQ(q.host.clock.unit, unit, "the clock's unit");
			ASSERT_STREQ(q.host.hostname, r[0].host.hostname, "the run's hostname");
			noise_free(&q);
		}
		noise_free(&p);
	}
	doc = jparse_file(path, err, sizeof(err));
	want = json_deep_copy(json_object_get(r[0].doc, "host"));
	if (ASSERT_TRUE(doc && want, "both read")) {
		got = json_object_get(doc, "host");
		json_object_del(got, "clock");
		json_object_del(want, "clock");
		ASSERT_TRUE(json_equal(got, want), "the run's host block, whole");
	}
	json_decref(doc);
	json_decref(want);
	result_free(&r[0]);
	result_free(&r[1]);
	unlink(path);
}

void test_noise_host_block_is_the_runs(void)
{
	host_block_round_trip("tests/data/counters.json", "kernel_instructions", "pmu",
			      "kernel_instructions");
	host_block_round_trip("tests/data/counters.json", NULL, "icount", "instructions");
	host_block_round_trip("tests/data/base.json", NULL, "tsc", "cycles");
}

/* A profile's clock follows the results' rule: kind and unit agree. */
void test_noise_clock_rule_is_the_results(void)
{
	char path[] = "/tmp/ppbench-unit-noise.XXXXXX", err[200];
	json_t *doc = jparse_file("tests/data/profile.json", err, sizeof(err));
	struct noise_profile p;
	int fd = mkstemp(path);

	if (!ASSERT_TRUE(doc && fd >= 0, "profile.json and a file"))
		return;
	close(fd);
	json_object_set_new(json_object_get(doc, "host"), "clock",
			    json_pack("{s:s, s:s}", "kind", "icount", "unit", "cycles"));
	ASSERT_OK(json_dump_file(doc, path, 0), "written");
	if (ASSERT_ERR(noise_load(path, &p, err, sizeof(err)), "icount counting cycles"))
		ASSERT_TRUE(strstr(err, "host.clock.unit: \"cycles\" with kind \"icount\""),
			    "the results' message");
	else
		noise_free(&p);
	json_decref(doc);
	unlink(path);
}
