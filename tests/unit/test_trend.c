// SPDX-License-Identifier: GPL-2.0
/*
 * trend's change points on series written here, with the noise of the
 * development VM: each point on one of two levels 1.6x apart, taken at
 * random, and 1 % (one standard deviation) within a level. Seeded: every
 * run draws the same series, so each answer below is known.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "trend/trendfit.h"
#include "trend/series.h"
#include "unit.h"

#define LEVEL_RATIO 1.6
#define WITHIN_SD 0.01

static uint64_t rng_state;

static double uniform(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return ((rng_state >> 11) + 0.5) * 0x1.0p-53;
}

static double gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/*
 * N points of a host whose levels are RATIO apart, each taken at random, SD
 * noise (a share); from index AT on the cost is (1 + STEP) times higher.
 */
static void host_series(double *v, size_t n, size_t at, double step, double ratio, double sd,
			uint64_t seed)
{
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;
	for (size_t i = 0; i < n; i++)
		v[i] = (i >= at ? 100 * (1 + step) : 100) * (uniform() < 0.5 ? ratio : 1) *
		       (1 + sd * gauss());
}

/* The VM's: levels 1.6x apart. */
static void vm_series(double *v, size_t n, size_t at, double step, uint64_t seed)
{
	host_series(v, n, at, step, LEVEL_RATIO, WITHIN_SD, seed);
}

static int fit(const double *v, size_t n, struct trend_fit *f)
{
	struct trend_opts o;

	trend_opts_default(&o);
	return trend_fit(v, n, &o, f);
}

static size_t steps_near(const struct trend_fit *f, size_t at)
{
	size_t n = 0;

	for (size_t i = 0; i < f->ncps; i++)
		n += f->cps[i].kind == TREND_STEP && labs((long)f->cps[i].at - (long)at) <= 1;
	return n;
}

void test_ediv_splits_definition(void)
{
	double x[40], q[41];

	rng_state = 7;
	for (size_t i = 0; i < 40; i++)
		x[i] = (i >= 25 ? 2 : 0) + gauss();
	x[5] = x[6]; /* a tie */
	if (!ASSERT_OK(ediv_splits(x, 40, q), "splits"))
		return;
	for (size_t j = 0; j <= 40; j++) {
		double ab = 0, aa = 0, bb = 0, a = j, b = 40 - j, e = 0;

		for (size_t i = 0; i < 40; i++)
			for (size_t k = i + 1; k < 40; k++)
				*(k < j ? &aa : i >= j ? &bb : &ab) += fabs(x[i] - x[k]);
		if (j && j < 40) {
			e = 2 * ab / (a * b) - (j >= 2 ? aa / (a * (a - 1) / 2) : 0) -
			    (b >= 2 ? bb / (b * (b - 1) / 2) : 0);
			e *= a * b / 40;
		}
		if (!ASSERT_NEAR(q[j], e, 1e-9, "Q[j] by the pairwise definition"))
			return;
	}
}

void test_ediv_strata_ignore_levels(void)
{
	double x[24];
	int st[24];
	struct ediv_opts o = { .min_run = 4, .alpha = 0.01, .permutations = 499, .seed = 1 };
	struct ediv_cp cp[6];

	/* two strata far apart, switching in runs of 3: no change inside either */
	for (size_t i = 0; i < 24; i++) {
		st[i] = (i / 3) % 2;
		x[i] = st[i] * 0.47 + 0.001 * (double)(i % 5);
	}
	ASSERT_EQ(ediv_find(x, st, 24, &o, cp, 6), 0, "levels that come and go");
	/* low for 12 points, then high: as two strata nothing to compare, as one a change */
	for (size_t i = 0; i < 24; i++) {
		st[i] = i >= 12;
		x[i] = st[i] * 0.47 + 0.001 * (double)(i % 5);
	}
	ASSERT_EQ(ediv_find(x, st, 24, &o, cp, 6), 0, "no stratum on both sides");
	for (size_t i = 0; i < 24; i++)
		st[i] = 0;
	if (ASSERT_EQ(ediv_find(x, st, 24, &o, cp, 6), 1, "one stratum: one change"))
		ASSERT_EQ(cp[0].at, 12, "at 12");
}

