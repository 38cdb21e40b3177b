/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROF_LINES_H
#define PPBENCH_PROF_LINES_H

#include <stddef.h>
#include <stdint.h>

struct capture;

/*
 * A profile per source line: the instructions of the kernel's functions of
 * the path (the path's groups, prof_build.h) charged to the file and line
 * that the kernel's DWARF line table gives each instruction's address.
 *
 * The debug info is a vmlinux with DWARF (the user's build, or Debian's
 * linux-image-*-dbg). KASLR moved the booted kernel: an address of the boot
 * less the boot's _text (its kallsyms) plus the vmlinux's _text is the
 * vmlinux's. Inlined code counts at the line the table gives it, the
 * inlined callee's (often in a header). A module's code has no line here.
 */
struct prof_dbg; /* an opened vmlinux and how the boot sits against it */

/*
 * Opens the vmlinux PATH. 0, or -EINVAL (-ENOENT: no such file) with one
 * line in ERR ("PATH: no DWARF line table (.debug_line)").
 */
int prof_dbg_open(const char *path, struct prof_dbg **out, char *err, size_t errlen);
void prof_dbg_close(struct prof_dbg *d);
const char *prof_dbg_path(const struct prof_dbg *d);

/*
 * Sets D against the boot of capture C: the boot's _text less the
 * vmlinux's. 0, or -EINVAL with one line in WHY where the vmlinux is not
 * the booted kernel (a path function that ran in C's windows where the
 * vmlinux has no symbol of its name, or no _text in the boot).
 */
int prof_dbg_match(struct prof_dbg *d, const struct capture *c, char *why, size_t len);
/* The boot's _text less the vmlinux's (after prof_dbg_match()). */
int64_t prof_dbg_slide(const struct prof_dbg *d);

/* The line of the boot's address ADDR: its file, relative to the build's directory, and line. */
int prof_dbg_line(const struct prof_dbg *d, uint64_t addr, const char **file, int *line);

struct prof_line {
	char *at; /* "net/core/page_pool.c:1234" */
	char *fn; /* the function that ran most of its instructions there */
	int64_t insns;
};

struct prof_lines {
	struct prof_line *line; /* most instructions first */
	size_t nline;
	int64_t insns;	 /* the kernel's path instructions, all of them */
	int64_t no_line; /* of them at an address the line table does not hold */
};

/*
 * The lines of the qprof tags of C whose weights W (indexed as c->q.tags,
 * as prof_build() weighs them) are not 0, against C's debug info
 * (c->dbg, matched). 0 or -ENOMEM.
 */
int prof_lines_build(const struct capture *c, const uint64_t *w, struct prof_lines **out);
void prof_lines_free(struct prof_lines *l);

#endif
