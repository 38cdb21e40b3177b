// SPDX-License-Identifier: GPL-2.0
/*
 * The manual pages (cli/manpage.c): the Markdown written from a command's
 * table and its prose, which lowdown renders (lowdown's own rendering is
 * lowdown's; the integration test test_manpages.sh checks the pages).
 */
#include <errno.h>
#include <stdlib.h>
#include "cli/manpage.h"
#include "unit.h"

/* Every command's: the program's table (commands.c). */
extern const struct cli_program ppbench;

static const struct cli_opt fake_opts[] = {
	{ "count", 'n', "N", "elements, with `code`, *stars*, [brackets] and <angles>",
	  .kind = CLI_UINT, .min = 1, .max = 9 },
	{ "mode", 0, NULL, "the mode", .kind = CLI_ENUM,
	  .words = (const struct cli_word[]){ { "a", 0 }, { "b_c", 1 }, { NULL } } },
	{ NULL },
};

static const struct cli_cmd fake = {
	.name = "fake",
	.args = "[IFACE]",
	.summary = "a command for the tests",
	.description = "What it does.\n  verbatim *line*\n",
	.examples = "  ppbench fake\n",
	.opts = fake_opts,
};

/*
 * What man_markdown() writes, in a string the caller frees (not inlined:
 * gcc then takes the stream's buffer for a pointer to the local).
 */
static __attribute__((noinline)) char *markdown(bool meta, const struct cli_cmd *cmd,
						const char *prose)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cli_prog = &ppbench;
	man_markdown(f, meta, cmd, prose);
	fclose(f);
	return buf;
}

static size_t count(const char *s, const char *sub)
{
	size_t n = 0;

	for (const char *p = strstr(s, sub); p; p = strstr(p + 1, sub))
		n++;
	return n;
}

/* The table's parts stand where the prose's @ lines are, with Markdown kept out of its text. */
void test_manpage_directives(void)
{
	char *md = markdown(true, &fake,
			    "# DESCRIPTION\n\n@description\n\n# OPTIONS\n\n@options\n\n"
			    "# EXAMPLES\n\n@examples\n\nLast *line*.\n");

	ASSERT_TRUE(strstr(md, "title: PPBENCH-FAKE\nsection: 8\n"), "metadata");
	ASSERT_TRUE(strstr(md, "# NAME\n\nppbench-fake - a command for the tests\n"), "NAME");
	ASSERT_TRUE(strstr(md, "# SYNOPSIS\n\n**ppbench fake** \\[OPTIONS\\] \\[IFACE\\]\n"),
		    "SYNOPSIS");
	ASSERT_TRUE(strstr(md, "# DESCRIPTION\n\n```\nWhat it does.\n  verbatim *line*\n```\n"),
		    "@description verbatim");
	ASSERT_TRUE(strstr(md, "**-n**, **--count** *N*\n: elements, with \\`code\\`, \\*stars\\*, "
			       "\\[brackets\\] and \\<angles\\>, 1..9.\n\n"),
		    "an option, its range and its text escaped");
	ASSERT_TRUE(strstr(md, "**--mode** *a\\|b\\_c*\n: the mode.\n"), "an enum's words");
	ASSERT_TRUE(strstr(md, "# EXAMPLES\n\n```\n  ppbench fake\n```\n"), "@examples");
	ASSERT_TRUE(strstr(md, "\nLast *line*.\n"), "the prose stays Markdown");
	ASSERT_FALSE(strstr(md, "@"), "no @ line is left");
	free(md);
	md = markdown(false, &fake, NULL);
	ASSERT_FALSE(strstr(md, "title:"), "no metadata for the text");
	ASSERT_TRUE(strstr(md, "# DESCRIPTION\n") && strstr(md, "# OPTIONS\n\n**-n**"),
		    "without prose: DESCRIPTION and OPTIONS");
	free(md);
}

/*
 * --verbose and --help are written once (cli_common_opts): every command's
 * --help, its page and ppbench(8) show that text, after the command's own.
 */
void test_manpage_common_options_once(void)
{
	char *md = markdown(true, &fake, "@options\n"), *help = NULL, *main_md;
	size_t len = 0;
	FILE *f = open_memstream(&help, &len);
	int n = 0;

	cli_print_help(&fake, f);
	fclose(f);
	main_md = markdown(true, NULL, man_prose_of("ppbench"));
	while (cli_prog->cmds[n])
		n++;
	for (const struct cli_opt *o = cli_common_opts; o->name; o++) {
		char want[256];

		snprintf(want, sizeof(want), "**-%c**, **--%s**\n: %s.\n", o->short_name, o->name,
			 o->help);
		ASSERT_EQ(count(md, want), 1, "a command's page shows it once");
		ASSERT_EQ(count(main_md, want), n, "ppbench(8) once per command");
		ASSERT_EQ(count(help, o->help), 1, "--help shows the same text");
	}
	ASSERT_TRUE(strstr(md, "*N*\n") < strstr(md, "**--verbose**"), "after the command's own");
	free(md);
	free(help);
	free(main_md);
}

/* The page through lowdown, troff or text, in a string the caller frees. */
static char *render(bool roff)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ASSERT_OK(man_render(f, roff, &fake, "# DESCRIPTION\n\n@description\n"), "render");
	fclose(f);
	return buf;
}

/* lowdown's troff carries the page's header line; its text has none of the metadata. */
void test_manpage_render(void)
{
	char *roff = render(true), *text = render(false);

	ASSERT_TRUE(strstr(roff, ".TH \"PPBENCH-FAKE\" \"8\" \"2026\" \"ppbench " PPBENCH_VERSION
				 "\" \"System Administration\"\n"),
		    ".TH");
	ASSERT_TRUE(strstr(text, "ppbench-fake - a command for the tests"), "text NAME");
	ASSERT_FALSE(strstr(text, "title:") || strstr(text, "\033"), "no metadata, no escapes");
	free(roff);
	free(text);
}

/*
 * The prose has no tables: lowdown makes tbl boxes of them, which overflow
 * man's 80 columns (and troff warns). A term and its ": definition" lines
 * instead.
 */
void test_manpage_prose_has_no_tables(void)
{
	for (const struct man_prose *p = man_prose; p->name; p++) {
		bool in_code = false;

		for (const char *l = p->text; *l;) {
			size_t n = strcspn(l, "\n");

			if (!strncmp(l, "```", 3))
				in_code = !in_code;
			if (!in_code && *l == '|' && !ASSERT_TRUE(false, p->name))
				break;
			l += n + (l[n] == '\n');
		}
	}
	ASSERT_TRUE(man_prose_of("ppbench") && man_prose_of("bench"), "the prose is there");
}

static int fake_figures(struct cli_fig *f)
{
	f[0] = (struct cli_fig){ "purity", 95 };
	f[1] = (struct cli_fig){ "share", 0.25 };
	return 2;
}

/* @{NAME} is the command's figure, an integer where it is one; an unknown NAME fails. */
void test_manpage_figures(void)
{
	struct cli_cmd c = fake;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	c.figures = fake_figures;
	f = open_memstream(&buf, &len);
	err = man_markdown(f, false, &c, "at least @{purity} %, @{share} of it; @{purity}.\n");
	fclose(f);
	ASSERT_OK(err, "known figures");
	ASSERT_TRUE(strstr(buf, "at least 95 %, 0.25 of it; 95.\n"), "written out");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	err = man_markdown(f, false, &c, "@{purity} and @{nosuch}\n");
	fclose(f);
	ASSERT_EQ(err, -EINVAL, "an unknown figure");
	free(buf);
}