void test_levels_split_only_alternating(void)
{
	double v[24], y[24];
	struct level_set l;
	int lv[24];

	vm_series(v, 24, 12, 0.05, 3);
	for (size_t i = 0; i < 24; i++)
		y[i] = log(v[i]);
	if (!ASSERT_OK(levels_assign(y, 24, 0, lv, &l), "assign"))
		return;
	/* the 5 % step within each level separates before from after: no split */
	ASSERT_EQ(l.nlevels, 2, "two host levels");
	ASSERT_NEAR(l.lv[1].median / l.lv[0].median, LEVEL_RATIO, 0.1, "their ratio");
	ASSERT_EQ(l.noutliers, 0, "no outlier");
	for (size_t i = 0; i < 24; i++)
		if (!ASSERT_EQ(lv[i], v[i] > 130 ? 1 : 0, "each point on its level"))
			return;
}

/*
 * Two values of the low level a little apart from the rest (noise, not a
 * level of the host): they alternate with it, but they are nearer to it than
 * half the ratio between the host's levels, so they stay in it.
 */
void test_levels_noise_is_one_level(void)
{
	static const double v[24] = { 100, 180, 101, 183, 99,  87, 178, 102, 98, 181, 103, 179,
				      100, 182, 97,  101, 177, 88, 180, 102, 99, 184, 101, 178 };
	double y[24];
	struct level_set l;
	int lv[24];

	for (size_t i = 0; i < 24; i++)
		y[i] = log(v[i]);
	if (!ASSERT_OK(levels_assign(y, 24, 0, lv, &l), "assign"))
		return;
	ASSERT_EQ(l.nlevels, 2, "two levels");
	ASSERT_EQ(l.noutliers, 0, "no outlier");
	ASSERT_EQ(lv[5], lv[0], "87 on the low level");
}

/*
 * A +5 % step from the 13th of 24. Seed 45 draws one that a straight line
 * fits about as well (its BIC a little lower): a drift needs a line that fits
 * clearly better, so that is a step too.
 */
void test_trend_step_five_pct(void)
{
	for (uint64_t seed = 11; seed <= 45; seed += 34) {
		struct trend_fit f;
		double v[24];

		vm_series(v, 24, 12, 0.05, seed);
		if (!ASSERT_OK(fit(v, 24, &f), "fit"))
			return;
		ASSERT_EQ(f.status, TREND_CHANGED, "changed");
		ASSERT_EQ(f.ncps, 1, "one change point");
		ASSERT_EQ(steps_near(&f, 12), 1, "a step between 12 and 13");
		if (f.ncps == 1) {
			ASSERT_TRUE(f.cps[0].lo_pct < 5 && f.cps[0].hi_pct > 5,
				    "interval holds +5 %");
			ASSERT_TRUE(f.cps[0].lo_pct > 2, "interval excludes 0");
			ASSERT_TRUE(f.cps[0].p <= 0.01, "p");
			ASSERT_EQ(f.cps[0].nlv, 2, "both levels seen on both sides");
		}
		trend_fit_free(&f);
	}
}

void test_trend_aa_quiet(void)
{
	for (uint64_t seed = 1; seed <= 10; seed++) {
		struct trend_fit f;
		double v[24];

		vm_series(v, 24, 24, 0, seed);
		if (!ASSERT_OK(fit(v, 24, &f), "fit"))
			return;
		ASSERT_EQ(f.ncps, 0, "no change point in an A/A series");
		ASSERT_EQ(f.status, TREND_STABLE, "stable");
		ASSERT_EQ(f.levels.nlevels, 2, "two levels");
		trend_fit_free(&f);
	}
}

void test_trend_levels_in_runs(void)
{
	struct trend_fit f;
	double v[24];

	/* the high level for six results in a row, mid-series: still no change */
	vm_series(v, 24, 24, 0, 5);
	for (size_t i = 0; i < 24; i++)
		v[i] = 100 * (i >= 9 && i < 15 ? LEVEL_RATIO : 1) * (1 + WITHIN_SD * gauss());
	if (!ASSERT_OK(fit(v, 24, &f), "fit"))
		return;
	ASSERT_EQ(f.ncps, 0, "a level that came and went");
	ASSERT_EQ(f.levels.nlevels, 2, "as a level");
	trend_fit_free(&f);
}

