// SPDX-License-Identifier: GPL-2.0
/* ppbench report: the command, and the attachments written beside the mail. */
#include <errno.h>
#include <float.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "compare/compare.h"
#include "plot/plot_svg.h"
#include "report/mail.h"
#include "sys/log.h"
#include "sys/outfile.h"
#include "sys/util.h"

#define MAX_ATT (4 * MAIL_MAX_FILES + 16)

struct report_cfg {
	const char *outdir, *tree, *commit;
	bool markdown;
	int metric; /* enum fig */
	double floor;
};

#define R(m) CLI_MEMBER(struct report_cfg, m)

static const struct cli_opt report_opts[] = {
	{ "output", 'o', "DIR",
	  "write the mail (mail.txt, with --markdown mail.md) and its attachments into DIR: "
	  "the result files, their step logs, folded stacks and differential flame graphs",
	  .kind = CLI_STRING, R(outdir), .flags = CLI_F_OUTDIR },
	{ "markdown", 'm', NULL, "write the mail in Markdown instead of plain text",
	  .kind = CLI_FLAG, R(markdown) },
	{ "tree", 't', "DIR",
	  "the kernel tree whose git bisected (a bisection's directory), or that holds "
	  "--commit",
	  .kind = CLI_STRING, R(tree) },
	{ "commit", 'c', "REV",
	  "the commit under test: the first column's (with result files), or the bisection's "
	  "first bad commit where git bisect log names none",
	  .kind = CLI_STRING, R(commit) },
	{ "metric", 0, NULL,
	  "the figure the subject names, the first column's that changed most (default cycles, "
	  "which counts instructions in files of the instruction clock)",
	  .kind = CLI_ENUM, R(metric), .words = cmp_metrics },
	{ "floor", 0, "N",
	  "list the profile rows whose instructions per element changed by N or more "
	  "(default 0.1)",
	  .kind = CLI_NUMBER, R(floor), .dmin = 1e-9, .dmax = 1e9, .flags = CLI_F_PROSE_RANGE },
	{ NULL },
};

static void report_init(void *c)
{
	struct report_cfg *cfg = c;

	cfg->metric = FIG_CYCLES;
	cfg->floor = PDIFF_FLOOR;
}

struct att {
	char src[PATH_MAX], name[256];
};

struct atts {
	struct att a[MAX_ATT];
	size_t n;
	char stem[MAIL_MAX_FILES][256]; /* each file's name there, without .json */
};

static void att_add(struct atts *t, const char *src, const char *stem, const char *rest)
{
	if (t->n == MAX_ATT)
		return;
	snprintf(t->a[t->n].src, sizeof(t->a[t->n].src), "%.*s", PATH_MAX - 1, src);
	snprintf(t->a[t->n].name, sizeof(t->a[t->n].name), "%.200s%.50s", stem, rest);
	t->n++;
}

/* File I's name among the attachments: its commit's short hash, else its own, made unique. */
static void att_stem(const struct mail *m, struct atts *t, size_t i)
{
	char *s = t->stem[i];

	path_stem(m->in->kind == MAIL_BISECT ? m->t.names[i] : m->in->file[i], s,
		  sizeof(t->stem[i]));
	for (size_t k = 0; k < i; k++)
		if (!strcmp(t->stem[k], s)) {
			char own[256];

			snprintf(own, sizeof(own), "%s", s);
			snprintf(s, sizeof(t->stem[i]), "%zu-%.240s", i, own);
			break;
		}
}

/* PATH without its ".json" into BUF. */
static const char *sans_json(const char *path, char *buf, size_t len)
{
	size_t n = strlen(path);

	snprintf(buf, len, "%.*s", (int)(n > 5 && !strcmp(path + n - 5, ".json") ? n - 5 : n),
		 path);
	return buf;
}

