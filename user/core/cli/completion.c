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

/* The functions that act on the tables: the same for every ppbench. */
static const char completion_code[] =
	"# COMPREPLY for KIND (and its words) and the word being completed\n"
	"_ppbench_reply()\n"
	"{\n"
	"\tlocal kind=$1 cur=$2\n"
	"\tcase $kind in\n"
	"\twords\\ *) COMPREPLY=($(compgen -W \"${kind#words }\" -- \"$cur\")) ;;\n"
	"\tiface) COMPREPLY=($(compgen -W \"$(ls /sys/class/net 2>/dev/null)\" -- \"$cur\")) ;;\n"
	"\tfile) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
	"\tdir) COMPREPLY=($(compgen -d -- \"$cur\")) ;;\n"
	"\t*) COMPREPLY=() ;;\n"
	"\tesac\n"
	"}\n"
	"\n"
	"# The command line from word FIRST on (vm -- COMMAND: FIRST is COMMAND's)\n"
	"_ppbench_line()\n"
	"{\n"
	"\tlocal first=$1 cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[$1]} prev i kind\n"
	"\tif [ \"$COMP_CWORD\" -eq \"$first\" ]; then\n"
	"\t\tCOMPREPLY=($(compgen -W \"$_ppbench_commands\" -- \"$cur\"))\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tif [ \"$cmd\" = help ]; then\n"
	"\t\t[ \"$COMP_CWORD\" -ne $((first + 1)) ] ||\n"
	"\t\t\tCOMPREPLY=($(compgen -W \"$_ppbench_commands\" -- \"$cur\"))\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tfor ((i = first + 1; i < COMP_CWORD; i++)); do\n"
	"\t\t[ \"${COMP_WORDS[i]}\" = -- ] || continue\n"
	"\t\tcase $cmd in\n"
	"\t\tvm) _ppbench_line $((i + 1)) ;;\n"
	"\t\tenv) COMPREPLY=($(compgen -c -- \"$cur\")) ;;\n"
	"\t\tesac\n"
	"\t\treturn\n"
	"\tdone\n"
	"\t# an option's value: after the option, or after its '=' (a word of its own\n"
	"\t# where COMP_WORDBREAKS holds '=', as by default)\n"
	"\tprev=${COMP_WORDS[COMP_CWORD - 1]}\n"
	"\t[ \"$cur\" != = ] || cur=\n"
	"\t[ \"$prev\" != = ] || prev=${COMP_WORDS[COMP_CWORD - 2]}\n"
	"\tif [[ $cur == --*=* ]]; then\n"
	"\t\tprev=${cur%%=*}\n"
	"\t\tcur=${cur#*=}\n"
	"\tfi\n"
	"\tkind=$(_ppbench_value \"$cmd\" \"$prev\")\n"
	"\tif [ -n \"${kind:-}\" ]; then\n"
	"\t\t_ppbench_reply \"$kind\" \"$cur\"\n"
	"\telif [[ $cur == -* ]]; then\n"
	"\t\tCOMPREPLY=($(compgen -W \"$(_ppbench_options \"$cmd\")\" -- \"$cur\"))\n"
	"\telse\n"
	"\t\t_ppbench_reply \"$(_ppbench_args \"$cmd\")\" \"$cur\"\n"
	"\tfi\n"
	"}\n"
	"\n"
	"_ppbench()\n"
	"{\n"
	"\tCOMPREPLY=()\n"
	"\t_ppbench_line 1\n"
	"}\n"
	"\n"
	"complete -F _ppbench ppbench\n";

void cli_completion(FILE *f)
{
	fputs("# SPDX-License-Identifier: GPL-2.0\n"
	      "# bash completion of ppbench, written from its option tables by\n"
	      "# 'ppbench help --completion': do not edit.\n\n",
	      f);
	put_tables(f);
	fputs(completion_code, f);
}
