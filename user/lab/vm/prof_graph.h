/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROF_GRAPH_H
#define PPBENCH_PROF_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "vm/prof_capture.h"

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
 * The graph of the qprof tags of C whose weights W (indexed as c->q.tags)
 * are not 0, into *OUT: NULL when the capture has none (no 'n' or 's'
 * lines: a version 1 capture, or an arm64 guest's). 0, or -ENOMEM.
 */
int prof_graph_build(const struct capture *c, const uint64_t *w, struct prof_graph **out);
void prof_graph_free(struct prof_graph *g);

/*
 * Node N's chain: the names of its functions joined by SEP, from N up to
 * the root's child (LEAF_FIRST, as LKP's calltrace rows) or down from it
 * (as folded stacks); NULL without memory.
 */
char *prof_graph_chain(const struct prof_graph *g, size_t n, const char *sep, bool leaf_first);

#endif