/* Each file, its step log (STEM.log) and its folded stacks (STEM.SCENARIO.folded). */
static void att_plan(const struct mail *m, struct atts *t)
{
	for (size_t i = 0; i < m->in->n; i++) {
		char base[PATH_MAX], pat[PATH_MAX + 16];
		glob_t g;

		att_stem(m, t, i);
		sans_json(m->in->file[i], base, sizeof(base));
		att_add(t, m->in->file[i], t->stem[i], ".json");
		snprintf(pat, sizeof(pat), "%s.log", base);
		if (!access(pat, R_OK))
			att_add(t, pat, t->stem[i], ".log");
		snprintf(pat, sizeof(pat), "%s.*.folded", base);
		if (glob(pat, 0, NULL, &g))
			continue;
		for (size_t k = 0; k < g.gl_pathc; k++)
			att_add(t, g.gl_pathv[k], t->stem[i], g.gl_pathv[k] + strlen(base));
		globfree(&g);
	}
}

/* Whether the folded stacks of scenario SCN lie beside result file PATH (F.SCN.folded). */
static bool has_folded(const char *path, const char *scn)
{
	char base[PATH_MAX], f[PATH_MAX + 300];

	snprintf(f, sizeof(f), "%s.%s.folded", sans_json(path, base, sizeof(base)), scn);
	return !access(f, R_OK);
}

/* DIR/SCENARIO.diff.svg of each scenario with folded stacks beside both: none on a failure. */
static int att_flames(const struct mail *m, struct atts *t, const char *dir)
{
	const struct comparison *c = &m->cf->set.cmps[0];
	char out[PATH_MAX + 300], lab[2][COL_NAME_LEN + 80];
	size_t first = t->n;
	int ret = EXIT_OK;

	for (size_t k = 0; k < c->npd && ret == EXIT_OK; k++) {
		const struct pdiff *d = &c->pd[k];
		struct plot_cfg p = { .flame = true,
				      .nfiles = 2,
				      .output = out,
				      .scenarios = d->scenario,
				      .files = { m->in->file[0], m->in->file[1] },
				      .labels = { lab[0], lab[1] } };

		if (d->no_graph || !has_folded(p.files[0], d->scenario) ||
		    !has_folded(p.files[1], d->scenario))
			continue;
		for (int i = 0; i < 2; i++)
			snprintf(lab[i], sizeof(lab[i]), "%s %.64s", m->t.names[i], d->scenario);
		snprintf(out, sizeof(out), "%s/%.200s.diff.svg", dir, d->scenario);
		ret = plot_flame(&p);
		if (ret == EXIT_OK)
			att_add(t, "", d->scenario, ".diff.svg");
	}
	for (size_t i = first; ret != EXIT_OK && i < t->n; i++) {
		snprintf(out, sizeof(out), "%s/%s", dir, t->a[i].name);
		unlink(out);
	}
	t->n = ret == EXIT_OK ? t->n : first;
	return ret;
}

/* DIR: the attachments, then the mail naming them. */
static int write_dir(struct mail *m, struct atts *t, const char *dir)
{
	char *names[MAX_ATT], path[PATH_MAX + 300];
	bool made = !mkdir(dir, 0755);
	struct outfile o;
	int ret;

	if (!made && errno != EEXIST) {
		pr_err("--output: cannot create '%s': %s\n", dir, strerror(errno));
		return EXIT_FAIL;
	}
	/* (the flame graphs first: a folded file plot refuses is bad input, refused whole) */
	ret = att_flames(m, t, dir);
	if (ret != EXIT_OK) {
		if (made)
			rmdir(dir);
		return ret;
	}
	for (size_t i = 0; i < t->n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, t->a[i].name);
		if (*t->a[i].src && outfile_copy(t->a[i].src, path))
			return EXIT_FAIL;
	}
	for (size_t i = 0; i < t->n; i++)
		names[i] = t->a[i].name;
	m->att = names;
	m->natt = t->n;
	m->outdir = dir;
	snprintf(path, sizeof(path), "%s/mail.%s", dir, m->md ? "md" : "txt");
	if (outfile_open(&o, path, OUTFILE_WHOLE))
		return EXIT_FAIL;
	mail_write(o.f, m); /* (whole or not at all, and on stdout) */
	mail_write(stdout, m);
	return outfile_commit(&o) ? EXIT_FAIL : EXIT_OK;
}

