// SPDX-License-Identifier: GPL-2.0
/* Two kernels side by side: names and statuses (abpair.h). */
#include <stdio.h>
#include <string.h>
#include "vm/abpair.h"
#include "compare/bisect_status.h"

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
	int rc;

	if (a->have && b->have)
		return -1;
	/* b failed first, or alone, or both failed on their own: b's */
	cause = !b->have && !b->stopped ? b : a;
	rc = cause->rc ? cause->rc : 1;
	/* (a baseline that cannot run fails every step alike) */
	return bisect ? bisect_guest_status(rc, cause->host || cause == a) : rc;
}
