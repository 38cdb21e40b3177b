/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_MANPAGE_H
#define PPBENCH_MANPAGE_H

#include <stdbool.h>
#include <stdio.h>
#include "cli/cli.h"

/*
 * A command's manual page prose: user/cmd/CMD.md, compiled into the binary
 * by the Makefile (build/man_prose.c) so that 'ppbench help CMD' needs no
 * file at run time. The table ends with a NULL name.
 */
struct man_prose {
	const char *name;
	const char *text;
};

extern const struct man_prose man_prose[];

/* ppbench(8) in troff, from the same tables as --help. */
void cli_print_man(FILE *f);
/*
 * ppbench-CMD(8): NAME and SYNOPSIS from CMD's table, then PROSE (the
 * Markdown subset described in manpage.c), whose @description, @options and
 * @examples lines stand for those parts of the table. ROFF: troff for man(1),
 * else the plain text man(1) would show, word for word.
 */
void man_render(FILE *f, bool roff, const struct cli_cmd *cmd, const char *prose);
/* The prose of the command NAME; NULL when it has none. */
const char *man_prose_of(const char *name);
/*
 * 'ppbench help ARGS': --man prints ppbench(8), --man CMD ppbench-CMD(8) in
 * troff; CMD opens the page in man(1) on a terminal, else prints it as text.
 * Returns the exit code.
 */
int cli_help(int argc, char **argv);

#endif
