// SPDX-License-Identifier: GPL-2.0
/*
 * The call graph's stack machine (user/lab/vm/qprof/qpstack.c) on synthetic event
 * sequences, and the classification of blocks into events by the guest's
 * symbols (qp_syms_classify). Functions here are 4 KiB apart, named by a
 * letter: A a syscall's entry, F G H K plain functions, I an interrupt's
 * entry and J its handler, R a return thunk and S the SRSO thunk's inner
 * return, T an indirect-branch thunk.
 */
#include <stdio.h>
#include <string.h>
#include "vm/qprof/qprof_logic.h"
#include "vm/qprof/qpstack.h"
#include "unit.h"

#define FN(c) ((uint64_t)((c) - 'A' + 1) << 12)

struct rec {
	struct qp_cg cg;
	struct qp_stack st;
	uint64_t self[64], notes[QPN_FALLTHROUGH + 1], recovered, in, charged;
};

static void rec_charge(void *ctx, uint32_t node, uint64_t n, bool suspect)
{
	struct rec *r = ctx;

	if (node < 64)
		r->self[node] += n;
	r->charged += n;
	if (suspect)
		r->recovered += n;
}

static void rec_note(void *ctx, enum qp_note kind, uint64_t site, uint64_t expected, uint64_t n)
{
	struct rec *r = ctx;

	(void)site;
	(void)expected;
	r->notes[kind]++;
	if (kind == QPN_RECOVER) /* (an unmatched one's go to a suspect node) */
		r->recovered += n;
}

static bool rec_init(struct rec *r)
{
	memset(r, 0, sizeof(*r));
	r->cg.charge = rec_charge;
	r->cg.note = rec_note;
	r->cg.ctx = r;
	return !qp_cg_init(&r->cg);
}

/* A block of function SITE (a letter) ending in KIND towards TARGET's start. */
static struct qp_ev ev(int kind, char site, char target)
{
	return (struct qp_ev){ .kind = (uint8_t)kind,
			       .ninsns = 3,
			       .block = FN(site) + 0x8,
			       .block_fn = FN(site),
			       .site = FN(site) + 0x10,
			       .site_fn = FN(site),
			       .target = target ? FN(target) : 0,
			       .target_fn = target ? FN(target) : 0 };
}

/* The same, the first block of an entry (at its start). */
static struct qp_ev entry(int kind, char site, char target)
{
	struct qp_ev e = ev(kind, site, target);

	e.flags |= QPE_F_ENTRY;
	e.block = FN(site);
	return e;
}

static void step(struct rec *r, struct qp_ev e, uint64_t delta)
{
	r->in += delta;
	qp_cg_event(&r->cg, &r->st, &e, delta);
}

/* Node N's path from the root, its functions' letters: "AFG". */
static const char *path(const struct rec *r, uint32_t n)
{
	static char buf[64];
	char tmp[64];
	size_t k = 0;

	for (; n && k < sizeof(tmp) - 1; n = r->cg.cct.n[n].parent)
		tmp[k++] = (char)('A' - 1 + (r->cg.cct.n[n].key >> 12));
	for (size_t i = 0; i < k; i++)
		buf[i] = tmp[k - 1 - i];
	buf[k] = '\0';
	return buf;
}

/* The instructions charged to the node whose path is P. */
static uint64_t self_of(const struct rec *r, const char *p)
{
	uint64_t sum = 0;

	for (uint32_t n = 1; n < r->cg.cct.nn && n < 64; n++)
		if (!strcmp(path(r, n), p))
			sum += r->self[n];
	return sum;
}

/* The end of a sequence: every instruction charged once (and, CLEAN, no recovery). */
static void done(struct rec *r, bool clean)
{
	if (clean)
		ASSERT_EQ(r->notes[QPN_RECOVER] + r->notes[QPN_UNMATCHED], 0, "no recovery");
	qp_cg_flush(&r->cg, &r->st, 0);
	ASSERT_EQ(r->charged, r->in, "every instruction charged once");
	qp_cg_free(&r->cg);
}

