/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PDIFF_REPORT_H
#define PPBENCH_PDIFF_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "compare/prof_diff.h"
#include "report/json.h"

/* Text and Markdown (MD) show at most this many rows of a kind; JSON has them all. */
#define PDIFF_SHOWN 20

/* The profile diffs D (N of them) in text or Markdown: per scenario its head and its rows. */
void pdiff_print(FILE *f, const struct pdiff *d, size_t n, bool md);
/* The same as JSON: the array "profiles". */
void pdiff_json(struct json *j, const struct pdiff *d, size_t n);

#endif
