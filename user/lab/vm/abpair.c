// SPDX-License-Identifier: GPL-2.0
/* Two kernels side by side: names and statuses (abpair.h). */
#include <stdio.h>
#include <string.h>
#include "vm/abpair.h"

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

int ab_status(bool bisect, const struct ab_end *a, const struct ab_end *b)
{
	const struct ab_end *cause;

	if (a->have && b->have)
		return -1;
	/* b failed first, or alone, or both failed on their own: b's */
	cause = !b->have && !b->stopped ? b : a;
	if (cause->rc >= AB_STOP || !bisect)
		return cause->rc ? cause->rc : 1;
	return cause == b && !cause->host ? AB_SKIP : AB_STOP;
}

int ab_one_status(const struct ab_end *e)
{
	if (!e->rc || e->rc >= AB_STOP)
		return e->rc;
	return e->host ? AB_STOP : AB_SKIP;
}
