// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "log.h"

int log_level = LOG_INFO;
const char *prog_name = "ppbench";
static char last_libbpf_warn[256];

void pr_log(enum log_level lvl, const char *fmt, ...)
{
	va_list ap;

	if ((int)lvl > log_level)
		return;
	va_start(ap, fmt);
	if (lvl == LOG_ERR)
		fprintf(stderr, "%s: error: ", prog_name);
	else if (lvl == LOG_WARN)
		fprintf(stderr, "%s: warning: ", prog_name);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

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
