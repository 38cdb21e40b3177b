/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_QEMU_API_H
#define PPBENCH_QEMU_API_H

#include <stddef.h>

/*
 * Which build of ppbench's qemu TCG plugin (user/lab/vm/qprof/) a qemu can
 * load. A plugin exports the API version it was built for; qemu's loader
 * takes it when that version lies in qemu's [min, cur] range, which is fixed
 * at qemu's build and visible only to a loaded plugin. So the range comes
 * from qemu's release: the table in qemu_api.c, the one place that says
 * which release takes which API.
 */
struct qemu_version {
	unsigned int major, minor, micro;
};

/* QEMU_API_BUILDS: the plugin's builds, by the API version each exports. */
#define QEMU_API_NR_BUILDS 2
extern const int qemu_api_builds[QEMU_API_NR_BUILDS];

/*
 * The version in qemu's "-version" output ("QEMU emulator version 7.2.22
 * (Debian 1:7.2+dfsg-7+deb12u18+b3)"); -EINVAL when there is none.
 */
int qemu_version_parse(const char *text, struct qemu_version *v);
/* V's plugin API range; -ENOENT for a release without plugins (before 4.2). */
int qemu_api_range(const struct qemu_version *v, int *min, int *cur);
/* The API version of the build that [MIN, CUR] takes (the newest that fits), or -ENOENT. */
int qemu_api_pick(int min, int cur);
/*
 * The releases whose build is API's, into BUF: "qemu 6.0 to 8.2", "qemu 9.1
 * and later"; -ENOENT when no release takes it.
 */
int qemu_api_releases(int api, char *buf, size_t len);

#endif
