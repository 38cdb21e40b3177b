/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plugin's call graph, apart from qemu's API for the unit tests: a shadow call stack per
 * vCPU, moved by the blocks that end in a call, return, jump into another function or iret
 * and by those that start an entry (interrupt, exception, syscall), and the calling-context
 * tree whose nodes the instructions between two events are charged to. A node is (parent,
 * key), the key an address in its function; node 0, the root, holds user space, and each
 * entry is a chain of its own under it. Where the code an event's instruction lies in is not
 * the frame's function (a missed event, a stack switch), the stack recovers to the nearest
 * frame of it, else the top frame becomes one of it, suspect with all it calls; a little
 * past the frame's function (asm running on into the next symbol) is a fall-through.
 */
#ifndef PPBENCH_QPSTACK_H
#define PPBENCH_QPSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a block ends, as far as the stack is concerned. */
enum qp_ek {
	QPE_NONE,     /* no change */
	QPE_CALL,     /* a direct call of target */
	QPE_CALL_IND, /* an indirect call: the callee is learned at its first event */
	QPE_RET,      /* a return */
	QPE_JMP,      /* a jump into another function (a tail call): it replaces the frame */
	QPE_JCC,      /* a conditional one: taken or not, the next event tells */
	QPE_JMP_IND,  /* an indirect jump (a tail call), and an indirect-branch thunk's own */
	QPE_IRET,     /* iret, sysret: back to what the entry interrupted */
};

#define QPE_F_ENTRY 0x01   /* the block starts an interrupt, exception or syscall */
#define QPE_F_POPTHRU 0x02 /* a call inside a return thunk: its return leaves the thunk too */
#define QPE_F_SITE 0x04	   /* (the plugin's) the test-run timer's call of ktime_get */
#define QPE_F_THUNK 0x08   /* an indirect-branch thunk's jump: its frame becomes the target's */

/* One block's event, made when the block is translated. */
struct qp_ev {
	uint8_t kind, flags;
	uint32_t ninsns;	  /* the block's instructions */
	uint64_t block, block_fn; /* its address and function (an entry's node) */
	uint64_t site, site_fn;	  /* its last instruction's address and function */
	uint64_t target, target_fn;
	uint32_t cache_parent, cache_child; /* CALL: the node it made under its last parent */
};

/* The nodes, and a table of them by (parent, key). */
struct qp_node {
	uint64_t key;
	uint32_t parent;
};

struct qp_cct {
	struct qp_node *n;
	uint32_t nn, cap;
	uint32_t *hash; /* node + 1, 0 empty */
	uint32_t hcap;
};

#define QPF_ROOT 0x01	 /* an entry's frame: its node's parent is the root */
#define QPF_UNRES 0x02	 /* the function is learned at the next event */
#define QPF_JCC 0x04	 /* a conditional jump out is pending */
#define QPF_POPTHRU 0x08 /* its return returns from the frame below too */
#define QPF_SUSPECT 0x10 /* put in place by a recovery that found no frame */

struct qp_frame {
	uint64_t fn, jcc_fn, jcc_key;
	uint64_t pend; /* instructions of an undecided frame (QPF_UNRES, QPF_JCC) */
	uint32_t node;
	uint8_t flags;
};

#define QP_DEPTH 256
/* How far into the next symbols asm code may run on (a fall-through). */
#define QP_FALLTHROUGH 4096

struct qp_stack {
	struct qp_frame f[QP_DEPTH];
	int depth;
};

enum qp_note {
	QPN_RECOVER,	 /* back to a frame further down */
	QPN_UNMATCHED,	 /* no frame of the running code: the top frame replaced */
	QPN_FALLTHROUGH, /* asm code ran on into the next symbol */
};

struct qp_cg {
	struct qp_cct cct;
	/* N instructions for NODE; SUSPECT: a node a recovery put in place, or under one */
	void (*charge)(void *ctx, uint32_t node, uint64_t n, bool suspect);
	/* A recovery at SITE, where the frame in force was EXPECTED's; N charged then */
	void (*note)(void *ctx, enum qp_note kind, uint64_t site, uint64_t expected, uint64_t n);
	void *ctx;
};

/* An empty tree (the root alone); 0, or -ENOMEM. */
int qp_cg_init(struct qp_cg *cg);
void qp_cg_free(struct qp_cg *cg);

/*
 * Block EV's last instruction is about to run on stack S's vCPU, DELTA instructions since its
 * last event (0 outside the spans): charged to the frame in force (an entry's own block to
 * the entry), then the event moves the stack. 0, or -ENOMEM.
 */
int qp_cg_event(struct qp_cg *cg, struct qp_stack *s, struct qp_ev *ev, uint64_t delta);
/* N instructions to the frame in force (where another vCPU's event ended them). */
void qp_cg_charge(struct qp_cg *cg, struct qp_stack *s, uint64_t n);
/* At a span's end: N to the frame in force, and what undecided frames hold to theirs. */
void qp_cg_flush(struct qp_cg *cg, struct qp_stack *s, uint64_t n);

#endif
