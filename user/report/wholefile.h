/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_WHOLEFILE_H
#define PPBENCH_WHOLEFILE_H

#include <stddef.h>

/*
 * Writes the LEN bytes at BUF to PATH ("-": stdout) whole or not at all:
 * into a temporary file beside PATH (mode 0666 less the umask), flushed to
 * disk, then renamed over PATH, so a reader never sees half a file and a
 * failed run leaves none. 0, or a negative errno (nothing is left behind).
 */
int wholefile_write(const char *path, const char *buf, size_t len);

#endif
