/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_ORGTABLE_H
#define PPBENCH_ORGTABLE_H

#include <stdio.h>
#include "compare/cmpcols.h"

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
