// SPDX-License-Identifier: GPL-2.0
/* ppbench trend FILE...|DIR: host levels and change points of a series, and a gate. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "trend/series.h"
#include "model/spread.h"
#include "compare/ktap.h"
#include "model/by_counter.h"
#include "sys/log.h"

struct trend_cfg {
	enum series_order order;
	unsigned min_run, permutations, window, stable_after;
	bool window_set, force, markdown, ktap, gate, qemu_change;
	double alpha, fail_pct;
	enum series_figure metric;
	const char *json, *svg, *title, *scenarios, *noise;
	const char *counter; /* --counter NAME: the files' view (model/by_counter.h) */
};

static const struct cli_word orders[] = { { "created", SERIES_CREATED },
					  { "label", SERIES_LABEL },
					  { NULL } };

static const struct cli_word metrics[] = {
	{ "cycles", SFIG_CYCLES }, { "ns", SFIG_NS }, { "path", SFIG_PATH }, { NULL }
};

#define T(m) CLI_MEMBER(struct trend_cfg, m)

static const struct cli_opt trend_opts[] = {
	{ "by", 0, NULL, "order the results by their time or label instead of as given",
	  .kind = CLI_ENUM, T(order), .words = orders },
	{ "min-run", 0, "N",
	  "points a shift must persist on each side of a change point (default 4)",
	  .kind = CLI_UINT, T(min_run), .min = 2, .max = 1000 },
	{ "alpha", 0, "P", "significance level of the permutation test (default 0.01)",
	  .kind = CLI_NUMBER, T(alpha), .dmin = 1e-4, .dmax = 0.2 },
	{ "permutations", 0, "N", "shuffles of the permutation test (default 499)",
	  .kind = CLI_UINT, T(permutations), .min = 19, .max = 99999 },
	{ "counter", 0, "NAME",
	  "the series of the hardware counter NAME of bench --counters files instead of the "
	  "clock's figure: " PMU_COUNTER_NAMES ", per element",
	  .kind = CLI_STRING, T(counter) },
	{ "scenario", 's', "LIST", "only these scenarios, comma separated (default: all)",
	  .kind = CLI_STRING, T(scenarios) },
	{ "metric", 0, NULL,
	  "figure of the series table, the SVG and the gate (default cycles); path is "
	  "path_cost_cycles, one value per result",
	  .kind = CLI_ENUM, T(metric), .words = metrics },
	{ "fail-on-regression", 0, "PCT",
	  "exit 3 if a change point in the last --window results is a regression of more "
	  "than PCT % (the gating rule, ppbench-compare(8))",
	  .kind = CLI_NUMBER, T(fail_pct), .dmin = 0, .dmax = 1e9, CLI_MARK(struct trend_cfg, gate),
	  .flags = CLI_F_PERCENT | CLI_F_PROSE_RANGE },
	{ "window", 0, "N",
	  "the newest results --fail-on-regression looks at (default 3 x --min-run)",
	  .kind = CLI_UINT, T(window), .min = 1, .max = 1000000,
	  CLI_MARK(struct trend_cfg, window_set) },
	{ "stable-after", 0, "N",
	  "hold a figure report-only until it has passed the gate N times in a row (netdev's "
	  "CI waits for 15 with a new test): its regressions are named, not gated",
	  .kind = CLI_UINT, T(stable_after), .min = 1, .max = 1000000 },
	{ "noise", 'n', "PROFILE",
	  "this host's noise profile ('ppbench calibrate'): its levels' ratio bounds a level's "
	  "width, a step as large as a ratio between them where each side shows one level is "
	  "called 'level' (a level the host stayed on, or a change), and each change point "
	  "shows the profile's floor for a single pair",
	  .kind = CLI_STRING, T(noise) },
	{ "force", 'f', NULL,
	  "take results whose TSC Hz or CPU model say they come from another host",
	  .kind = CLI_FLAG, T(force) },
	{ "allow-qemu-change", 0, NULL,
	  "gate a series of instruction files counted by two qemu releases or on guest CPUs of "
	  "other features: the difference is intended (refused otherwise)",
	  .kind = CLI_FLAG, T(qemu_change) },
	{ "markdown", 'm', NULL, "print Markdown (for mail or an issue) instead of text",
	  .kind = CLI_FLAG, T(markdown) },
	{ "ktap", 0, NULL,
	  "print the gate's verdicts as KTAP version 1 (kselftest, netdev CI) instead of text: "
	  "one test per scenario of --metric",
	  .kind = CLI_FLAG, T(ktap) },
	CLI_OPT_JSON(
		struct trend_cfg, json,
		"also write the series as JSON (schema ppbench-trend/1) to FILE ('-': only that)"),
	{ "svg", 0, "FILE",
	  "also draw the series as an SVG: a panel per scenario, points with their setups' "
	  "range, levels and change points",
	  .kind = CLI_OUTPUT, T(svg) },
	{ "title", 't', "TEXT", "title of the SVG", .kind = CLI_STRING, T(title) },
	{ NULL },
};