void test_qpstack_call_return(void)
{
	struct rec r;

	if (!ASSERT_TRUE(rec_init(&r), "init"))
		return;
	step(&r, entry(QPE_CALL, 'A', 'F'), 10); /* 7 of user space, the entry's 3 */
	step(&r, ev(QPE_CALL, 'F', 'G'), 5);
	step(&r, ev(QPE_RET, 'G', 0), 4);
	step(&r, ev(QPE_RET, 'F', 0), 2);
	step(&r, ev(QPE_IRET, 'A', 0), 1);
	qp_cg_charge(&r.cg, &r.st, 6); /* back in user space */
	r.in += 6;
	ASSERT_EQ(r.self[0], 13, "user space: the root's own");
	ASSERT_EQ(self_of(&r, "A"), 4, "the entry: its block and its sysret");
	ASSERT_EQ(self_of(&r, "AF"), 7, "F, before and after its call");
	ASSERT_EQ(self_of(&r, "AFG"), 4, "G under F under A");
	ASSERT_EQ(r.st.depth, 0, "nothing left on the stack");
	done(&r, true);
}

void test_qpstack_thunk_return(void)
{
	struct rec r;
	struct qp_ev call_s = ev(QPE_CALL, 'R', 'S');

	if (!ASSERT_TRUE(rec_init(&r), "init"))
		return;
	/* F returns through a return thunk: jmp R; R: ret */
	step(&r, entry(QPE_CALL, 'A', 'F'), 3);
	step(&r, ev(QPE_JMP, 'F', 'R'), 5);
	step(&r, ev(QPE_RET, 'R', 0), 1);
	/* and through SRSO's: jmp R; R: call S; S: lea 8(%rsp), %rsp; ret */
	step(&r, ev(QPE_CALL, 'A', 'F'), 2);
	step(&r, ev(QPE_JMP, 'F', 'R'), 5);
	call_s.flags |= QPE_F_POPTHRU;
	step(&r, call_s, 1);
	step(&r, ev(QPE_RET, 'S', 0), 2);
	step(&r, ev(QPE_IRET, 'A', 0), 1);
	ASSERT_EQ(self_of(&r, "AF"), 10, "F's own");
	ASSERT_EQ(self_of(&r, "AFR"), 2, "the thunk's, below F that jumped to it");
	ASSERT_EQ(self_of(&r, "AFRS"), 2, "SRSO's inner return");
	ASSERT_EQ(self_of(&r, "A"), 6, "A's");
	done(&r, true);
}

void test_qpstack_indirect_thunk(void)
{
	struct rec r;
	struct qp_ev thunk = ev(QPE_JMP_IND, 'T', 0);

	if (!ASSERT_TRUE(rec_init(&r), "init"))
		return;
	/* call __x86_indirect_thunk_rax; T: jmp *%rax; G runs and returns */
	thunk.flags |= QPE_F_THUNK;
	step(&r, entry(QPE_CALL, 'A', 'T'), 3);
	step(&r, thunk, 1);
	step(&r, ev(QPE_CALL, 'G', 'H'), 6); /* G's first event: G learnt */
	step(&r, ev(QPE_RET, 'H', 0), 2);
	step(&r, ev(QPE_RET, 'G', 0), 1);
	/* call *%rax straight to K; K ends in jmp *%rax to H: a tail call */
	step(&r, ev(QPE_CALL_IND, 'A', 0), 2);
	step(&r, ev(QPE_JMP_IND, 'K', 0), 4);
	step(&r, ev(QPE_RET, 'H', 0), 3);
	step(&r, ev(QPE_IRET, 'A', 0), 1);
	ASSERT_EQ(self_of(&r, "AT"), 1, "the thunk's own jump, under A");
	ASSERT_EQ(self_of(&r, "AG"), 7, "the target: called by A, the thunk become it");
	ASSERT_EQ(self_of(&r, "AGH"), 2, "and what it calls");
	ASSERT_EQ(self_of(&r, "ATG"), 0, "not below the thunk");
	ASSERT_EQ(self_of(&r, "AK"), 4, "an indirect call's target");
	ASSERT_EQ(self_of(&r, "AKH"), 3, "an indirect tail call's, below the one that jumped");
	ASSERT_EQ(self_of(&r, "A"), 6, "A's");
	ASSERT_EQ(r.st.depth, 0, "H's return was K's");
	done(&r, true);
}

