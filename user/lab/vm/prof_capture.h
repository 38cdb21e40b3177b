/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROF_CAPTURE_H
#define PPBENCH_PROF_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "vm/prof_syms.h"

/*
 * What ppbench vm --profile brings back from a guest, a directory of:
 *
 *   qprof.txt   the qemu plugin's counts (below)
 *   kallsyms    the guest's /proc/kallsyms at the command's end
 *   modules     the guest's /proc/modules
 *   bpf-TAG     the [bpf] lines of /proc/kallsyms while window TAG's programs
 *               were loaded, and "len ADDRESS BYTES" lines where known
 *   tags        "TAG KIND NAME [KEY=VALUE...]" per window tag; KIND scenario
 *               (NAME: ring, fast, ...), recipe or module
 *   meta        "key value" lines: arch, release, qemu, api, cpu_flags
 *
 * qprof.txt, version 1 ('#' starts a comment):
 *
 *   qprof 1
 *   api CUR MIN BUILT
 *   target NAME
 *   tb SLOT VADDR NINSNS LENS REP     a block: its address (hex), its
 *                                     instructions' lengths (a hex digit
 *                                     each) and the indices of its
 *                                     rep-prefixed string instructions (or -)
 *   tag TAG windows W spans S elems E errors X insns N
 *   c SLOT COUNT                      the block's executions in TAG's spans
 *   end
 */
struct qp_block {
	uint64_t slot, vaddr;
	uint32_t ninsns;
	uint8_t *len;  /* ninsns lengths in bytes */
	uint32_t *rep; /* indices of rep-prefixed string instructions */
	uint32_t nrep;
};

struct qp_count {
	uint64_t slot, count;
	const struct qp_block *b; /* resolved after parsing */
};

struct qp_tag {
	char *tag;
	uint64_t windows, spans, elems, errors, insns;
	struct qp_count *c;
	size_t nc;
};

struct qprof {
	int api_cur, api_min, api_built;
	char target[32];
	struct qp_block *tb; /* sorted by slot */
	size_t ntb;
	struct qp_tag *tags;
	size_t ntags;
};

/*
 * Parses TEXT (LEN bytes), qprof.txt's contents; LABEL names it in errors.
 * 0, or -EINVAL with one line in ERR naming the line and the problem
 * ("qprof.txt:12: c 7: no block 7 ('tb 7 ...')", "qprof.txt ends before
 * its 'end' line: the plugin's output was cut short").
 */
int qprof_parse(const char *text, size_t len, const char *label, struct qprof *q, char *err,
		size_t errlen);
void qprof_free(struct qprof *q);

/* A line of 'tags'. */
struct cap_tag {
	char *tag, *kind, *name;
	char *extra; /* the KEY=VALUE words, as given, or "" */
};

/* A capture directory, read. */
struct capture {
	struct qprof q;
	struct prof_syms syms;
	struct cap_tag *tags;
	size_t ntags;
	char *meta[8][2]; /* key, value */
	size_t nmeta;
};

/*
 * Reads the capture directory DIR. 0, or -EINVAL (-ENOENT: DIR or one of
 * its files is missing) with one line in ERR naming the file and problem.
 */
int capture_load(const char *dir, struct capture *c, char *err, size_t errlen);
/* Parses the files' texts (what capture_load() reads; the unit tests' way in). */
int capture_parse(struct capture *c, const char *qprof, const char *kallsyms, const char *modules,
		  const char *tags, const char *meta, char *err, size_t errlen);
/* Adds window TAG's programs (bpf-TAG's text). */
int capture_add_bpf(struct capture *c, const char *tag, const char *text, char *err, size_t errlen);
/* meta's value of KEY, or NULL. */
const char *capture_meta(const struct capture *c, const char *key);
/* The profiled kernel's page size (meta's page_size), PROF_SYM_PAGE_MIN where meta has none. */
uint64_t capture_page_size(const struct capture *c);
/* The tags line of TAG, or NULL. */
const struct cap_tag *capture_tag(const struct capture *c, const char *tag);
void capture_free(struct capture *c);
/* PATH's whole text, NUL-terminated, in *TEXT (freed by the caller); 0 or -EIO. */
int prof_read_file(const char *path, char **text, size_t *len);

#endif
