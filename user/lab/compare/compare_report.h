/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_COMPARE_REPORT_H
#define PPBENCH_COMPARE_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "compare/cmpcols.h"
#include "compare/compare_stats.h"

/* The formats of stdout: text when none is chosen. */
enum {
	CMP_OUT_MARKDOWN = 1 << 0,
	CMP_OUT_BPP = 1 << 1,  /* bench_page_pool_simple's fast/ptr_ring/slow table */
	CMP_OUT_ORG = 1 << 2,  /* the maintainers' Org table (report/orgtable.h) */
	CMP_OUT_KTAP = 1 << 3, /* KTAP version 1 (report/ktap.h), alone on stdout */
};

/*
 * Prints every comparison of SET in the FORMATS (CMP_OUT_*; 0: text), and as
 * JSON to JSON_PATH if given ("-": JSON only). Returns an exit code.
 */
int compare_output(const struct cmp_set *set, unsigned formats, const char *json_path);
/*
 * The table of T alone, LKP's: a line per figure, the base's value, then per
 * column its change against the base, mark and value, the line's label
 * last; in text (a head of the columns' names, their rules and labels) or
 * Markdown (MD).
 */
void compare_print_table(FILE *f, const struct col_table *t, bool md);
/* Names each gated row on stderr; EXIT_REGRESSION if there is one, else EXIT_OK. */
int compare_gate(const struct cmp_set *set);

#endif