void test_trend_two_steps(void)
{
	struct trend_fit f;
	double v[30];

	vm_series(v, 30, 30, 0, 21);
	for (size_t i = 10; i < 30; i++)
		v[i] *= i >= 20 ? 1.05 * 1.05 : 1.05;
	if (!ASSERT_OK(fit(v, 30, &f), "fit"))
		return;
	ASSERT_EQ(f.status, TREND_CHANGED, "changed");
	ASSERT_EQ(f.ncps, 2, "two change points");
	ASSERT_EQ(steps_near(&f, 10), 1, "the first step");
	ASSERT_EQ(steps_near(&f, 20), 1, "the second step");
	trend_fit_free(&f);
}

void test_trend_drift_unstable(void)
{
	struct trend_fit f;
	double v[30];

	vm_series(v, 30, 30, 0, 31);
	for (size_t i = 0; i < 30; i++)
		v[i] *= 1 + 0.20 * i / 29; /* +20 % spread evenly: no single change */
	if (!ASSERT_OK(fit(v, 30, &f), "fit"))
		return;
	ASSERT_EQ(f.status, TREND_UNSTABLE, "unstable, not changed");
	ASSERT_HAS_SUBSTR(f.reason, "drift", "says drift");
	for (size_t i = 0; i < f.ncps; i++)
		ASSERT_NEQ(f.cps[i].kind, TREND_STEP, "no invented step");
	trend_fit_free(&f);
}

void test_trend_single_outlier(void)
{
	struct trend_fit f;
	double v[24];

	vm_series(v, 24, 24, 0, 41);
	v[17] *= 1.3; /* a spike of a few seconds in one invocation */
	if (!ASSERT_OK(fit(v, 24, &f), "fit"))
		return;
	ASSERT_EQ(f.ncps, 0, "no change point");
	ASSERT_EQ(f.level[17], -1, "the spike is an outlier");
	ASSERT_EQ(f.levels.noutliers, 1, "the only one");
	trend_fit_free(&f);
}

void test_trend_too_few(void)
{
	struct trend_fit f;
	double v[8];

	vm_series(v, 8, 4, 0.5, 51);
	if (!ASSERT_OK(fit(v, 7, &f), "fit 7"))
		return;
	ASSERT_EQ(f.status, TREND_TOO_FEW, "7 points: too few");
	ASSERT_HAS_SUBSTR(f.reason, "need 8", "says what it needs");
	trend_fit_free(&f);
	if (!ASSERT_OK(fit(v, 8, &f), "fit 8"))
		return;
	ASSERT_NEQ(f.status, TREND_TOO_FEW, "8 points are enough to try");
	trend_fit_free(&f);
	ASSERT_ERR(fit((double[]){ 1, 2, -3, 4, 5, 6, 7, 8 }, 8, &f), "a negative value");
}

/*
 * The acceptance criterion, 1 000 series per case: a +5 % step with 10
 * points a side is found (a step within one point of its place) in >= 90 %,
 * and A/A series get a change point in <= 2 %.
 */
void test_trend_detection_rates(void)
{
	size_t found = 0, false_cps = 0;
	double v[20];

	for (uint64_t seed = 1; seed <= 1000; seed++) {
		struct trend_fit f;

		vm_series(v, 20, 10, 0.05, 1000 + seed);
		if (!ASSERT_OK(fit(v, 20, &f), "fit step"))
			return;
		found += steps_near(&f, 10) > 0;
		trend_fit_free(&f);
		vm_series(v, 20, 20, 0, 5000 + seed);
		if (!ASSERT_OK(fit(v, 20, &f), "fit A/A"))
			return;
		false_cps += f.ncps > 0;
		trend_fit_free(&f);
	}
	ASSERT_TRUE(found >= 900, "step of 5 % found in >= 90 %");
	ASSERT_TRUE(false_cps <= 20, "A/A change points in <= 2 %");
	if (found < 900 || false_cps > 20 || (getenv("V") && !strcmp(getenv("V"), "1")))
		fprintf(stderr, "    found %zu of 1000, A/A false %zu of 1000\n", found, false_cps);
}

/* A result in memory: scenario "slow" at CYCLES, on the VM's host. */
struct fake {
	struct result r;
	struct result_scenario sc;
	double runs[3];
	char path[32], label[16];
};

