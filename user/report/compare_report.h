/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_COMPARE_REPORT_H
#define PPBENCH_COMPARE_REPORT_H

#include <stdbool.h>
#include "model/compare_stats.h"

/*
 * Prints every comparison of SET: as text unless MARKDOWN or BPP choose
 * those formats, and as JSON to JSON_PATH if given ("-": JSON only).
 * Returns an exit code.
 */
int compare_output(const struct cmp_set *set, bool markdown, bool bpp, const char *json_path);
/* Names each gated row on stderr; EXIT_REGRESSION if there is one, else EXIT_OK. */
int compare_gate(const struct cmp_set *set);

#endif