static int report_run(void *c, int argc, char **argv)
{
	const struct report_cfg *cfg = c;
	/* (compare's every profile row: the floor is the report's, across the columns) */
	struct cmp_opts o = { .test = TEST_WELCH, .alpha = 0.05, .prof_floor = DBL_MIN };
	struct mail_in in;
	struct cmp_files cf = { 0 };
	struct mail m = { .in = &in,
			  .cf = &cf,
			  .metric = cfg->metric,
			  .floor = cfg->floor,
			  .md = cfg->markdown };
	struct atts *t = NULL;
	int e, ret = EXIT_USAGE;

	e = mail_in_open(&in, argv, argc, cfg->tree, cfg->commit);
	if (!e)
		e = compare_load((const char *const *)in.file, in.n, &o, &cf);
	if (!e)
		e = mail_build(&m);
	if (e) {
		ret = e == -ENOMEM ? EXIT_FAIL : EXIT_USAGE;
		if (e == -ENOMEM)
			pr_err("out of memory\n");
		goto out;
	}
	ret = EXIT_FAIL;
	if (!cfg->outdir) {
		mail_write(stdout, &m);
		ret = EXIT_OK;
	} else if (!(t = calloc(1, sizeof(*t)))) {
		pr_err("out of memory\n");
	} else {
		att_plan(&m, t);
		ret = write_dir(&m, t, cfg->outdir);
	}
out:
	free(t);
	col_table_free(&m.t);
	compare_unload(&cf);
	mail_in_free(&in);
	return ret;
}

/* The figures ppbench-report(8) states (@{NAME}), from the constants the mail uses. */
static int report_figures(struct cli_fig *f)
{
	const struct cli_fig v[] = {
		{ "rows", MAIL_PROF_ROWS },
		{ "width", MAIL_WIDTH },
	};

	return CLI_FIGURES(f, v);
}

const struct cli_cmd cmd_report = {
	.name = "report",
	.args = "F.json | A.json B.json... | DIR --tree KERNEL-TREE",
	.summary = "the mail a kernel test robot sends, of an A/B, a bisection or result files",
	.description =
		"Write the report of a change as the kernel test robot (LKP) mails it to the\n"
		"lists: the subject and the first sentence naming the figure, its change and\n"
		"the commit; the parameters held fixed, on one line; the commits or kernels\n"
		"compared; compare's table of columns, the base first, each figure named as\n"
		"'export lkp' names its stat; the profile rows that explain the change; the\n"
		"commands that reproduce it; the attachments. Plain text a mail client shows\n"
		"as it is (prose wrapped at 72 columns, tables and commands never), or\n"
		"Markdown.\n"
		"\n"
		"Its input is one of: F.json of 'ppbench vm --against-*' (F.a.json the base,\n"
		"F.b.json the kernel under test); result files, the base first, each later one\n"
		"a column; the --out directory of 'ppbench bisect', with --tree the kernel\n"
		"tree whose git bisected: the first bad commit against its parent.",
	.examples = "  ppbench vm --debian newest --against-debian 6.12 --profile -- bench --json "
		    "r.json\n"
		    "  ppbench report r.json\n"
		    "  ppbench report --markdown -o mail/ base.json culprit.json fix.json\n"
		    "  ppbench report --tree ~/linux ~/linux/.ppbench-bisect\n"
		    "  ppbench report --tree ~/linux --commit ca0ac5867b84 good.json bad.json\n",
	.figures = report_figures,
	.opts = report_opts,
	.min_args = 1,
	.max_args = MAIL_MAX_FILES,
	.cfg_size = sizeof(struct report_cfg),
	.cfg_init = report_init,
	.run = report_run,
};