static void trend_init(void *c)
{
	struct trend_cfg *cfg = c;

	cfg->order = SERIES_GIVEN;
	cfg->min_run = TREND_MIN_RUN;
	cfg->alpha = TREND_ALPHA;
	cfg->permutations = TREND_PERMUTATIONS;
	cfg->metric = SFIG_CYCLES;
}

static int trend_check(void *c, int argc, char **argv)
{
	struct trend_cfg *cfg = c;

	(void)argv;
	if (!argc) {
		pr_err("no result files: give FILE... or a directory of them\n");
		return EXIT_USAGE;
	}
	if (!cfg->window_set)
		cfg->window = 3 * cfg->min_run;
	if (cfg->window_set && !cfg->gate) {
		pr_err("--window is the gate's: give --fail-on-regression PCT too\n");
		return EXIT_USAGE;
	}
	if (cfg->stable_after && !cfg->gate) {
		pr_err("--stable-after holds the gate: give --fail-on-regression PCT too\n");
		return EXIT_USAGE;
	}
	if (cfg->gate && cfg->window < cfg->min_run) {
		pr_err("--window %u is shorter than --min-run %u: no change point could be in it\n",
		       cfg->window, cfg->min_run);
		return EXIT_USAGE;
	}
	if (cfg->json && !strcmp(cfg->json, "-") &&
	    (cfg->markdown || (cfg->svg && !strcmp(cfg->svg, "-")))) {
		pr_err("--json - prints only JSON: it cannot go with --markdown or --svg -\n");
		return EXIT_USAGE;
	}
	if (cfg->ktap && (cfg->markdown || (cfg->json && !strcmp(cfg->json, "-")) ||
			  (cfg->svg && !strcmp(cfg->svg, "-")))) {
		pr_err("--ktap prints only KTAP: it cannot go with --markdown, --json - or --svg "
		       "-\n");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The file list: each argument, or the *.json files of a directory in name order. */
struct flist {
	char **v;
	size_t n;
};

static int flist_add(struct flist *l, char *path)
{
	char **v = path ? realloc(l->v, (l->n + 1) * sizeof(*v)) : NULL;

	if (!v) {
		free(path);
		return -ENOMEM;
	}
	l->v = v;
	l->v[l->n++] = path;
	return 0;
}

static void flist_free(struct flist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static int json_name(const struct dirent *d)
{
	return !fnmatch("*.json", d->d_name, FNM_PERIOD);
}

static int by_version(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

static int add_dir(struct flist *l, const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, json_name, by_version), err = 0;
	char *p;

	if (n < 0) {
		pr_err("%s: cannot read the directory: %s\n", dir, strerror(errno));
		return -errno;
	}
	if (!n)
		pr_err("%s: no *.json files in the directory\n", dir);
	for (int i = 0; i < n; i++) {
		if (!err)
			err = asprintf(&p, "%s/%s", dir, ents[i]->d_name) < 0 ? -ENOMEM
									      : flist_add(l, p);
		free(ents[i]);
	}
	free(ents);
	return n ? err : -ENOENT;
}

static int collect(struct flist *l, int argc, char **argv)
{
	struct stat st;
	int err = 0;

	for (int i = 0; !err && i < argc; i++) {
		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode))
			err = add_dir(l, argv[i]);
		else
			err = flist_add(l, strdup(argv[i]));
	}
	return err;
}

/* --scenario: is NAME wanted? */
static bool wanted(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *e = strchrnul(p, ',');

		if ((size_t)(e - p) == n && !strncmp(p, name, n))
			return true;
		p = *e ? e + 1 : e;
	}
	return !list;
}

