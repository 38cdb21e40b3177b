/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_BENCH_REPORT_H
#define PPBENCH_BENCH_REPORT_H

#include "model/bench_types.h"

struct obs_desc;
/* The first lines: clock, observer, where the scenarios run (nothing with --quiet). */
void bench_print_banner(const struct bench_ctx *b, const struct obs_desc *o, const char *where);
void bench_print_line(const struct bench_ctx *b, const struct sc_result *r);
void bench_print_summary(const struct bench_ctx *b);
int bench_write_json(const struct bench_ctx *b, const char *path, const char *cmdline);
void overhead_report(const struct overhead_figs *f);

#endif
