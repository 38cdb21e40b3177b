// SPDX-License-Identifier: GPL-2.0
/*
 * Instruction profiles (vm/prof_syms.c, prof_capture.c, prof_build.c):
 * a synthetic boot's symbols and the plugin's counts, the same code at two
 * KASLR bases, modules, BPF programs, user space, an unmapped address, a
 * block across two functions, rep iterations; then one defect at a time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/manpage.h"
#include "vm/prof_build.h"
#include "vm/prof_report.h"
#include "vm/vm_run.h"
#include "unit.h"

#define KBASE 0xffffffff81000000ull
#define MBASE 0xffffffffc0001000ull
#define BBASE 0xffffffffc0100000ull

/* A boot's kallsyms with the kernel at KBASE + SHIFT and modules at MBASE + MSHIFT. */
static char *kallsyms_at(unsigned long long shift, unsigned long long mshift)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	unsigned long long k = KBASE + shift, m = MBASE + mshift;

	fprintf(f, "%016llx T _stext\n%016llx T startup_64\n", k, k);
	fprintf(f, "%016llx t __pfx_page_pool_alloc_netmems\n", k + 0x100);
	fprintf(f, "%016llx T page_pool_alloc_netmems\n", k + 0x110);
	fprintf(f, "%016llx T page_pool_put_unrefed_netmem\n", k + 0x200);
	fprintf(f, "%016llx T xdp_test_run_batch\n", k + 0x300);
	fprintf(f, "%016llx T clear_page_erms\n", k + 0x400);
	fprintf(f, "%016llx T ktime_get\n", k + 0x480);
	fprintf(f, "%016llx T _etext\n", k + 0x500);
	fprintf(f, "%016llx D some_data\n", k + 0x100000);
	fprintf(f, "%016llx t veth_xdp_rcv\t[veth]\n", m);
	fprintf(f, "%016llx t veth_poll\t[veth]\n", m + 0x100);
	fprintf(f, "%016llx d veth_ops\t[veth]\n", m + 0x9000);
	fprintf(f, "%016llx t ftrace_trampoline\t[__builtin__ftrace]\n", m + 0x4000);
	fclose(f);
	return s;
}

static char *modules_at(unsigned long long mshift)
{
	char *s = NULL;

	/* 8 KiB from the module's base: veth_poll ends there, before its data */
	if (asprintf(&s, "veth 8192 0 - Live 0x%016llx\n", MBASE + mshift) < 0)
		return NULL;
	return s;
}

static const char bpf_tag7[] = "ffffffffc0100000 t bpf_prog_0123456789abcdef_xdp_drop\t[bpf]\n"
			       "len ffffffffc0100000 64\n";

/*
 * The plugin's counts for window 7 (100 elements): a block across the end of
 * page_pool_alloc_netmems into page_pool_put_unrefed_netmem, a block in the
 * padding before page_pool_alloc_netmems, a rep stosb in clear_page_erms (its
 * block runs once per iteration), the test run's loop, a module's, a BPF
 * program's, user space's and an unmapped block.
 */
static char *qprof_at(unsigned long long shift, unsigned long long mshift)
{
	unsigned long long k = KBASE + shift, m = MBASE + mshift;
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	fprintf(f, "qprof 1\napi 1 0 1\ntarget x86_64\n# blocks\n");
	fprintf(f, "tb 1 %llx 5 44444 -\n", k + 0x1f8); /* 2 in alloc, 3 in put */
	fprintf(f, "tb 2 %llx 2 44 -\n", k + 0x108);	/* __pfx_: alloc's own */
	fprintf(f, "tb 3 %llx 2 32 1\n", k + 0x400);	/* a mov and a rep stosb */
	fprintf(f, "tb 4 %llx 1 2 0\n", k + 0x403);	/* the rep stosb alone */
	fprintf(f, "tb 5 %llx 3 555 -\n", k + 0x300);
	fprintf(f, "tb 6 %llx 1 4 -\n", m + 0x10);
	fprintf(f, "tb 7 ffffffffc0100000 2 48 -\n");
	fprintf(f, "tb 8 401000 2 33 -\n");
	fprintf(f, "tb 9 fffffe0000001000 1 4 -\n");
	fprintf(f, "tb 10 %llx 1 4 -\n", BBASE + 0x40); /* past the program's 64 bytes */
	/* 5*100 + 2*100 + 2*10 + 1*4000 + 3*100 + 1*100 + 2*100 + 2*5 + 1*3 + 1*1 */
	fprintf(f, "tag 7 windows 2 spans 2 elems 100 errors 0 insns 5334\n");
	fprintf(f, "c 1 100\nc 2 100\nc 3 10\nc 4 4000\nc 5 100\nc 6 100\nc 7 100\nc 8 5\n"
		   "c 9 3\nc 10 1\nend\n");
	fclose(f);
	return s;
}

