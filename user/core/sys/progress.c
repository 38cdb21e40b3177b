// SPDX-License-Identifier: GPL-2.0
/* One progress line on stderr, updated in place (bench, calibrate). */
#include <stdio.h>
#include <unistd.h>
#include "sys/progress.h"
#include "sys/util.h"

bool progress_wanted(bool quiet)
{
	return !quiet && isatty(STDERR_FILENO);
}

void progress_vshow(uint64_t t0, const char *fmt, va_list ap)
{
	fprintf(stderr, "\r\033[K[%5.1fs] ", (now_ns() - t0) / 1e9);
	vfprintf(stderr, fmt, ap);
	fflush(stderr);
}

void progress_show(uint64_t t0, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	progress_vshow(t0, fmt, ap);
	va_end(ap);
}

void progress_clear(void)
{
	fprintf(stderr, "\r\033[K");
	fflush(stderr);
}
