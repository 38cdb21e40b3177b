// SPDX-License-Identifier: GPL-2.0
/* /proc/cpuinfo's reader (sys/tsc.c), fed text. */
#include <stdlib.h>
#include "sys/tsc.h"
#include "unit.h"

static void parse(const char *text, size_t len, struct tsc_info *t)
{
	FILE *f = fmemopen((void *)text, len, "r");

	memset(t, 0, sizeof(*t));
	if (!ASSERT_TRUE(f, "fmemopen"))
		return;
	tsc_parse_cpuinfo(f, t);
	fclose(f);
}

void test_tsc_cpuinfo(void)
{
	static const char text[] = "processor\t: 0\nmodel name\t: AMD EPYC 7B13\n"
				   "flags\t\t: fpu tsc constant_tsc nonstop_tsc\n";
	struct tsc_info t;

	parse(text, sizeof(text) - 1, &t);
	ASSERT_STREQ(t.cpu_model, "AMD EPYC 7B13", "model");
	ASSERT_TRUE(t.constant && t.nonstop, "flags");
}

/*
 * Found with the hostinfo fuzz target: the model was taken two bytes after
 * the colon, also when the line ended at the colon; where fgets cut a long
 * line just after it, that was past the end of the line buffer (a stack
 * overflow under ASan).
 */
void test_tsc_cpuinfo_line_ends_at_colon(void)
{
	size_t len = 10 + 4084 + 1 + 5;
	char *text = malloc(len + 1);
	struct tsc_info t;

	if (!ASSERT_TRUE(text, "malloc"))
		return;
	snprintf(text, len + 1, "model name%0*d:tail\n", 4084, 0);
	parse(text, len, &t);
	ASSERT_STREQ(t.cpu_model, "", "a model cut at its colon is empty");
	parse("model name\t:\n", 13, &t);
	ASSERT_STREQ(t.cpu_model, "", "no model after the colon");
	parse("model name\t:X Y\n", 16, &t);
	ASSERT_STREQ(t.cpu_model, "X Y", "no space after the colon");
	free(text);
}
