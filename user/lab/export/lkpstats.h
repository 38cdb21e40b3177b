/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_LKPSTATS_H
#define PPBENCH_LKPSTATS_H

#include <stdbool.h>
#include <stdio.h>
#include "model/result.h"

/*
 * The "key: value" lines of an LKP parse program (lkp-tests,
 * programs/NAME/parse; doc/add-testcase.md): one per line, exactly one space
 * after the colon, a number as the value. LKP's dump-stat puts the program's
 * name and a dot before each key, so PREFIX false leaves out our leading
 * "ppbench." (scripts/lkp/programs/ppbench/parse); true prints the name LKP
 * ends up with, "ppbench.ring.cycles_per_elem: 206.6". The figures' keys hold
 * [a-z0-9_.] only; a skipped scenario and a path figure that is n/a have no
 * line (the stats hold numbers only). A profiled scenario's perf-profile rows
 * follow, "ppbench.ring.perf-profile.self.instructions-pp.FUNC: 93.03", the
 * functions named as the kernel spells them, as LKP's perf-profile stats are. Each measured
 * scenario's "SCENARIO.workload" is the elements of its timed runs (loops per setup times the
 * setups), what LKP's lib/matrix.rb divides its perf-stat instructions by when a job has exactly
 * one stat named *.workload (its perf-stat.overall.path-length).
 */
void lkp_write(FILE *f, const struct result *r, bool prefix);

#endif
