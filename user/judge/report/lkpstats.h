/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_LKPSTATS_H
#define PPBENCH_LKPSTATS_H

#include <stdbool.h>
#include <stdio.h>
#include "judge/model/result.h"

/*
 * The "key: value" lines of an LKP parse program (lkp-tests,
 * programs/NAME/parse; doc/add-testcase.md): one per line, exactly one space
 * after the colon, a number as the value. LKP's dump-stat puts the program's
 * name and a dot before each key, so PREFIX false leaves out our leading
 * "ppbench." (scripts/lkp/programs/ppbench/parse); true prints the name LKP
 * ends up with, "ppbench.ring.cycles_per_elem: 206.6". Keys hold [a-z0-9_.]
 * only; a skipped scenario and a path figure that is n/a have no line (the
 * stats hold numbers only).
 */
void lkp_write(FILE *f, const struct result *r, bool prefix);

#endif
