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

#endif
