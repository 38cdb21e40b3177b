// SPDX-License-Identifier: GPL-2.0
/*
 * Table-driven subcommands (the xdp-tools params.c idea, written afresh):
 * each command supplies an option table and callbacks; parsing, help text,
 * and usage errors are handled here once.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/manpage.h"
#include "sys/log.h"

static const struct cli_opt common_opts[] = {
	{ "verbose", 'v', NULL, "more messages; repeat (-vv) for libbpf debug output",
	  CLI_KEY_VERBOSE },
	{ "help", 'h', NULL, "show this help and exit", CLI_KEY_HELP },
	{ NULL },
};

static void print_opt(FILE *f, const struct cli_opt *o)
{
	char lhs[64];
	int n;

	if (o->short_name)
		n = snprintf(lhs, sizeof(lhs), "-%c, --%s", o->short_name, o->name);
	else
		n = snprintf(lhs, sizeof(lhs), "    --%s", o->name);
	if (o->metavar)
		snprintf(lhs + n, sizeof(lhs) - n, " %s", o->metavar);
	if (strlen(lhs) > 24)
		fprintf(f, "  %s\n  %-24s  %s\n", lhs, "", o->help);
	else
		fprintf(f, "  %-24s  %s\n", lhs, o->help);
}

void cli_print_help(const struct cli_cmd *cmd, FILE *f)
{
	fprintf(f, "Usage: ppbench %s [OPTIONS]%s%s\n\n", cmd->name, cmd->args ? " " : "",
		cmd->args ? cmd->args : "");
	fprintf(f, "%s\n", cmd->description ? cmd->description : cmd->summary);
	fprintf(f, "\nOptions:\n");
	for (const struct cli_opt *o = cmd->opts; o && o->name; o++)
		print_opt(f, o);
	for (const struct cli_opt *o = common_opts; o->name; o++)
		print_opt(f, o);
	if (cmd->examples)
		fprintf(f, "\nExamples:\n%s", cmd->examples);
	fprintf(f, "\nExit status: 0 success, 1 runtime error, 2 usage error%s.\n",
		strcmp(cmd->name, "compare") ? "" : ", 3 regression above --fail-above");
}

static void print_main_help(FILE *f)
{
	fprintf(f, "Usage: ppbench COMMAND [OPTIONS] [ARGS]\n"
		   "       ppbench COMMAND --help\n"
		   "       ppbench --version\n\n"
		   "Measure what each page_pool recycling path (fast, ptr_ring, slow) costs, in TSC\n"
		   "cycles per element, with BPF counters proving which path every element took.\n"
		   "No kernel module. With no interface given, commands run on a private veth pair\n"
		   "in network namespaces that ppbench creates and removes itself.\n\nCommands:\n");
	for (int i = 0; cli_commands[i]; i++)
		fprintf(f, "  %-9s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
	fprintf(f, "\nExit status: 0 success, 1 runtime error, 2 usage error.\n");
}

static int build_longopts(const struct cli_cmd *cmd, struct option *lo, char *so, int max)
{
	const struct cli_opt *tables[] = { cmd->opts, common_opts };
	int n = 0, s = 0;

	if (cmd->ordered_args)
		so[s++] = '-'; /* positionals come back in order, as option 1 */
	so[s++] = ':';	       /* report missing arguments as ':' */
	for (int t = 0; t < 2; t++) {
		for (const struct cli_opt *o = tables[t]; o && o->name && n < max - 1; o++) {
			lo[n++] = (struct option){ o->name, o->metavar ? required_argument
								: no_argument,
						   NULL, o->key };
			if (o->short_name) {
				so[s++] = o->short_name;
				if (o->metavar)
					so[s++] = ':';
			}
		}
	}
	so[s] = '\0';
	memset(&lo[n], 0, sizeof(lo[n]));
	return n;
}

/* getopt returns the short letter for short options; map it back to the key. */
static int short_to_key(const struct cli_cmd *cmd, int c)
{
	const struct cli_opt *tables[] = { cmd->opts, common_opts };

	for (int t = 0; t < 2; t++)
		for (const struct cli_opt *o = tables[t]; o && o->name; o++)
			if (o->short_name == c)
				return o->key;
	return c;
}

