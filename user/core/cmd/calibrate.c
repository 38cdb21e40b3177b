// SPDX-License-Identifier: GPL-2.0
/* ppbench calibrate: the noise profile compare --noise and trend --noise judge changes by. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "engine/calibrate_run.h"
#include "loader/kfeatures.h"
#include "model/bench_types.h"
#include "model/noise.h"
#include "model/result.h"
#include "model/by_counter.h"
#include "model/scenario.h"
#include "model/spread.h"
#include "report/report.h"
#include "sys/log.h"
#include "sys/pmu.h"
#include "sys/runlock.h"

enum { OPT_SCENARIO = 1 };

#define K(m) CLI_MEMBER(struct calibrate_cfg, m)

static const struct cli_opt calibrate_opts[] = {
	{ "output", 'o', "FILE", "write the noise profile (JSON, schema ppbench-noise/1) to FILE",
	  .kind = CLI_OUTPUT, K(output) },
	{ "runs", 'n', "N", "bench invocations, each its own process (default 12)",
	  .kind = CLI_UINT, K(runs), .min = 2, .max = 1000 },
	{ "duration", 'd', "SECONDS",
	  "spread the runs' starts evenly over this long, so that they meet the host's "
	  "levels (default 240; runs that take longer than their share start late)",
	  .kind = CLI_SECONDS, K(duration), .dmin = 0, .dmax = 86400 },
	{ "scenario", 's', "LIST", "scenarios, as bench --scenario (default: all)", OPT_SCENARIO },
	{ "repeat", 'r', "N",
	  "setups per run, as bench --repeat (default 5: what bench does by default, so "
	  "the profile describes default runs)",
	  .kind = CLI_UINT, K(repeat), .min = 1, .max = 1000 },
	{ "loops", 'l', "N", "timed elements per setup, as bench --loops (default: bench's)",
	  .kind = CLI_UINT, K(loops), .min = 1000, .max = 1000000000 },
	{ "cpu", 'c', "N", "CPU to run on, as bench --cpu (default 0)", .kind = CLI_CPU, K(cpu) },
	{ "keep", 0, "DIR", "keep the runs' bench results (run-NN.json) in DIR", .kind = CLI_STRING,
	  K(keep), .flags = CLI_F_OUTDIR },
	{ "counter", 0, "NAME",
	  "profile the hardware counter NAME (the runs are bench --counters): " PMU_COUNTER_NAMES
	  ", for compare --counter NAME --noise",
	  .kind = CLI_STRING, K(counter) },
	{ "quiet", 'q', NULL, "no progress line", .kind = CLI_FLAG, K(quiet) },
	{ NULL },
};

static void calibrate_init(void *c)
{
	struct calibrate_cfg *cfg = c;

	cfg->runs = CALIBRATE_RUNS;
	cfg->repeat = BENCH_REPEAT;
	cfg->duration = CALIBRATE_DURATION_S;
}

/* Checked here so that a typo fails at once, not in the first bench run. */
static int calibrate_opt(void *c, int key, const char *arg)
{
	struct calibrate_cfg *cfg = c;
	char err[256];

	if (key != OPT_SCENARIO)
		return -EINVAL;
	if (scenario_list_parse(arg, NULL, err, sizeof(err))) {
		pr_err("%s\n", err);
		return -EINVAL;
	}
	cfg->scenario = arg;
	return 0;
}

static int calibrate_check(void *c, int argc, char **argv)
{
	struct calibrate_cfg *cfg = c;

	(void)argc;
	(void)argv;
	if (!cfg->output || !strcmp(cfg->output, "-")) {
		pr_err("no profile file: give -o FILE\n");
		return EXIT_USAGE;
	}
	if (cfg->counter) {
		char why[200];
		struct pmu p;

		if (!counter_name_ok(cfg->counter, why, sizeof(why)) ||
		    pmu_open(&p, !pmu_counter_instructions(pmu_counter_by_name(cfg->counter)), why,
			     sizeof(why))) {
			pr_err("--counter: %s\n", why);
			return EXIT_USAGE;
		}
		pmu_close(&p);
	}
	return EXIT_OK;
}

