// SPDX-License-Identifier: GPL-2.0
/* Which clock the TSC runs on: the kernel command line says (instclock.h). */
#include <stdio.h>
#include <string.h>
#include "sys/instclock.h"
#include "sys/util.h"

#define CLOCK_PARAM "ppbench.clock=icount"

void inst_clock_parse(const char *cmdline, struct inst_clock *c)
{
	const char *p = cmdline;
	size_t n = strlen(CLOCK_PARAM);

	memset(c, 0, sizeof(*c));
	/* a word of its own: at the start or after a blank */
	while ((p = strstr(p, CLOCK_PARAM)) && p != cmdline && p[-1] != ' ')
		p += n;
	if (!p || (p[n] && p[n] != ' ' && p[n] != ':'))
		return;
	c->icount = true;
	p += n;
	if (*p == ':')
		snprintf(c->qemu, sizeof(c->qemu), "-icount %.*s", (int)strcspn(p + 1, " \n"),
			 p + 1);
	else
		snprintf(c->qemu, sizeof(c->qemu), "-icount");
}

const struct inst_clock *inst_clock(void)
{
	static struct inst_clock c;
	static bool read;
	char line[4096];

	if (!read) {
		read = true;
		if (read_file_str("/proc/cmdline", line, sizeof(line)) >= 0)
			inst_clock_parse(line, &c);
	}
	return &c;
}

const char *inst_clock_kind(const struct inst_clock *c)
{
	return c->icount ? "icount" : "tsc";
}

const char *inst_clock_unit(const struct inst_clock *c)
{
	return c->icount ? "instructions" : "cycles";
}
