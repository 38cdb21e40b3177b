// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench compare: before/after tables of `bench --json` results in the style
 * of kernel regression reports (old ±%stddev %change new ±%stddev), with a
 * significance test on the per-setup values and an exit code for CI gates.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "model/counterview.h"
#include "model/compare_stats.h"
#include "report/compare_report.h"
#include "sys/log.h"
#include "sys/util.h"

#define MAX_FILES 64

enum { SIDE_POS, SIDE_OLD, SIDE_NEW };

enum { OPT_OLD = 1, OPT_NEW };

struct cmp_cfg {
	const char *files[3][MAX_FILES];
	size_t nfiles[3];
	int side; /* where the next bare file goes */
	bool force, markdown, bpp, org, ktap, gate, gate_unstable;
	double fail_above, alpha;
	enum fig metric;
	enum sig_test test;
	const char *json;
	const char *noise;   /* --noise PROFILE */
	const char *counter; /* --counter NAME: the files' view (model/counterview.h) */
};

static const struct cli_word metrics[] = {
	{ "cycles", FIG_CYCLES }, { "ns", FIG_NS }, { "path", FIG_PATH },
	{ "purity", FIG_PURITY }, { NULL },
};

static const struct cli_word tests[] = {
	{ "welch", TEST_WELCH },
	{ "mann-whitney", TEST_MANN_WHITNEY },
	{ NULL },
};

#define C(m) CLI_MEMBER(struct cmp_cfg, m)

static const struct cli_opt compare_opts[] = {
	{ "old", 0, "FILE", "a baseline file; the files after it, up to --new, join the old side",
	  OPT_OLD },
	{ "new", 0, "FILE", "a file of the new side; the files after it join it too", OPT_NEW },
	{ "force", 'f', NULL, "compare even when TSC Hz or CPU model say the hosts differ",
	  .kind = CLI_FLAG, C(force) },
	{ "fail-above", 0, "PCT",
	  "exit 3 if the gating rule finds a regression on --metric above PCT %",
	  .kind = CLI_NUMBER, C(fail_above), .dmin = 0, .dmax = 1e9, CLI_MARK(struct cmp_cfg, gate),
	  .flags = CLI_F_PERCENT | CLI_F_PROSE_RANGE },
	{ "noise", 0, "PROFILE",
	  "this host's noise between invocations, from 'ppbench calibrate -o PROFILE': what "
	  "a comparison of one file a side is judged against",
	  .kind = CLI_STRING, C(noise) },
	{ "counter", 0, "NAME",
	  "compare the hardware counter NAME of bench --counters files instead of the clock's "
	  "figure: kernel_instructions, user_instructions, kernel_cycles or user_cycles, per "
	  "element (a --noise profile must be of that counter: calibrate --counter)",
	  .kind = CLI_STRING, C(counter) },
	{ "gate-unstable", 0, NULL,
	  "gate figures whose setups sit on two or more levels on their medians' change, "
	  "even where the levels explain it",
	  .kind = CLI_FLAG, C(gate_unstable) },
	{ "metric", 0, NULL, "figure --fail-above gates (default cycles)", .kind = CLI_ENUM,
	  C(metric), .words = metrics },
	{ "test", 0, NULL, "significance test (default welch)", .kind = CLI_ENUM, C(test),
	  .words = tests },
	{ "alpha", 0, "P", "significance level, 0 < P < 0.5 (default 0.05)", .kind = CLI_NUMBER,
	  C(alpha), .dmin = 1e-9, .dmax = 0.5, .flags = CLI_F_PROSE_RANGE },
	{ "markdown", 'm', NULL, "print Markdown tables (for mail or an issue) instead of text",
	  .kind = CLI_FLAG, C(markdown) },
	{ "bpp", 0, NULL, "print bench_page_pool_simple-style fast/ptr_ring/slow tables",
	  .kind = CLI_FLAG, C(bpp) },
	{ "org", 0, NULL,
	  "print the page_pool maintainers' Org table: cycles and ns before, after, diff, and "
	  "% change, with a #+TBLFM line that recomputes them",
	  .kind = CLI_FLAG, C(org) },
	{ "ktap", 0, NULL,
	  "print the verdicts as KTAP version 1 (kselftest, netdev CI): one test per scenario "
	  "of --metric",
	  .kind = CLI_FLAG, C(ktap) },
	CLI_OPT_JSON(struct cmp_cfg, json,
		     "also write the comparison as JSON to FILE ('-': stdout only)"),
	{ NULL },
};

