// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench-bisect (also 'ppbench bisect'): one step of `git bisect run`, in a
 * kernel tree: configure, build, boot under ppbench vm with bench, compare
 * with the baseline, and exit as git reads it (compare/bisect_status.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "bisect/bisect_run.h"
#include "vm/vm_run.h"
#include "compare/bisect_status.h"
#include "model/scenario.h"
#include "sys/log.h"
#include "sys/util.h"

enum { OPT_SCENARIO = 1, OPT_LIMIT };

#define B(m) CLI_MEMBER(struct bisect_cfg, m)

static const struct cli_word arches[] = {
	{ "x86-64", VM_ARCH_X86_64 },
	{ "arm64", VM_ARCH_ARM64 },
	{ NULL },
};

static const struct cli_opt bisect_opts[] = {
	{ "baseline", 'b', "FILE",
	  "the good kernel's result: 'ppbench vm --kernel IMAGE -- bench --json FILE' of a "
	  "kernel built the same way (--limit alone needs none)",
	  .kind = CLI_STRING, B(baseline) },
	{ "scenario", 's', "LIST",
	  "the scenarios bench runs in each kernel and compare gates (ring, fast, slow; "
	  "comma-separated)",
	  OPT_SCENARIO },
	CMP_GATE_OPTS(struct bisect_cfg, g, OPT_LIMIT),
	{ "config", 'c', "FILE",
	  "merge the fragment over this config instead of the architecture's defconfig",
	  .kind = CLI_STRING, B(config) },
	{ "fragment", 'F', "FILE",
	  "the config fragment (default: ppbench's, ppbench.config beside vm's scripts)",
	  .kind = CLI_STRING, B(fragment) },
	{ "build-dir", 'O', "DIR", "build in DIR (make O=DIR; default: in the tree)",
	  .kind = CLI_STRING, B(build_dir) },
	{ "out", 'o', "DIR",
	  "where each step's result (HASH.json) and log (HASH.log) go (default .ppbench-bisect)",
	  .kind = CLI_STRING, B(out) },
	{ "arch", 'a', NULL,
	  "the kernel's architecture: x86-64 (bzImage) or arm64 (Image, cross-built with "
	  "aarch64-linux-gnu-) (default x86-64)",
	  .kind = CLI_ENUM, B(arch), .words = arches },
	{ "jobs", 'j', "N", "make -jN (default: the online CPUs)", .kind = CLI_UINT, B(jobs),
	  .min = 1, .max = 4096 },
	{ "repeat", 'r', "N", "bench --repeat in each kernel (default: bench's)", .kind = CLI_UINT,
	  B(repeat), .min = 1, .max = 1000 },
	{ NULL },
};

static void bisect_init(void *c)
{
	struct bisect_cfg *cfg = c;

	cmp_gate_init(&cfg->g);
	cfg->g.bisect = true;
	cfg->out = ".ppbench-bisect";
}

static int check_scenarios(const char *arg)
{
	char err[256];

	if (strlen(arg) >= sizeof(err)) {
		pr_err("--scenario: list too long\n");
		return -EINVAL;
	}
	if (scenario_list_parse(arg, NULL, err, sizeof(err))) {
		pr_err("%s\n", err);
		return -EINVAL;
	}
	return 0;
}

static int bisect_opt(void *c, int key, const char *arg)
{
	struct bisect_cfg *cfg = c;

	if (key == OPT_SCENARIO) {
		cfg->scenario = arg;
		return check_scenarios(arg);
	}
	return cmp_gate_limit(&cfg->g, arg);
}

static int bisect_check(void *c, int argc, char **argv)
{
	struct bisect_cfg *cfg = c;

	(void)argc;
	(void)argv;
	if (!cfg->baseline && cfg->g.gate) {
		pr_err("--fail-above compares with a baseline: give --baseline FILE, the good "
		       "kernel's bench result\n");
		return EXIT_USAGE;
	}
	if (!cfg->scenario) {
		pr_err("no scenario: give --scenario LIST, what bench runs and compare gates\n");
		return EXIT_USAGE;
	}
	if (!cfg->g.gate && !cfg->g.nlimits) {
		pr_err("nothing decides good from bad: give --fail-above PCT or --limit\n");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int bisect_run(void *c, int argc, char **argv)
{
	struct bisect_cfg *cfg = c;
	char fragment[4096];
	struct bisect_outcome o;
	struct bisect_line s;

	(void)argc;
	(void)argv;
	if (!cfg->fragment) {
		bisect_default_fragment(fragment, sizeof(fragment));
		cfg->fragment = fragment;
	}
	bisect_step(cfg, &o);
	s = (struct bisect_line){
		.commit = o.commit,
		.status = o.status,
		.why = o.why,
		.build_s = o.build_s,
		.boot_s = o.boot_s,
		.log = o.log[0] && file_exists(o.log) ? o.log : NULL,
	};
	bisect_print_step(stdout, &s);
	return o.status;
}

/* Every command line of it is git bisect run's: a mistake stops the bisection. */
static bool bisect_always(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return true;
}

const struct cli_cmd cmd_bisect = {
	.name = "bisect",
	.args = NULL,
	.summary = "one step of 'git bisect run' in a kernel tree: build, boot, bench, compare",
	.description =
		"Run from the top of a kernel tree as git bisect run's command, installed as\n"
		"ppbench-bisect:\n"
		"\n"
		"  git bisect run ppbench-bisect --baseline base.json --noise noise.json \\\n"
		"      --scenario slow --fail-above 0.5\n"
		"\n"
		"Each step configures the kernel with ppbench's config fragment (the kernel's\n"
		"scripts/kconfig/merge_config.sh over the architecture's defconfig, or over\n"
		"--config), builds it incrementally, boots it as 'ppbench vm' does running\n"
		"'bench --scenario LIST', judges the result against the baseline as\n"
		"'compare --bisect' does, prints one line saying what it decided and why, and\n"
		"exits as git bisect run reads it:\n"
		"  0    good: no gate fired\n"
		"  1    bad: --fail-above's rule or a --limit fired\n"
		"  125  skip: the kernel could not be measured - the config did not merge,\n"
		"       the build failed, the kernel did not boot or bench failed in it, or\n"
		"       its result lacks the gated figure\n"
		"  128  stop: what would fail every step the same way - the command line (an\n"
		"       option unknown or abbreviated), not a kernel tree, a tool or file the\n"
		"       build or the boot needs missing here, this machine failing during a\n"
		"       step (a command not found, a full disk, vm's own failures), the\n"
		"       baseline without the scenario, a noise profile of another kernel, a\n"
		"       limit the baseline already exceeds\n"
		"Before the first build of every step it checks what the step needs of this\n"
		"machine and the baseline against itself (compare --bisect), so a mistake\n"
		"stops the bisection at once. Each step's result (HASH.json) and log (config,\n"
		"build, boot, compare) are kept in --out.",
	.examples = "  # once, on the good commit: the baseline and its noise\n"
		    "  scripts/kconfig/merge_config.sh arch/x86/configs/x86_64_defconfig \\\n"
		    "      /usr/local/lib/ppbench/vm/ppbench.config && make -j2 bzImage\n"
		    "  ppbench vm --kernel arch/x86/boot/bzImage -- bench --scenario slow --json "
		    "/tmp/base.json\n"
		    "  ppbench vm --kernel arch/x86/boot/bzImage -- calibrate --runs 5 --scenario "
		    "slow -o /tmp/noise.json\n"
		    "  git bisect start BAD GOOD\n"
		    "  git bisect run ppbench-bisect --baseline /tmp/base.json --noise "
		    "/tmp/noise.json --scenario slow --fail-above 0.5\n"
		    "  # a hard limit instead: no noise profile needed\n"
		    "  git bisect run ppbench-bisect --baseline /tmp/base.json --scenario fast "
		    "--limit fast:path=70\n",
	.opts = bisect_opts,
	.cfg_size = sizeof(struct bisect_cfg),
	.cfg_init = bisect_init,
	.opt = bisect_opt,
	.check = bisect_check,
	.run = bisect_run,
	.for_bisect = bisect_always,
};
