/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_COMPARE_REPORT_H
#define PPBENCH_COMPARE_REPORT_H

#include <stdio.h>
#include "compare/cmpcols.h"
#include "report/json.h"

/* The formats of stdout: text when none is chosen. */
enum {
	CMP_OUT_MARKDOWN = 1 << 0,
	CMP_OUT_BPP = 1 << 1,  /* bench_page_pool_simple's fast/ptr_ring/slow table */
	CMP_OUT_ORG = 1 << 2,  /* the maintainers' Org table (compare_print_org below) */
	CMP_OUT_KTAP = 1 << 3, /* KTAP version 1 (compare/ktap.h), alone on stdout */
};

/* Prints SET in the FORMATS (CMP_OUT_*; 0: text), and as JSON to JSON_PATH ("-": only). */
int compare_output(const struct cmp_set *set, unsigned formats, const char *json_path);
/* The table of T alone, LKP's: a line per figure, the base, then each column; or Markdown. */
void compare_print_table(FILE *f, const struct col_table *t, bool md);
/* Names each gated row on stderr; EXIT_REGRESSION if there is one, else EXIT_OK. */
int compare_gate(const struct cmp_set *set);

/*
 * compare --org: the Org table page_pool's maintainers post, cycles and ns
 * before, after and diff, under a #+TBLFM line whose arithmetic on the
 * printed figures gives every printed diff and %. NAMES: with columns, the
 * base's and each column's; else NULL.
 */
void compare_print_org(FILE *f, const struct cmp_set *set, const char (*names)[COL_NAME_LEN]);

#endif
