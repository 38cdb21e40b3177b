/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_FLAME_H
#define PPBENCH_FLAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A flame graph's frames from folded stacks ("root;...;leaf N" a line, the
 * F.SCENARIO.folded of ppbench vm --profile, flamegraph tools' input): a
 * frame per function of a path, merged where a path repeats, the frames
 * above one in the order of their names, each as wide as its instructions
 * with all it calls. Of two files (a differential graph) the widths are the
 * new file's and each frame also carries the old file's counts.
 */
#define FLAME_NONE SIZE_MAX
enum { FLAME_OLD, FLAME_NEW };

struct fframe {
	char *name;
	size_t parent, child, next; /* first frame above it, its next sibling */
	unsigned int depth;	    /* the root's 0 */
	double self[2], total[2];   /* of each side, as the files count */
	double x;		    /* where it starts: the new side's total left of it */
};

struct flame {
	struct fframe *f; /* f[0] the root, "all" */
	size_t n, cap;
	unsigned int depth; /* the deepest frame's */
	double scale[2];    /* each side's counts into the graph's unit (1 / its elements) */
};

/* An empty graph: its root only. 0 or -ENOMEM. */
int flame_init(struct flame *fl);
void flame_free(struct flame *fl);
/*
 * One folded line of SIDE (its newline gone) into FL: 0, -EINVAL (not
 * "frame;...;frame count", or the count is no number of 0 or more) or
 * -ENOMEM. An empty line is none.
 */
int flame_add_line(struct flame *fl, char *line, int side);
/* Orders each frame's children by name and places them: x of every frame. */
int flame_layout(struct flame *fl);
/* Frame I's figures in the graph's unit: with all it calls, and its own. */
double flame_total(const struct flame *fl, size_t i, int side);
double flame_self(const struct flame *fl, size_t i, int side);

#endif
