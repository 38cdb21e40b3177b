/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_KTAP_H
#define PPBENCH_KTAP_H

#include <stdio.h>
#include "compare/compare_stats.h"

/*
 * Verdicts as KTAP version 1 (Documentation/dev-tools/ktap.rst), for
 * kselftest and netdev's CI: a test per scenario of --metric and comparison,
 * "# SKIP" where nothing decides, then one per --limit and file.
 */
void compare_print_ktap(FILE *f, const struct cmp_set *set);
/* KSFT_MACHINE_SLOW=yes, on slow machines: a gate on time that fires is "# XFAIL". */
bool ksft_machine_slow(void);

/* The writer: tests in order, a few "# " diagnostics after the plan. */
struct ktap_test {
	bool ok, xfail; /* xfail: an expected failure, the reason in skip */
	char desc[256];
	char skip[320]; /* "" unless skipped (or xfail): the reason */
};

struct ktap {
	struct ktap_test *t;
	size_t n;
	char diag[8][640]; /* "# " lines after the plan */
	size_t ndiag;
};

/* The next test, zeroed; NULL without memory. */
struct ktap_test *ktap_add(struct ktap *k);
__attribute__((format(printf, 2, 3))) void ktap_diag(struct ktap *k, const char *fmt, ...);
/* Writes K and frees its tests. */
void ktap_print(FILE *f, struct ktap *k);
/* A change in percent as a description shows it: "+1.2%", "0.0%", "n/a". */
void ktap_pct(double v, char *buf, size_t len);

#endif
