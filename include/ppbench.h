/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every struct and constant that crosses the BPF / user-space boundary.
 * Fixed-width fields only, 64-bit counters, sizes a multiple of 8, so the
 * layout is the same for clang -target bpf and for the host compiler.
 * BPF code gets __u64 & co. from vmlinux.h, user space from linux/types.h.
 */
#ifndef PPBENCH_SHARED_H
#define PPBENCH_SHARED_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* All our BPF program names start with this, so leak checks can find them. */
#define PPB_PROG_PREFIX "ppb_"

#endif