void test_qpstack_tail_call(void)
{
	struct rec r;

	if (!ASSERT_TRUE(rec_init(&r), "init"))
		return;
	step(&r, entry(QPE_CALL, 'A', 'F'), 3);
	step(&r, ev(QPE_JMP, 'F', 'G'), 3); /* F ends in jmp G */
	step(&r, ev(QPE_RET, 'G', 0), 4);   /* G returns to A */
	step(&r, ev(QPE_CALL, 'A', 'F'), 1);
	step(&r, ev(QPE_JCC, 'F', 'H'), 2); /* je H, not taken */
	step(&r, ev(QPE_JCC, 'F', 'H'), 5); /* je H, taken: */
	step(&r, ev(QPE_RET, 'H', 0), 6);
	step(&r, ev(QPE_IRET, 'A', 0), 1);
	ASSERT_EQ(self_of(&r, "AF"), 10, "F up to its jumps");
	ASSERT_EQ(self_of(&r, "AFG"), 4, "G, below F that jumped to it");
	ASSERT_EQ(self_of(&r, "AFH"), 6, "H, from the taken jump on");
	ASSERT_EQ(self_of(&r, "A"), 5, "A's, back from G's and H's returns");
	ASSERT_EQ(r.st.depth, 0, "G's and H's returns were F's");
	done(&r, true);
}

void test_qpstack_interrupt(void)
{
	struct rec r;

	if (!ASSERT_TRUE(rec_init(&r), "init"))
		return;
	step(&r, entry(QPE_CALL, 'A', 'F'), 3);
	step(&r, entry(QPE_CALL, 'I', 'J'), 10); /* inside F: 7 of F's, the entry's 3 */
	step(&r, ev(QPE_RET, 'J', 0), 5);
	step(&r, ev(QPE_IRET, 'I', 0), 2);
	step(&r, ev(QPE_RET, 'F', 0), 1);
	/* an interrupt right after an indirect call: its callee is learnt after it */
	step(&r, ev(QPE_CALL_IND, 'A', 0), 1);
	step(&r, entry(QPE_IRET, 'I', 0), 8);
	step(&r, ev(QPE_RET, 'K', 0), 2);
	step(&r, ev(QPE_IRET, 'A', 0), 1);
	ASSERT_EQ(self_of(&r, "AF"), 8, "F: not the interrupt's");
	ASSERT_EQ(self_of(&r, "I"), 8, "the interrupt: a chain of its own");
	ASSERT_EQ(self_of(&r, "IJ"), 5, "its handler below it");
	ASSERT_EQ(self_of(&r, "AFI") + self_of(&r, "AFIJ"), 0, "nothing under F");
	ASSERT_EQ(self_of(&r, "AK"), 7, "the indirect call's target, from before the interrupt");
	done(&r, true);
}

