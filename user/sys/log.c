// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "sys/log.h"

int log_level = LOG_INFO;
const char *prog_name = "ppbench";
static char prog_cmd[64];

void log_set_command(const char *cmd)
{
	snprintf(prog_cmd, sizeof(prog_cmd), "ppbench %s", cmd);
	prog_name = prog_cmd;
}

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
