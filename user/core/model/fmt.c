// SPDX-License-Identifier: GPL-2.0
/* Output formats shared by commands (pure, unit-tested). */
#include <stdio.h>
#include "model/fmt.h"

int fmt_time_bench(char *buf, size_t len, const char *name, uint64_t tsc_total, uint64_t ns_total,
		   uint64_t invoked)
{
	unsigned long long c = invoked ? tsc_total / invoked : 0;
	unsigned long long ns = invoked ? ns_total / invoked : 0;
	/* three decimals of the per-element ns, truncated (time_bench does the same) */
	unsigned long long frac = invoked ? (ns_total % invoked) * 1000 / invoked : 0;

	return snprintf(buf, len,
			"Type:%s Per elem: %llu cycles(tsc) %llu.%03llu ns (step:0) - (measurement "
			"period time:%llu.%09llu sec time_interval:%llu) - (invoke count:%llu "
			"tsc_interval:%llu)",
			name, c, ns, frac, (unsigned long long)(ns_total / 1000000000ull),
			(unsigned long long)(ns_total % 1000000000ull),
			(unsigned long long)ns_total, (unsigned long long)invoked,
			(unsigned long long)tsc_total);
}