static void fake_result(struct fake *f, int i, const char *label, const char *created,
			double cycles)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "r%02d.json", i);
	if (label)
		snprintf(f->label, sizeof(f->label), "%s", label);
	f->r = (struct result){
		.path = f->path,
		.label = label ? f->label : NULL,
		.created = created,
		.host = { .kernel = "6.18", .cpu_model = "EPYC", .tsc_hz = 2.096e9 },
		.sc = &f->sc,
		.nr_sc = 1
	};
	f->runs[0] = cycles * 0.99;
	f->runs[1] = cycles;
	f->runs[2] = cycles * 1.02;
	f->sc = (struct result_scenario){
		.name = "slow",
		.ok = true,
		.cycles = { .min = f->runs[0], .median = cycles, .runs = f->runs, .nruns = 3 },
		.ns = { .min = f->runs[0] / 2.096,
			.median = cycles / 2.096,
			.runs = f->runs,
			.nruns = 3 },
	};
}

void test_series_order_and_labels(void)
{
	static const char *const labels[] = { "10", "9", "v2", "1", "v10" };
	static const char *const sorted[] = { "1", "9", "10", "v2", "v10" };
	struct series s = { 0 };
	struct fake f;
	char err[256];

	for (int i = 0; i < 5; i++) {
		fake_result(&f, i, labels[i], "2026-12-01T10:00:00Z", 100 + i);
		if (!ASSERT_OK(series_add(&s, &f.r, false, err, sizeof(err)), "add"))
			goto out;
	}
	if (!ASSERT_OK(series_finish(&s, SERIES_LABEL, err, sizeof(err)), "finish"))
		goto out;
	for (int i = 0; i < 5; i++)
		ASSERT_STREQ(s.pt[i].label, sorted[i], "labels compare as versions");
	ASSERT_EQ(s.nfigs, 2, "slow cycles and ns");
	ASSERT_NEAR(s.figs[0].v[0], 103, 1e-9, "values follow their points");
	ASSERT_NEAR(s.figs[0].hi[0], 103 * 1.02, 1e-9, "the largest setup");
out:
	series_free(&s);
}

void test_series_created_and_no_label(void)
{
	static const char *const when[] = { "2026-12-01T10:00:02Z", "2026-12-01T10:00:01Z",
					    "2026-12-01T10:00:01Z" };
	struct series s = { 0 };
	struct fake f;
	char err[256];

	for (int i = 0; i < 3; i++) {
		fake_result(&f, i, NULL, when[i], 100);
		if (!ASSERT_OK(series_add(&s, &f.r, false, err, sizeof(err)), "add"))
			goto out;
	}
	if (!ASSERT_OK(series_finish(&s, SERIES_CREATED, err, sizeof(err)), "finish"))
		goto out;
	ASSERT_STREQ(s.pt[0].label, "r01", "a file without a label: its base name");
	ASSERT_STREQ(s.pt[1].label, "r02", "equal times keep the given order");
	ASSERT_STREQ(s.pt[2].label, "r00", "latest last");
out:
	series_free(&s);
}

void test_series_duplicate_label(void)
{
	struct series s = { 0 };
	struct fake f;
	char err[256] = "";

	for (int i = 0; i < 3; i++) {
		fake_result(&f, i, i == 2 ? "a" : i ? "b" : "a", "2026-12-01T10:00:00Z", 100);
		if (!ASSERT_OK(series_add(&s, &f.r, false, err, sizeof(err)), "add"))
			goto out;
	}
	ASSERT_ERR(series_finish(&s, SERIES_GIVEN, err, sizeof(err)), "refused");
	ASSERT_STREQ(err, "r02.json: label \"a\" is also the label of r00.json", "names both");
out:
	series_free(&s);
}

void test_series_other_host(void)
{
	struct series s = { 0 };
	struct fake f;
	char err[256] = "";

	fake_result(&f, 0, "1", "2026-12-01T10:00:00Z", 100);
	ASSERT_OK(series_add(&s, &f.r, false, err, sizeof(err)), "first");
	fake_result(&f, 1, "2", "2026-12-01T10:00:00Z", 100);
	f.r.host.tsc_hz = 2.5e9;
	ASSERT_ERR(series_add(&s, &f.r, false, err, sizeof(err)), "another TSC");
	ASSERT_HAS_SUBSTR(err, "r01.json: another host than r00.json: TSC", "names the file");
	f.r.host.tsc_hz = 2.096e9;
	f.r.host.cpu_model = "Xeon";
	ASSERT_ERR(series_add(&s, &f.r, false, err, sizeof(err)), "another CPU");
	ASSERT_HAS_SUBSTR(err, "CPU model \"Xeon\"", "says which");
	ASSERT_OK(series_add(&s, &f.r, true, err, sizeof(err)), "forced");
	ASSERT_EQ(s.nforced, 1, "counted");
	series_free(&s);
}

