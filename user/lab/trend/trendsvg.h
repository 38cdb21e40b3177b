/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_TRENDSVG_H
#define PPBENCH_TRENDSVG_H

#include "trend/trendreport.h"

/* Draws the --metric figure of every scenario to PATH ("-": stdout); an exit code. */
int trend_write_svg(const struct trend_view *v, const char *path);

#endif