static int capture_meta_at(struct capture *c, unsigned long long shift, unsigned long long mshift,
			   const char *meta, char *err, size_t errlen)
{
	char *k = kallsyms_at(shift, mshift), *m = modules_at(mshift), *q = qprof_at(shift, mshift);
	int ret = capture_parse(c, q, k, m, "7 scenario ring recipe=lf-drop\n", meta, err, errlen);

	ret = ret ?: capture_add_bpf(c, "7", bpf_tag7, err, errlen);
	free(k);
	free(m);
	free(q);
	return ret;
}

static int capture_at(struct capture *c, unsigned long long shift, unsigned long long mshift,
		      char *err, size_t errlen)
{
	return capture_meta_at(c, shift, mshift, "arch x86-64\nqemu 7.2.22\n", err, errlen);
}

static const struct prof_fn *fn_of(const struct prof *p, const char *name)
{
	for (size_t i = 0; i < p->nfn; i++)
		if (!strcmp(p->fn[i].name, name))
			return &p->fn[i];
	return NULL;
}

static int64_t insns_of(const struct prof *p, const char *name)
{
	const struct prof_fn *f = fn_of(p, name);

	return f ? f->insns : 0;
}

void test_prof_syms_lookup(void)
{
	char *k = kallsyms_at(0, 0), *m = modules_at(0), err[256] = "";
	struct prof_syms s;
	const struct prof_sym *f;
	int b;

	if (!ASSERT_OK(prof_syms_load(&s, k, m, PROF_SYM_PAGE_MIN, err, sizeof(err)), err))
		goto out;
	ASSERT_OK(prof_syms_add_bpf(&s, "7", bpf_tag7, "bpf-7", err, sizeof(err)), err);
	b = prof_syms_bpf_set(&s, "7");
	ASSERT_EQ(b, 0, "the window's set");
	f = prof_syms_find(&s, -1, KBASE);
	ASSERT_STREQ(f ? f->name : NULL, "startup_64", "an alias: the name without '_'");
	f = prof_syms_find(&s, -1, KBASE + 0x104);
	ASSERT_STREQ(f ? f->name : NULL, "page_pool_alloc_netmems", "__pfx_: the function's");
	f = prof_syms_find(&s, -1, KBASE + 0x1ff);
	ASSERT_STREQ(f ? f->name : NULL, "page_pool_alloc_netmems", "to the next symbol");
	f = prof_syms_find(&s, -1, KBASE + 0x200);
	ASSERT_STREQ(f ? f->name : NULL, "page_pool_put_unrefed_netmem", "the next");
	f = prof_syms_find(&s, -1, KBASE + 0x4ff);
	ASSERT_STREQ(f ? f->name : NULL, "ktime_get", "the last before _etext");
	ASSERT_TRUE(!prof_syms_find(&s, -1, KBASE + 0x500), "_etext ends the text");
	ASSERT_TRUE(!prof_syms_find(&s, -1, KBASE + 0x100000), "data is no function");
	f = prof_syms_find(&s, -1, MBASE + 0x1fff);
	ASSERT_STREQ(f ? f->module : NULL, "veth", "a module's");
	ASSERT_STREQ(f ? f->name : NULL, "veth_poll", "its last text symbol");
	ASSERT_TRUE(!prof_syms_find(&s, -1, MBASE + 0x2000), "the module's size bounds it");
	f = prof_syms_find(&s, -1, MBASE + 0x4fff);
	ASSERT_STREQ(f ? f->name : NULL, "ftrace_trampoline",
		     "the kernel's code in the modules' area");
	ASSERT_TRUE(!prof_syms_find(&s, -1, MBASE + 0x5000), "its page bounds it");
	f = prof_syms_find(&s, b, BBASE + 0x3f);
	ASSERT_STREQ(f ? f->name : NULL, "xdp_drop", "a BPF program by its name");
	ASSERT_EQ(f ? (int)f->kind : -1, PK_BPF, "kind bpf");
	ASSERT_TRUE(!prof_syms_find(&s, b, BBASE + 0x40), "its JIT length bounds it");
	ASSERT_TRUE(!prof_syms_find(&s, -1, BBASE), "another window's programs are not this one's");
	ASSERT_EQ(prof_addr_kind(0x401000), PK_USER, "below the kernel's half");
	ASSERT_EQ(prof_addr_kind(0xfffffe0000001000ull), PK_UNMAPPED, "in it, no symbol");
	prof_syms_free(&s);
	/* a kernel of 16 KiB pages: its own code in the modules' area to the end of its page */
	if (!ASSERT_OK(prof_syms_load(&s, k, m, 16384, err, sizeof(err)), err))
		goto out;
	f = prof_syms_find(&s, -1, MBASE + 0x5000);
	ASSERT_STREQ(f ? f->name : NULL, "ftrace_trampoline", "past 4 KiB, in its 16 KiB page");
	ASSERT_TRUE(!prof_syms_find(&s, -1, MBASE + 0x7000), "the 16 KiB page bounds it");
	prof_syms_free(&s);
out:
	free(k);
	free(m);
}

