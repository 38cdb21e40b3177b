// SPDX-License-Identifier: GPL-2.0
/* ppbench report's pure parts: the subject, the prose's wrapping, bench's recorded command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/mail.h"
#include "report/report.h"
#include "unit.h"

void test_mail_subject(void)
{
	struct row r = { .real = true, .regression = true };
	char s[256], area[40];

	mail_subject(s, sizeof(s), "ca0ac5867b84", "page_pool: sync for device", "ppbench.slow.x",
		     4.94, mail_word(&r));
	ASSERT_STREQ(s, "[ppbench] [page_pool] ca0ac5867b84: ppbench.slow.x +4.9% regression",
		     "a regression, its commit's area");
	r.regression = false;
	mail_subject(s, sizeof(s), "7.3.4+deb13-amd64", NULL, "ppbench.ring.y", -12.26,
		     mail_word(&r));
	ASSERT_STREQ(s, "[ppbench] 7.3.4+deb13-amd64: ppbench.ring.y -12.3% improvement",
		     "an improvement, no commit");
	r.real = false;
	ASSERT_STREQ(mail_word(&r), "change", "not real: a change");
	ASSERT_STREQ(mail_area("net: page_pool: x", area, sizeof(area)), "net", "the first prefix");
	ASSERT_STREQ(mail_area("Revert \"net: x\"", area, sizeof(area)), "", "no area in a revert");
	ASSERT_STREQ(mail_area("no colon here", area, sizeof(area)), "", "none");
}

void test_mail_wrap(void)
{
	const char *text = "ppbench noticed a +4.9% regression of "
			   "ppbench.slow.path_fentry_instructions_per_elem on: a sentence long "
			   "enough to need three lines at seventy-two columns, and a word longer "
			   "than a line: /a/path/that/is/much/longer/than/seventy-two/columns/of/"
			   "text/in/one/word.json stays whole.";
	char *buf = NULL, *line, *save, joined[1024] = "";
	size_t len = 0, lines = 0;
	FILE *f = open_memstream(&buf, &len);

	fprint_wrapped_at(f, "", text, MAIL_WIDTH);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lines++;
		if (!strchr(line, '/'))
			ASSERT_TRUE(strlen(line) <= MAIL_WIDTH, "a line within 72 columns");
		else if (strlen(line) > MAIL_WIDTH)
			ASSERT_FALSE(strchr(line, ' '), "only a word longer than a line is longer");
		strcat(strcat(joined, *joined ? " " : ""), line);
	}
	ASSERT_STREQ(joined, text, "the words, in order, none lost");
	ASSERT_EQ(lines, 6, "lines: the long word alone on its own");
	free(buf);
}

void test_mail_bench_args(void)
{
	char b[256];

	ASSERT_STREQ(mail_bench_args("ppbench bench --scenario ring,slow --json /vm/out/1/r.json "
				     "--repeat 2",
				     b, sizeof(b)),
		     "bench --scenario ring,slow --repeat 2", "--json FILE left out");
	ASSERT_STREQ(mail_bench_args("ppbench bench -j r.json --json=x.json -jy.json --quiet", b,
				     sizeof(b)),
		     "bench --quiet", "each spelling of --json");
	ASSERT_STREQ(
		mail_bench_args("ppbench bench --label 'a b' --json 'my r.json'", b, sizeof(b)),
		"bench --label 'a b'", "quoted words kept whole");
	ASSERT_STREQ(mail_bench_args("ppbench bench --upstream-module /vm/in/1/x.ko "
				     "--upstream-module=/vm/in/2/y.ko --json /vm/out/1/r.json",
				     b, sizeof(b)),
		     "bench --upstream-module x.ko --upstream-module=y.ko",
		     "a file vm carried in, by its host name");
	ASSERT_STREQ(mail_bench_args(NULL, b, sizeof(b)), "bench", "none recorded");
}