/* Drops the scenarios --scenario leaves out; each one named must be there. */
static int pick_scenarios(struct series *s, const char *list)
{
	size_t k = 0;

	for (size_t i = 0; i < s->nfigs; i++) {
		if (wanted(list, s->figs[i].scenario)) {
			s->figs[k++] = s->figs[i];
			continue;
		}
		series_fig_free(&s->figs[i]);
	}
	s->nfigs = k;
	for (const char *p = list; p && *p;) {
		const char *e = strchrnul(p, ',');
		bool found = false;

		for (size_t i = 0; i < s->nfigs; i++)
			found |= strlen(s->figs[i].scenario) == (size_t)(e - p) &&
				 !strncmp(s->figs[i].scenario, p, e - p);
		if (!found) {
			pr_err("--scenario: '%.*s' is not measured in any of the files\n",
			       (int)(e - p), p);
			return -ENOENT;
		}
		p = *e ? e + 1 : e;
	}
	return 0;
}

/* The gate takes a series of one qemu and guest CPU (result_same_qemu()), FIRST's. */
static int same_qemu(const struct trend_cfg *cfg, const struct result *first,
		     const struct result *r)
{
	char why[1024];

	if (!cfg->gate || cfg->qemu_change || !result_same_qemu(first, r, why, sizeof(why)))
		return 0;
	pr_err("%s: their instructions do not gate against each other (--allow-qemu-change if "
	       "the difference is intended)\n",
	       why);
	return -EINVAL;
}

/* Path figures of two methods left the series: each said, and a gate on path refused. */
static int set_aside(const struct trend_cfg *cfg, const struct series *s)
{
	char name[64];

	for (size_t i = 0; i < s->naside; i++) {
		/* (the line starts with the scenario's name) */
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(s->aside[i], " "), s->aside[i]);
		if (!wanted(cfg->scenarios, name))
			continue;
		if (cfg->gate && cfg->metric == SFIG_PATH) {
			pr_err("--fail-on-regression on path: %s\n", s->aside[i]);
			return -EINVAL;
		}
		pr_warn("%s\n", s->aside[i]);
	}
	return 0;
}

static int load_series(struct trend_cfg *cfg, const struct flist *l, struct series *s)
{
	struct result r, first = { 0 };
	char err[600];
	int e = 0;

	s->figmask = 1u << SFIG_CYCLES | 1u << SFIG_PATH | 1u << cfg->metric;
	for (size_t i = 0; i < l->n; i++) {
		if (result_load_view(l->v[i], &r, cfg->counter, err, sizeof(err))) {
			pr_err("%s\n", err);
			e = -EINVAL;
			break;
		}
		e = series_add(s, &r, cfg->force, err, sizeof(err));
		if (e)
			pr_err("%s%s\n", err,
			       e == -EINVAL ? "; use --force to take it anyway" : "");
		else if (i && same_qemu(cfg, &first, &r))
			e = -EINVAL;
		if (i)
			result_free(&r);
		else
			first = r;
		if (e)
			break;
	}
	if (l->n)
		result_free(&first);
	if (e)
		return e == -EINVAL || e == -EXDEV ? EXIT_USAGE : EXIT_FAIL;
	e = series_finish(s, cfg->order, err, sizeof(err));
	if (e) {
		pr_err("%s\n", e == -EINVAL ? err : "out of memory");
		return e == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	}
	return pick_scenarios(s, cfg->scenarios) || set_aside(cfg, s) ? EXIT_USAGE : EXIT_OK;
}