void test_prof_build_counts(void)
{
	struct capture c;
	struct prof *p = NULL;
	size_t n = 0;
	char err[256] = "";
	const struct prof_fn *f;

	if (!ASSERT_OK(capture_at(&c, 0, 0, err, sizeof(err)), err))
		return;
	if (!ASSERT_OK(prof_build(&c, &p, &n, err, sizeof(err)), err))
		goto out;
	ASSERT_EQ(n, 1, "one profile");
	ASSERT_STREQ(p->kind, "scenario", "kind");
	ASSERT_STREQ(p->name, "ring", "name");
	ASSERT_STREQ(p->extra, "recipe=lf-drop", "the tag's words");
	ASSERT_EQ(p->elems, 100, "elems");
	ASSERT_EQ(p->insns, 5334, "insns");
	ASSERT_EQ(insns_of(p, "page_pool_alloc_netmems"), 2 * 100 + 2 * 100, "block split; __pfx_");
	ASSERT_EQ(insns_of(p, "page_pool_put_unrefed_netmem"), 3 * 100, "the block's rest");
	ASSERT_EQ(insns_of(p, "clear_page_erms"), 2 * 10 + 4000, "each iteration an instruction");
	f = fn_of(p, "clear_page_erms");
	ASSERT_EQ(f ? f->rep : 0, 10 + 4000, "rep iterations apart");
	ASSERT_EQ(f ? (int)f->group : -1, PG_PAGE_ALLOC, "clear_page*: the page allocator");
	ASSERT_EQ(insns_of(p, "veth_xdp_rcv"), 100, "a module's function");
	ASSERT_EQ(insns_of(p, "xdp_drop"), 200, "a BPF program");
	ASSERT_EQ(insns_of(p, "[user]"), 10, "user space, one bucket");
	ASSERT_EQ(insns_of(p, "[unmapped]"), 3 + 1, "unmapped: counted, never dropped");
	ASSERT_EQ(p->group_insns[PG_PAGE_POOL], 700, "page_pool");
	ASSERT_EQ(p->group_insns[PG_TEST_RUN], 300, "xdp_test_run_batch is the loop");
	ASSERT_EQ(p->group_insns[PG_BPF], 200, "bpf");
	ASSERT_EQ(p->group_insns[PG_UNMAPPED], 4, "unmapped");
	ASSERT_EQ(p->rep, 4010, "the profile's rep iterations");
	ASSERT_NEAR(prof_path_per_elem(p), (700 + 4020) / 100.0, 1e-12, "path: its own groups");
	ASSERT_STREQ(p->fn[0].name, "clear_page_erms", "most first");
	{
		uint64_t sum = 0;

		for (size_t i = 0; i < p->nfn; i++)
			sum += p->fn[i].insns;
		ASSERT_EQ(sum, p->insns, "the functions add up to the windows' instructions");
	}
out:
	prof_free_all(p, n);
	capture_free(&c);
}

/* KASLR: the same code at other bases (kernel and modules apart) gives the same profile. */
void test_prof_kaslr_shift(void)
{
	struct capture a, b;
	struct prof *pa = NULL, *pb = NULL;
	size_t na = 0, nb = 0;
	char err[256] = "";

	if (!ASSERT_OK(capture_at(&a, 0, 0, err, sizeof(err)), err))
		return;
	if (!ASSERT_OK(capture_at(&b, 0x2a000000, 0x7000000, err, sizeof(err)), err))
		goto out_a;
	if (ASSERT_OK(prof_build(&a, &pa, &na, err, sizeof(err)), err) &&
	    ASSERT_OK(prof_build(&b, &pb, &nb, err, sizeof(err)), err) &&
	    ASSERT_EQ(pb->nfn, pa->nfn, "as many functions")) {
		for (size_t i = 0; i < pa->nfn; i++) {
			ASSERT_STREQ(pb->fn[i].name, pa->fn[i].name, "the same functions");
			ASSERT_EQ(pb->fn[i].insns, pa->fn[i].insns, "the same counts");
		}
	}
	prof_free_all(pa, na);
	prof_free_all(pb, nb);
	capture_free(&b);
out_a:
	capture_free(&a);
}