static void compare_init(void *c)
{
	struct cmp_cfg *cfg = c;

	cfg->alpha = 0.05;
	cfg->metric = FIG_CYCLES;
	cfg->test = TEST_WELCH;
}

static int add_file(struct cmp_cfg *cfg, int side, const char *path)
{
	if (cfg->nfiles[side] == MAX_FILES) {
		pr_err("too many files on one side (at most %d)\n", MAX_FILES);
		return -E2BIG;
	}
	cfg->files[side][cfg->nfiles[side]++] = path;
	return 0;
}

/* Files, and --old/--new that decide where the files after them go. */
static int compare_opt(void *c, int key, const char *arg)
{
	struct cmp_cfg *cfg = c;

	if (key == CLI_KEY_ARG)
		return add_file(cfg, cfg->side, arg);
	if (cfg->nfiles[SIDE_POS]) {
		pr_err("'%s' comes before %s: put every file after --old or --new, or use "
		       "neither\n",
		       cfg->files[SIDE_POS][0], key == OPT_OLD ? "--old" : "--new");
		return -EINVAL;
	}
	cfg->side = key == OPT_OLD ? SIDE_OLD : SIDE_NEW;
	return add_file(cfg, cfg->side, arg);
}

static void free_results(struct result *r, size_t n)
{
	for (size_t i = 0; r && i < n; i++)
		result_free(&r[i]);
	free(r);
}

/* Loads FILES; on the first bad one prints its one-line error and returns NULL. */
static struct result *load_files(const char *const *files, size_t n, const char *counter)
{
	struct result *r = calloc(n, sizeof(*r));
	char err[512];

	for (size_t i = 0; r && i < n; i++) {
		if (result_load_view(files[i], &r[i], counter, err, sizeof(err))) {
			pr_err("%s\n", err);
			free_results(r, i);
			return NULL;
		}
	}
	return r;
}

/* TSC Hz and CPU model must match: otherwise cycles measure different clocks. */
static int check_host(const struct result *base, const struct result *r, bool force)
{
	const struct result_host *a = &base->host, *b = &r->host;
	double hi = fmax(a->tsc_hz, b->tsc_hz);
	double apart = hi > 0 ? fabs(a->tsc_hz - b->tsc_hz) / hi : 0;
	char why[512];

	/* not even with --force: an instruction is no cycle */
	if (result_same_clock(base, r, why, sizeof(why))) {
		pr_err("%s: figures of two clocks never compare\n", why);
		return -EXDEV;
	}
	if (strcmp(a->cpu_model, b->cpu_model))
		snprintf(why, sizeof(why), "CPU model \"%s\" vs \"%s\"", a->cpu_model,
			 b->cpu_model);
	else if (apart > 0.01)
		snprintf(why, sizeof(why), "TSC %.0f Hz vs %.0f Hz (%.1f%% apart, more than 1%%)",
			 a->tsc_hz, b->tsc_hz, apart * 100);
	else
		return 0;
	if (!force) {
		pr_err("%s and %s come from different hosts: %s; use --force to compare anyway\n",
		       base->path, r->path, why);
		return -EINVAL;
	}
	pr_warn("%s and %s come from different hosts: %s; comparing anyway (--force)\n", base->path,
		r->path, why);
	return 0;
}

/*
 * The profile must describe the host and kernel of the baseline (the new
 * side may run another kernel: that is what is being compared).
 */
static int load_profile(const struct cmp_cfg *cfg, const struct result *base,
			struct noise_profile *p)
{
	char err[512], why[384];

