// SPDX-License-Identifier: GPL-2.0
/*
 * vm --profile's pure logic: the plugin's instruction decoding, marker
 * protocol and windows (user/lab/vm/qprof/qprof_logic.c, include/vmprof.h), and the
 * guest's reading of /proc/kallsyms and of its command line.
 */
#include <errno.h>
#include <stdio.h>
#include "instr/guest_profile.h"
#include "vm/qprof/qprof_logic.h"
#include "unit.h"
#include "vmprof.h"

void test_qprof_x86_call(void)
{
	const uint8_t fwd[] = { 0xe8, 0x10, 0x00, 0x00, 0x00 };
	const uint8_t back[] = { 0xe8, 0xfb, 0xff, 0xff, 0xff }; /* call to itself */
	const uint8_t cs[] = { 0x2e, 0xe8, 0x00, 0x01, 0x00, 0x00 };
	const uint8_t jmp[] = { 0xe9, 0x10, 0x00, 0x00, 0x00 };
	const uint8_t ind[] = { 0xff, 0x15, 0x10, 0x00, 0x00, 0x00 };
	uint64_t t = 0;

	ASSERT_TRUE(qp_x86_call(fwd, sizeof(fwd), 0xffffffff81000000ull, &t), "call rel32");
	ASSERT_EQ(t, 0xffffffff81000015ull, "forward target: after the call + 0x10");
	ASSERT_TRUE(qp_x86_call(back, sizeof(back), 0xffffffff81000000ull, &t), "backward");
	ASSERT_EQ(t, 0xffffffff81000000ull, "rel32 -5: the call itself");
	ASSERT_TRUE(qp_x86_call(cs, sizeof(cs), 0x1000, &t), "cs-prefixed call");
	ASSERT_EQ(t, 0x1106, "a prefix lengthens the call");
	ASSERT_FALSE(qp_x86_call(jmp, sizeof(jmp), 0x1000, &t), "jmp rel32");
	ASSERT_FALSE(qp_x86_call(ind, sizeof(ind), 0x1000, &t), "indirect call");
	ASSERT_FALSE(qp_x86_call(fwd, 4, 0x1000, &t), "a cut call");
}

void test_qprof_x86_rep(void)
{
	const uint8_t stosb[] = { 0xf3, 0xaa }, stosq[] = { 0xf3, 0x48, 0xab };
	const uint8_t movsw[] = { 0x66, 0xf3, 0xa5 }, scasb[] = { 0xf2, 0xae };
	const uint8_t plain[] = { 0xaa }, popcnt[] = { 0xf3, 0x48, 0x0f, 0xb8, 0xc0 };
	const uint8_t pause[] = { 0xf3, 0x90 }, repret[] = { 0xf3, 0xc3 };

	ASSERT_TRUE(qp_x86_rep(stosb, sizeof(stosb)), "rep stosb");
	ASSERT_TRUE(qp_x86_rep(stosq, sizeof(stosq)), "rep stosq (REX.W)");
	ASSERT_TRUE(qp_x86_rep(movsw, sizeof(movsw)), "rep movsw (operand size first)");
	ASSERT_TRUE(qp_x86_rep(scasb, sizeof(scasb)), "repne scasb");
	ASSERT_FALSE(qp_x86_rep(plain, sizeof(plain)), "stosb without rep");
	ASSERT_FALSE(qp_x86_rep(popcnt, sizeof(popcnt)), "popcnt (f3 0f b8)");
	ASSERT_FALSE(qp_x86_rep(pause, sizeof(pause)), "pause (f3 90)");
	ASSERT_FALSE(qp_x86_rep(repret, sizeof(repret)), "rep ret");
}

void test_qprof_a64_bl(void)
{
	uint64_t t = 0;

	ASSERT_TRUE(qp_a64_bl(0x94000010u, 0xffff800080000000ull, &t), "bl +0x40");
	ASSERT_EQ(t, 0xffff800080000040ull, "forward target");
	ASSERT_TRUE(qp_a64_bl(0x97ffffffu, 0xffff800080000000ull, &t), "bl -4");
	ASSERT_EQ(t, 0xffff80007ffffffcull, "backward target");
	ASSERT_TRUE(qp_a64_bl(0x96000000u, 0xffff800088000000ull, &t), "bl, farthest back");
	ASSERT_EQ(t, 0xffff800080000000ull, "-128 MiB");
	ASSERT_FALSE(qp_a64_bl(0x14000010u, 0x1000, &t), "b is no call");
	ASSERT_FALSE(qp_a64_bl(0xd63f0200u, 0x1000, &t), "blr x16 is no direct call");
}