/* The rule table and ppbench-vm(8): the page lists every rule. */
void test_prof_rules_in_manual(void)
{
	const char *page = man_prose_of("vm");

	if (!ASSERT_TRUE(page != NULL, "ppbench-vm(8)'s prose"))
		return;
	for (size_t i = 0; i < prof_nrules; i++) {
		char want[128];

		snprintf(want, sizeof(want), "`%s`", prof_rules[i].pattern);
		ASSERT_HAS_SUBSTR(page, want, prof_groups[prof_rules[i].group].name);
	}
	for (int g = 0; g < PG_NR; g++)
		ASSERT_HAS_SUBSTR(page, prof_groups[g].name, "each group named");
}

void test_prof_group_rules(void)
{
	ASSERT_EQ(prof_group_of(PK_KERNEL, "xdp_test_run_batch"), PG_TEST_RUN, "the loop first");
	ASSERT_EQ(prof_group_of(PK_KERNEL, "__xdp_return"), PG_XDP, "xdp");
	ASSERT_EQ(prof_group_of(PK_KERNEL, "page_pool_refill_alloc_cache"), PG_PAGE_POOL, "pp");
	ASSERT_EQ(prof_group_of(PK_KERNEL, "__ptr_ring_produce"), PG_PTR_RING, "ptr_ring");
	ASSERT_EQ(prof_group_of(PK_KERNEL, "get_page_from_freelist"), PG_PAGE_ALLOC, "buddy");
	ASSERT_EQ(prof_group_of(PK_KERNEL, "kernel_init_pages"), PG_PAGE_ALLOC, "'*' inside");
	ASSERT_EQ(prof_group_of(PK_KERNEL, "bpf_dispatcher_xdp_func"), PG_BPF, "dispatcher");
	ASSERT_EQ(prof_group_of(PK_KERNEL, "kfree_skb_reason"), PG_SKB, "skb");
	ASSERT_EQ(prof_group_of(PK_KERNEL, "_raw_spin_lock"), PG_OTHER, "a lock: other");
	ASSERT_EQ(prof_group_of(PK_BPF, "page_pool_burn"), PG_BPF, "BPF code by kind");
	ASSERT_EQ(prof_group_of(PK_MODULE, "page_pool_alloc_netmems"), PG_PAGE_POOL, "a module's");
}

/* Defects, one at a time: one line naming the file, the line and the problem. */
static void expect_qprof_error(const char *text, const char *want)
{
	struct qprof q;
	char err[256] = "";

	ASSERT_ERR(qprof_parse(text, strlen(text), "qprof.txt", &q, err, sizeof(err)), want);
	ASSERT_HAS_SUBSTR(err, want, "the error names it");
	ASSERT_TRUE(!strchr(err, '\n'), "one line");
}

void test_prof_qprof_errors(void)
{
	expect_qprof_error("", "qprof.txt is empty");
	expect_qprof_error("something else\n", "qprof.txt:1: not the plugin's output");
	expect_qprof_error("qprof 3\nend\n", "qprof.txt:1: version 3");
	expect_qprof_error("qprof 1\ntb 1 ffff 2 4 -\nend\n", "qprof.txt:2: tb 1: 1 lengths for 2");
	expect_qprof_error("qprof 1\ntb 1 ffff 1 0 -\nend\n", "length '0' is not a hex digit");
	expect_qprof_error("qprof 1\ntb 1 ffff 1 4 1\nend\n", "rep index '1' is not one of its 1");
	expect_qprof_error("qprof 1\ntb 1 ffff 1 4 -\ntag 3 windows 1 spans 1 elems 1 errors 0 "
			   "insns 5\nc 1 4\nend\n",
			   "tag 3: its blocks sum to 4 instructions, its 'insns' says 5");
	expect_qprof_error(
		"qprof 1\ntag 3 windows 1 spans 1 elems 1 errors 0 insns 4\nc 2 4\nend\n",
		"tag 3 counts block 2, which no 'tb' line lists");
	expect_qprof_error("qprof 1\ntb 1 ffff 1 4 -\n", "ends before its 'end' line");
	expect_qprof_error("qprof 1\nc 1 4\nend\n", "qprof.txt:2: a 'c' line before any 'tag'");
	expect_qprof_error("qprof 1\nend\ntb 1 ffff 1 4 -\n", "qprof.txt:3: 'tb' after the 'end'");
	expect_qprof_error("qprof 1\nfoo 1\nend\n", "qprof.txt:2: unknown line 'foo'");
	/* the call graph's */
	expect_qprof_error("qprof 1\nn 1 0 ffff\nend\n", "qprof.txt:2: a 'n' line in version 1");
	expect_qprof_error("qprof 2\nn 2 1 ffff\nend\n",
			   "qprof.txt:2: node 2: its parent 1 is not listed before it");
	expect_qprof_error("qprof 2\nn 2 0 ffff\nn 1 0 fff0\nend\n", "node 1 out of order");
	expect_qprof_error("qprof 2\ntag 3 windows 1 spans 1 elems 1 errors 0 insns 0\n"
			   "n 1 0 ffff\nend\n",
			   "qprof.txt:3: node 1 after a tag");
	expect_qprof_error("qprof 2\ns 0 4\nend\n", "a 's' line before any 'tag' line");
	expect_qprof_error("qprof 2\ntag 3 windows 1 spans 1 elems 1 errors 0 insns 0\ns 5 1\n"
			   "end\n",
			   "s 5: no node 5");
	expect_qprof_error("qprof 2\ntb 1 ffff 1 4 -\ntag 3 windows 1 spans 1 elems 1 errors 0 "
			   "insns 4\nc 1 4\ns 0 3\ncg recoveries 0 unmatched 0 fallthroughs 0 "
			   "recovered 0 switches 0\nend\n",
			   "tag 3: its call graph charges 3 instructions, its 'insns' says 4");
	expect_qprof_error("qprof 2\ntb 1 ffff 1 4 -\ntag 3 windows 1 spans 1 elems 1 errors 0 "
			   "insns 4\nc 1 4\ns 0 4\nend\n",
			   "tag 3: a call graph without its 'cg' line");
	expect_qprof_error("qprof 2\ntag 3 windows 1 spans 1 elems 1 errors 0 insns 0\n"
			   "rc lost 1 2 3 4\nend\n",
			   "expected 'rc recover|unmatched SITE EXPECTED COUNT INSNS'");
}

