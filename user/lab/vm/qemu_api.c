// SPDX-License-Identifier: GPL-2.0
/* The plugin API range of a qemu release, and the build that fits it (qemu_api.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "vm/qemu_api.h"
#include "sys/util.h"

const int qemu_api_builds[QEMU_API_NR_BUILDS] = { 1, 3 };

int qemu_version_parse(const char *text, struct qemu_version *v)
{
	const char *at = strstr(text, "version ");
	unsigned int x, y, z = 0;

	if (!at || sscanf(at + strlen("version "), "%u.%u", &x, &y) != 2)
		return -EINVAL;
	/* the micro number is optional (a tree's "9.2.50" has it, "10.0" may not) */
	sscanf(at + strlen("version "), "%*u.%*u.%u", &z);
	*v = (struct qemu_version){ x, y, z };
	return 0;
}

static const struct {
	unsigned int major, minor; /* the first release of the range */
	int min, cur;
} ranges[] = {
	{ 10, 1, 2, 5 }, { 9, 2, 2, 4 }, { 9, 1, 2, 3 },
	{ 9, 0, 2, 2 },	 { 6, 0, 0, 1 }, { 4, 2, 0, 0 },
};

int qemu_api_range(const struct qemu_version *v, int *min, int *cur)
{
	for (size_t i = 0; i < ARRAY_SIZE(ranges); i++) {
		if (v->major < ranges[i].major ||
		    (v->major == ranges[i].major && v->minor < ranges[i].minor))
			continue;
		*min = ranges[i].min;
		*cur = ranges[i].cur;
		return 0;
	}
	return -ENOENT;
}

int qemu_api_pick(int min, int cur)
{
	for (int i = QEMU_API_NR_BUILDS - 1; i >= 0; i--)
		if (qemu_api_builds[i] >= min && qemu_api_builds[i] <= cur)
			return qemu_api_builds[i];
	return -ENOENT;
}
