/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROF_SVG_H
#define PPBENCH_PROF_SVG_H

#include "plot/plot_svg.h"

/*
 * ppbench plot --profile: per scenario a panel with its own axis, per file
 * a bar of the scenario's instruction profile, stacked by group (the path's
 * own code at the bottom, so that the path figure is the bar's lower part)
 * and within a group by function: those carrying at least PROF_LIST_PCT of
 * the figure apart, the rest of the group as one piece. Writes the SVG to
 * PATH; returns an exit code.
 */
int output_prof_svg(const struct plot *p, const char *path);

#endif
