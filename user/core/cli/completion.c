// SPDX-License-Identifier: GPL-2.0
/*
 * The bash completion of ppbench, written from the command tables, so that
 * it offers what the parser takes: the commands, each one's long options,
 * and for an option's value or an argument what its kind says (the words of
 * a CLI_ENUM, interfaces, files, directories). 'ppbench help --completion'
 * prints it; the Makefile keeps it as build/ppbench.bash and make install
 * puts it where bash-completion looks.
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"

/* How a value or an argument is completed: a bash word the script acts on. */
static const char *value_kind(const struct cli_opt *o)
{
	const char *mv = o->metavar ? o->metavar : "";

	if (o->kind == CLI_FLAG || (o->kind == CLI_CUSTOM && !o->metavar))
		return NULL;
	if (o->kind == CLI_ENUM)
		return "words";
	if (o->kind == CLI_IFACE)
		return "iface";
	if (o->kind == CLI_OUTPUT)
		return "file";
	if (o->kind == CLI_STRING && (o->flags & CLI_F_OUTDIR))
		return "dir";
	if (o->kind == CLI_STRING && (o->flags & CLI_F_INFILE))
		return "file";
	if (strstr(mv, "DIR"))
		return "dir";
	if (strstr(mv, "FILE") || strstr(mv, "IMAGE") || strstr(mv, "PROFILE"))
		return "file";
	return "any";
}

/* An argument's kind from the synopsis ("IFACE [DEV|N]", "FILE...|DIR"). */
static const char *arg_kind(const struct cli_cmd *c)
{
	const char *a = c->args ? c->args : "";

	if (strstr(a, "IFACE"))
		return "iface";
	if (strstr(a, "FILE") || strstr(a, ".json"))
		return "file";
	return "none";
}

static void put_options(FILE *f, const struct cli_opt *opts)
{
	for (const struct cli_opt *o = opts; o && o->name; o++)
		fprintf(f, " --%s", o->name);
}

/* "CMD:--name|CMD:-n) echo KIND" for each option of C that takes a value. */
static void put_values(FILE *f, const struct cli_cmd *c, const struct cli_opt *opts)
{
	for (const struct cli_opt *o = opts; o && o->name; o++) {
		const char *k = value_kind(o);

		if (!k)
			continue;
		fprintf(f, "\t%s:--%s", c->name, o->name);
		if (o->short_name)
			fprintf(f, " | %s:-%c", c->name, o->short_name);
		fprintf(f, ") echo '%s", k);
		for (const struct cli_word *w = o->words; k[0] == 'w' && w && w->word; w++)
			fprintf(f, " %s", w->word);
		fputs("' ;;\n", f);
	}
}

static void put_tables(FILE *f)
{
	fputs("_ppbench_commands='", f);
	for (int i = 0; cli_prog->cmds[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", cli_prog->cmds[i]->name);
	fputs(" help'\n\n# CMD: its long options\n_ppbench_options()\n{\n\tcase $1 in\n", f);
	for (int i = 0; cli_prog->cmds[i]; i++) {
		fprintf(f, "\t%s) echo '", cli_prog->cmds[i]->name);
		put_options(f, cli_prog->cmds[i]->opts);
		put_options(f, cli_common_opts);
		fputs("' ;;\n", f);
	}
	fputs("\tesac\n}\n\n"
	      "# CMD OPTION: how its value is completed (words W..., iface, file, dir, any),\n"
	      "# nothing for an option that takes none\n"
	      "_ppbench_value()\n{\n\tcase $1:$2 in\n",
	      f);
	for (int i = 0; cli_prog->cmds[i]; i++)
		put_values(f, cli_prog->cmds[i], cli_prog->cmds[i]->opts);
	fputs("\tesac\n}\n\n# CMD: how its arguments are completed (iface, file, none)\n"
	      "_ppbench_args()\n{\n\tcase $1 in\n",
	      f);
	for (int i = 0; cli_prog->cmds[i]; i++)
		fprintf(f, "\t%s) echo %s ;;\n", cli_prog->cmds[i]->name,
			arg_kind(cli_prog->cmds[i]));
	fputs("\tesac\n}\n\n", f);
}

/* The functions that act on the tables (completion.bash, as a C string). */
static const char completion_code[] =
#include "gen/completion.inc"
	;

void cli_completion(FILE *f)
{
	fputs("# SPDX-License-Identifier: GPL-2.0\n"
	      "# bash completion of ppbench, written from its option tables by\n"
	      "# 'ppbench help --completion': do not edit.\n\n",
	      f);
	put_tables(f);
	fputs(completion_code, f);
}