void test_qprof_calls_ktime(void)
{
	uint64_t k = 0xffffffff81100000ull;

	ASSERT_TRUE(qp_calls_ktime(k, k), "the function");
	ASSERT_TRUE(qp_calls_ktime(k - 16, k), "a call thunk in its padding");
	ASSERT_TRUE(qp_calls_ktime(k + 4, k), "past its endbr64");
	ASSERT_FALSE(qp_calls_ktime(k - 17, k), "before the padding");
	ASSERT_FALSE(qp_calls_ktime(k + 5, k), "inside the function");
	ASSERT_FALSE(qp_calls_ktime(0, 0), "no ktime_get known yet");
}

void test_qprof_markers(void)
{
	uint8_t x[VMPROF_X86_LEN] = { 0x0f, 0x1f, 0x80, VMPROF_END, 0x42, 0x42, 0x50 };

	ASSERT_EQ(vmprof_x86_op(x, sizeof(x)), VMPROF_END, "x86-64 END");
	x[3] = 0x0a;
	ASSERT_EQ(vmprof_x86_op(x, sizeof(x)), 0x0a, "x86-64 nibble a");
	x[3] = VMPROF_NR_OPS;
	ASSERT_EQ(vmprof_x86_op(x, sizeof(x)), -1, "an op out of range");
	x[3] = VMPROF_ARM;
	x[5] = 0x43;
	ASSERT_EQ(vmprof_x86_op(x, sizeof(x)), -1, "another displacement: a real nopl");
	x[5] = 0x42;
	ASSERT_EQ(vmprof_x86_op(x, 6), -1, "another length");
	ASSERT_EQ(vmprof_a64_op(VMPROF_A64_WORD(VMPROF_BEGIN_TIMER)), VMPROF_BEGIN_TIMER,
		  "arm64 BEGIN_TIMER");
	ASSERT_EQ(vmprof_a64_op(0xd2e8405fu), VMPROF_NIBBLE + 2, "movz xzr, #0x4202, lsl #48");
	ASSERT_EQ(vmprof_a64_op(0xd2e84040u), -1, "movz x0: not the zero register");
	ASSERT_EQ(vmprof_a64_op(0xd2a8405fu), -1, "lsl #16");
	ASSERT_EQ(vmprof_a64_op(VMPROF_A64_WORD(VMPROF_NR_OPS)), -1, "an op out of range");
	ASSERT_EQ(vmprof_a64_op(0xd503201fu), -1, "nop");
}

/* Feeds VALUE as 16 nibbles and then OP, as marker_send() does. */
static int send(struct qp_proto *p, int op, uint64_t value, struct qp_msg *m)
{
	for (int i = 60; i >= 0; i -= 4)
		if (qp_proto_feed(p, VMPROF_NIBBLE + (int)((value >> i) & 0xf), m))
			return -2;
	return qp_proto_feed(p, op, m);
}

void test_qprof_protocol(void)
{
	struct qp_proto p = {};
	struct qp_msg m = {};

	ASSERT_EQ(send(&p, VMPROF_KTIME, 0xffffffff8123abcdull, &m), 1, "KTIME completes");
	ASSERT_EQ(m.op, VMPROF_KTIME, "its op");
	ASSERT_EQ(m.a, 0xffffffff8123abcdull, "its value");
	ASSERT_EQ(send(&p, VMPROF_SITE_LO, 0x1000, &m), 0, "SITE_LO waits for SITE_HI");
	ASSERT_EQ(send(&p, VMPROF_SITE_HI, 0x1400, &m), 1, "SITE_HI completes a range");
	ASSERT_EQ(m.a, 0x1000, "range start");
	ASSERT_EQ(m.b, 0x1400, "range end");
	ASSERT_EQ(send(&p, VMPROF_SITE_HI, 0x2000, &m), -1, "SITE_HI without SITE_LO");
	ASSERT_EQ(send(&p, VMPROF_SITE_LO, 0x3000, &m), 0, "SITE_LO");
	ASSERT_EQ(send(&p, VMPROF_SITE_HI, 0x3000, &m), -1, "an empty range");
	/* an op clears the value: END after three nibbles of an aborted value */
	qp_proto_feed(&p, 7, &m);
	qp_proto_feed(&p, 7, &m);
	ASSERT_EQ(qp_proto_feed(&p, VMPROF_ARM, &m), 1, "ARM");
	ASSERT_EQ(qp_proto_feed(&p, VMPROF_END, &m), 1, "END");
	ASSERT_EQ(m.a, 0, "END's value starts from 0 after ARM");
	ASSERT_EQ(qp_proto_feed(&p, 3, &m), 0, "a nibble");
	ASSERT_EQ(qp_proto_feed(&p, VMPROF_NR_OPS, &m), -1, "an unknown op");
	ASSERT_EQ(qp_proto_feed(&p, VMPROF_END, &m), 1, "END");
	ASSERT_EQ(m.a, 0, "an unknown op clears the value too");
}