static int calibrate_run(void *c, int argc, char **argv)
{
	struct calibrate_cfg *cfg = c;
	struct calibration cal = {};
	int err;

	(void)argc;
	(void)argv;
	/* Held for the whole calibration: its bench runs (children) go ahead,
	 * anyone else's bench waits or refuses, so no run of another spoils it. */
	if (run_lock_take("calibrate", false) || calibrate_main(cfg, &cal))
		return EXIT_FAIL;
	err = noise_write(&cal.p, cfg->output, "ppbench calibrate");
	if (!err)
		calibrate_report(&cal.p, cfg->output);
	calibrate_free(&cal);
	return err ? EXIT_FAIL : EXIT_OK;
}

/* The figures ppbench-calibrate(8) states (@{NAME}), from the constants calibrate uses. */
static int calibrate_figures(struct cli_fig *f)
{
	/* two runs of two scenarios: the widest t a profile's floor takes */
	double p2 = 1 - NOISE_ALPHA / 2 / 2;
	const struct cli_fig v[] = {
		{ "runs", CALIBRATE_RUNS },
		{ "repeat", BENCH_REPEAT },
		{ "duration", CALIBRATE_DURATION_S },
		{ "floor_min", unit_floor_pct("cycles") },
		{ "floor_min_instr", unit_floor_pct("instructions") },
		{ "alpha_pct", NOISE_ALPHA * 100 },
		{ "alpha_half", NOISE_ALPHA / 2 },
		{ "t2_p", p2 },
		{ "t2", round(t_quantile(p2, 1) * 10) / 10 },
	};

	return CLI_FIGURES(f, v);
}

const struct cli_cmd cmd_calibrate = {
	.name = "calibrate",
	.summary = "this host's noise between bench runs: the profile compare --noise uses",
	.description =
		"Measure how much bench figures move from one invocation to the next on this\n"
		"host, the way a CI job meets it: --runs separate 'ppbench bench --json'\n"
		"processes whose starts are spread evenly over --duration seconds (a VM's host\n"
		"runs kernel-side work on levels that last seconds to minutes; runs close\n"
		"together sample one level). Per scenario it records the runs' figures (each\n"
		"run's median of setups): median, min, max, the CV between runs and inside them,\n"
		"the levels the runs sit on, the largest change between two runs, and the\n"
		"floor: what a change between two single runs must exceed to be told from this\n"
		"noise - the largest of 1% (0.1% of instructions under qemu's instruction\n"
		"clock, ppbench vm), the largest change seen, and t(1 - 0.025/k, n-1)\n"
		"x sqrt(2) x the CV between runs, where k is the number of scenarios: the gate\n"
		"fires on any of them, so each gets a k-th of the 5% false alarms. The profile\n"
		"also records the host (CPU model, TSC Hz, kernel release and build,\n"
		"mitigations, kernel config) and when it was taken; compare refuses it for\n"
		"files of another host or kernel.\n"
		"\n"
		"A profile describes its hour: a level the host did not show meanwhile is not\n"
		"in it (compare notes files far outside what the profile saw). On a noisy\n"
		"machine the floors are large, and that is what they should say.",
	.examples =
		"  ppbench calibrate -o noise.json\n"
		"  ppbench calibrate --runs 20 --duration 600 --scenario ring,slow -o noise.json\n"
		"  ppbench compare --noise noise.json --fail-above 5 base.json new.json\n",
	.figures = calibrate_figures,
	.opts = calibrate_opts,
	.cfg_size = sizeof(struct calibrate_cfg),
	.cfg_init = calibrate_init,
	.opt = calibrate_opt,
	.check = calibrate_check,
	.needs = PPB_NEED_ROOT | PPB_NEED_BTF | PPB_NEED_KCONFIG,
	.run = calibrate_run,
};