/* The gate: a rise in the window gates; a drop, or a rise before it or below PCT, does not. */
static void gate_case(double step, size_t window, double pct, size_t want, const char *what)
{
	struct series s = { 0 };
	struct series_hit hits[4];
	struct trend_opts o;
	struct fake f;
	double v[24];
	char err[256], lab[8];

	trend_opts_default(&o);
	vm_series(v, 24, 14, step, 61);
	for (int i = 0; i < 24; i++) {
		snprintf(lab, sizeof(lab), "%d", i + 1);
		fake_result(&f, i, lab, "2026-12-01T10:00:00Z", v[i]);
		if (!ASSERT_OK(series_add(&s, &f.r, false, err, sizeof(err)), "add"))
			goto out;
	}
	if (!ASSERT_OK(series_finish(&s, SERIES_GIVEN, err, sizeof(err)), "finish") ||
	    !ASSERT_OK(series_fit(&s, &o), "fit"))
		goto out;
	ASSERT_EQ(s.figs[0].fit.ncps, 1, "the step is found");
	if (ASSERT_EQ(series_gate(&s, SFIG_CYCLES, pct, window, hits, 4), want, what) && want)
		ASSERT_FALSE(hits[0].unstable, "a stable figure: gated");
out:
	series_free(&s);
}

void test_series_gate_window(void)
{
	gate_case(0.10, 10, 5, 1, "+10 % from point 15 of 24, window 10");
	gate_case(0.10, 9, 5, 0, "window 9 starts after it");
	gate_case(0.10, 10, 15, 0, "smaller than the limit");
	gate_case(-0.10, 10, 5, 0, "faster is no regression");
}

/*
 * The gating rule in trend: a step the size of a ratio between the host's
 * levels (from a noise profile) is one a level explains. The gate sees it
 * among the newest results, above the limit, and marks it unstable: trend
 * names it and does not gate. Without the ratio the same series gates.
 */
void test_series_gate_level_explains(void)
{
	struct series_hit hits[4];
	struct trend_opts o;
	struct series s;
	struct fake f;
	char err[256], lab[8];

	for (int with_ratio = 0; with_ratio < 2; with_ratio++) {
		memset(&s, 0, sizeof(s));
		trend_opts_default(&o);
		rng_state = 71;
		for (int i = 0; i < 24; i++) {
			snprintf(lab, sizeof(lab), "%d", i + 1);
			fake_result(&f, i, lab, "2026-12-01T10:00:00Z",
				    100 * (i >= 12 ? LEVEL_RATIO : 1) * (1 + WITHIN_SD * gauss()));
			if (!ASSERT_OK(series_add(&s, &f.r, false, err, sizeof(err)), "add"))
				goto out;
		}
		if (!ASSERT_OK(series_finish(&s, SERIES_GIVEN, err, sizeof(err)), "finish"))
			goto out;
		/* what series_use_profile() takes from a profile's levels */
		s.figs[0].level_ratio[0] = 1.58;
		s.figs[0].nlevel_ratios = with_ratio;
		if (!ASSERT_OK(series_fit(&s, &o), "fit"))
			goto out;
		if (ASSERT_EQ(series_gate(&s, SFIG_CYCLES, 5, 12, hits, 4), 1, "one hit"))
			ASSERT_EQ(hits[0].unstable, with_ratio,
				  with_ratio ? "as large as a level ratio: not gated"
					     : "no ratio known: a step, gated");
		series_free(&s);
	}
	return;
out:
	series_free(&s);
}

/*
 * The host on its low level for 12 results, then on its high one for 12: no
 * level alternates, so this is a change, unless a noise profile knows a
 * level ratio that size - then it is 'level', and the figure unstable.
 */