void test_qprof_window(void)
{
	struct qp_win w = {};

	ASSERT_EQ(qp_win_site(&w), QP_NONE, "a timer read outside any window");
	ASSERT_EQ(qp_win_begin(&w, 3, false), QP_NONE, "BEGIN_TIMER waits for the timer");
	ASSERT_EQ(qp_win_site(&w), QP_SNAP, "1st read starts a span");
	ASSERT_EQ(qp_win_site(&w), QP_ADD, "2nd read ends it");
	ASSERT_EQ(qp_win_site(&w), QP_SNAP, "3rd (after cond_resched) starts another");
	ASSERT_EQ(qp_win_site(&w), QP_ADD, "4th ends it");
	ASSERT_EQ(qp_win_end(&w), QP_NONE, "END between spans");
	ASSERT_FALSE(w.open, "closed");
	ASSERT_EQ(qp_win_site(&w), QP_NONE, "no window: nothing");
	qp_win_begin(&w, 4, false);
	qp_win_site(&w);
	ASSERT_EQ(qp_win_end(&w), QP_DROP, "END inside a span drops it");
	ASSERT_EQ(qp_win_begin(&w, 5, true), QP_SNAP, "BEGIN_WHOLE starts its span");
	ASSERT_EQ(w.tag, 5, "its tag");
	ASSERT_EQ(qp_win_site(&w), QP_NONE, "the timer does not split a whole window");
	ASSERT_EQ(qp_win_end(&w), QP_ADD, "END ends it");
}

/* kallsyms as the kernel prints it: its own symbols in address order, then modules and BPF. */
static const char kallsyms[] = "ffffffff81000000 T _stext\n"
			       "ffffffff81100000 T ktime_get\n"
			       "ffffffff81100200 t ktime_get_update_offsets_now\n"
			       "ffffffff81abc000 t bpf_test_timer_continue\n"
			       "ffffffff81abc100 t bpf_test_run.isra.0\n"
			       "ffffffff81abc500 d some_data\n"
			       "ffffffff81abc600 T __pfx_bpf_prog_test_run_xdp\n"
			       "ffffffff81abc610 T bpf_prog_test_run_xdp\n"
			       "ffffffff81abcff0 T bpf_prog_test_run_xdp_other\n"
			       "ffffffff81abd000 T bpf_test_run_xdp_livelier\n"
			       "ffffffff81abd100 T bpf_test_finish\n"
			       "ffffffff81abd200 T irq_entries_start\n"
			       "ffffffff81abd400 T asm_exc_page_fault\n"
			       "ffffffff81abd440 T asm_common_interrupt\n"
			       "ffffffff81abd480 T __x86_return_thunk\n"
			       "ffffffff81abd490 T __x86_indirect_thunk_rax\n"
			       "ffffffff81abd490 T __x86_indirect_thunk_array\n"
			       "ffffffff81abd4b0 T __pfx_veth_like\n"
			       "ffffffff81abd4c0 T veth_like\n"
			       "ffffffff81abd4c0 T veth_like_alias\n"
			       "ffffffffc0001000 t bpf_test_run\t[some_module]\n"
			       "ffffffffc0002000 t bpf_prog_6deef7357e7b4530_ppb_xdp_bare\t[bpf]\n";