static int check_points(const struct trend_cfg *cfg, const struct series *s, const struct flist *l)
{
	if (s->npts < 2 * cfg->min_run) {
		pr_err("%zu result%s (last %s): change points need at least %u (2 x --min-run "
		       "%u)\n",
		       s->npts, s->npts == 1 ? "" : "s", l->v[l->n - 1], 2 * cfg->min_run,
		       cfg->min_run);
		return EXIT_USAGE;
	}
	if (!s->nfigs) {
		pr_err("no scenario with status \"ok\" in the files: nothing to follow\n");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* --noise: a profile of this series' host, then used by every figure. */
static int use_noise(const struct trend_cfg *cfg, struct series *s, struct noise_profile *p)
{
	char err[600], why[400];

	if (noise_load(cfg->noise, p, err, sizeof(err))) {
		pr_err("%s\n", err);
		return EXIT_USAGE;
	}
	if (strcmp(p->host.clock.kind, s->clock_kind)) {
		pr_err("%s counts %s (%s clock) and %s %s (%s clock): a profile of one clock "
		       "cannot judge figures of another\n",
		       cfg->noise, p->host.clock.unit, p->host.clock.kind, s->pt[0].file,
		       s->clock_unit, s->clock_kind);
		noise_free(p);
		return EXIT_USAGE;
	}
	if (series_host_differs(s->cpu_model, s->tsc_hz, p->host.cpu_model, p->host.tsc_hz, why,
				sizeof(why))) {
		if (!cfg->force) {
			pr_err("%s: a profile of another host than %s: %s; use --force to use it "
			       "anyway\n",
			       cfg->noise, s->pt[0].file, why);
			return EXIT_USAGE;
		}
		pr_warn("%s: a profile of another host than %s: %s; using it anyway (--force)\n",
			cfg->noise, s->pt[0].file, why);
	}
	series_use_profile(s, p);
	return EXIT_OK;
}

static int report(struct trend_cfg *cfg, struct trend_view *v)
{
	bool json_only = cfg->json && !strcmp(cfg->json, "-");
	int ret = EXIT_OK;

	if (!json_only && !(cfg->svg && !strcmp(cfg->svg, "-"))) {
		if (cfg->ktap)
			trend_print_ktap(stdout, v);
		else
			trend_print(stdout, v, cfg->markdown);
	}
	if (cfg->json)
		ret = trend_write_json(v, cfg->json);
	if (!ret && cfg->svg)
		ret = trend_write_svg(v, cfg->svg);
	if (!ret && cfg->gate)
		ret = trend_gate(v);
	return ret;
}

static int trend_run(void *c, int argc, char **argv)
{
	struct trend_cfg *cfg = c;
	struct trend_opts o;
	struct series s = { 0 };
	struct flist l = { 0 };
	struct noise_profile profile = { 0 };
	struct trend_view v;
	int ret = EXIT_USAGE;

	trend_opts_default(&o);
	o.min_run = cfg->min_run;
	o.alpha = cfg->alpha;
	o.permutations = cfg->permutations;
	if (collect(&l, argc, argv))
		goto out;
	ret = load_series(cfg, &l, &s);
	ret = ret ?: check_points(cfg, &s, &l);
	if (!ret && cfg->noise)
		ret = use_noise(cfg, &s, &profile);
	if (ret)
		goto out;
	if (series_fit(&s, &o)) {
		pr_err("fitting the series failed: out of memory\n");
		ret = EXIT_FAIL;
		goto out;
	}
	v = (struct trend_view){ .s = &s,
				 .opts = &o,
				 .order = cfg->order,
				 .metric = cfg->metric,
				 .gate = cfg->gate,
				 .fail_pct = cfg->fail_pct,
				 .window = cfg->window,
				 .stable_after = cfg->stable_after,
				 /* kselftest's convention on slow machines: its format, its env */
				 .machine_slow = cfg->ktap && ksft_machine_slow(),
				 .title = cfg->title,
				 .noise = cfg->noise ? &profile : NULL };
	ret = report(cfg, &v);
out:
	if (cfg->noise)
		noise_free(&profile);
	series_free(&s);
	flist_free(&l);
	return ret;
}

/* The figures ppbench-trend(8) states (@{NAME}), from the constants trend uses. */
static int trend_figures(struct cli_fig *f)
{
	const struct cli_fig v[] = {
		{ "alpha", TREND_ALPHA },
		{ "permutations", TREND_PERMUTATIONS },
		{ "mode_gap_pct", MODE_GAP_REL * 100 },
		{ "mode_gap_k", MODE_GAP_K },
		{ "level_min", LEVEL_MIN_POINTS },
		{ "min_run", TREND_MIN_RUN },
		{ "level_match", TREND_LEVEL_MATCH },
		{ "drift_bic", TREND_DRIFT_BIC },
		{ "level_note", LEVEL_NOTE_PCT },
	};

	return CLI_FIGURES(f, v);
}

const struct cli_cmd cmd_trend = {
	.name = "trend",
	.args = "FILE...|DIR",
	.summary = "a series of bench results: host levels, change points, a CI gate",
	.description =
		"Follow 'ppbench bench --json' results over time, as a CI job collects them:\n"
		"per scenario and figure (cycles/elem, and the path figure where the files have\n"
		"it) the series, its host levels and its change points, with their size and\n"
		"how sure they are.\n"
		"\n"
		"Points. Each file is one point, named by its label ('bench --label TEXT', else\n"
		"the file's base name) and ordered as given, or by --by created|label (labels\n"
		"compare as versions: 9 before 10). A directory stands for its *.json files in\n"
		"name order. A point's value is the median over the file's setups; its\n"
		"setups' range is drawn in the SVG.\n"
		"\n"
		"Levels. A virtual machine can run kernel-side work at levels that come and go\n"
		"(for seconds to minutes), so one invocation lands on one level or another at\n"
		"random. trend splits a figure's values at gaps wider than the noise (bench's\n"
		"mode rule: 3% and five times the median gap) into levels when the two sides\n"
		"alternate in time and are at least half the host's ratio apart; a gap between\n"
		"before and after is left to the change-point search, unless the level would be\n"
		"wider than the host's ratio (a --noise profile's, else the series' own: see\n"
		"ppbench-trend(8)). A lone point is an outlier (a spike) and counts for nothing.\n"
		"\n"
		"Change points. E-divisive means (Matteson and James, 2014, as MongoDB's and\n"
		"Apache Otava's change-point detection use it): split the series where the\n"
		"energy distance between before and after is largest, keep the split if a\n"
		"permutation test (--permutations shuffles) gives p <= --alpha, and look again\n"
		"in each part. Between two change points the levels seen are ranked, and a\n"
		"point is compared only with points of its rank (the lowest level before a\n"
		"change with the lowest after it); the test shuffles points only among their\n"
		"rank's positions, so levels that come and go are never a change, and a change\n"
		"larger than the levels' spacing is still one. A change point needs --min-run\n"
		"points on each side and sits before the first point of the new regime. Each\n"
		"is measured on the points between its neighbours: the shift of the logarithms\n"
		"with one intercept per rank, with a 95% t interval. Kinds: step; spread (the\n"
		"interval holds 0); level (one side shows fewer levels and its readings\n"
		"disagree, or each side shows one level and the step is as large as a ratio\n"
		"between the host's levels: the host may have moved to another and stayed);\n"
		"unseen (no rank has points on both sides); drift (one straight line fits the\n"
		"whole series clearly better than its steps, by the BIC). A figure with a\n"
		"drift, level or unseen change is 'unstable': trend says so instead of\n"
		"inventing a change point. A --noise profile must come from the same host (CPU\n"
		"model and TSC) unless --force.\n"
		"\n"
		"Report. A summary line per figure, then for each change point an LKP-style\n"
		"table: one row per level, 'before ±%stddev %change after ±%stddev', and the\n"
		"series of --metric with a rule at each change point. --markdown prints the\n"
		"same as Markdown, --json FILE writes it (schema ppbench-trend/1), --svg FILE\n"
		"draws a panel per scenario, --ktap prints the gate's verdicts as KTAP\n"
		"version 1 instead (a test per scenario of --metric).\n"
		"\n"
		"CI gate. --fail-on-regression PCT exits 3 when the gating rule\n"
		"(ppbench-compare(8), 'The gating rule') fires on a change point of --metric\n"
		"whose first point after the change is among the last --window results\n"
		"(higher is worse), and names it on stderr. Only steps gate. --stable-after N\n"
		"holds a figure report-only until it has passed N times in a row (its results\n"
		"since its last regression), as netdev's CI does with a new test, and says\n"
		"which are held.\n"
		"\n"
		"Exit status 2: an unreadable, malformed or invalid file, files of other hosts\n"
		"(CPU model, or TSC more than 1% apart; --force takes them), two files with one\n"
		"label, or fewer than 2 x --min-run results; one line on stderr names the file.",
	.examples = "  ppbench trend ci/results/\n"
		    "  ppbench trend --by label --svg trend.svg run-*.json\n"
		    "  ppbench trend --markdown --scenario ring,slow ci/results/ > report.md\n"
		    "  # CI: fail the job when the newest results regressed by more than 5%\n"
		    "  ppbench trend --fail-on-regression 5 --window 12 ci/results/ || exit $?\n"
		    "  ppbench trend --ktap --fail-on-regression 5 ci/results/ > trend.ktap\n"
		    "  ppbench trend --fail-on-regression 5 --stable-after 15 ci/results/\n",
	.figures = trend_figures,
	.opts = trend_opts,
	.min_args = 0,
	.max_args = 1 << 20,
	.cfg_size = sizeof(struct trend_cfg),
	.cfg_init = trend_init,
	.check = trend_check,
	.run = trend_run,
};
