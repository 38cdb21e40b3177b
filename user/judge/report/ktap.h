/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_KTAP_H
#define PPBENCH_KTAP_H

#include <stdio.h>
#include "judge/model/compare_stats.h"
#include "judge/report/trendreport.h"

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
/*
 * trend: one test per scenario of --metric, "not ok" for a regression the
 * gate fires on (series_gate), "# SKIP" for no --fail-on-regression, too few
 * points, or an unstable figure whose change is named but not gated.
 */
void trend_print_ktap(FILE *f, const struct trend_view *v);

#endif
