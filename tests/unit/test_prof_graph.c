// SPDX-License-Identifier: GPL-2.0
/*
 * A profile's call graph (vm/prof_graph.c): the plugin's trees of two
 * windows of one scenario, their nodes named by the boot's symbols (a BPF
 * program by its window's, an address inside a function as the function),
 * merged where their paths of functions repeat; self, children (a function
 * that calls itself counted once), the chains leaf first and root first,
 * user space under the root, and the recoveries' causes by name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vm/prof_build.h"
#include "unit.h"

#define K 0xffffffff81000000ull

static const char graph_kallsyms[] = "ffffffff81000000 T _stext\n"
				     "ffffffff81000100 T entry_SYSCALL_64\n"
				     "ffffffff81000200 T asm_sysvec_apic_timer_interrupt\n"
				     "ffffffff81000300 T xdp_test_run_batch\n"
				     "ffffffff81000400 T xdp_return_buff\n"
				     "ffffffff81000500 T __xdp_return\n"
				     "ffffffff81000600 T rec\n"
				     "ffffffff81000700 T _etext\n";

static const char graph_bpf7[] = "ffffffffc0100000 t bpf_prog_0123456789abcdef_xdp_drop\t[bpf]\n"
				 "len ffffffffc0100000 64\n";

/*
 * Window 7: entry_SYSCALL_64 (1) -> xdp_test_run_batch (2, and 9 at another
 * of its addresses) -> xdp_return_buff (3) -> __xdp_return (4, by an address
 * inside it); -> the program (5); -> rec (6) -> rec (7); an interrupt (8);
 * user space (the root's own). Window 8: xdp_test_run_batch alone.
 */
static const char graph_qprof[] =
	"qprof 2\napi 1 0 1\ntarget x86_64\n"
	"tb 1 ffffffff81000300 1 4 -\n"
	"n 1 0 ffffffff81000100\nn 2 1 ffffffff81000300\nn 3 2 ffffffff81000400\n"
	"n 4 3 ffffffff81000510\nn 5 2 ffffffffc0100000\nn 6 2 ffffffff81000600\n"
	"n 7 6 ffffffff81000600\nn 8 0 ffffffff81000200\nn 9 1 ffffffff81000320\n"
	"tag 7 windows 1 spans 1 elems 100 errors 0 insns 1000\nc 1 1000\n"
	"s 0 50\ns 1 10\ns 2 300\ns 3 200\ns 4 150\ns 5 90\ns 6 40\ns 7 60\ns 8 30\ns 9 70\n"
	"cg recoveries 2 unmatched 1 fallthroughs 3 recovered 12 switches 0\n"
	"rc recover ffffffff81000520 ffffffff81000400 2 8\n"
	"rc unmatched ffffffff81000610 0 1 4\n"
	"tag 8 windows 1 spans 1 elems 100 errors 0 insns 100\nc 1 100\ns 2 100\n"
	"cg recoveries 0 unmatched 0 fallthroughs 0 recovered 0 switches 0\n"
	"end\n";

static const struct pg_fn *gfn(const struct prof_graph *g, const char *name)
{
	for (size_t i = 0; i < g->nfn; i++)
		if (!strcmp(g->fn[i].name, name))
			return &g->fn[i];
	return NULL;
}

/* The node whose chain, leaf first, is CHAIN. */
static const struct pg_node *chain_node(const struct prof_graph *g, const char *chain)
{
	const struct pg_node *n = NULL;

	for (size_t i = 1; !n && i < g->nnode; i++) {
		char *c = prof_graph_chain(g, i, ".", true);

		if (c && !strcmp(c, chain))
			n = &g->node[i];
		free(c);
	}
	return n;
}

void test_prof_graph(void)
{
	struct capture c;
	struct prof *p = NULL;
	const struct prof_graph *g;
	const struct pg_node *n;
	size_t np = 0;
	char err[256] = "", *folded;

	if (!ASSERT_OK(capture_parse(&c, graph_qprof, graph_kallsyms, NULL,
				     "7 scenario ring\n8 scenario ring\n", NULL, err, sizeof(err)),
		       err) ||
	    !ASSERT_OK(capture_add_bpf(&c, "7", graph_bpf7, err, sizeof(err)), err))
		return;
	if (!ASSERT_OK(prof_build(&c, &p, &np, err, sizeof(err)), err) ||
	    !ASSERT_EQ(np, 1, "one profile: ring's two windows") ||
	    !ASSERT_TRUE(p[0].graph != NULL, "with its call graph"))
		goto out;
	g = p[0].graph;
	ASSERT_EQ(g->node[0].total, 1100, "the root: every instruction of both windows");
	ASSERT_EQ(gfn(g, "xdp_test_run_batch")->self, 470, "two nodes and two windows in one");
	ASSERT_EQ(gfn(g, "xdp_test_run_batch")->children, 1010, "with all it calls");
	ASSERT_EQ(gfn(g, "entry_SYSCALL_64")->children, 1020, "the syscall's chain");
	ASSERT_EQ(gfn(g, "__xdp_return")->self, 150, "named by an address inside it");
	ASSERT_EQ(gfn(g, "rec")->self, 100, "rec, both frames");
	ASSERT_EQ(gfn(g, "rec")->children, 100, "rec calling itself: counted once");
	ASSERT_TRUE(gfn(g, "xdp_drop") && !strcmp(gfn(g, "xdp_drop")->module, "bpf"),
		    "the program by its window's name");
	ASSERT_EQ(gfn(g, "[user]")->self, 50, "user space: the root's own");
	n = chain_node(g, "__xdp_return.xdp_return_buff.xdp_test_run_batch.entry_SYSCALL_64");
	ASSERT_TRUE(n && n->total == 150, "a chain, leaf first, with its cost");
	n = chain_node(g, "asm_sysvec_apic_timer_interrupt");
	ASSERT_TRUE(n && n->total == 30 && !n->parent, "the interrupt: a chain of its own");
	n = chain_node(g, "rec.rec.xdp_test_run_batch.entry_SYSCALL_64");
	folded = n ? prof_graph_chain(g, (size_t)(n - g->node), ";", false) : NULL;
	ASSERT_STREQ(folded ? folded : "", "entry_SYSCALL_64;xdp_test_run_batch;rec;rec",
		     "root first, as folded stacks");
	free(folded);
	ASSERT_EQ(g->recoveries, 2, "recoveries");
	ASSERT_EQ(g->unmatched, 1, "unmatched");
	ASSERT_EQ(g->recovered, 12, "instructions charged after one");
	ASSERT_EQ(g->insns, 1100, "of the windows'");
	if (ASSERT_EQ(g->ncause, 2, "two causes"))
		ASSERT_TRUE(!strcmp(g->cause[0].at, "__xdp_return") &&
				    !strcmp(g->cause[0].frame, "xdp_return_buff") &&
				    g->cause[0].insns == 8 && !g->cause[0].unmatched,
			    "named: where, and whose frame was in force");
out:
	prof_free_all(p, np);
	capture_free(&c);
}
