// SPDX-License-Identifier: GPL-2.0
/* libbpf's messages go through pr_log, one level down (-vv shows libbpf debug). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "sys/log.h"
#include "sys/log_libbpf.h"

static char last_libbpf_warn[256];

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	int lvl = level == LIBBPF_WARN ? LOG_DEBUG : LOG_VERBOSE;

	if (level == LIBBPF_WARN) {
		va_list cp;

		va_copy(cp, ap);
		vsnprintf(last_libbpf_warn, sizeof(last_libbpf_warn), fmt, cp);
		va_end(cp);
		last_libbpf_warn[strcspn(last_libbpf_warn, "\n")] = '\0';
	}
	if (lvl > log_level)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

void log_setup_libbpf(void)
{
	libbpf_set_print(libbpf_print);
}

const char *log_last_libbpf_warning(void)
{
	return last_libbpf_warn;
}