	if (noise_load(cfg->noise, p, err, sizeof(err))) {
		pr_err("%s\n", err);
		return -EINVAL;
	}
	if (noise_clock_check(p, cfg->noise, base, why, sizeof(why))) {
		pr_err("%s: a profile of one clock cannot judge figures of another\n", why);
		noise_free(p);
		return -EXDEV;
	}
	if (!noise_host_check(p, base, why, sizeof(why)))
		return 0;
	if (cfg->force) {
		pr_warn("noise profile %s is of another host than %s: %s; using it anyway "
			"(--force)\n",
			cfg->noise, base->path, why);
		return 0;
	}
	pr_err("noise profile %s is of another host or kernel than %s: %s; run 'ppbench "
	       "calibrate' there (--force uses it anyway)\n",
	       cfg->noise, base->path, why);
	noise_free(p);
	return -EINVAL;
}

/* --fail-above on one file a side needs the noise between invocations from somewhere. */
static int check_gate(const struct cmp_cfg *cfg, const struct cmp_set *set)
{
	for (size_t i = 0; cfg->gate && i < set->n; i++) {
		const struct comparison *c = &set->cmps[i];

		if (c->noise != NOISE_SETUPS)
			continue;
		pr_err("--fail-above cannot decide with %s: one invocation does not show "
		       "how much the next one differs; give --noise PROFILE (from 'ppbench "
		       "calibrate -o PROFILE') or two or more files a side (--old A1 A2 A3 --new "
		       "B1 B2 B3)\n",
		       c->nold == 1 && c->nnew == 1 ? "one file a side" : "one file on a side");
		return -EINVAL;
	}
	return 0;
}

static int run_comparisons(struct cmp_cfg *cfg, struct result *all, size_t nall,
			   const struct noise_profile *profile)
{
	struct cmp_opts o = { .test = cfg->test, .alpha = cfg->alpha, .profile = profile };
	struct cmp_set set = {
		.opts = &o,
		.gate = cfg->gate,
		.gate_unstable = cfg->gate_unstable,
		.metric = cfg->metric,
		.fail_above = cfg->fail_above,
	};
	size_t nold = cfg->nfiles[SIDE_POS] ? 1 : cfg->nfiles[SIDE_OLD];
	size_t ncmp = cfg->nfiles[SIDE_POS] ? nall - 1 : 1;
	int ret;

	set.cmps = calloc(ncmp, sizeof(*set.cmps));
	if (!set.cmps)
		return EXIT_FAIL;
	for (size_t i = 0; i < ncmp; i++, set.n++) {
		struct comparison *c = &set.cmps[i];

		c->old = all;
		c->nold = nold;
		c->new = cfg->nfiles[SIDE_POS] ? &all[1 + i] : &all[nold];
		c->nnew = cfg->nfiles[SIDE_POS] ? 1 : nall - nold;
		if (comparison_build(c, &o)) {
			pr_err("comparing failed: out of memory\n");
			ret = EXIT_FAIL;
			goto out;
		}
	}
	if (check_gate(cfg, &set)) {
		ret = EXIT_USAGE;
		goto out;
	}
	ret = compare_output(&set,
			     (cfg->markdown ? CMP_OUT_MARKDOWN : 0) | (cfg->bpp ? CMP_OUT_BPP : 0) |
				     (cfg->org ? CMP_OUT_ORG : 0) | (cfg->ktap ? CMP_OUT_KTAP : 0),
			     cfg->json);
	if (ret == EXIT_OK && cfg->gate)
		ret = compare_gate(&set);
out:
	for (size_t i = 0; i < set.n; i++)
		comparison_free(&set.cmps[i]);
	free(set.cmps);
	return ret;
}

