/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading and unloading a kernel module file (finit_module, delete_module),
 * and the kernel log's records written while it ran (/dev/kmsg).
 */
#ifndef PPBENCH_KMOD_H
#define PPBENCH_KMOD_H

#include <stddef.h>

/*
 * Loads PATH with PARAMS ("loops=1000 run_flags=2"); 0 or a negative errno.
 * NAME gets the name the kernel knows it by (its own, not the file's: a
 * renamed file keeps it), the module /proc/modules lists that it did not
 * before.
 */
int kmod_load(const char *path, const char *params, char *name, size_t len);
/* Unloads module NAME; 0 or a negative errno. */
int kmod_unload(const char *name);

/* /dev/kmsg opened at its end: what is logged from now on; a negative errno. */
int kmsg_open_end(void);
/*
 * The messages logged since (the text of each record, its prefix removed),
 * each passed to FN; stops when none is left. 0 or a negative errno.
 */
int kmsg_read_new(int fd, void (*fn)(void *ctx, const char *msg), void *ctx);

#endif
