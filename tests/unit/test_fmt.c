// SPDX-License-Identifier: GPL-2.0
/* The time_bench line: the exact format the kselftest greps. */
#include <regex.h>
#include "report/report.h"
#include "unit.h"

void test_fmt_time_bench_line(void)
{
	char buf[512];
	regex_t re;

	fmt_time_bench(buf, sizeof(buf), "ppbench_ring", 147123456, 56676543, 1000000);
	ASSERT_STREQ(buf,
		     "Type:ppbench_ring Per elem: 147 cycles(tsc) 56.676 ns (step:0) - "
		     "(measurement period time:0.056676543 sec time_interval:56676543) - "
		     "(invoke count:1000000 tsc_interval:147123456)",
		     "line");
	/* the grep of tools/testing/selftests/net/bench/test_bench_page_pool.sh */
	ASSERT_OK(regcomp(&re, "Per elem: [0-9]+ cycles\\(tsc\\) [0-9.]+ ns", REG_EXTENDED), "re");
	ASSERT_OK(regexec(&re, buf, 0, NULL, 0), "kselftest grep matches");
	regfree(&re);
}

void test_fmt_time_bench_truncates(void)
{
	char buf[512];

	/* 1999 ns over 1000 elements: 1.999 ns, 2999 cycles: 2 cycles (truncated) */
	fmt_time_bench(buf, sizeof(buf), "x", 2999, 1999, 1000);
	ASSERT_HAS_SUBSTR(buf, "Per elem: 2 cycles(tsc) 1.999 ns", "truncation");
	fmt_time_bench(buf, sizeof(buf), "x", 5, 5, 0);
	ASSERT_HAS_SUBSTR(buf, "Per elem: 0 cycles(tsc) 0.000 ns", "zero elements");
	fmt_time_bench(buf, sizeof(buf), "x", 1, 3000000001ull, 1);
	ASSERT_HAS_SUBSTR(buf, "period time:3.000000001 sec", "seconds");
}
