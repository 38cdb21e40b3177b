/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_KTAP_H
#define PPBENCH_KTAP_H

#include <stdio.h>
#include "compare/compare_stats.h"

/*
 * Verdicts as KTAP version 1 (the kernel's Documentation/dev-tools/ktap.rst),
 * what kselftest and netdev's CI read: the version line "KTAP version 1",
 * the plan "1..N", then one result line per test, "ok N DESCRIPTION" or
 * "not ok N DESCRIPTION", numbered from 1, optionally followed by "# SKIP
 * REASON"; lines "# TEXT" are diagnostics. A description never holds '#'.
 *
 * compare: one test per scenario of --metric and comparison, "not ok" where
 * its gate fires (row_gated), "ok" where it could test and did not, and
 * "# SKIP" with the reason where nothing decides: no --fail-above, a row it
 * cannot test, a scenario skipped or missing on a side. Then one test per
 * --limit and file: "not ok" above the limit, "# SKIP" without the figure.
 */
void compare_print_ktap(FILE *f, const struct cmp_set *set);
/*
 * Whether the environment says KSFT_MACHINE_SLOW=yes: kselftest and netdev's
 * CI export it on slow VMs and hardware, where a gate on time that fires is
 * an expected failure ("ok N DESCRIPTION # XFAIL REASON", as kselftest.h's
 * ksft_test_result_xfail() prints it) and no longer fails the run.
 */
bool ksft_machine_slow(void);

/* The writer: tests in order, a few "# " diagnostics after the plan. */
struct ktap_test {
	bool ok, xfail; /* xfail: an expected failure, the reason in skip */
	char desc[256];
	char skip[320]; /* "" unless skipped (or xfail): the reason */
};

struct ktap {
	struct ktap_test *t;
	size_t n, cap;
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
