/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_COMPARE_REPORT_H
#define PPBENCH_COMPARE_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "compare/cmpcols.h"
#include "compare/compare_stats.h"
#include "report/json.h"

/* The formats of stdout: text when none is chosen. */
enum {
	CMP_OUT_MARKDOWN = 1 << 0,
	CMP_OUT_BPP = 1 << 1,  /* bench_page_pool_simple's fast/ptr_ring/slow table */
	CMP_OUT_ORG = 1 << 2,  /* the maintainers' Org table (compare_print_org below) */
	CMP_OUT_KTAP = 1 << 3, /* KTAP version 1 (compare/ktap.h), alone on stdout */
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

/* Text and Markdown (MD) show at most this many rows of a kind; JSON has them all. */
#define PDIFF_SHOWN 20

/* The profile diffs D (N of them) in text or Markdown: per scenario its head and its rows. */
void pdiff_print(FILE *f, const struct pdiff *d, size_t n, bool md);
/* The same as JSON: the array "profiles". */
void pdiff_json(struct json *j, const struct pdiff *d, size_t n);

/*
 * compare --org: the Org table page_pool's maintainers post with
 * bench_page_pool_simple results (the DMA-fix thread, xdp-project
 * areas/mem/page_pool07_bench_DMA_fix.org): per scenario cycles before, after
 * and diff, ns before, after and diff, and the % change of ns, under a
 * #+TBLFM line that recomputes the diff and % columns from the table's own
 * before and after columns:
 *
 *   #+TBLFM: $4=$3-$2::$7=$6-$5;%.3f::$8=(($7/$5)*100);%.1f
 *
 * so every printed diff and % is that arithmetic on the printed figures
 * (cycles as integers, ns with three decimals), to the last digit. A
 * scenario without both figures on both sides gets an Org comment below.
 * With several comparisons (NAMES: the base's and each column's) each
 * column has its after and diff, and its ns after, diff and %, against the
 * base's before; with one, NAMES may be NULL.
 */
void compare_print_org(FILE *f, const struct cmp_set *set, const char (*names)[COL_NAME_LEN]);

#endif
