/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_FMT_H
#define PPBENCH_FMT_H

#include <stddef.h>
#include <stdint.h>

/*
 * One bench_page_pool_simple time_bench line (ppbench-bench(8), "COMPARING WITH
 * BENCH_PAGE_POOL_SIMPLE"), so existing greps
 * keep working:
 *   Type:NAME Per elem: C cycles(tsc) N.NNN ns (step:0) - (measurement period
 *   time:S.SSSSSSSSS sec time_interval:NS) - (invoke count:N tsc_interval:C)
 * Per-element values are truncated like time_bench's. Returns the length.
 */
int fmt_time_bench(char *buf, size_t len, const char *name, uint64_t tsc_total, uint64_t ns_total,
		   uint64_t invoked);

#endif
