// SPDX-License-Identifier: GPL-2.0
/* ppbench export FORMAT FILE...: the arguments, the files, the output whole or not at all. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "compare/compare_readback.h"
#include "model/result.h"
#include "trend/series.h"
#include "export/export_formats.h"
#include "model/by_counter.h"
#include "sys/log.h"
#include "sys/outfile.h"

enum xformat { XF_KCIDB, XF_LKP, XF_OTAVA, XF_BMF };

static const struct cli_word formats[] = {
	{ "kcidb", XF_KCIDB }, { "lkp", XF_LKP }, { "otava", XF_OTAVA },
	{ "bmf", XF_BMF },     { NULL },
};

struct export_cfg {
	enum xformat format;
	const char *origin, *build_id, *output;
	enum series_order order;
	bool order_set, force, no_prefix;
	const char *counter; /* --counter NAME: the files' view */
};

static const struct cli_word orders[] = { { "created", SERIES_CREATED },
					  { "label", SERIES_LABEL },
					  { NULL } };

#define X(m) CLI_MEMBER(struct export_cfg, m)

static const struct cli_opt export_opts[] = {
	{ "output", 'o', "FILE",
	  "write to FILE instead of stdout; it appears whole, or not at all on an error",
	  .kind = CLI_OUTPUT, X(output) },
	{ "origin", 0, "NAME",
	  "kcidb: the submitting CI system's name, [a-z0-9_]+ (required: KCIDB names every "
	  "object's origin)",
	  .kind = CLI_STRING, X(origin) },
	{ "build-id", 0, "ID",
	  "kcidb: the CI's own build ('ORIGIN:...') the tests belong to; default: a checkout and "
	  "a build per kernel release",
	  .kind = CLI_STRING, X(build_id) },
	{ "counter", 0, "NAME",
	  "export the hardware counter NAME of bench --counters result files instead of the "
	  "clock's figure: " PMU_COUNTER_NAMES ", per element (named so: "
	  "kernel_instructions_per_elem)",
	  .kind = CLI_STRING, X(counter) },
	{ "no-prefix", 0, NULL,
	  "lkp: keys without the leading 'ppbench.', as an LKP parse prints them (LKP adds the "
	  "program's name)",
	  .kind = CLI_FLAG, X(no_prefix) },
	{ "by", 0, NULL, "otava: order the rows by the results' time or label, as trend --by does",
	  .kind = CLI_ENUM, X(order), .words = orders, CLI_MARK(struct export_cfg, order_set) },
	{ "force", 'f', NULL,
	  "otava: take results whose TSC Hz or CPU model say they come from another host",
	  .kind = CLI_FLAG, X(force) },
	{ NULL },
};

static void export_init(void *c)
{
	struct export_cfg *cfg = c;

	cfg->output = "-";
	cfg->order = SERIES_GIVEN;
}

