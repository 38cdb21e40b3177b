// SPDX-License-Identifier: GPL-2.0
/* ppbench plot RESULT.json... -o FILE.svg: boxes (plot_svg.c), profiles or flame graphs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "plot/plot_svg.h"
#include "sys/log.h"
#include "sys/util.h"

enum { OPT_LABEL = 1 };

/* The value is cfg->ns. */
static const struct cli_word metrics[] = { { "cycles", 0 }, { "ns", 1 }, { NULL } };

#define P(m) CLI_MEMBER(struct plot_cfg, m)

static const struct cli_opt plot_opts[] = {
	{ "output", 'o', "FILE", "write the SVG to FILE ('-' for stdout); required",
	  .kind = CLI_OUTPUT, P(output) },
	{ "label", 'l', "NAME", "legend name of the file that follows (default: its base name)",
	  OPT_LABEL },
	{ "title", 't', "TEXT", "title (default: page_pool scenario cost per element)",
	  .kind = CLI_STRING, P(title) },
	{ "metric", 0, NULL,
	  "y axis: cycles, the files' own unit (TSC cycles; instructions under the instruction "
	  "clock), or ns per element (default cycles)",
	  .kind = CLI_ENUM, P(ns), .words = metrics },
	{ "scenario", 's', "LIST", "plot only these scenarios, in this order (e.g. fast,ring,slow)",
	  .kind = CLI_STRING, P(scenarios) },
	{ "profile", 'p', NULL,
	  "draw the scenarios' instruction profiles (ppbench vm --profile): a bar per file, "
	  "stacked by group and function",
	  .kind = CLI_FLAG, P(profile) },
	{ "flame", 0, NULL,
	  "draw a flame graph of the folded stacks of 'ppbench vm --profile' (F.SCENARIO.folded, "
	  "or the result file F.json with --scenario, per element); of two files (old, new) the "
	  "differential one",
	  .kind = CLI_FLAG, P(flame) },
	{ NULL },
};

/* The files, each with the --label given just before it. */
static int plot_opt(void *c, int key, const char *arg)
{
	struct plot_cfg *cfg = c;

	switch (key) {
	case CLI_KEY_ARG:
		if (cfg->nfiles == MAX_FILES) {
			pr_err("too many files: at most %d\n", MAX_FILES);
			return -E2BIG;
		}
		cfg->labels[cfg->nfiles] = cfg->next_label;
		cfg->files[cfg->nfiles++] = arg;
		cfg->next_label = NULL;
		return 0;
	case OPT_LABEL:
		if (cfg->next_label) {
			pr_err("--label '%s' and --label '%s' have no file between them\n",
			       cfg->next_label, arg);
			return -EINVAL;
		}
		cfg->next_label = arg;
		return 0;
	}
	return -EINVAL;
}

static bool has_scn(const struct plot *p, const char *name)
{
	for (size_t i = 0; i < p->nscn; i++)
		if (!strcmp(p->scn[i], name))
			return true;
	return false;
}

/* What a scenario needs to be drawn: a figure, or with --profile a profile. */
static bool drawable(const struct plot *p, const struct result_scenario *sc)
{
	return sc && sc->ok && (!p->cfg->profile || sc->prof.has);
}

/* Scenarios measured (profiled) in any file, in the order the files list them. */
static void all_scenarios(struct plot *p)
{
	for (size_t f = 0; f < p->nfiles; f++)
		for (size_t k = 0; k < p->res[f].nr_sc && p->nscn < MAX_SCN; k++)
			if (drawable(p, &p->res[f].sc[k]) && !has_scn(p, p->res[f].sc[k].name))
				p->scn[p->nscn++] = p->res[f].sc[k].name;
}

