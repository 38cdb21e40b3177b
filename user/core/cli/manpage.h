/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_MANPAGE_H
#define PPBENCH_MANPAGE_H

#include <stdbool.h>
#include <stdio.h>
#include "cli/cli.h"

/*
 * A page's prose: user/cmd/CMD.md, and user/core/cli/ppbench.md as "ppbench",
 * compiled into the binary by the Makefile (build/gen/man_prose.c) so that
 * 'ppbench help CMD' needs no file at run time. The table ends with a NULL
 * name.
 */
struct man_prose {
	const char *name;
	const char *text;
};

extern const struct man_prose man_prose[];

/*
 * The Markdown of ppbench-CMD(8), or of ppbench(8) when CMD is NULL: with
 * META the metadata block of the page's header line (title, section...),
 * NAME and SYNOPSIS from CMD's table, then PROSE (its @ lines written out,
 * and its @{NAME} figures from CMD's figures(): manpage.c). Returns 0, or
 * -EINVAL after a one-line error naming a figure CMD does not have.
 */
int man_markdown(FILE *f, bool meta, const struct cli_cmd *cmd, const char *prose);
/*
 * That page through lowdown: troff for man(1) when ROFF, else text of 80
 * columns. Returns 0, -EINVAL (a figure unknown: the error is printed), or
 * -ENOMEM.
 */
int man_render(FILE *f, bool roff, const struct cli_cmd *cmd, const char *prose);
/* The prose of the command NAME ("ppbench": ppbench(8)); NULL when it has none. */
const char *man_prose_of(const char *name);
/*
 * 'ppbench help ARGS': --man prints ppbench(8), --man CMD ppbench-CMD(8) in
 * troff; CMD shows the page in man(1) (a pager on a terminal, else text),
 * or as lowdown's text where man is not installed; --completion prints the
 * bash completion. Returns the exit code.
 */
int cli_help(int argc, char **argv);

#endif
