/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_CLI_H
#define PPBENCH_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One option of a subcommand; tables end with an entry whose name is NULL. */
struct cli_opt {
	const char *name;    /* long name, without "--" */
	char short_name;     /* 0: none */
	const char *metavar; /* NULL: a flag without argument */
	const char *help;
	int key;
};

/*
 * A subcommand: its help text is generated from this table, so --help, the
 * README and the man page describe the same options.
 */
struct cli_cmd {
	const char *name;
	const char *args;	 /* positional synopsis, e.g. "[IFACE]" */
	const char *summary;	 /* one line for 'ppbench --help' */
	const char *description; /* paragraphs for 'ppbench CMD --help' */
	const char *examples;
	const struct cli_opt *opts;
	int min_args, max_args;
	size_t cfg_size;
	void (*cfg_init)(void *cfg);
	/* Returns 0, or a negative errno after printing a one-line error. */
	int (*opt)(void *cfg, int key, const char *arg);
	/* Runs the command; returns an exit code (EXIT_*). */
	int (*run)(void *cfg, int argc, char **argv);
	/*
	 * Hand positional arguments to opt() as CLI_KEY_ARG, in command-line
	 * order among the options, for commands where an option gives the
	 * arguments after it their meaning (compare --old A B --new C D).
	 * run() then gets no arguments: leave min_args/max_args at 0.
	 */
	bool ordered_args;
};

/* Keys below this are free for commands. */
enum { CLI_KEY_HELP = 1000, CLI_KEY_VERBOSE, CLI_KEY_VERSION, CLI_KEY_ARG };

extern const struct cli_cmd *const cli_commands[];

int cli_main(int argc, char **argv);
void cli_print_help(const struct cli_cmd *cmd, FILE *f);

#endif
