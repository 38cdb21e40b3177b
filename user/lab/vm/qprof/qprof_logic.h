/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pure logic of the profile plugin (qprof.c), apart from qemu's API so
 * that unit tests can run it: the instruction decoding it needs (branches,
 * rep-prefixed string instructions), the marker protocol's state
 * (include/vmprof.h), the window's state machine, and the guest's symbols
 * that make a block an event of the call graph (qpstack.h).
 */
#ifndef PPBENCH_QPDECODE_H
#define PPBENCH_QPDECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "vm/qprof/qpstack.h"

/* x86-64: whether B is a direct near call (E8 rel32), and if so its TARGET. */
bool qp_x86_call(const uint8_t *b, size_t len, uint64_t vaddr, uint64_t *target);
/* x86-64: whether B is a string instruction with a rep, repe or repne prefix. */
bool qp_x86_rep(const uint8_t *b, size_t len);
/* arm64: whether W is a bl, and if so its TARGET for an instruction at VADDR. */
bool qp_a64_bl(uint32_t w, uint64_t vaddr, uint64_t *target);
/*
 * Whether a call to TARGET calls ktime_get at KTIME: x86-64 kernels with call
 * thunks enter a function up to 16 bytes early, in its padding, and a direct
 * call may skip its 4-byte endbr64.
 */
bool qp_calls_ktime(uint64_t target, uint64_t ktime);

/* The marker protocol: nibbles accumulate, every other op takes the value. */
struct qp_proto {
	uint64_t acc;
	uint64_t site_lo; /* SITE_LO's value, until SITE_HI */
	bool have_lo;
};

/* A complete message: OP (enum vmprof_op) with its value A (a *_HI op: [A, B)). */
struct qp_msg {
	int op;
	uint64_t a, b;
};

/*
 * Feeds one marker's op. Returns 1 with *M set when it completes a message,
 * 0 for a nibble, -1 for a protocol error (an op out of range, a *_HI op
 * without SITE_LO or with an empty range); the state is cleared after
 * anything but a nibble.
 */
int qp_proto_feed(struct qp_proto *p, int op, struct qp_msg *m);

/*
 * A window between BEGIN and END. A timer window counts the spans between
 * the test-run timer's clock reads: the 1st, 3rd, ... call of ktime_get
 * starts one, the 2nd, 4th, ... ends it. A whole window is one span.
 */
struct qp_win {
	uint64_t tag;
	bool open, whole, span;
};

enum qp_act {
	QP_NONE, /* nothing to count */
	QP_SNAP, /* a span starts: remember every block's count */
	QP_ADD,	 /* a span ends: add the counts since the snapshot to the tag */
	QP_DROP, /* END with a span open: drop it, an error of the tag */
};

/* BEGIN_TIMER / BEGIN_WHOLE (the caller ends an open window first). */
enum qp_act qp_win_begin(struct qp_win *w, uint64_t tag, bool whole);
/* A call of ktime_get from one of the timer's call sites. */
enum qp_act qp_win_site(struct qp_win *w);
/* END. */
enum qp_act qp_win_end(struct qp_win *w);

/*
 * The guest's symbols, as the call graph needs them: where functions start
 * (the kernel's and its modules', and the programs of the window: BPF), and
 * three kinds of code by address: entries (a block starting there is an
 * interrupt's, an exception's or a syscall's), return thunks and
 * indirect-branch thunks.
 */
enum qp_rkind { QPR_ENTRY, QPR_RETTHUNK, QPR_INDTHUNK, QPR_NR };

struct qp_range {
	uint64_t lo, hi;
};

struct qp_syms {
	uint64_t *fn, *bpf; /* starts, sorted by qp_syms_sort() */
	size_t nfn, capfn, nbpf, capbpf;
	struct qp_range *r[QPR_NR];
	size_t nr[QPR_NR], capr[QPR_NR];
};

/* 0, or -ENOMEM. BPF: a program's (until qp_syms_clear_bpf()). */
int qp_syms_add_fn(struct qp_syms *s, uint64_t start, bool bpf);
int qp_syms_add_range(struct qp_syms *s, enum qp_rkind k, uint64_t lo, uint64_t hi);
void qp_syms_clear_bpf(struct qp_syms *s);
/* Sorted and without duplicates: ready for lookups. */
void qp_syms_sort(struct qp_syms *s);
void qp_syms_free(struct qp_syms *s);
/* The start of the function holding ADDR (the nearest start at or below it), or 0. */
uint64_t qp_syms_fn(const struct qp_syms *s, uint64_t addr);

/*
 * x86-64: the event of a kernel block at BLOCK of NINSNS instructions whose
 * last, at SITE, is the LEN bytes at LAST, into EV (QPE_NONE and no flags:
 * no event). A jump counts only into another function; inside an
 * indirect-branch thunk a call is none (a retpoline's own) and a return is
 * the thunk's jump, which makes its frame its target's; a call inside a
 * return thunk returns with it.
 */
void qp_syms_classify(const struct qp_syms *s, uint64_t block, uint32_t ninsns, uint64_t site,
		      const uint8_t *last, size_t len, struct qp_ev *ev);

#endif
