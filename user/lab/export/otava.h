/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_OTAVA_H
#define PPBENCH_OTAVA_H

#include <stdio.h>
#include "trend/series.h"

/*
 * The CSV Apache Otava's csv importer reads (otava docs/CSV.md): a header
 * row of column names, then one row per result in series order (trend's
 * --by), the columns chosen in otava.yaml by name: "time" (the result's
 * created, ISO 8601), the attributes "label", "kernel" and "file", and one
 * metric column per scenario and figure, "SCENARIO.cycles_per_elem" (or
 * instructions_per_elem, the files' UNIT), "SCENARIO.ns_per_elem",
 * "SCENARIO.path_cycles_per_elem": the median over the file's setups, the
 * value trend follows. Otava reads every metric cell as a number, so a
 * figure some result lacks (a skipped scenario, a path figure that is n/a)
 * gets no column, and a warning names it. Fields with a comma, a quote or a
 * line break are quoted ("", RFC 4180). Returns the number of metric columns.
 */
size_t otava_write(FILE *f, const struct series *s, const char *unit);

#endif
