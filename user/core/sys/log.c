// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "sys/log.h"
#include "sys/util.h"

int log_level = LOG_INFO;
const char *prog_name = "ppbench";
static char prog_cmd[64];

void log_set_command(const char *cmd)
{
	snprintf(prog_cmd, sizeof(prog_cmd), "ppbench %s", cmd);
	prog_name = prog_cmd;
}

/*
 * One message, one write: stderr is unbuffered, and a prefix written apart
 * from its text lets another writer of the same file (a shell's "Killed"
 * notice, the reaper child) land in the middle of the line.
 */
void pr_log(enum log_level lvl, const char *fmt, ...)
{
	char line[2048];
	va_list ap;
	int n = 0;

	if ((int)lvl > log_level)
		return;
	if (lvl == LOG_ERR)
		n = snprintf(line, sizeof(line), "%s: error: ", prog_name);
	else if (lvl == LOG_WARN)
		n = snprintf(line, sizeof(line), "%s: warning: ", prog_name);
	va_start(ap, fmt);
	if (vsnprintf(line + n, sizeof(line) - n, fmt, ap) < (int)sizeof(line) - n) {
		fputs(line, stderr);
	} else { /* too long for one line's buffer: whole, in two writes */
		va_end(ap);
		va_start(ap, fmt);
		line[n] = '\0';
		fputs(line, stderr);
		vfprintf(stderr, fmt, ap);
	}
	va_end(ap);
}

void log_append(const char *path, const char *fmt, ...)
{
	FILE *f = fopen(path, "a");
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

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
