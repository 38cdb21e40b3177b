/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The markers of `ppbench vm --profile` (include/vmprof.h): instructions
 * that do nothing on the CPU and tell the qemu plugin on the host what the
 * guest is doing. They execute only in a guest booted with ppbench.profile=1
 * (/proc/cmdline, read once); everywhere else, and on architectures other
 * than x86-64 and arm64, these calls do nothing.
 */
#ifndef PPBENCH_MARKERS_H
#define PPBENCH_MARKERS_H

#include <stdbool.h>
#include <stdint.h>

/* Whether this kernel was booted for a profile (and markers exist for this CPU). */
bool marker_active(void);
/* Whether a kernel command line has ppbench.profile=1 as a word of its own. */
bool marker_cmdline(const char *cmdline);
/* Markers on or off whatever the command line says (tests run them on the host). */
void marker_set_active(bool on);
/* OP (enum vmprof_op) with VALUE: 16 nibbles, then the op. */
void marker_send(int op, uint64_t value);
/* OP with VALUE in as few nibbles as it takes (after a marker_send(): the value starts clear). */
void marker_send_short(int op, uint64_t value);
/* OP alone (its value is 0). */
void marker_op(int op);

#endif
