// SPDX-License-Identifier: GPL-2.0
/* Two kernels side by side: names and statuses (abpair.h). */
#include <stdio.h>
#include <string.h>
#include "model/abpair.h"

char *ab_tagged_path(const char *path, const char *tag)
{
	const char *base = strrchr(path, '/'), *dot;
	char *out;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		dot = path + strlen(path);
	if (asprintf(&out, "%.*s.%s%s", (int)(dot - path), path, tag, dot) < 0)
		return NULL;
	return out;
}

int ab_status(bool bisect, int rc_a, bool have_a, int rc_b, bool have_b)
{
	if (have_a && have_b)
		return -1;
	/* (a signal stops a bisection whichever guest it ended) */
	if (!have_b)
		return rc_b >= AB_STOP || !bisect ? (rc_b ? rc_b : 1) : AB_SKIP;
	return rc_a >= AB_STOP || !bisect ? (rc_a ? rc_a : 1) : AB_STOP;
}
