// SPDX-License-Identifier: GPL-2.0
/*
 * The manual pages and 'ppbench help'. Each page is Markdown: its prose
 * (user/cmd/CMD.md; ppbench(8)'s is user/core/cli/ppbench.md), compiled into the
 * binary, with the command's table written in where the prose's @ lines
 * stand, so --help and the pages say the same. lowdown, a packaged
 * converter, makes troff of it for man(1), and text where man is not at hand.
 *
 * The prose is lowdown's Markdown (lowdown(5)) without tables: a term and
 * its ": definition" lines (a definition list) is what man shows well at 80
 * columns. Lines of the prose that stand for the table:
 *   @description  the command's description, verbatim
 *   @options      its options and the common ones, a definition list
 *   @examples     its examples, verbatim
 *   @commands     (ppbench.md) every command with the three above
 *   @see-also     (ppbench.md) every command's page and the tools beside
 * 'ppbench help --completion' prints the bash completion (completion.c).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h> /* lowdown.h needs it */
#include <lowdown.h>
#include "cli/cli.h"
#include "cli/manpage.h"
#include "sys/log.h"
#include "sys/util.h"

/* Text of the tables in Markdown: its punctuation stays punctuation. */
static void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_[]<>#|", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void md_verbatim(FILE *f, const char *text)
{
	size_t len = strlen(text);

	fprintf(f, "```\n%s%s```\n", text, len && text[len - 1] == '\n' ? "" : "\n");
}

static void md_option(FILE *f, const struct cli_opt *o)
{
	char mv[96], help[512];
	const char *metavar = cli_opt_metavar(o, mv, sizeof(mv));

	if (o->short_name)
		fprintf(f, "**-%c**, ", o->short_name);
	fputs("**--", f);
	md_text(f, o->name);
	fputs("**", f);
	if (metavar) {
		fputs(o->flags & CLI_F_OPTIONAL ? "*" : " *", f); /* --nic[=...] */
		md_text(f, metavar);
		fputc('*', f);
	}
	cli_opt_help(o, help, sizeof(help));
	fputs("\n: ", f);
	md_text(f, help);
	fputs(".\n\n", f);
}

static void md_options(FILE *f, const struct cli_cmd *cmd)
{
	for (const struct cli_opt *o = cmd->opts; o && o->name; o++)
		md_option(f, o);
	for (const struct cli_opt *o = cli_common_opts; o->name; o++)
		md_option(f, o);
}

static void md_synopsis(FILE *f, const char *level, const struct cli_cmd *cmd)
{
	fprintf(f, "%s**ppbench %s** \\[OPTIONS\\]", level, cmd->name);
	if (cmd->args) {
		fputc(' ', f);
		md_text(f, cmd->args);
	}
	fputs("\n\n", f);
}

static void md_directive(FILE *f, const struct cli_cmd *cmd, const char *d);

/* The figure NAME (LEN bytes) of FIGS, as the page shows it; false: none. */
static bool put_figure(FILE *f, const struct cli_fig *figs, int n, const char *name, size_t len)
{
	for (int i = 0; i < n; i++) {
		double v = figs[i].value;

		if (strlen(figs[i].name) != len || strncmp(figs[i].name, name, len))
			continue;
		if (v == (double)(long long)v && fabs(v) < 1e15)
			fprintf(f, "%lld", (long long)v);
		else
			fprintf(f, "%g", v);
		return true;
	}
	return false;
}

/* A line of prose with its @{NAME} figures written out; -EINVAL: a NAME unknown. */
static int md_line(FILE *f, const char *s, size_t l, const struct cli_fig *figs, int n)
{
	const char *end = s + l, *at;
	int err = 0;

	while ((at = memmem(s, end - s, "@{", 2))) {
		const char *close = memchr(at, '}', end - at);

		fwrite(s, 1, at - s, f);
		if (!close || !put_figure(f, figs, n, at + 2, close - at - 2)) {
			pr_err("manual page: no figure '%.*s'\n",
			       close ? (int)(close - at + 1) : (int)(end - at), at);
			err = -EINVAL;
			if (!close)
				return err;
		}
		s = close + 1;
	}
	fwrite(s, 1, end - s, f);
	fputc('\n', f);
	return err;
}

/* The prose, with the table where its @ lines stand and the figures where @{NAME} does. */
static int md_prose(FILE *f, const struct cli_cmd *cmd, const char *prose)
{
	struct cli_fig figs[CLI_MAX_FIGS];
	int n = cmd && cmd->figures ? cmd->figures(figs) : 0, err = 0;

	for (const char *s = prose; *s;) {
		size_t l = strcspn(s, "\n");

		if (*s == '@' && s[1] != '{') {
			char d[32];

			snprintf(d, sizeof(d), "%.*s", (int)l, s);
			md_directive(f, cmd, d);
		} else if (md_line(f, s, l, figs, n)) {
			err = -EINVAL;
		}
		s += l + (s[l] == '\n');
	}
	return err;
}

static void md_command(FILE *f, const struct cli_cmd *c)
{
	md_synopsis(f, "## ", c);
	md_verbatim(f, c->description ? c->description : c->summary);
	fputc('\n', f);
	md_options(f, c);
	if (c->examples) {
		fputs("Examples:\n\n", f);
		md_verbatim(f, c->examples);
	}
}

