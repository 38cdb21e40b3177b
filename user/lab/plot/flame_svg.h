/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_FLAME_SVG_H
#define PPBENCH_FLAME_SVG_H

#include "plot/plot_svg.h"

/*
 * ppbench plot --flame: the flame graph of one file's folded stacks, or the
 * differential one of two (old, new): each frame as wide as the new file's
 * instructions in it and below it, coloured by the change of its own (red
 * more, blue fewer). A result file and its scenario stand for the folded
 * stacks beside it, F.SCENARIO.folded, with its elements: then the figures
 * are per element. The SVG draws every frame as a plain picture; in a
 * browser a small script zooms on a click and searches (Ctrl-F). Writes
 * cfg->output; returns an exit code.
 */
int plot_flame(const struct plot_cfg *cfg);

/* What a frame of WIDTH pixels shows of NAME: all, its start and "..", or nothing. */
const char *flame_label(const char *name, double width, char *buf, size_t len);

#endif
