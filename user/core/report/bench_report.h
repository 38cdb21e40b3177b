/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_BENCH_REPORT_H
#define PPBENCH_BENCH_REPORT_H

#include "model/bench_types.h"

struct obs_desc;
/* The first lines (struct bench_sink's banner): clock, observer, where the scenarios run. */
void bench_print_banner(void *ctx, const struct bench_ctx *b, const struct obs_desc *o,
			const char *where);
void bench_print_line(const struct bench_ctx *b, const struct sc_result *r);
void bench_print_summary(const struct bench_ctx *b);
int bench_write_json(const struct bench_ctx *b, const char *path, const char *cmdline);
void overhead_report(const struct overhead_figs *f);

/*
 * One bench_page_pool_simple time_bench line (ppbench-bench(8), "COMPARING WITH
 * BENCH_PAGE_POOL_SIMPLE"), so existing greps keep working:
 *   Type:NAME Per elem: C cycles(tsc) N.NNN ns (step:0) - (measurement period
 *   time:S.SSSSSSSSS sec time_interval:NS) - (invoke count:N tsc_interval:C)
 * Per-element values are truncated like time_bench's. Returns the length.
 */
int fmt_time_bench(char *buf, size_t len, const char *name, uint64_t tsc_total, uint64_t ns_total,
		   uint64_t invoked);

/*
 * Every published bench_page_pool_simple run orders its paths fast <
 * ptr_ring < slow. When fast, ring and slow all ran here and the figures
 * bench shows for them (the path figure where there is one, else the
 * scenario figure) do not order so, write one line into NOTE saying why and
 * return true; false (NOTE empty) otherwise. UNIT names what the figures
 * count ("cycles", "instr").
 */
bool bench_order_note(const struct sc_result res[NR_SCENARIOS], const char *unit, char *note,
		      size_t len);

#endif