/* --scenario a,b,c: each must be measured in at least one file. */
static int chosen_scenarios(struct plot *p, char *list)
{
	for (char *save, *s = strtok_r(list, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		const struct result_scenario *sc = NULL;

		for (size_t f = 0; f < p->nfiles && !drawable(p, sc); f++)
			sc = result_find(&p->res[f], s);
		if (!drawable(p, sc)) {
			pr_err("--scenario: '%s' is not %s in any of the files\n", s,
			       p->cfg->profile ? "profiled" : "measured");
			return -ENOENT;
		}
		if (p->nscn < MAX_SCN && !has_scn(p, s))
			p->scn[p->nscn++] = sc->name;
	}
	return 0;
}

/*
 * One axis, one unit: files of two clocks never share it, and the guest ns
 * of an instruction file are its instructions again (each figure once).
 */
static int check_units(const struct plot *p)
{
	char why[600];

	for (size_t i = 1; i < p->nfiles; i++)
		if (result_same_clock(&p->res[0], &p->res[i], why, sizeof(why))) {
			pr_err("%s: figures of two clocks never share an axis\n", why);
			return -EXDEV;
		}
	if (p->cfg->profile && p->cfg->ns) {
		pr_err("--metric ns and --profile: a profile counts instructions\n");
		return -EINVAL;
	}
	if (p->cfg->ns && unit_counts_instructions(result_clock_of(&p->res[0])->unit)) {
		pr_err("--metric ns: %s counts instructions (qemu's instruction clock), and its "
		       "guest ns are the same instructions: plot them without --metric\n",
		       p->res[0].path);
		return -EINVAL;
	}
	return 0;
}

static int load_all(struct plot *p, char (*names)[64])
{
	const struct plot_cfg *cfg = p->cfg;
	char err[512];

	for (size_t i = 0; i < cfg->nfiles; i++) {
		if (result_load(cfg->files[i], &p->res[i], err, sizeof(err))) {
			pr_err("%s\n", err);
			return -EINVAL;
		}
		p->nfiles = i + 1;
		p->label[i] = cfg->labels[i] ?: path_stem(cfg->files[i], names[i], 64);
	}
	return check_units(p);
}

static int plot_checks(const struct plot_cfg *cfg)
{
	if (cfg->next_label) {
		pr_err("--label '%s' has no file after it\n", cfg->next_label);
		return -EINVAL;
	}
	if (!cfg->nfiles) {
		pr_err("no result files to plot\n");
		return -EINVAL;
	}
	if (!cfg->output) {
		pr_err("no output file: give -o FILE.svg\n");
		return -EINVAL;
	}
	return 0;
}

static int plot_run(void *c, int argc, char **argv)
{
	struct plot_cfg *cfg = c;
	struct plot *p = calloc(1, sizeof(*p));
	char names[MAX_FILES][64], list[256];
	int ret = EXIT_USAGE;

	(void)argc; /* files come through plot_opt(), in order with their labels */
	(void)argv;
	if (!p)
		return EXIT_FAIL;
	p->cfg = cfg;
	if (plot_checks(cfg))
		goto out;
	if (cfg->flame) {
		ret = plot_flame(cfg);
		goto out;
	}
	if (load_all(p, names))
		goto out;
	/* a copy to cut up: p->scn[] points into it until the SVG is out */
	snprintf(list, sizeof(list), "%s", cfg->scenarios ? cfg->scenarios : "");
	if (!list[0])
		all_scenarios(p);
	else if (chosen_scenarios(p, list))
		goto out;
	if (!p->nscn) {
		pr_err(cfg->profile
			       ? "no scenario of the files has a profile (ppbench vm --profile "
				 "makes them): nothing to plot\n"
			       : "no scenario with status \"ok\" in the files: nothing to plot\n");
		goto out;
	}
	ret = EXIT_FAIL;
	if (cfg->profile || !build_plot(p))
		ret = svg_output(cfg->output, cfg->profile ? write_prof_svg : write_plot_svg, p);
out:
	for (size_t i = 0; i < p->nfiles; i++)
		result_free(&p->res[i]);
	free(p);
	return ret;
}

const struct cli_cmd cmd_plot = {
	.name = "plot",
	.args = "RESULT.json... -o FILE.svg | --flame [OLD] NEW -o FILE.svg",
	.summary = "draw bench results as an SVG: per-scenario cost with spread",
	.description =
		"Draw 'ppbench bench --json' result files as an SVG picture: one group per\n"
		"scenario (x axis, scenario names), one box per file inside each group, on a\n"
		"y axis of the files' unit per element (TSC cycles, or instructions of 'ppbench\n"
		"vm'; ns with --metric ns) that starts at 0. Each box shows the repetitions\n"
		"('runs') of that scenario in that file: the box spans the quartiles, the\n"
		"thick bar is the median (also printed above the box), the white dot the mean,\n"
		"and the whiskers reach the minimum and maximum. Scenarios that a file skipped\n"
		"show 'n/a'. The legend names the files by their base names without .json, or\n"
		"by a --label NAME given just before the file. The subtitle gives CPU model,\n"
		"clock (TSC frequency, or the instruction clock) and kernel of the first file.\n"
		"Hovering a box in a browser shows its numbers. --profile draws the\n"
		"instruction profiles of 'ppbench vm --profile' instead: per file a bar stacked\n"
		"by group and function. --flame draws the flame graph of one file's call graph\n"
		"(folded stacks, F.SCENARIO.folded of 'ppbench vm --profile', or F.json and\n"
		"--scenario), or the differential one of two (width from the new, colour from\n"
		"the change).\n"
		"\n"
		"The SVG is self-contained (SVG 1.1, generic fonts; a flame graph's small script\n"
		"zooms and searches in a browser) and renders in browsers and with rsvg-convert.\n"
		"Every file is checked first; a bad file is one line on stderr and exit status 2.",
	.examples = "  ppbench plot before.json after.json -o cmp.svg\n"
		    "  ppbench plot -l 6.12 a.json -l 6.18 b.json -t '6.12 vs 6.18' -o p.svg\n"
		    "  ppbench plot --scenario fast,ring,slow --metric ns run.json -o ns.svg\n"
		    "  ppbench plot --profile 6.12.json 7.3.json -o where.svg\n"
		    "  ppbench plot --flame 7.3.slow.folded -o slow.svg\n"
		    "  ppbench plot --flame 6.12.json 7.3.json -s ring -o ring-diff.svg\n"
		    "  rsvg-convert -o p.png p.svg   # a PNG for mail\n",
	.opts = plot_opts,
	.cfg_size = sizeof(struct plot_cfg),
	.opt = plot_opt,
	.run = plot_run,
	.ordered_args = true,
};
