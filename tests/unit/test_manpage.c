// SPDX-License-Identifier: GPL-2.0
/* The manual pages' converter (cli/manpage.c): prose to troff and to text. */
#include <stdlib.h>
#include "cli/manpage.h"
#include "unit.h"

static const struct cli_opt no_opts[] = { { NULL } };

static const struct cli_cmd fake = {
	.name = "fake",
	.summary = "a command for the tests",
	.description = "What it does.",
	.examples = "  ppbench fake\n",
	.opts = no_opts,
};

/* The page of PROSE, troff or text, in a string the caller frees. */
static char *render(const char *prose, bool roff)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	man_render(f, roff, &fake, prose);
	fclose(f);
	return buf;
}

/* Text that would start a troff request, escapes and non-ASCII stay text. */
void test_manpage_roff_escapes(void)
{
	char *r = render("# DESCRIPTION\n\n```\n.not a request\n'nor this\n```\n\n"
			 "a \\ backslash, a -dash, \xe2\x89\xa5 95 %\n",
			 true);

	ASSERT_TRUE(strstr(r, "\n\\&.not a request\n"), "leading dot escaped");
	ASSERT_TRUE(strstr(r, "\n\\&'nor this\n"), "leading quote escaped");
	ASSERT_TRUE(strstr(r, "a \\e backslash, a \\-dash, \\[u2265] 95 %"), "escapes");
	for (const char *p = r; *p; p++)
		if ((unsigned char)*p >= 0x80 && !ASSERT_TRUE(false, "the troff is ASCII"))
			break;
	free(r);
}

/* A table row is a tagged paragraph; its third column is named by the header. */
void test_manpage_table_and_lists(void)
{
	char *r = render(
		"| name | what | since |\n|---|---|---|\n| `ring` | the ring \\| more | 6.1 |\n"
		"\n1. first\n   goes on\n- bullet\n",
		true);
	char *t = render(
		"| name | what | since |\n|---|---|---|\n| `ring` | the ring \\| more | 6.1 |\n"
		"\n1. first\n   goes on\n- bullet\n",
		false);

	ASSERT_TRUE(strstr(r, ".TP 7\n\\fB\\fBring\\fR\\fR\nthe ring | more\n.br\nsince: 6.1\n"),
		    "row as .TP");
	ASSERT_TRUE(strstr(r, ".IP 1. 4\nfirst goes on\n"), "numbered item joined");
	ASSERT_TRUE(strstr(r, ".IP \\(bu 2\nbullet\n"), "bullet");
	ASSERT_TRUE(strstr(t, "       ring   the ring | more\n              since: 6.1\n"),
		    "text row: short tag beside its body");
	ASSERT_TRUE(strstr(t, "       1.  first goes on\n"), "text numbered item");
	ASSERT_FALSE(strstr(t, "`") || strstr(t, "**"), "text has no markup");
	free(r);
	free(t);
}

/* The table's parts stand where the prose's @ lines are; text wraps at 78. */
void test_manpage_directives_and_wrap(void)
{
	char *t = render("# DESCRIPTION\n\n@description\n\n# EXAMPLES\n\n@examples\n\n"
			 "word word word word word word word word word word word word word "
			 "word word word word\n",
			 false);
	const char *line;

	ASSERT_TRUE(strstr(t, "DESCRIPTION\n       What it does.\n"), "@description");
	ASSERT_TRUE(strstr(t, "EXAMPLES\n         ppbench fake\n"), "@examples");
	ASSERT_TRUE(strstr(t, "\nNAME\n       ppbench-fake - a command for the tests\n"), "NAME");
	for (line = t; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		size_t n = strcspn(line, "\n");

		if (!ASSERT_TRUE(n <= 78, "lines of at most 78 columns"))
			break;
	}
	free(t);
}