static int check_kcidb(const struct export_cfg *cfg)
{
	size_t n;

	if (!cfg->origin) {
		pr_err("kcidb needs --origin NAME: the name of the CI system that submits, as "
		       "KCIDB requires of every object ([a-z0-9_]+)\n");
		return EXIT_USAGE;
	}
	n = strlen(cfg->origin);
	/* KCIDB v5: an origin is [a-z0-9_]+, every id "ORIGIN:" and anything */
	if (!n || strspn(cfg->origin, "abcdefghijklmnopqrstuvwxyz0123456789_") != n) {
		pr_err("--origin '%s': a KCIDB origin is lower-case letters, digits and '_'\n",
		       cfg->origin);
		return EXIT_USAGE;
	}
	if (cfg->build_id && (strncmp(cfg->build_id, cfg->origin, n) || cfg->build_id[n] != ':')) {
		pr_err("--build-id '%s': a KCIDB id starts with its origin and a colon "
		       "('%s:...')\n",
		       cfg->build_id, cfg->origin);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The options of one format, given with another, are a mistake worth naming. */
static int check_foreign(const struct export_cfg *cfg)
{
	static const struct {
		const char *opt;
		enum xformat f;
	} own[] = { { "--origin", XF_KCIDB },
		    { "--build-id", XF_KCIDB },
		    { "--no-prefix", XF_LKP },
		    { "--by", XF_OTAVA },
		    { "--force", XF_OTAVA } };
	bool given[] = { cfg->origin, cfg->build_id, cfg->no_prefix, cfg->order_set, cfg->force };

	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		if (!given[i] || own[i].f == cfg->format)
			continue;
		pr_err("%s is for %s, not %s\n", own[i].opt, formats[own[i].f].word,
		       formats[cfg->format].word);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int export_check(void *c, int argc, char **argv)
{
	struct export_cfg *cfg = c;
	size_t i;

	if (argc < 2) {
		pr_err("%s\n", argc ? "no files: give FORMAT FILE..."
				    : "no format: give FORMAT FILE... (kcidb, lkp, otava or bmf)");
		return EXIT_USAGE;
	}
	for (i = 0; formats[i].word && strcmp(formats[i].word, argv[0]); i++)
		;
	if (!formats[i].word) {
		pr_err("unknown format '%s': kcidb, lkp, otava or bmf\n", argv[0]);
		return EXIT_USAGE;
	}
	cfg->format = formats[i].value;
	if (check_foreign(cfg))
		return EXIT_USAGE;
	if (cfg->format == XF_KCIDB)
		return check_kcidb(cfg);
	if ((cfg->format == XF_LKP || cfg->format == XF_BMF) && argc != 2) {
		pr_err("%s takes one result file (one run's), got %d\n", argv[0], argc - 1);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static void free_results(struct result *r, size_t n)
{
	for (size_t i = 0; r && i < n; i++)
		result_free(&r[i]);
	free(r);
}

/* Loads every file; on the first bad one its one-line error, and NULL. */
static struct result *load_all(char **files, size_t n, const char *counter)
{
	struct result *r = calloc(n, sizeof(*r));
	char err[600];

	for (size_t i = 0; r && i < n; i++) {
		if (result_load_view(files[i], &r[i], counter, err, sizeof(err))) {
			pr_err("%s\n", err);
			free_results(r, i);
			return NULL;
		}
	}
	if (!r)
		pr_err("out of memory\n");
	return r;
}

static int kcidb(const struct export_cfg *cfg, char **files, size_t n, FILE *out)
{
	struct kcidb_opts o = { .origin = cfg->origin, .build_id = cfg->build_id };
	struct result *r;
	struct compare_readback d;
	char err[600];
	int e;

	for (size_t i = 0; i < n; i++) {
		e = readback_load(files[i], &d, err, sizeof(err));
		if (e == -ENOMSG)
			continue;
		if (!e && n > 1) {
			readback_free(&d);
			pr_err("%s is a compare document: export it alone, or result files\n",
			       files[i]);
			e = -EINVAL;
		} else if (e) {
			pr_err("%s\n", err);
		} else {
			kcidb_write_compare(out, &d, &o);
			readback_free(&d);
		}
		return e ? EXIT_USAGE : EXIT_OK;
	}
	r = load_all(files, n, cfg->counter);
	if (r)
		kcidb_write_results(out, r, n, &o);
	free_results(r, n);
	return r ? EXIT_OK : EXIT_USAGE;
}

static int one_file(const struct export_cfg *cfg, char *file, FILE *out)
{
	struct result *r = load_all(&file, 1, cfg->counter);

	if (!r)
		return EXIT_USAGE;
	if (cfg->format == XF_LKP)
		lkp_write(out, r, !cfg->no_prefix);
	else
		bmf_write(out, r);
	free_results(r, 1);
	return EXIT_OK;
}

/* Adds each file to the series as it is read: one host and one clock (series_add checks). */
static int otava_series(const struct export_cfg *cfg, char **files, size_t n, struct series *s)
{
	char err[600];
	struct result r;
	int e;

	for (size_t i = 0; i < n; i++) {
		if (result_load_view(files[i], &r, cfg->counter, err, sizeof(err))) {
			pr_err("%s\n", err);
			return EXIT_USAGE;
		}
		e = series_add(s, &r, cfg->force, err, sizeof(err));
		result_free(&r);
		if (e) {
			pr_err("%s%s\n", e == -ENOMEM ? "out of memory" : err,
			       e == -EINVAL ? "; use --force to take it anyway" : "");
			return e == -ENOMEM ? EXIT_FAIL : EXIT_USAGE;
		}
	}
	e = series_finish(s, cfg->order, err, sizeof(err));
	if (e)
		pr_err("%s\n", e == -EINVAL ? err : "out of memory");
	for (size_t i = 0; !e && i < s->naside; i++)
		pr_warn("%s\n", s->aside[i]);
	return e == -ENOMEM ? EXIT_FAIL : e ? EXIT_USAGE : EXIT_OK;
}

static int otava(const struct export_cfg *cfg, char **files, size_t n, FILE *out)
{
	struct series s = { 0 };
	int ret = otava_series(cfg, files, n, &s);

	if (!ret && !otava_write(out, &s, s.clock_unit)) {
		pr_err("no figure is in every file: Otava would have no metric column\n");
		ret = EXIT_USAGE;
	}
	series_free(&s);
	return ret;
}

static int export_run(void *c, int argc, char **argv)
{
	struct export_cfg *cfg = c;
	struct outfile out;
	int ret;

	if (outfile_open(&out, cfg->output, OUTFILE_WHOLE))
		return EXIT_FAIL;
	argv++;
	argc--;
	if (cfg->format == XF_KCIDB)
		ret = kcidb(cfg, argv, argc, out.f);
	else if (cfg->format == XF_OTAVA)
		ret = otava(cfg, argv, argc, out.f);
	else
		ret = one_file(cfg, argv[0], out.f);
	if (ret) {
		outfile_discard(&out);
		return ret;
	}
	return outfile_commit(&out) ? EXIT_FAIL : EXIT_OK;
}

const struct cli_cmd cmd_export = {
	.name = "export",
	.args = "FORMAT FILE...",
	.summary = "result files for other systems: KCIDB, LKP stats, Otava CSV, Bencher BMF",
	.description =
		"Write 'ppbench bench --json' result files in the format another system reads,\n"
		"to stdout or -o FILE:\n"
		"  kcidb  KernelCI's KCIDB JSON (schema v5.0): a test per scenario,\n"
		"         ppbench.SCENARIO, and per path figure, ppbench.SCENARIO.path.METHOD,\n"
		"         status DONE with the figure as its number (SKIP for a skipped scenario\n"
		"         or an n/a path figure), host and kernel in environment and misc; needs\n"
		"         --origin. From a 'compare --json' document: compare's verdicts,\n"
		"         ppbench.compare.SCENARIO[.path.METHOD], FAIL where its gate fired, PASS\n"
		"         where the gate could test, DONE without a gate.\n"
		"  lkp    the 'key: value' lines of an LKP parse program, numbers only:\n"
		"         ppbench.ring.cycles_per_elem: MEDIAN, and ppbench.ring.workload: the\n"
		"         elements of the timed runs, what LKP's perf-stat path length divides\n"
		"         by (scripts/lkp/ has the program).\n"
		"  otava  Apache Otava's CSV: a row per file, in the order of trend --by, with\n"
		"         time, label, kernel and file, and a column per scenario and figure.\n"
		"  bmf    Bencher's BMF JSON: a benchmark per scenario, its measures' value the\n"
		"         median of the setups, lower and upper value the least and largest.\n"
		"Names carry the files' unit: a result of the instruction clock (host.clock)\n"
		"exports instructions_per_elem where one of the TSC exports cycles_per_elem;\n"
		"a path figure's name carries its method too: path_fentry_cycles_per_elem.\n"
		"Every file is checked against its schema first; a bad file, an unknown format\n"
		"or a missing --origin is one line on stderr and exit status 2, and nothing is\n"
		"written.",
	.examples = "  ppbench export kcidb --origin myci result.json > kcidb.json\n"
		    "  ppbench export kcidb --origin myci --build-id myci:build-42 cmp.json\n"
		    "  ppbench export lkp result.json\n"
		    "  ppbench export otava --by label ci/results/*.json -o ppbench.csv\n"
		    "  ppbench export bmf result.json > bmf.json\n",
	.opts = export_opts,
	.min_args = 0,
	.max_args = 1 << 20,
	.cfg_size = sizeof(struct export_cfg),
	.cfg_init = export_init,
	.check = export_check,
	.run = export_run,
};
