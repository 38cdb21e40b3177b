/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_VM_PROFILE_H
#define PPBENCH_VM_PROFILE_H

#include <stddef.h>
#include "vm/vm_run.h"

/*
 * ppbench vm --profile on the host: before a boot, the qemu and the plugin
 * build it loads; after the guest, the capture it brought back, made into
 * profiles, merged into the command's result file and handed to vm's sink.
 */

/*
 * The plugin build qemu program QEMU (on PATH) takes: its path, in the
 * source tree TREE (build/qprof-vN.so) or, without one, under LIBVM
 * (LIBDIR/vm/qprof-vN.so), into PLUGIN. 0, or EXIT_USAGE after one line:
 * a qemu without plugin support, of a release no build serves, or a build
 * that is missing.
 */
int vm_profile_plugin(const char *qemu, const char *tree, const char *libvm, char *plugin,
		      size_t len);

/*
 * After the guest: reads WORK/profile/, builds its profiles, puts them into
 * JSON (the result file the command wrote on the host, or NULL) and hands them to SINK's profile().
 * EXIT_OK, or EXIT_FAIL after one line.
 */
int vm_profile_finish(const char *work, const char *json, const struct vm_sink *sink);

/*
 * Which build of ppbench's qemu TCG plugin (user/lab/vm/qprof/) a qemu can
 * load. A plugin exports the API version it was built for; qemu's loader
 * takes it when that version lies in qemu's [min, cur] range, which is fixed
 * at qemu's build and visible only to a loaded plugin. So the range comes
 * from qemu's release: the table in vm_profile.c, the one place that says
 * which release takes which API.
 */
struct qemu_version {
	unsigned int major, minor, micro;
};

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
