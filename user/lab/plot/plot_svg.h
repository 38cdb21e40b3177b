/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PLOT_SVG_H
#define PPBENCH_PLOT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "model/result.h"
#include "model/stats.h"

#define MAX_FILES 16
#define MAX_SCN 32

/* What to plot: the command line of ppbench plot. */
struct plot_cfg {
	const char *output, *title;
	const char *files[MAX_FILES];
	const char *labels[MAX_FILES]; /* NULL: the file's base name */
	size_t nfiles;
	const char *next_label; /* --label waiting for its file */
	bool ns;
	const char *scenarios; /* --scenario LIST, or NULL */
	bool profile;	       /* --profile: the instruction profiles, stacked */
	bool flame;	       /* --flame: a flame graph of folded stacks */
};

/* One file's figures for one scenario. */
struct box {
	bool have;
	struct summary s;
	double q1, q3;
};

/* The picture: the loaded files, their boxes, the scale and the size. */
struct plot {
	const struct plot_cfg *cfg;
	struct result res[MAX_FILES];
	const char *label[MAX_FILES];
	size_t nfiles;
	const char *scn[MAX_SCN];
	size_t nscn;
	struct box box[MAX_SCN][MAX_FILES];
	double ymax[MAX_SCN], ystep[MAX_SCN]; /* each scenario's panel has its own axis */
	int width, height, legend_w;
};

/* Okabe-Ito colours: distinguishable with the common colour-vision deficiencies. */
#define PALETTE_N 8
extern const char *const palette[PALETTE_N];
/* Text content and attribute values: escapes what XML reserves. */
void xml_text(FILE *f, const char *s);
/* An axis from 0 past TOP: a 1-2-5 tick step giving 4 to 10 ticks, and the top tick. */
void axis_scale(double top, double *ymax, double *ystep);
/*
 * A picture of W x H: the SVG element, a white ground, TITLE at (X, Y_TITLE)
 * and, open for the caller to fill and close, the subtitle's text at Y_SUB.
 */
void svg_begin(FILE *f, int w, int h, int x, int y_title, int y_sub, const char *title);
/* The y axis's title, turned, centred on Y. */
void svg_ytitle(FILE *f, int y, const char *unit);
/* A panel's y axis at AX, grid lines to RIGHT, over [TOP, TOP + H]: 0 to YMAX by YSTEP. */
void svg_yaxis(FILE *f, int ax, int right, int top, int h, double ymax, double ystep);

/*
 * The head of P's picture of W x H: --title, else TITLE, and the subtitle: the
 * first file's CPU, clock and kernel ("AMD EPYC, TSC 2.445 GHz, kernel 6.18").
 */
void plot_head(FILE *f, const struct plot *p, int w, int h, const char *title);
/* Boxes, axis scales and picture size from the loaded files; 0 or -errno. */
int build_plot(struct plot *p);
/*
 * Opens PATH ("-": stdout), lets WRITE fill it and closes it; failures are
 * one line on stderr. Returns an exit code.
 */
int svg_output(const char *path, void (*write)(FILE *f, const void *ctx), const void *ctx);
/* The boxes of plot P (build_plot()). */
void write_plot_svg(FILE *f, const void *p);

/*
 * ppbench plot --profile: per scenario a panel, per file a bar of its
 * instruction profile stacked by group (the path's own code at the bottom)
 * and function (those under PROF_LIST_PCT as one piece).
 */
void write_prof_svg(FILE *f, const void *p);

/*
 * A flame graph's frames from folded stacks ("root;...;leaf N" a line): a
 * frame per function of a path, merged where paths repeat; of two files the
 * widths are the new one's, and each frame carries both files' counts.
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
/* One folded line of SIDE into FL (an empty one is none): 0, -EINVAL or -ENOMEM. */
int flame_add_line(struct flame *fl, char *line, int side);
/* Orders each frame's children by name and places them: x of every frame. */
int flame_layout(struct flame *fl);
/* Frame I's figures in the graph's unit: with all it calls, and its own. */
double flame_total(const struct flame *fl, size_t i, int side);
double flame_self(const struct flame *fl, size_t i, int side);

/*
 * ppbench plot --flame: the flame graph of one file's folded stacks, or the
 * differential one of two (old, new), to cfg->output; an exit code.
 */
int plot_flame(const struct plot_cfg *cfg);

/* What a frame of WIDTH pixels shows of NAME: all, its start and "..", or nothing. */
const char *flame_label(const char *name, double width, char *buf, size_t len);

#endif
