/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_CMPCOLS_H
#define PPBENCH_CMPCOLS_H

#include "compare/compare_stats.h"

/*
 * compare with several columns, LKP's table: a line per figure, a cell per
 * comparison, each against the base (the old side they share).
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
	char (*names)[COL_NAME_LEN]; /* the base's, each column's: label, kernel, file stem */
};

/* Lines of every figure of SET, in the base's scenario order, but repeats: 0 or -ENOMEM. */
int col_table_build(const struct cmp_set *set, struct col_table *t);
void col_table_free(struct col_table *t);

#endif