static int check_args(const struct cmp_cfg *cfg)
{
	if (cfg->nfiles[SIDE_POS] == 1) {
		pr_err("needs at least two result files: OLD.json NEW.json\n");
		return -EINVAL;
	}
	if (!cfg->nfiles[SIDE_POS] && (!cfg->nfiles[SIDE_OLD] || !cfg->nfiles[SIDE_NEW])) {
		pr_err("needs %s\n", cfg->nfiles[SIDE_OLD]   ? "--new FILE too"
				     : cfg->nfiles[SIDE_NEW] ? "--old FILE too"
							     : "result files: OLD.json NEW.json");
		return -EINVAL;
	}
	if (cfg->json && !strcmp(cfg->json, "-") && (cfg->markdown || cfg->bpp || cfg->org)) {
		pr_err("--json - prints only JSON: it cannot go with --markdown, --bpp or --org\n");
		return -EINVAL;
	}
	if (cfg->ktap &&
	    (cfg->markdown || cfg->bpp || cfg->org || (cfg->json && !strcmp(cfg->json, "-")))) {
		pr_err("--ktap prints only KTAP: it cannot go with --markdown, --bpp, --org or "
		       "--json -\n");
		return -EINVAL;
	}
	return 0;
}

static int compare_run(void *c, int argc, char **argv)
{
	struct cmp_cfg *cfg = c;
	const char *files[2 * MAX_FILES];
	struct noise_profile profile = { 0 };
	struct result *all;
	size_t n = 0;
	int ret = EXIT_USAGE;

	(void)argc;
	(void)argv;
	if (check_args(cfg))
		return EXIT_USAGE;
	for (int s = SIDE_POS; s <= SIDE_NEW; s++)
		for (size_t i = 0; i < cfg->nfiles[s]; i++)
			files[n++] = cfg->files[s][i];
	all = load_files(files, n, cfg->counter);
	if (!all)
		return EXIT_USAGE;
	for (size_t i = 1; i < n; i++)
		if (check_host(&all[0], &all[i], cfg->force))
			goto out;
	if (cfg->noise && load_profile(cfg, &all[0], &profile))
		goto out;
	ret = run_comparisons(cfg, all, n, cfg->noise ? &profile : NULL);
	noise_free(&profile);
out:
	free_results(all, n);
	return ret;
}

