/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROF_CAPTURE_H
#define PPBENCH_PROF_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "vm/prof_lines.h"
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
 * qprof.txt, version 2 ('#' starts a comment; version 1 has no call graph):
 *
 *   qprof 2
 *   api CUR MIN BUILT
 *   target NAME
 *   tb SLOT VADDR NINSNS LENS REP     a block: its address (hex), its
 *                                     instructions' lengths (a hex digit
 *                                     each) and the indices of its
 *                                     rep-prefixed string instructions (or -)
 *   n NODE PARENT KEY                 a node of the call graph: KEY an
 *                                     address (hex) of its function; after
 *                                     its parent (0: the root, not listed)
 *   tag TAG windows W spans S elems E errors X insns N
 *   c SLOT COUNT                      the block's executions in TAG's spans
 *   s NODE SELF                       instructions charged to the node in them
 *   cg recoveries R unmatched U fallthroughs F recovered I switches W
 *   rc KIND SITE EXPECTED COUNT INSNS a recovery's cause (KIND recover or
 *                                     unmatched; addresses hex)
 *   end
 * A tag's SELF add up to its N: the call graph charges every instruction.
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

/* A node of the call graph, and what one tag charged to one. */
struct qp_gnode {
	uint64_t id, key; /* the plugin's number, and the address */
	size_t parent;	  /* an index of qprof's nodes: 0, the root */
};

struct qp_self {
	size_t node; /* an index of qprof's nodes */
	uint64_t self;
};

/* A recovery's cause: at SITE, the frame in force was EXPECTED's. */
struct qp_cause {
	bool unmatched; /* no frame held the code (else: back to a frame further down) */
	uint64_t site, expected, count, insns;
};

struct qp_tag {
	char *tag;
	uint64_t windows, spans, elems, errors, insns;
	struct qp_count *c;
	size_t nc;
	struct qp_self *s;
	size_t ns;
	bool has_cg; /* a 'cg' line: */
	uint64_t recoveries, unmatched, fallthroughs, recovered, switches;
	struct qp_cause *rc;
	size_t nrc;
};

struct qprof {
	int version, api_cur, api_min, api_built;
	char target[32];
	struct qp_block *tb; /* sorted by slot */
	size_t ntb;
	struct qp_gnode *node; /* node[0]: the root; the others by number */
	size_t nnode;
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
	/* the kernel's debug info, matched to the boot (prof_lines.h), or NULL
	 * and why there is none (NULL: none was looked for); freed with it */
	struct prof_dbg *dbg;
	char *nolines;
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
