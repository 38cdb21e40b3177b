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

/*
 * qemu's plugin API range by release, newest first (qemu's
 * include/qemu/qemu-plugin.h and plugins/plugin.h). Releases after the
 * newest one read are taken to keep min 2, as every release since 9.0 has.
 */
struct qemu_release {
	unsigned int major, minor;
};

static const struct {
	struct qemu_release first, last; /* last {0, 0}: every later release */
	int min, cur;
} ranges[] = {
	{ { 10, 1 }, { 0, 0 }, 2, 5 }, /* the newest release read: 10.2 */
	{ { 9, 2 }, { 10, 0 }, 2, 4 }, /* bookworm-backports' 10.0 */
	{ { 9, 1 }, { 9, 1 }, 2, 3 },  /* v3 changed qemu_plugin_insn_data() */
	{ { 9, 0 }, { 9, 0 }, 2, 2 },  /* v2 removed the plain-pointer inline adds */
	{ { 6, 0 }, { 8, 2 }, 0, 1 },  /* Debian 12's 7.2 */
	{ { 4, 2 }, { 5, 2 }, 0, 0 },
};

int qemu_api_range(const struct qemu_version *v, int *min, int *cur)
{
	for (size_t i = 0; i < ARRAY_SIZE(ranges); i++) {
		const struct qemu_release *f = &ranges[i].first;

		if (v->major < f->major || (v->major == f->major && v->minor < f->minor))
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

int qemu_api_releases(int api, char *buf, size_t len)
{
	int lo = -1, hi = -1;

	for (int i = 0; i < (int)ARRAY_SIZE(ranges); i++)
		if (qemu_api_pick(ranges[i].min, ranges[i].cur) == api) {
			hi = hi < 0 ? i : hi;
			lo = i;
		}
	if (lo < 0)
		return -ENOENT;
	if (!ranges[hi].last.major)
		snprintf(buf, len, "qemu %u.%u and later", ranges[lo].first.major,
			 ranges[lo].first.minor);
	else
		snprintf(buf, len, "qemu %u.%u to %u.%u", ranges[lo].first.major,
			 ranges[lo].first.minor, ranges[hi].last.major, ranges[hi].last.minor);
	return 0;
}