void test_qpstack_missed_return(void)
{
	struct rec r;

	if (!ASSERT_TRUE(rec_init(&r), "init"))
		return;
	step(&r, entry(QPE_CALL, 'A', 'F'), 3);
	step(&r, ev(QPE_CALL, 'F', 'G'), 1);
	step(&r, ev(QPE_CALL, 'G', 'H'), 1);
	/* H's return missed: G's own return finds G further down */
	step(&r, ev(QPE_RET, 'G', 0), 4);
	ASSERT_EQ(r.notes[QPN_RECOVER], 1, "one recovery");
	ASSERT_EQ(r.recovered, 4, "what ran since the last event, charged then");
	ASSERT_EQ(self_of(&r, "AFG"), 5, "to G's frame");
	/* code no frame holds, far from F: F's frame becomes K's, suspect */
	step(&r, ev(QPE_CALL, 'K', 'H'), 3);
	step(&r, ev(QPE_RET, 'H', 0), 2);
	ASSERT_EQ(r.notes[QPN_UNMATCHED], 1, "one unmatched");
	ASSERT_EQ(self_of(&r, "AK"), 3, "K in F's place");
	ASSERT_EQ(r.recovered, 4 + 3 + 2, "K's and what K called: suspect");
	/* asm running on into the next symbol: a fall-through, no recovery */
	step(&r, ev(QPE_RET, 'K', 0), 1);
	{
		struct qp_ev e = ev(QPE_IRET, 'A', 0);

		e.site = FN('A') + 0x140;
		e.site_fn = FN('A') + 0x100;
		step(&r, e, 2);
	}
	ASSERT_EQ(r.notes[QPN_FALLTHROUGH], 1, "a fall-through");
	ASSERT_EQ(r.notes[QPN_RECOVER] + r.notes[QPN_UNMATCHED], 2, "not a recovery");
	ASSERT_EQ(r.st.depth, 0, "the entry's frame left at its iret");
	done(&r, false);
}

/* Calls that never return (their returns missed): the stack is lost when full, no path deeper. */
void test_qpstack_overflow(void)
{
	struct rec r;
	uint32_t deepest = 0;

	if (!ASSERT_TRUE(rec_init(&r), "init"))
		return;
	step(&r, entry(QPE_CALL, 'A', 'F'), 3);
	for (int i = 0; i < 2 * QP_DEPTH; i++)
		step(&r, ev(QPE_CALL, i % 2 ? 'G' : 'F', i % 2 ? 'F' : 'G'), 1);
	for (uint32_t n = 1; n < r.cg.cct.nn; n++) {
		uint32_t d = 0;

		for (uint32_t k = n; k; k = r.cg.cct.n[k].parent)
			d++;
		deepest = d > deepest ? d : deepest;
	}
	ASSERT_EQ(r.notes[QPN_UNMATCHED], 2, "the stack lost twice, counted");
	ASSERT_EQ(deepest && deepest <= QP_DEPTH ? 0 : deepest, 0, "no path deeper than the stack");
	ASSERT_TRUE(r.st.depth < QP_DEPTH, "room again");
	done(&r, false);
}

static const struct qp_syms *test_syms(struct qp_syms *s)
{
	memset(s, 0, sizeof(*s));
	for (char c = 'A'; c <= 'T'; c++)
		qp_syms_add_fn(s, FN(c), false);
	qp_syms_add_fn(s, FN('Z'), true); /* a program of the window */
	qp_syms_add_range(s, QPR_ENTRY, FN('I'), FN('I') + 1);
	qp_syms_add_range(s, QPR_RETTHUNK, FN('R'), FN('S') + 0x20);
	qp_syms_add_range(s, QPR_INDTHUNK, FN('T'), FN('T') + 0x20);
	qp_syms_sort(s);
	return s;
}

