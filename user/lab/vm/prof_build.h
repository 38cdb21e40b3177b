/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROF_BUILD_H
#define PPBENCH_PROF_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The symbols of one boot, for an instruction profile: every guest address
 * an instruction ran at gets a function, or a bucket (user, unmapped), by
 * that boot's own /proc/kallsyms, since KASLR moves the kernel and its
 * modules. ppbench-vm(8) gives the rules.
 */
enum prof_kind { PK_KERNEL, PK_MODULE, PK_BPF, PK_USER, PK_UNMAPPED };

/* One address range and the function it belongs to. */
struct prof_sym {
	uint64_t start, end;
	const char *name;   /* normalised (above) */
	const char *module; /* the module ("veth", "bpf"), NULL in the kernel */
	enum prof_kind kind;
};

struct prof_symset {
	char *tag; /* the window's tag of a bpf-TAG set, NULL for the boot's own */
	struct prof_sym *sym;
	size_t n;
};

struct prof_syms {
	struct prof_symset base; /* kernel, modules, [bpf] of the final kallsyms */
	struct prof_symset *bpf; /* per window tag */
	size_t nbpf;
	uint64_t text; /* the kernel's _text, where KASLR put it (has_text) */
	bool has_text;
	char **strings; /* every name, freed with the table */
	size_t nstrings, capstrings;
};

/* The largest range a symbol without a known end may cover. */
#define PROF_SYM_MAX_LEN 65536
/* The smallest page of any kernel: the page size of a capture that does not name its own. */
#define PROF_SYM_PAGE_MIN 4096

/*
 * Builds the table from /proc/kallsyms's and /proc/modules's text (MODULES
 * may be NULL) of a kernel whose pages are PAGE_SIZE bytes: its own code in
 * the modules' area ends at the end of its page at most. 0, or -EINVAL with
 * one line in ERR.
 */
int prof_syms_load(struct prof_syms *s, const char *kallsyms, const char *modules,
		   uint64_t page_size, char *err, size_t errlen);
/*
 * Adds the programs loaded during window TAG: kallsyms lines ("ADDR t NAME
 * [bpf]") and "len ADDR BYTES" lines, as bpf-TAG holds them, and a module
 * loaded for the window only ("ADDR t NAME [MODULE]": its text symbols, each
 * ending at the next, within 64 KiB).
 */
int prof_syms_add_bpf(struct prof_syms *s, const char *tag, const char *text, const char *label,
		      char *err, size_t errlen);
/* The set of window TAG's programs (its index), or -1. */
int prof_syms_bpf_set(const struct prof_syms *s, const char *tag);
/*
 * The symbol at ADDR, looking in bpf set BPF (-1: none) first, or NULL:
 * then prof_addr_kind() says user or unmapped.
 */
const struct prof_sym *prof_syms_find(const struct prof_syms *s, int bpf, uint64_t addr);
enum prof_kind prof_addr_kind(uint64_t addr);
void prof_syms_free(struct prof_syms *s);
/* NAME without its padding's prefix: __pfx_ and __cfi_ are the function's own entry. */
const char *prof_fn_name(const char *name);
/* The order of structs that begin with a uint64_t key, for qsort() and bsearch(). */
int prof_by_u64(const void *a, const void *b);
/* Of N such structs (sorted), the first whose key is above KEY (ABOVE) or not below it. */
size_t prof_bound(const void *arr, size_t n, size_t size, uint64_t key, bool above);
/* Splits LINE into its blank-separated words, in place: their number, or MAX + 1 past MAX. */
int prof_split_words(char *line, char **w, int max);

/*
 * What ppbench vm --profile brings back from a guest, a directory of:
 *
 *   qprof.txt   the qemu plugin's counts (its format: qprof/qprof.c; version 1
 *               has no call graph)
 *   kallsyms    the guest's /proc/kallsyms at the command's end
 *   modules     the guest's /proc/modules
 *   bpf-TAG     the [bpf] lines of /proc/kallsyms while window TAG's programs
 *               were loaded, and "len ADDRESS BYTES" lines where known
 *   tags        "TAG KIND NAME [KEY=VALUE...]" per window tag; KIND scenario
 *               (NAME: ring, fast, ...), recipe or module
 *   meta        "key value" lines: arch, release, qemu, api, cpu_flags
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
	int version;
	struct qp_block *tb; /* sorted by slot */
	size_t ntb;
	struct qp_gnode *node; /* node[0]: the root; the others by number */
	size_t nnode;
	struct qp_tag *tags;
	size_t ntags;
};

/* Parses qprof.txt's TEXT; 0, or -EINVAL with one line naming LABEL's line in ERR. */
int qprof_parse(const char *text, size_t len, const char *label, struct qprof *q, char *err,
		size_t errlen);

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
	/* the kernel's debug info, matched to the boot (prof_dbg_match()), or NULL
	 * and why there is none (NULL: none was looked for); freed with it */
	struct prof_dbg *dbg;
	char *nolines;
};

/* Reads the capture directory DIR: 0, or -EINVAL (-ENOENT: a file missing) with one line. */
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

/* Opens the vmlinux PATH: 0, or -EINVAL (-ENOENT: no such file) with one line in ERR. */
int prof_dbg_open(const char *path, struct prof_dbg **out, char *err, size_t errlen);
void prof_dbg_close(struct prof_dbg *d);
const char *prof_dbg_path(const struct prof_dbg *d);

/*
 * Sets D against the boot of capture C: the boot's _text less the
 * vmlinux's. 0, or -EINVAL with one line in WHY where the vmlinux is not
 * the booted kernel (it lacks a path function that ran in C's windows).
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

/* The lines of C's qprof tags of weight W[i] (as prof_build()'s) against c->dbg; 0 or -ENOMEM. */
int prof_lines_build(const struct capture *c, const uint64_t *w, struct prof_lines **out);
void prof_lines_free(struct prof_lines *l);

