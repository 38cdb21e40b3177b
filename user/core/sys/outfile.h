/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_OUTFILE_H
#define PPBENCH_OUTFILE_H

#include <limits.h>
#include <stdio.h>

/*
 * Every file ppbench writes. A result (OUTFILE_WHOLE) is written whole or not
 * at all: into a temporary file beside PATH, which outfile_commit() flushes,
 * syncs and renames over PATH only once it is complete. A write that fails
 * (a full file system, an I/O error, at a write, the flush, the sync or the
 * close) or a kill leaves PATH as it was, and no temporary file (outfile.c
 * says when one may remain).
 *
 * "-" is stdout. A PATH that exists and is not a regular file (a FIFO,
 * /dev/null, a terminal) is written in place: there is nothing to keep. A
 * stream (OUTFILE_STREAM: load, gen and watch --json, one object per interval)
 * is written in place too, emptied as it opens, so that a reader follows it.
 *
 * Errors are one line naming the file and the problem, printed here.
 */
enum outfile_mode {
	OUTFILE_WHOLE,
	OUTFILE_STREAM,
	OUTFILE_NAMED_TMP, /* WHOLE with a named temporary, as where O_TMPFILE fails (tests) */
};

struct outfile {
	FILE *f;
	const char *path;      /* as given, for messages */
	char target[PATH_MAX]; /* the file replaced: PATH, or the file a symlink names */
	char tmp[PATH_MAX];    /* the named temporary file, if any */
	int kind;
	int fd;	   /* the temporary file (whole files) */
	char *buf; /* their text, until the commit */
	size_t len;
};

/* Opens PATH; 0, or a negative errno after the one-line error. */
int outfile_open(struct outfile *o, const char *path, enum outfile_mode mode);
/* Completes the file; 0, or a negative errno after the one-line error. */
int outfile_commit(struct outfile *o);
/* Drops what was written: PATH stays as it was. */
void outfile_discard(struct outfile *o);
/* SRC's bytes into DST, whole or not at all; 0, or -1 after the one-line error. */
int outfile_copy(const char *src, const char *dst);
/*
 * Can PATH be written (for an option's value), without creating anything?
 * A file that is replaced needs its directory writable, and itself.
 * Prints "WHAT: cannot write 'PATH': REASON".
 */
int outfile_check(const char *path, const char *what);

#endif