static void md_directive(FILE *f, const struct cli_cmd *cmd, const char *d)
{
	if (cmd && !strcmp(d, "@description"))
		md_verbatim(f, cmd->description ? cmd->description : cmd->summary);
	else if (cmd && !strcmp(d, "@options"))
		md_options(f, cmd);
	else if (cmd && !strcmp(d, "@examples") && cmd->examples)
		md_verbatim(f, cmd->examples);
	for (int i = 0; !cmd && !strcmp(d, "@commands") && cli_prog->cmds[i]; i++)
		md_command(f, cli_prog->cmds[i]);
	if (!cmd && !strcmp(d, "@see-also")) {
		for (int i = 0; cli_prog->cmds[i]; i++)
			fprintf(f, "**ppbench-%s**(8), ", cli_prog->cmds[i]->name);
		fputs("**bpftool**(8), **xdp-bench**(8), **ethtool**(8), **ip-link**(8)\n", f);
	}
}

int man_markdown(FILE *f, bool meta, const struct cli_cmd *cmd, const char *prose)
{
	char title[64];

	snprintf(title, sizeof(title), cmd ? "ppbench-%s" : "ppbench", cmd ? cmd->name : "");
	for (char *s = title; *s; s++)
		*s = toupper((unsigned char)*s);
	if (meta)
		fprintf(f,
			"title: %s\nsection: 8\ndate: 2026\nsource: ppbench %s\n"
			"volume: System Administration\n\n",
			title, PPBENCH_VERSION);
	if (cmd) {
		fprintf(f, "# NAME\n\nppbench-%s - ", cmd->name);
		md_text(f, cmd->summary);
		fputs("\n\n# SYNOPSIS\n\n", f);
		md_synopsis(f, "", cmd);
	}
	if (prose)
		return md_prose(f, cmd, prose);
	if (cmd) {
		fputs("# DESCRIPTION\n\n", f);
		md_directive(f, cmd, "@description");
		fputs("\n# OPTIONS\n\n", f);
		md_directive(f, cmd, "@options");
	}
	return 0;
}

/*
 * The page of CMD (NULL: ppbench(8)) through lowdown, as troff (ROFF) or
 * as text of 80 columns without escape sequences.
 */
int man_render(FILE *f, bool roff, const struct cli_cmd *cmd, const char *prose)
{
	struct lowdown_opts opts = {
		.type = roff ? LOWDOWN_MAN : LOWDOWN_TERM,
		.cols = 80,
		.feat = LOWDOWN_FENCED | LOWDOWN_DEFLIST | LOWDOWN_METADATA | LOWDOWN_NOINTEM |
			LOWDOWN_NOCODEIND | LOWDOWN_COMMONMARK,
		.oflags = roff ? LOWDOWN_STANDALONE : LOWDOWN_TERM_NOANSI,
	};
	char *md = NULL, *out = NULL;
	size_t mdlen = 0, outlen = 0;
	FILE *m = open_memstream(&md, &mdlen);
	int ok = 0, err = 0;

	if (m) {
		err = man_markdown(m, roff, cmd, prose); /* lowdown's text would show metadata */
		ok = !fclose(m) && !err && lowdown_buf(&opts, md, mdlen, &out, &outlen, NULL);
	}
	if (ok && roff) {
		/* after .TH: no hyphenation, ragged right, no break inside --fail-above */
		const char *th = memmem(out, outlen, "\n.TH ", 5);
		const char *eol = th ? memchr(th + 1, '\n', outlen - (th + 1 - out)) : NULL;
		size_t head = eol ? (size_t)(eol + 1 - out) : 0;

		fwrite(out, 1, head, f);
		fputs(".nh\n.ad l\n.cflags 0 -\n", f);
		fwrite(out + head, 1, outlen - head, f);
	} else if (ok) {
		fwrite(out, 1, outlen, f);
	}
	free(md);
	free(out);
	return err ? err : ok ? 0 : -ENOMEM;
}

const char *man_prose_of(const char *name)
{
	for (const struct man_prose *p = man_prose; p->name; p++)
		if (!strcmp(p->name, name))
			return p->text;
	return NULL;
}

/* The page in man(1), which reads it from its standard input: a pager on a terminal, else text. */
static int show_in_man(const struct cli_cmd *cmd)
{
	FILE *man;
	int status;

	fflush(stdout);
	man = popen("man -l -", "w");
	if (!man) {
		pr_err("cannot run man: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	man_render(man, true, cmd, man_prose_of(cmd ? cmd->name : "ppbench"));
	status = pclose(man);
	return status == 0 ? EXIT_OK : EXIT_FAIL;
}

int cli_help(int argc, char **argv)
{
	bool roff = argc > 0 && !strcmp(argv[0], "--man");
	const struct cli_cmd *cmd = NULL;
	int err;

	if (argc == 1 && !strcmp(argv[0], "--completion")) {
		cli_completion(stdout);
		return fflush(stdout) ? EXIT_FAIL : EXIT_OK;
	}

	if (roff)
		argc--, argv++;
	if (argc > 1 || (!roff && argc != 1)) {
		pr_err("help: expected one command, got %d\n", argc);
		return EXIT_USAGE;
	}
	if (argc) {
		cmd = cli_find(argv[0]);
		if (!cmd) {
			pr_err("unknown command '%s'\n", argv[0]);
			return EXIT_USAGE;
		}
	}
	if (!roff && prog_in_path("man", NULL, 0))
		return show_in_man(cmd);
	err = man_render(stdout, roff, cmd, man_prose_of(cmd ? cmd->name : "ppbench"));
	if (err) {
		if (err == -ENOMEM)
			pr_err("help: cannot render the page: %s\n", strerror(ENOMEM));
		return EXIT_FAIL;
	}
	return fflush(stdout) ? EXIT_FAIL : EXIT_OK;
}