/*
 * The call graph of a profile: the plugin's calling-context tree of each of
 * its windows' tags, its nodes named with the boot's symbols (the tag's BPF
 * programs first) and merged where a path of functions repeats, weighted as
 * the flat profile's tags are (a module loop's two loads: 1 and -1).
 *
 * Node 0 is the root: its children are the chains' outermost frames (a
 * syscall's, an interrupt's or an exception's entry), and "[user]", what
 * ran with no kernel frame. A function's self is what its nodes ran
 * themselves; its children, what ran in them and below them, counted once
 * where it calls itself.
 */
struct pg_fn {
	char *name, *module; /* module: NULL in the kernel, "bpf" for BPF code */
	enum prof_kind kind;
	int64_t self, children;
};

struct pg_node {
	size_t parent, fn; /* (the root's fn: none) */
	int64_t self, total;
};

/* A cause of recoveries: where (AT), and whose frame was in force (FRAME). */
struct pg_cause {
	bool unmatched; /* no frame held the code; else back to one further down */
	char *at, *frame;
	uint64_t count, insns;
};

struct prof_graph {
	struct pg_fn *fn;
	size_t nfn;
	struct pg_node *node; /* parents first */
	size_t nnode;
	/* of all the windows, whatever their weights */
	uint64_t recoveries, unmatched, fallthroughs, switches, recovered, insns;
	struct pg_cause *cause; /* most instructions first */
	size_t ncause;
};

/*
 * The graph of C's qprof tags of weight W[i] into *OUT: NULL when the
 * capture has none (a version 1 capture, or an arm64 guest's). 0 or -ENOMEM.
 */
int prof_graph_build(const struct capture *c, const uint64_t *w, struct prof_graph **out);
void prof_graph_free(struct prof_graph *g);

/*
 * Node N's chain: the names of its functions joined by SEP, from N up to
 * the root's child (LEAF_FIRST, as LKP's calltrace rows) or down from it
 * (as folded stacks); NULL without memory.
 */
char *prof_graph_chain(const struct prof_graph *g, size_t n, const char *sep, bool leaf_first);

/*
 * Instruction profiles: a capture's counts per function and per group (the
 * first of prof_rules[] that matches a name; ppbench-vm(8) lists them), for
 * each scenario (or recipe, or module loop) whose windows it counted. A path
 * figure is the sum of the path's own groups.
 */
enum prof_class { PCLS_PATH, PCLS_FRAME, PCLS_BPF, PCLS_OTHER, PCLS_USER, PCLS_UNMAPPED };

enum prof_group {
	PG_PAGE_POOL,
	PG_PTR_RING,
	PG_PAGE_ALLOC,
	PG_XDP,
	PG_TEST_RUN,
	PG_SKB,
	PG_BPF,
	PG_OTHER,
	PG_USER,
	PG_UNMAPPED,
	PG_NR
};

struct prof_group_def {
	const char *name; /* "page_pool", "page allocator", ... */
	enum prof_class cls;
};
extern const struct prof_group_def prof_groups[PG_NR];

/* "name", "prefix*", "*suffix" or "*part*": a function name's group. */
struct prof_rule {
	const char *pattern;
	enum prof_group group;
};
extern const struct prof_rule prof_rules[];
extern const size_t prof_nrules;

const char *prof_class_name(enum prof_class c); /* "path", "frame", "bpf", ... */
enum prof_group prof_group_of(enum prof_kind kind, const char *name);
/* The group called NAME, or PG_NR. */
enum prof_group prof_group_named(const char *name);
const char *prof_kind_name(enum prof_kind k); /* "kernel", "module", "bpf", "user", "unmapped" */

struct prof_fn {
	char *name, *module; /* module: NULL in the kernel, "bpf" for BPF code */
	enum prof_kind kind;
	enum prof_group group;
	int64_t insns, rep; /* instructions; of them rep-string iterations */
};

/* A profile: what one scenario's (recipe's, module loop's) windows executed. */
struct prof {
	char *kind, *name, *extra; /* the tags line: scenario ring recipe=lf-drop */
	uint64_t elems, windows, spans, errors;
	int64_t insns, rep; /* signed: a module loop's are a difference */
	int64_t group_insns[PG_NR], group_rep[PG_NR];
	struct prof_fn *fn; /* by instructions, most first */
	size_t nfn;
	struct prof_graph *graph; /* its call graph, NULL where the capture has none */
	struct prof_lines *lines; /* per source line, NULL without the kernel's debug info */
	char *nolines;		  /* then why (NULL: none was looked for) */
};

/*
 * The profiles of capture C, one per KIND and NAME of its tags (the tags of
 * a scenario's setups add up), in the order of the tags; a module loop's two
 * loads are differenced (ppbench-vm(8)), and without exactly two of
 * different lengths it has none. 0, or -EINVAL with one line in ERR (a tag
 * of qprof.txt that 'tags' does not list).
 */
int prof_build(const struct capture *c, struct prof **out, size_t *n, char *err, size_t errlen);
void prof_free_all(struct prof *p, size_t n);

/* The profile of KIND NAME among P, or NULL. */
const struct prof *prof_find(const struct prof *p, size_t n, const char *kind, const char *name);
/* COUNT per element of P (NAN without elements). */
double prof_per_elem(const struct prof *p, int64_t count);
/* The path figure: the path's own groups, instructions per element. */
double prof_path_per_elem(const struct prof *p);

#endif