void test_prof_syms_errors(void)
{
	struct prof_syms s;
	char err[256] = "";

	ASSERT_ERR(prof_syms_load(&s, "0000000000000000 T _stext\n0000000000000000 T _etext\n",
				  NULL, PROF_SYM_PAGE_MIN, err, sizeof(err)),
		   "zeros");
	ASSERT_HAS_SUBSTR(err, "kallsyms holds no addresses", "read without the right");
	ASSERT_ERR(prof_syms_load(&s, "ffffffff81000000 T foo\n", NULL, PROF_SYM_PAGE_MIN, err,
				  sizeof(err)),
		   "no _stext");
	ASSERT_HAS_SUBSTR(err, "no _stext and _etext", "not a kernel's");
	ASSERT_ERR(prof_syms_load(&s, "ffffffff81000000 T _stext\nxyz\n", NULL, PROF_SYM_PAGE_MIN,
				  err, sizeof(err)),
		   "a bad line");
	ASSERT_HAS_SUBSTR(err, "kallsyms:2: 'xyz': expected", "names the line");
	ASSERT_ERR(prof_syms_load(&s, "ffffffff81000000 T _stext\nffffffff81000010 T _etext\n",
				  "veth 8192\n", PROF_SYM_PAGE_MIN, err, sizeof(err)),
		   "a bad modules line");
	ASSERT_HAS_SUBSTR(err, "modules:1: expected", "names the modules line");
}

/* A tag the plugin counted that 'tags' does not name: no profile to put it in. */
void test_prof_unknown_tag(void)
{
	struct capture c;
	struct prof *p = NULL;
	size_t n = 0;
	char err[256] = "", *k = kallsyms_at(0, 0), *q = qprof_at(0, 0);

	if (ASSERT_OK(capture_parse(&c, q, k, NULL, "8 scenario slow\n", NULL, err, sizeof(err)),
		      err)) {
		ASSERT_ERR(prof_build(&c, &p, &n, err, sizeof(err)), "tag 7 not in tags");
		ASSERT_HAS_SUBSTR(err, "qprof.txt counts tag 7, which 'tags' does not list",
				  "says so");
		capture_free(&c);
	}
	free(k);
	free(q);
}

/*
 * The upstream module's loop, loaded twice (bench --upstream-module): windows
 * 1 (100 elements) and 2 (200) of kind module, the module at another address
 * in each load, known only from each window's own symbols. The loop's
 * profile is window 2 less window 1, per element of the 100 more.
 */