void test_trend_level_that_stayed(void)
{
	struct trend_opts o;
	struct trend_fit f;
	double v[24];

	rng_state = 71;
	for (size_t i = 0; i < 24; i++)
		v[i] = 100 * (i >= 12 ? LEVEL_RATIO : 1) * (1 + WITHIN_SD * gauss());
	trend_opts_default(&o);
	if (!ASSERT_OK(trend_fit(v, 24, &o, &f), "fit"))
		return;
	ASSERT_EQ(f.ncps, 1, "a change point");
	ASSERT_EQ(steps_near(&f, 12), 1, "without a profile: a step");
	trend_fit_free(&f);
	o.level_ratio[0] = 1.58;
	o.nlevel_ratios = 1;
	if (!ASSERT_OK(trend_fit(v, 24, &o, &f), "fit with the ratio"))
		return;
	if (ASSERT_EQ(f.ncps, 1, "the same change point"))
		ASSERT_EQ(f.cps[0].kind, TREND_LEVEL, "as large as the level ratio");
	ASSERT_EQ(f.status, TREND_UNSTABLE, "unstable");
	trend_fit_free(&f);
	o.level_ratio[0] = 1.05;
	if (!ASSERT_OK(trend_fit(v, 24, &o, &f), "fit with a small ratio"))
		return;
	ASSERT_EQ(steps_near(&f, 12), 1, "a ratio of another size: still a step");
	trend_fit_free(&f);
}

/*
 * A CI series of the slow scenario (cycles/elem) on a host whose levels are
 * about 310 and 550: 24 labelled invocations, a BPF burner of 200 ns at
 * every page release from the 13th on.
 */
static const double burner[24] = {
	541,  533,  552,  572,	498,  610,  348,  552,	312,  308,  313,  340,
	1058, 1063, 1166, 1091, 1075, 1252, 1286, 1122, 1124, 1117, 1088, 1041,
};

/* V[0..24), with level probes PROBE (NULL: none), as the results "1".."24", fitted. */
static bool fit_values(const double *v, const double *probe, struct series *s)
{
	struct trend_opts o;
	struct fake f;
	char err[256], lab[8];

	memset(s, 0, sizeof(*s));
	trend_opts_default(&o);
	for (int i = 0; i < 24; i++) {
		snprintf(lab, sizeof(lab), "%d", i + 1);
		fake_result(&f, i, lab, "2026-12-01T10:00:00Z", v[i]);
		f.sc.level_probe_ns = probe ? probe[i] : 0;
		if (!ASSERT_OK(series_add(s, &f.r, false, err, sizeof(err)), "add"))
			return false;
	}
	return ASSERT_OK(series_finish(s, SERIES_GIVEN, err, sizeof(err)), "finish") &&
	       ASSERT_OK(series_fit(s, &o), "fit");
}

/* V[0..24) fitted and gated as CI would (3 %, window 12). */
static size_t gate_values(const double *v, struct series *s, struct series_hit *hits, size_t max)
{
	if (!fit_values(v, NULL, s))
		return SIZE_MAX;
	return series_gate(s, SFIG_CYCLES, 3, 12, hits, max);
}

/*
 * The burner's doubling is a step between the 12th and 13th invocations,
 * gated, whichever level the 12th sits on: as recorded (low), low after an
 * 11th on the high level (363, as a second run had it), or high. No level
 * is wider than the ratio between the host's levels.
 */
void test_trend_burner_gated(void)
{
	static const struct {
		size_t i[2];
		double v[2];
	} twist[] = { { { 0, 0 }, { 541, 541 } },
		      { { 10, 11 }, { 552, 363 } },
		      { { 11, 11 }, { 552, 552 } } };

	for (size_t t = 0; t < sizeof(twist) / sizeof(twist[0]); t++) {
		struct series_hit hits[4];
		const struct trend_fit *f;
		struct series s;
		double v[24];
		size_t n;

		memcpy(v, burner, sizeof(v));
		v[twist[t].i[0]] = twist[t].v[0];
		v[twist[t].i[1]] = twist[t].v[1];
		n = gate_values(v, &s, hits, 4);
		f = &s.figs[0].fit;
		if (n != SIZE_MAX && ASSERT_EQ(n, 1, "one regression") &&
		    ASSERT_FALSE(hits[0].unstable, "a step: gated")) {
			ASSERT_EQ(hits[0].cp->at, 12, "first point after: the 13th");
			ASSERT_TRUE(hits[0].cp->change_pct > 50, "at least +50 %");
		}
		ASSERT_EQ(f->status, TREND_CHANGED, "changed");
		ASSERT_NEAR(f->levels.ratio, 1.8, 0.15, "the host's levels' ratio, from the data");
		for (size_t k = 0; k < f->levels.nlevels; k++)
			ASSERT_TRUE(f->levels.lv[k].hi / f->levels.lv[k].lo <= f->levels.ratio,
				    "no level wider than that");
		series_free(&s);
	}
}

