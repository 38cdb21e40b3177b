/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_QEMUBIN_H
#define PPBENCH_QEMUBIN_H

#include <stdbool.h>
#include <stddef.h>

/* What a qemu program on PATH says of itself, without booting anything. */
struct qemu_bin {
	char path[4096];   /* where PATH finds it */
	char version[160]; /* the first line of "-version" ("QEMU emulator version ...") */
	char binary[4096]; /* the ELF file: path itself, or the one a wrapper script runs */
	bool plugins;	   /* its dynamic symbols export qemu_plugin_* (the TCG plugin API) */
};

/*
 * Finds PROG on PATH, runs "PROG -version" (at most 10 s) and reads the
 * ELF dynamic symbol table of it, or of the qemu binary it runs when it is
 * a wrapper script (the absolute path in it that ends in /PROG). 0, or -ENOENT (not on PATH), -EIO
 * (it printed no version line): no message, the caller says what it needed.
 */
int qemu_bin_probe(const char *prog, struct qemu_bin *q);

#endif
