/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_LINE_DIFF_H
#define PPBENCH_LINE_DIFF_H

#include <stddef.h>
#include "model/result.h"

/*
 * compare of files whose profiles have source lines (ppbench vm --profile
 * with the kernel's debug info: profile.lines): per scenario, each line of
 * the path's kernel functions, its instructions per element before and
 * after (each side's mean over its files with lines), the lines that moved
 * by the floor or more first, largest change first.
 */
struct ldiff_line {
	const char *at, *fn; /* "net/core/page_pool.c:914", the function that ran most of it */
	double old, new;
};

struct ldiff {
	struct ldiff_line *l;
	size_t n;
	size_t nlisted; /* the first nlisted moved */
};

/*
 * The lines of SCENARIO in OLD (NOLD files) and NEW (NNEW) into D, those
 * that moved by FLOOR instructions per element or more listed: 0, 1 where a
 * side has no file with lines (D is empty), or -ENOMEM.
 */
int ldiff_build(const struct result *old, size_t nold, const struct result *new, size_t nnew,
		const char *scenario, double floor, struct ldiff *d);
void ldiff_free(struct ldiff *d);

#endif