static char *module_qprof(void)
{
	unsigned long long k = KBASE, m1 = 0xffffffffc0200000ull, m2 = 0xffffffffc0300000ull;
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	fprintf(f, "qprof 1\napi 1 0 1\ntarget x86_64\n");
	fprintf(f, "tb 1 %llx 2 44 -\n", k + 0x110);  /* page_pool_alloc_netmems */
	fprintf(f, "tb 2 %llx 3 444 -\n", k + 0x200); /* page_pool_put_unrefed_netmem */
	fprintf(f, "tb 3 %llx 2 33 -\n", k + 0x300);  /* the load's own work */
	fprintf(f, "tb 4 %llx 4 4444 -\n", m1);	      /* the loop, first load */
	fprintf(f, "tb 5 %llx 4 4444 -\n", m2);	      /* the loop, second load */
	fprintf(f, "tb 6 %llx 1 4 -\n", m2 + 0x100);  /* module's other function */
	/* window 1: 100 elements; window 2: 200; the load's work 7 and 6 times */
	fprintf(f, "tag 1 windows 1 spans 0 elems 100 errors 0 insns 914\n");
	fprintf(f, "c 1 100\nc 2 100\nc 3 7\nc 4 100\n");
	fprintf(f, "tag 2 windows 1 spans 0 elems 200 errors 0 insns 1813\n");
	fprintf(f, "c 1 200\nc 2 200\nc 3 6\nc 5 200\nc 6 1\nend\n");
	fclose(f);
	return s;
}

static const char mod_syms1[] = "ffffffffc0200000 t time_bench_page_pool\t[bench_page_pool]\n"
				"ffffffffc0200100 t helper\t[bench_page_pool]\n"
				"ffffffffc0201000 d loops\t[bench_page_pool]\n";
static const char mod_syms2[] = "ffffffffc0300000 t time_bench_page_pool\t[bench_page_pool]\n"
				"ffffffffc0300100 t helper\t[bench_page_pool]\n"
				"ffffffffc0301000 d loops\t[bench_page_pool]\n";

static int module_capture(struct capture *c, const char *tags, char *err, size_t errlen)
{
	char *k = kallsyms_at(0, 0), *q = module_qprof();
	int ret = capture_parse(c, q, k, NULL, tags, "arch x86-64\n", err, errlen);

	ret = ret ?: capture_add_bpf(c, "1", mod_syms1, err, errlen);
	ret = ret ?: capture_add_bpf(c, "2", mod_syms2, err, errlen);
	free(k);
	free(q);
	return ret;
}

void test_prof_module_loop(void)
{
	struct capture c;
	struct prof *p = NULL;
	size_t n = 0;
	char err[256] = "";
	const struct prof_fn *f;

	if (!ASSERT_OK(module_capture(&c,
				      "1 module no-softirq-page_pool01 scenario=fast loops=100\n"
				      "2 module no-softirq-page_pool01 scenario=fast loops=200\n",
				      err, sizeof(err)),
		       err))
		return;
	if (!ASSERT_OK(prof_build(&c, &p, &n, err, sizeof(err)), err))
		goto out;
	ASSERT_EQ(n, 1, "one profile of the two loads");
	ASSERT_STREQ(p->kind, "module", "kind");
	ASSERT_STREQ(p->extra, "scenario=fast", "the scenario, not one load's length");
	ASSERT_EQ(p->elems, 100, "the difference's elements");
	ASSERT_EQ(p->insns, 1813 - 914, "instructions: the longer less the shorter");
	ASSERT_EQ(insns_of(p, "page_pool_alloc_netmems"), 2 * 100, "per element of the 100 more");
	ASSERT_EQ(insns_of(p, "page_pool_put_unrefed_netmem"), 3 * 100, "the same");
	f = fn_of(p, "time_bench_page_pool");
	ASSERT_EQ(f ? f->insns : 0, 4 * 100, "the loop: each load's own address, one function");
	ASSERT_STREQ(f && f->module ? f->module : "", "bench_page_pool", "the module's");
	ASSERT_EQ(f ? (int)f->kind : -1, PK_MODULE, "kind module");
	ASSERT_EQ(f ? (int)f->group : -1, PG_TEST_RUN, "time_bench_*: the loop, not the path");
	ASSERT_EQ(insns_of(p, "helper"), 1, "a function only the longer load ran");
	ASSERT_EQ(insns_of(p, "xdp_test_run_batch"), -2, "the load's work: what the two differ by");
	ASSERT_NEAR(prof_path_per_elem(p), 5.0, 1e-12, "the path figure per element");
	ASSERT_TRUE(!fn_of(p, "[unmapped]"), "each load's code found by its own symbols");
	prof_free_all(p, n);
	p = NULL;
	n = 0;
	capture_free(&c);
	/* one load only: no difference to take, no profile */
	if (!ASSERT_OK(module_capture(&c,
				      "1 module no-softirq-page_pool01 scenario=fast loops=100\n"
				      "2 module no-softirq-page_pool02 scenario=ring loops=200\n",
				      err, sizeof(err)),
		       err))
		return;
	if (ASSERT_OK(prof_build(&c, &p, &n, err, sizeof(err)), err))
		ASSERT_EQ(n, 0, "a module loop of one load has no profile");
out:
	prof_free_all(p, n);
	capture_free(&c);
}