const struct cli_cmd cmd_compare = {
	.name = "compare",
	.args = "OLD.json NEW.json... | --old FILE... --new FILE...",
	.summary = "before/after table of bench results, with significance and a CI gate",
	.description =
		"Compare 'ppbench bench --json' result files the way kernel regression\n"
		"reports do: one row per scenario and figure - cycles/elem, ns/elem, the\n"
		"derived path figure (path_cost_cycles), path purity, and per-CPU cycles/elem\n"
		"where a file has them - with the mean over the setups (with --noise their\n"
		"median, which is what the profile measured of each run; with two or more\n"
		"files a side the mean of the files' medians), its relative standard\n"
		"deviation and the change:\n"
		"\n"
		"           old  ±%stddev    %change          new  ±%stddev  figure\n"
		"\n"
		"Files. With plain file arguments the first is the baseline and every later\n"
		"file is compared with it, one table each. With --old and --new, the files\n"
		"after --old (up to --new) form the old side and those after --new the new\n"
		"side. Every file is checked against the ppbench/1 schema first.\n"
		"\n"
		"Noise. Before and after are different invocations, so a verdict needs the\n"
		"noise between invocations; the output says which noise it used:\n"
		"  files    two or more files a side: each file's median of setups is one\n"
		"           value, tested between the files; the setups' spread inside the\n"
		"           files is shown as the within part\n"
		"  profile  one file a side with --noise PROFILE (ppbench calibrate): the\n"
		"           change is tested against the profile's spread between\n"
		"           invocations and must reach its floor for that scenario\n"
		"  setups   one file a side, no profile: only the setups inside each file\n"
		"           are known; the marks say how the setups differ, and --fail-above\n"
		"           refuses to decide (exit 2)\n"
		"A profile from another CPU, TSC, kernel, kernel build, mitigation or config\n"
		"than the baseline's is refused (exit 2) unless --force.\n"
		"\n"
		"Significance. With files or setups, each row is tested with a two-sided\n"
		"Welch's t-test (unequal variances), or a Mann-Whitney U test with --test\n"
		"mann-whitney, at level --alpha (0.05). A change is real when it is\n"
		"significant and at least the floor: the larger of 1% and the smallest change\n"
		"the two sides' own spread lets the test detect with 90% power (for setups\n"
		"the 'mde_pct' bench prints); with a profile, the profile's floor. Real\n"
		"changes are marked '*', significant ones below the floor '~'. A figure\n"
		"whose setups sit on two or more levels inside a file (gaps wider than 3% and\n"
		"five times the usual gap) is unstable, 'u': its median may sit on either\n"
		"level. Rows with fewer than 2 values on a side are marked '?' and never\n"
		"count: path and purity have one value per file, so put several files on each\n"
		"side to test them. Files from an older ppbench, whose runs shared one setup,\n"
		"are named in a note: their spread is too small.\n"
		"\n"
		"Hosts. Cycles from machines whose TSC frequencies differ by more than 1%, or\n"
		"whose CPU models differ, do not compare: such files are refused (exit 2)\n"
		"unless --force. Differences in kernel release, kernel config, mitigations,\n"
		"clock source, CPU count, fentry/live-frames support and in scenario recipes\n"
		"are listed above the table - they are usually the point of the comparison.\n"
		"\n"
		"CI gate. --fail-above PCT (with files or a profile, see Noise) exits 3 when\n"
		"the gating rule (ppbench-compare(8), 'The gating rule') fires on --metric\n"
		"(higher cycles, ns or path cycles is worse; lower purity is worse), and names\n"
		"each row on stderr; otherwise the status is 0. Calibrate the CI machine once\n"
		"per kernel, keep a baseline result from the reference kernel (or several),\n"
		"and let the job fail on exit 3.\n"
		"\n"
		"Formats. The text table fits 100 columns. --markdown prints the same as\n"
		"Markdown (real changes in bold, p-values in a column) for a\n"
		"mailing-list reply or an issue. --bpp prints the bench_page_pool_simple view:\n"
		"fast, ptr_ring (scenario ring) and slow, with cycles and ns before, after and\n"
		"the change; its rule line makes it a valid org-mode table as well. --org\n"
		"prints the page_pool maintainers' Org table (cycles and ns before, after,\n"
		"diff, % change) with a #+TBLFM line that recomputes its diff and % columns.\n"
		"--ktap prints the verdicts as KTAP version 1 for kselftest and netdev's CI:\n"
		"a test per scenario of --metric, 'not ok' where the gate fired, '# SKIP'\n"
		"where nothing decides. --json writes every row with both summaries, the\n"
		"change, p, significance, floor, levels and the gate verdict (schema\n"
		"ppbench-compare/1).\n"
		"\n"
		"Exit status 2 also covers unreadable, malformed or invalid result files and\n"
		"refused host combinations; each is reported as one line on stderr.",
	.examples =
		"  ppbench compare before.json after.json\n"
		"  ppbench compare --old a1.json a2.json a3.json --new b1.json b2.json\n"
		"  ppbench compare --markdown base.json patch-v1.json patch-v2.json\n"
		"  ppbench compare --bpp before.json after.json\n"
		"  ppbench compare --org before.json after.json   # for a mail to the maintainers\n"
		"  ppbench compare --ktap --noise noise.json --fail-above 5 base.json new.json\n"
		"  ppbench compare --json cmp.json --test mann-whitney before.json after.json\n"
		"  # CI: fail the job when a scenario got more than 5% slower, for real\n"
		"  ppbench calibrate -o noise.json      # once per host and kernel\n"
		"  ppbench compare --noise noise.json --fail-above 5 base.json new.json || exit "
		"$?\n"
		"  ppbench compare --fail-above 5 --old b1.json b2.json b3.json --new n1.json "
		"n2.json n3.json\n"
		"  ppbench compare --fail-above 2 --metric purity --old a.json b.json --new c.json "
		"d.json\n",
	.opts = compare_opts,
	.cfg_size = sizeof(struct cmp_cfg),
	.cfg_init = compare_init,
	.opt = compare_opt,
	.run = compare_run,
	.ordered_args = true,
};
