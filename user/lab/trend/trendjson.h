/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_TRENDJSON_H
#define PPBENCH_TRENDJSON_H

#include "trend/trendreport.h"

#define TREND_SCHEMA "ppbench-trend/1"

/* Writes the series, levels, change points and gate as JSON to PATH ("-": stdout); an exit code. */
int trend_write_json(const struct trend_view *v, const char *path);

#endif