void test_qpstack_classify(void)
{
	const uint8_t call[] = { 0xe8, 0, 0, 0, 0 }, ret[] = { 0xc3 }, jmp_rax[] = { 0xff, 0xe0 };
	const uint8_t jmp[] = { 0xe9, 0, 0, 0, 0 }, jne8[] = { 0x75, 0x10 }, nop[] = { 0x90 };
	const uint8_t iretq[] = { 0x48, 0xcf }, sysretq[] = { 0x48, 0x0f, 0x07 };
	const uint8_t clac[] = { 0x0f, 0x01, 0xca }, eretu[] = { 0xf3, 0x0f, 0x01, 0xca };
	struct qp_syms s;
	struct qp_ev e;
	uint8_t b[5];

	test_syms(&s);
	ASSERT_EQ(qp_syms_fn(&s, FN('G') + 0x123), FN('G'), "a function by its start");
	ASSERT_EQ(qp_syms_fn(&s, FN('Z') + 4), FN('Z'), "a program of the window");
	ASSERT_EQ(qp_syms_fn(&s, 0x10), 0, "below every start: unknown");
	/* call G from F */
	memcpy(b, call, 5);
	b[1] = 0xeb; /* rel32 = FN(G) - (site + 5), site FN(F) + 0x10: 0x1000 - 0x15 */
	b[2] = 0x0f;
	qp_syms_classify(&s, FN('F'), 4, FN('F') + 0x10, b, 5, &e);
	ASSERT_EQ(e.kind, QPE_CALL, "a call");
	ASSERT_EQ(e.target_fn, FN('G'), "of G");
	qp_syms_classify(&s, FN('F'), 4, FN('F') + 0x10, nop, 1, &e);
	ASSERT_TRUE(e.kind == QPE_NONE && !e.flags, "a nop: no event");
	qp_syms_classify(&s, FN('F'), 4, FN('F') + 0x10, jmp, 5, &e);
	ASSERT_EQ(e.kind, QPE_NONE, "a jump within F");
	qp_syms_classify(&s, FN('F'), 4, FN('G') - 2, jne8, 2, &e);
	ASSERT_EQ(e.kind, QPE_JCC, "jne into G: a conditional jump out");
	qp_syms_classify(&s, FN('I'), 4, FN('I') + 0x10, nop, 1, &e);
	ASSERT_TRUE(e.kind == QPE_NONE && (e.flags & QPE_F_ENTRY), "an entry's first block");
	qp_syms_classify(&s, FN('I') + 0x20, 4, FN('I') + 0x30, nop, 1, &e);
	ASSERT_FALSE(e.flags & QPE_F_ENTRY, "a block inside the entry is none");
	qp_syms_classify(&s, FN('R'), 1, FN('R'), ret, 1, &e);
	ASSERT_EQ(e.kind, QPE_RET, "a return thunk's return");
	qp_syms_classify(&s, FN('R'), 1, FN('R'), b, 5, &e);
	ASSERT_TRUE(e.kind == QPE_CALL && (e.flags & QPE_F_POPTHRU),
		    "a call inside a return thunk returns with it");
	qp_syms_classify(&s, FN('T'), 1, FN('T'), b, 5, &e);
	ASSERT_EQ(e.kind, QPE_NONE, "a retpoline's own call: none");
	qp_syms_classify(&s, FN('T'), 1, FN('T') + 8, ret, 1, &e);
	ASSERT_EQ(e.kind, QPE_JMP_IND, "a retpoline's return: the thunk's jump");
	qp_syms_classify(&s, FN('T'), 1, FN('T'), jmp_rax, 2, &e);
	ASSERT_EQ(e.kind, QPE_JMP_IND, "jmp *%rax");
	qp_syms_classify(&s, FN('A'), 1, FN('A'), iretq, 2, &e);
	ASSERT_EQ(e.kind, QPE_IRET, "iretq");
	qp_syms_classify(&s, FN('A'), 1, FN('A'), sysretq, 3, &e);
	ASSERT_EQ(e.kind, QPE_IRET, "sysretq");
	qp_syms_classify(&s, FN('A'), 1, FN('A'), eretu, 4, &e);
	ASSERT_EQ(e.kind, QPE_IRET, "FRED's eretu");
	qp_syms_classify(&s, FN('A'), 1, FN('A'), clac, 3, &e);
	ASSERT_EQ(e.kind, QPE_NONE, "clac, eretu's bytes without its prefix");
	qp_syms_free(&s);
}
