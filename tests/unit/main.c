// SPDX-License-Identifier: GPL-2.0
/* Unit-test runner: one PASS/FAIL/SKIP line per test_* function. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"

extern int log_level;
int unit_failures;
const char *unit_skip_reason;

#define DEFINE_TEST(name) void name(void);
#include "unit_tests.h"
#undef DEFINE_TEST

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
#define DEFINE_TEST(name) { #name, name },
#include "unit_tests.h"
#undef DEFINE_TEST
};

static int selected(const char *name, int argc, char **argv)
{
	if (argc < 2)
		return 1;
	for (int i = 1; i < argc; i++)
		if (strstr(name, argv[i]))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	int failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* Parsers print their one-line errors; only show them with V=1. */
	if (!getenv("V") || strcmp(getenv("V"), "1"))
		log_level = -1;
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		if (!selected(tests[i].name, argc, argv))
			continue;
		unit_failures = 0;
		unit_skip_reason = NULL;
		fflush(stderr);
		tests[i].fn();
		if (unit_failures) {
			printf("FAIL unit/%s\n", tests[i].name);
			failed++;
		} else if (unit_skip_reason) {
			printf("SKIP unit/%s: %s\n", tests[i].name, unit_skip_reason);
		} else {
			printf("PASS unit/%s\n", tests[i].name);
		}
	}
	return failed ? 1 : 0;
}