void test_guest_prof_sites(void)
{
	struct guest_prof_sites s;
	FILE *f = fmemopen((void *)kallsyms, sizeof(kallsyms) - 1, "r");
	static const char hidden[] = "0000000000000000 T _stext\n"
				     "0000000000000000 T ktime_get\n";
	static const char none[] = "ffffffff81000000 T _stext\n"
				   "ffffffff81100000 T ktime_get\n";

	if (!ASSERT_TRUE(f != NULL, "fmemopen"))
		return;
	ASSERT_OK(guest_prof_parse_sites(f, &s), "parse");
	fclose(f);
	ASSERT_EQ(s.ktime, 0xffffffff81100000ull, "ktime_get");
	if (!ASSERT_EQ(s.n, 3, "three timer functions (not the module's, not _livelier)"))
		return;
	ASSERT_EQ(s.lo[0], 0xffffffff81abc000ull, "bpf_test_timer_continue");
	ASSERT_EQ(s.hi[0], 0xffffffff81abc100ull, "ends at the next symbol");
	ASSERT_EQ(s.lo[1], 0xffffffff81abc100ull, "bpf_test_run.isra.0");
	ASSERT_EQ(s.hi[1], 0xffffffff81abc600ull, "ends at the next text symbol, not data");
	ASSERT_EQ(s.lo[2], 0xffffffff81abc610ull, "bpf_prog_test_run_xdp");
	ASSERT_EQ(s.hi[2], 0xffffffff81abcff0ull, "its end");
	/* the call graph's: function starts, entries, thunks */
	ASSERT_EQ(s.nfn, 16, "every text symbol's start but the padded ones' own, once");
	ASSERT_EQ(s.fn[s.nfn - 1], 0xffffffffc0001000ull, "a module's function, not a program");
	ASSERT_EQ(s.fn[s.nfn - 2], 0xffffffff81abd4b0ull, "veth_like: from its padding");
	if (ASSERT_EQ(s.nr, 4, "two entries, two thunks")) {
		ASSERT_TRUE(s.r[0].op == VMPROF_ENTRY_HI && s.r[0].lo == 0xffffffff81abd200ull &&
				    s.r[0].hi == 0xffffffff81abd400ull,
			    "the IRQ stubs: any block in them");
		ASSERT_TRUE(s.r[1].op == VMPROF_ENTRY_HI && s.r[1].hi == s.r[1].lo + 1,
			    "asm_exc_page_fault: its first block (asm_common_interrupt: none)");
		ASSERT_TRUE(s.r[2].op == VMPROF_RETTHUNK_HI && s.r[2].hi == 0xffffffff81abd490ull,
			    "the return thunk, to the next symbol");
		ASSERT_TRUE(s.r[3].op == VMPROF_INDTHUNK_HI && s.r[3].hi == 0xffffffff81abd4b0ull,
			    "an indirect-branch thunk");
	}
	guest_prof_sites_free(&s);

	f = fmemopen((void *)hidden, sizeof(hidden) - 1, "r");
	ASSERT_EQ(guest_prof_parse_sites(f, &s), -EPERM, "addresses hidden (kptr_restrict)");
	fclose(f);
	guest_prof_sites_free(&s);
	f = fmemopen((void *)none, sizeof(none) - 1, "r");
	ASSERT_EQ(guest_prof_parse_sites(f, &s), -ENOENT, "no timer function");
	fclose(f);
	guest_prof_sites_free(&s);
}

void test_marker_cmdline(void)
{
	ASSERT_TRUE(marker_cmdline("ppbench.profile=1"), "alone");
	ASSERT_TRUE(marker_cmdline("console=ttyS0 ppbench.profile=1 quiet"), "among others");
	ASSERT_TRUE(marker_cmdline("quiet ppbench.profile=1\n"), "last, with a newline");
	ASSERT_FALSE(marker_cmdline("quiet ppbench.profile=10"), "another value");
	ASSERT_FALSE(marker_cmdline("xppbench.profile=1"), "inside another word");
	ASSERT_FALSE(marker_cmdline("ppbench.clock=icount"), "absent");
}

/* Every marker runs on this CPU as the no-op it claims to be. */
void test_marker_nop(void)
{
	volatile uint64_t before = 0x1234, after;

	marker_set_active(true);
	marker_send(VMPROF_KTIME, 0xfedcba9876543210ull);
	for (int op = VMPROF_KTIME; op < VMPROF_NR_OPS; op++)
		marker_op(op);
	marker_set_active(false);
	after = before;
	ASSERT_EQ(after, 0x1234, "still running, nothing touched");
}