static int usage_error(const struct cli_cmd *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "ppbench %s: ", cmd->name);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see 'ppbench %s --help')\n", cmd->name);
	return EXIT_USAGE;
}

static int run_cmd(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct option lo[64];
	char so[160];
	void *cfg;
	int c, li, nargs, ret;

	build_longopts(cmd, lo, so, 64);
	cfg = calloc(1, cmd->cfg_size ? cmd->cfg_size : 1);
	if (!cfg)
		return EXIT_FAIL;
	if (cmd->cfg_init)
		cmd->cfg_init(cfg);
	opterr = 0;
	optind = 1;
	/*
	 * In ordered_args mode getopt returns 1 for a bare argument, which is
	 * also a valid option key: only a long option sets the index.
	 */
	while ((li = -1, c = getopt_long(argc, argv, so, lo, &li)) != -1) {
		if (c == '?') {
			char sopt[3] = { '-', (char)optopt, 0 };

			if (optopt)
				ret = usage_error(cmd, "unknown option '%s'", sopt);
			else
				ret = usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
			goto out;
		}
		if (c == ':') {
			ret = usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
			goto out;
		}
		if (cmd->ordered_args && c == 1 && li < 0) {
			if (cmd->opt(cfg, CLI_KEY_ARG, optarg)) {
				ret = EXIT_USAGE;
				goto out;
			}
			continue;
		}
		c = short_to_key(cmd, c);
		if (c == CLI_KEY_HELP) {
			cli_print_help(cmd, stdout);
			ret = EXIT_OK;
			goto out;
		}
		if (c == CLI_KEY_VERBOSE) {
			log_level++;
			continue;
		}
		if (cmd->opt(cfg, c, optarg)) {
			ret = EXIT_USAGE;
			goto out;
		}
	}
	nargs = argc - optind;
	/* after "--" getopt stops; what is left is still in order */
	for (; cmd->ordered_args && optind < argc; optind++, nargs--) {
		if (cmd->opt(cfg, CLI_KEY_ARG, argv[optind])) {
			ret = EXIT_USAGE;
			goto out;
		}
	}
	if (nargs < cmd->min_args) {
		ret = usage_error(cmd, "missing argument%s", cmd->args ? " " : "");
		if (cmd->args)
			fprintf(stderr, "ppbench %s: expected %s\n", cmd->name, cmd->args);
		goto out;
	}
	if (nargs > cmd->max_args) {
		ret = usage_error(cmd, "unexpected argument '%s'", argv[optind + cmd->max_args]);
		goto out;
	}
	ret = cmd->run(cfg, nargs, argv + optind);
out:
	free(cfg);
	return ret;
}

int cli_main(int argc, char **argv)
{
	const char *name;

	if (argc < 2) {
		fprintf(stderr, "ppbench: missing command (see 'ppbench --help')\n");
		return EXIT_USAGE;
	}
	name = argv[1];
	if (!strcmp(name, "help") && argc > 2 && !strcmp(argv[2], "--man")) {
		cli_print_man(stdout);
		return EXIT_OK;
	}
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		if (argc > 2 && strcmp(name, "help") == 0) {
			for (int i = 0; cli_commands[i]; i++)
				if (!strcmp(cli_commands[i]->name, argv[2])) {
					cli_print_help(cli_commands[i], stdout);
					return EXIT_OK;
				}
			fprintf(stderr, "ppbench: unknown command '%s' (see 'ppbench --help')\n",
				argv[2]);
			return EXIT_USAGE;
		}
		print_main_help(stdout);
		return EXIT_OK;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
		printf("ppbench %s\n", PPBENCH_VERSION);
		return EXIT_OK;
	}
	for (int i = 0; cli_commands[i]; i++)
		if (!strcmp(cli_commands[i]->name, name))
			return run_cmd(cli_commands[i], argc - 1, argv + 1);
	fprintf(stderr, "ppbench: unknown command '%s' (see 'ppbench --help')\n", name);
	return EXIT_USAGE;
}