/* The same host without the burner: twelve more invocations on its two levels. */
void test_trend_no_burner_quiet(void)
{
	static const double tail[12] = {
		547, 318, 529, 305, 561, 336, 590, 311, 544, 521, 327, 507
	};
	struct series_hit hits[4];
	struct series s;
	double v[24];

	memcpy(v, burner, 12 * sizeof(*v));
	memcpy(v + 12, tail, sizeof(tail));
	if (ASSERT_EQ(gate_values(v, &s, hits, 4), 0, "no regression")) {
		ASSERT_EQ(s.figs[0].fit.ncps, 0, "no change point");
		ASSERT_EQ(s.figs[0].fit.levels.nlevels, 2, "the host's two levels");
	}
	series_free(&s);
}

/*
 * Steps of +50 % and +100 % on a host whose levels are 1.8x apart (taken at
 * random), 100 series a case: a step within a point of its place and above
 * the gate's 3 %, nearly always, with 4 points after it (the least --min-run
 * allows) too: there a new level of one or two points is outliers or joins
 * an old level's cluster, and only the run of points on no old level finds
 * the step. At 12 of 24 the first point after it is the oldest a window of
 * 12 holds: one point early and the gate would not see it.
 */
void test_trend_big_steps_found(void)
{
	static const struct {
		size_t at, want;
	} place[] = { { 6, 95 }, { 12, 95 }, { 18, 95 }, { 20, 95 } };

	for (double step = 0.5; step < 1.1; step += 0.5)
		for (size_t p = 0; p < sizeof(place) / sizeof(place[0]); p++) {
			size_t found = 0, exact = 0;

			for (uint64_t seed = 1; seed <= 100; seed++) {
				struct trend_fit f;
				double v[24];

				host_series(v, 24, place[p].at, step, 1.8, WITHIN_SD, 7000 + seed);
				if (!ASSERT_OK(fit(v, 24, &f), "fit"))
					return;
				for (size_t i = 0; i < f.ncps; i++) {
					const struct trend_cp *cp = &f.cps[i];
					bool step_cp = cp->kind == TREND_STEP && cp->change_pct > 3;

					found += step_cp &&
						 labs((long)cp->at - (long)place[p].at) <= 1;
					exact += step_cp && cp->at == place[p].at;
				}
				trend_fit_free(&f);
			}
			if (!ASSERT_TRUE(found >= place[p].want, "found where it is") ||
			    (place[p].at == 12 && !ASSERT_TRUE(exact >= 95, "at its place")) ||
			    (getenv("V") && !strcmp(getenv("V"), "1")))
				fprintf(stderr, "    %+.0f%% at %zu: found %zu, exact %zu of 100\n",
					step * 100, place[p].at, found, exact);
		}
}

/*
 * The same host without a step, 1000 series: the gate (3 %, window 12) never
 * fires, a change point is rare. So too with 3 % noise within a level (500
 * series), where a level's reach is its noise's, not the noise's gap; there
 * the permutation test's alpha may gate one.
 */
void test_trend_aa_levels_quiet(void)
{
	static const struct {
		double sd;
		uint64_t series;
		size_t gated;
	} noise[] = { { WITHIN_SD, 1000, 0 }, { 0.03, 500, 1 } };

	for (size_t k = 0; k < sizeof(noise) / sizeof(noise[0]); k++) {
		size_t cps = 0, gated = 0;

		for (uint64_t seed = 1; seed <= noise[k].series; seed++) {
			struct trend_fit f;
			double v[24];

			host_series(v, 24, 24, 0, 1.8, noise[k].sd, 9000 + seed);
			if (!ASSERT_OK(fit(v, 24, &f), "fit"))
				return;
			cps += f.ncps > 0;
			for (size_t i = 0; i < f.ncps; i++)
				gated += f.cps[i].kind == TREND_STEP && f.cps[i].change_pct > 3 &&
					 f.cps[i].at >= 12;
			trend_fit_free(&f);
		}
		ASSERT_TRUE(gated <= noise[k].gated, "no A/A series gated");
		if (!ASSERT_TRUE(cps * 50 <= noise[k].series, "a change point in <= 2 %") ||
		    (getenv("V") && !strcmp(getenv("V"), "1")))
			fprintf(stderr, "    A/A, %.0f%% noise: %zu of %lu with a change point\n",
				noise[k].sd * 100, cps, (unsigned long)noise[k].series);
	}
}

