/* SPDX-License-Identifier: GPL-2.0 */
/* The plugin's pure logic, apart from qemu's API for the unit tests. */
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
/* Whether a call to TARGET is of ktime_get at KTIME: 16 bytes early (thunks) to 4 late (endbr). */
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

/* One marker's op: 1 with *M set for a whole message, 0 for a part, -1 for an error. */
int qp_proto_feed(struct qp_proto *p, int op, struct qp_msg *m);

/* A window: a timer window's odd calls of ktime_get start a span, its even ones end it. */
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

/* The guest's symbols: functions' starts (BPF: the window's programs) and ranges of code. */
enum qp_rkind { QPR_ENTRY, QPR_RETTHUNK, QPR_INDTHUNK, QPR_SITE, QPR_NR };

struct qp_syms {
	uint64_t *fn, *bpf; /* starts, sorted by qp_syms_sort() */
	size_t nfn, capfn, nbpf, capbpf;
	uint64_t *r[QPR_NR]; /* lo, hi, lo, ...: NR[K] / 2 ranges of kind K */
	size_t nr[QPR_NR], capr[QPR_NR];
};

/* 0, or -ENOMEM. BPF: a program's (until nbpf is cleared). */
int qp_syms_add_fn(struct qp_syms *s, uint64_t start, bool bpf);
int qp_syms_add_range(struct qp_syms *s, enum qp_rkind k, uint64_t lo, uint64_t hi);
/* Sorted and without duplicates: ready for lookups. */
void qp_syms_sort(struct qp_syms *s);
void qp_syms_free(struct qp_syms *s);
/* The start of the function holding ADDR (the nearest start at or below it), or 0. */
uint64_t qp_syms_fn(const struct qp_syms *s, uint64_t addr);
bool qp_syms_in(const struct qp_syms *s, enum qp_rkind k, uint64_t addr);

/*
 * x86-64: the event of a kernel block at BLOCK of NINSNS instructions whose last, at SITE,
 * is the LEN bytes at LAST (QPE_NONE and no flags: none). Inside an indirect-branch thunk a
 * call is the retpoline's own and a return the thunk's jump; a call inside a return thunk
 * returns with it.
 */
void qp_syms_classify(const struct qp_syms *s, uint64_t block, uint32_t ninsns, uint64_t site,
		      const uint8_t *last, size_t len, struct qp_ev *ev);

#endif
