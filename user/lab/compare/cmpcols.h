/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_CMPCOLS_H
#define PPBENCH_CMPCOLS_H

#include <stddef.h>
#include "compare/compare_stats.h"

/*
 * compare with several columns, LKP's table: the comparisons of a set share
 * their old side (the base) and each has one column of new files. A line of
 * the table is one figure across the columns; each cell is that column's
 * row, whose change, test and gate are against the base, never against the
 * column before it.
 */
#define COL_NAME_LEN 48

struct col_line {
	const struct row *named; /* whose label names the figure: its method, where one agrees */
	const struct row *base;	 /* the row whose old side is shown as the base, or NULL */
	const struct row **cell; /* per comparison: its row of the figure, or NULL */
};

struct col_table {
	size_t ncols; /* comparisons */
	struct col_line *lines;
	size_t nlines;
	/* the base's name, then each column's: bench --label, else the kernel
	 * release, else (two alike) every file's base name */
	char (*names)[COL_NAME_LEN];
};

/* NAMES (set->n + 1 of them): the base's and each column's, as col_table's. */
void col_names(const struct cmp_set *set, char (*names)[COL_NAME_LEN]);

/*
 * Lines of every figure any comparison of SET has, the base's scenario order
 * kept (a figure only a later column has goes after its scenario's others);
 * rows that repeat their scenario's figure are left out. 0 or -ENOMEM.
 */
int col_table_build(const struct cmp_set *set, struct col_table *t);
void col_table_free(struct col_table *t);

#endif
