/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_QEMUBIN_H
#define PPBENCH_QEMUBIN_H

#include <stdbool.h>
#include <stddef.h>

/* What a qemu program on PATH says of itself, without booting anything. */
struct qemu_bin {
	char path[4096];   /* where PATH finds it */
	char version[160]; /* the first line of "-version" ("QEMU emulator version ...") */
	bool plugins;	   /* its dynamic symbols export qemu_plugin_* (the TCG plugin API) */
};

/*
 * Finds PROG on PATH, runs "PROG -version" (at most 10 s) and reads its
 * ELF dynamic symbol table. 0, or -ENOENT (not on PATH), -EIO (it printed
 * no version line): no message, the caller says what it needed.
 */
int qemu_bin_probe(const char *prog, struct qemu_bin *q);

#endif