/*
 * A +50 % step from the 13th of 24 on the 1.8x host, which then stays on its
 * high level from the 20th: that second change point is a level (+1.8 % or
 * -45 %, the figure unstable), and the step is gated all the same.
 */
void test_trend_step_gated_beside_level(void)
{
	struct series_hit hits[4];
	struct series s;
	double v[24];

	host_series(v, 24, 12, 0.5, 1.8, WITHIN_SD, 78);
	if (ASSERT_EQ(gate_values(v, &s, hits, 4), 1, "one regression")) {
		ASSERT_FALSE(hits[0].unstable, "the step: gated");
		ASSERT_EQ(hits[0].cp->at, 12, "where it is");
		ASSERT_EQ(s.figs[0].fit.status, TREND_UNSTABLE, "the level named");
	}
	series_free(&s);
}

/*
 * Two series of 24 bench invocations (slow, cycles/elem, and the level
 * probe's ns per run) recorded on an AMD EPYC host whose kernel-side work
 * moves between levels. Without a burner the host moved to a level 1.5x
 * higher at the 9th and stayed: its loop moved with it, so the step is the
 * host's, named and not gated however wide the window. With a burner from
 * the 13th the loop stayed: a step, gated.
 */
void test_trend_host_level_switch(void)
{
	static const double plain[24] = { 5214, 6194, 5166, 5167, 6723, 5126, 5091, 5143,
					  8225, 8250, 8258, 7973, 7886, 7743, 7763, 8069,
					  7799, 7611, 7453, 7529, 7593, 7972, 7560, 7824 };
	static const double plain_probe[24] = { 19.5, 19.5, 19, 19,   21.5, 18.5, 16,	15.5,
						23,   22.5, 23, 23,   22.5, 23,	  23,	23.5,
						22.5, 22.5, 20, 22.5, 22.5, 22.5, 22.5, 22.5 };
	static const double burn[24] = { 7292, 7616, 8167, 8165, 7910, 7614, 7760, 7462,
					 7260, 7904, 7550, 7750, 8828, 8537, 8577, 8249,
					 8531, 5867, 8670, 9193, 8283, 5925, 8981, 7978 };
	static const double burn_probe[24] = { 21.5, 22.5, 22,	 22.5, 22, 22.5, 22,   23.5,
					       22.5, 23,   23,	 22,   23, 22,	 22,   21.5,
					       21.5, 20.5, 22.5, 21.5, 22, 20.5, 21.5, 21.5 };
	struct series_hit hits[4];
	struct series s;

	if (fit_values(plain, plain_probe, &s) &&
	    ASSERT_TRUE(s.figs[0].fit.ncps >= 1, "the switch is a change point") &&
	    ASSERT_EQ(series_gate(&s, SFIG_CYCLES, 3, 24, hits, 4), 1, "one rise in 24")) {
		ASSERT_EQ(hits[0].cp->at, 8, "at the 9th");
		ASSERT_EQ(hits[0].cp->kind, TREND_HOST, "the host's");
		ASSERT_TRUE(hits[0].unstable, "named, not gated");
		ASSERT_NEAR(hits[0].cp->alt_pct, 21, 3, "the loop's own step");
		ASSERT_EQ(s.figs[0].fit.status, TREND_UNSTABLE, "unstable");
	}
	series_free(&s);
	if (fit_values(plain, NULL, &s) &&
	    ASSERT_EQ(series_gate(&s, SFIG_CYCLES, 3, 24, hits, 4), 1, "no probes: one rise"))
		ASSERT_EQ(hits[0].cp->kind, TREND_STEP, "no probes: a step");
	series_free(&s);
	if (fit_values(burn, burn_probe, &s) &&
	    ASSERT_EQ(series_gate(&s, SFIG_CYCLES, 3, 12, hits, 4), 1, "the burner")) {
		ASSERT_EQ(hits[0].cp->at, 12, "at the 13th");
		ASSERT_EQ(hits[0].cp->kind, TREND_STEP, "a step");
		ASSERT_FALSE(hits[0].unstable, "gated");
	}
	series_free(&s);
}