/* The profiled kernel's page size, from the guest's meta; 4 KiB where it names none. */
void test_capture_page_size(void)
{
	static const struct {
		const char *meta;
		uint64_t page;
	} cases[] = {
		{ "arch arm64\npage_size 16384\n", 16384 },
		{ "arch x86-64\n", 4096 },
		{ "page_size 65536\n", 65536 },
		{ "page_size 12288\n", 4096 },
		{ "page_size 16k\n", 4096 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct capture c;
		char err[256] = "";

		if (!ASSERT_OK(capture_meta_at(&c, 0, 0, cases[i].meta, err, sizeof(err)), err))
			continue;
		ASSERT_EQ(capture_page_size(&c), cases[i].page, cases[i].meta);
		capture_free(&c);
	}
}

/* A scenario's path figure against the module loop's, function by function. */
void test_prof_gap(void)
{
	struct prof_fn of[] = {
		{ "page_pool_alloc_netmems", NULL, PK_KERNEL, PG_PAGE_POOL, 200, 0 },
		{ "page_pool_put_unrefed_netmem", NULL, PK_KERNEL, PG_PAGE_POOL, 760, 0 },
		{ "page_pool_put_netmem.constprop.0", "bench_page_pool", PK_MODULE, PG_PAGE_POOL,
		  80, 0 },
		{ "time_bench_page_pool", "bench_page_pool", PK_MODULE, PG_TEST_RUN, 300, 0 },
	};
	struct prof_fn sf[] = {
		{ "page_pool_put_unrefed_netmem", NULL, PK_KERNEL, PG_PAGE_POOL, 810, 0 },
		{ "page_pool_alloc_netmems", NULL, PK_KERNEL, PG_PAGE_POOL, 200, 0 },
		{ "clear_page_erms", NULL, PK_KERNEL, PG_PAGE_ALLOC, 10, 0 },
		{ "xdp_test_run_batch", NULL, PK_KERNEL, PG_TEST_RUN, 500, 0 },
	};
	struct prof old = { .elems = 10, .fn = of, .nfn = 4 },
		    new = { .elems = 10, .fn = sf, .nfn = 4 };
	struct prof_gap g;

	old.group_insns[PG_PAGE_POOL] = 1040;
	new.group_insns[PG_PAGE_POOL] = 1010;
	new.group_insns[PG_PAGE_ALLOC] = 10;
	if (!ASSERT_OK(prof_gap_build(&old, &new, &g), "built"))
		return;
	ASSERT_NEAR(g.old, 104, 1e-12, "the module loop's path figure");
	ASSERT_NEAR(g.new, 102, 1e-12, "the scenario's");
	ASSERT_NEAR(g.error_pct, 100 * -2.0 / 104, 1e-9, "the method error");
	ASSERT_EQ(g.nfn, 4, "the path's functions of either side, no frame's");
	ASSERT_STREQ(g.nfn ? g.fn[0].name : "", "page_pool_put_netmem.constprop.0",
		     "largest gap first");
	ASSERT_STREQ(g.nfn > 1 ? g.fn[1].name : "", "page_pool_put_unrefed_netmem", "then");
	ASSERT_NEAR(g.nfn > 1 ? g.fn[1].new - g.fn[1].old : 0, 5, 1e-12, "its gap");
	ASSERT_STREQ(g.nfn > 2 ? g.fn[2].name : "", "clear_page_erms", "one side's only");
	ASSERT_NEAR(g.nfn > 2 ? g.fn[2].old : -1, 0, 1e-12, "0 where the loop never ran it");
	ASSERT_NEAR(g.why[PGW_INLINE_COPY], -8, 1e-12, "the module's copy of the helper");
	ASSERT_NEAR(g.why[PGW_FIRST_PAGES], 1, 1e-12, "the first pages: the page allocator");
	ASSERT_NEAR(g.residual_pct, 100 * 5.0 / 104, 1e-9, "what neither explains");
	prof_gap_free(&g);
	/* a loop that takes its pages from the page allocator: they are its path */
	of[3] = (struct prof_fn){ "clear_page_erms", NULL, PK_KERNEL, PG_PAGE_ALLOC, 40, 0 };
	old.group_insns[PG_PAGE_ALLOC] = 40;
	if (!ASSERT_OK(prof_gap_build(&old, &new, &g), "built"))
		return;
	ASSERT_NEAR(g.why[PGW_FIRST_PAGES], 0, 1e-12, "no first pages where the loop allocates");
	ASSERT_NEAR(g.residual_pct, 100 * (102 - 108 + 8.0) / 108, 1e-9, "all but the copy left");
	prof_gap_free(&g);
}

/* Byte ranges in JSON text (vm/prof_report.c): strings with braces and escapes, nesting. */
void test_jspan_members(void)
{
	static const char t[] = "{\n  \"a\": \"x}\\\"{\",\n  \"b\": [1, {\"c\": [2]}, \"]\"],\n"
				"  \"n\": 18446744073709551615\n}\n";
	size_t len = strlen(t);
	struct json_span top, m, v, el;
	char indent[16];

	if (!ASSERT_OK(json_span_value(t, len, 0, &top), "the document"))
		return;
	ASSERT_EQ(top.end, len - 1, "to its closing brace");
	ASSERT_OK(json_span_member(t, len, top, "b", &m, &v), "member b");
	ASSERT_EQ(t[v.start], '[', "its value");
	ASSERT_EQ(t[v.end - 1], ']', "whole");
	ASSERT_EQ(t[m.start], '"', "the member from its key");
	ASSERT_OK(json_span_element(t, len, v, 1, &el), "element 1");
	ASSERT_TRUE(!strncmp(t + el.start, "{\"c\": [2]}", el.end - el.start), "the object");
	ASSERT_OK(json_span_element(t, len, v, 2, &el), "element 2");
	ASSERT_TRUE(!strncmp(t + el.start, "\"]\"", el.end - el.start), "a string with ]");
	ASSERT_EQ(json_span_element(t, len, v, 3, &el), -ENOENT, "past the end");
	ASSERT_OK(json_span_member(t, len, top, "n", &m, &v), "member n");
	ASSERT_TRUE(!strncmp(t + v.start, "18446744073709551615", v.end - v.start), "a number");
	ASSERT_EQ(json_span_member(t, len, top, "x", &m, &v), -ENOENT, "no member x");
	ASSERT_EQ(json_span_member(t, len, top, "}", &m, &v), -ENOENT, "not inside a string");
	json_span_indent(t, top, indent, sizeof(indent));
	ASSERT_STREQ(indent, "  ", "the members' indentation");
	/* no newline before its first member: the blank after the brace is no indent */
	json_span_indent("{ \"c\": 1 }", (struct json_span){ 0, 10 }, indent, sizeof(indent));
	ASSERT_STREQ(indent, "", "a one-line object's");
}

/* qemu's version -> its plugin API range -> the build that loads (vm/vm_profile.c). */
static int build_for(const char *version_line)
{
	struct qemu_version v;
	int min, cur;

	if (qemu_version_parse(version_line, &v))
		return -100;
	if (qemu_api_range(&v, &min, &cur))
		return -200;
	return qemu_api_pick(min, cur);
}

void test_qemu_api_builds(void)
{
	struct qemu_version v;

	ASSERT_OK(qemu_version_parse(
			  "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)", &v),
		  "Debian 12's");
	ASSERT_EQ(v.major * 10000 + v.minor * 100 + v.micro, 70222, "7.2.22");
	ASSERT_EQ(build_for("QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7)"), 1, "7.2: API 1");
	ASSERT_EQ(build_for("QEMU emulator version 6.0.0"), 1, "6.0: API 1 begins");
	ASSERT_EQ(build_for("QEMU emulator version 8.2.2 (Debian 1:8.2.2+ds-0ubuntu1)"), 1, "8.2");
	ASSERT_EQ(build_for("QEMU emulator version 9.0.2"), -ENOENT, "9.0: API 2 only");
	ASSERT_EQ(build_for("QEMU emulator version 9.1.0"), 3, "9.1: API 3");
	ASSERT_EQ(build_for("QEMU emulator version 10.0.3 (Debian 1:10.0.3+ds-0+deb12u1)"), 3,
		  "bookworm-backports' 10.0");
	ASSERT_EQ(build_for("QEMU emulator version 10.2"), 3, "no micro number");
	ASSERT_EQ(build_for("QEMU emulator version 11.1.3 (Debian 1:11.1.3+ds-2~bpo13+1)"), 3,
		  "a release after the newest read: min 2 still");
	ASSERT_EQ(build_for("QEMU emulator version 5.2.0"), -ENOENT, "5.2: API 0");
	ASSERT_EQ(build_for("QEMU emulator version 4.1.1"), -200, "before plugins");
	ASSERT_EQ(build_for("qemu-system-x86_64: not a version"), -100, "no version");
}

/* Which releases each build serves, as vm's refusal names them: from the one table. */
void test_qemu_api_releases(void)
{
	char buf[64];

	ASSERT_OK(qemu_api_releases(1, buf, sizeof(buf)), "API 1");
	ASSERT_STREQ(buf, "qemu 6.0 to 8.2", "API 1's releases");
	ASSERT_OK(qemu_api_releases(3, buf, sizeof(buf)), "API 3");
	ASSERT_STREQ(buf, "qemu 9.1 and later", "API 3's releases, open-ended");
	ASSERT_EQ(qemu_api_releases(2, buf, sizeof(buf)), -ENOENT, "no build is API 2");
}
