// SPDX-License-Identifier: GPL-2.0
/* The call graph's stack machine (qpstack.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "vm/qprof/qpstack.h"

/* ---- the tree ------------------------------------------------------------------ */
static uint32_t slot_of(const struct qp_cct *c, uint32_t parent, uint64_t key)
{
	uint64_t h = (key ^ ((uint64_t)parent << 32 | parent)) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32) & (c->hcap - 1);
}

static int rehash(struct qp_cct *c)
{
	uint32_t n = c->hcap ? 2 * c->hcap : 1 << 12;
	uint32_t *h = calloc(n, sizeof(*h));

	if (!h)
		return -ENOMEM;
	free(c->hash);
	c->hash = h;
	c->hcap = n;
	for (uint32_t i = 1; i < c->nn; i++) { /* (the root is nobody's child) */
		uint32_t p = slot_of(c, c->n[i].parent, c->n[i].key);

		while (c->hash[p])
			p = (p + 1) & (c->hcap - 1);
		c->hash[p] = i + 1;
	}
	return 0;
}

/* The child KEY of PARENT, made if new; UINT32_MAX without memory. */
static uint32_t qp_cct_child(struct qp_cct *c, uint32_t parent, uint64_t key)
{
	uint32_t p;

	if (2 * (c->nn + 1) > c->hcap && rehash(c))
		return UINT32_MAX;
	for (p = slot_of(c, parent, key); c->hash[p]; p = (p + 1) & (c->hcap - 1)) {
		const struct qp_node *n = &c->n[c->hash[p] - 1];

		if (n->parent == parent && n->key == key)
			return c->hash[p] - 1;
	}
	if (c->nn == c->cap) {
		uint32_t cap = c->cap ? 2 * c->cap : 1 << 12;
		struct qp_node *n = realloc(c->n, cap * sizeof(*n));

		if (!n)
			return UINT32_MAX;
		c->n = n;
		c->cap = cap;
	}
	c->n[c->nn] = (struct qp_node){ .key = key, .parent = parent };
	c->hash[p] = ++c->nn;
	return c->nn - 1;
}

int qp_cg_init(struct qp_cg *cg)
{
	memset(&cg->cct, 0, sizeof(cg->cct));
	cg->cct.n = calloc(1, sizeof(*cg->cct.n));
	if (!cg->cct.n || rehash(&cg->cct))
		return -ENOMEM;
	cg->cct.nn = cg->cct.cap = 1; /* the root: node 0 */
	return 0;
}

void qp_cg_free(struct qp_cg *cg)
{
	free(cg->cct.n);
	free(cg->cct.hash);
	memset(&cg->cct, 0, sizeof(cg->cct));
}

/* ---- the stack ------------------------------------------------------------------ */
static struct qp_frame *top(struct qp_stack *s)
{
	return s->depth ? &s->f[s->depth - 1] : NULL;
}

/* The node frame I's node is a child of: the root for an entry's frame and the bottom one. */
static uint32_t parent_of(const struct qp_stack *s, int i)
{
	return i == 0 || (s->f[i].flags & QPF_ROOT) ? 0 : s->f[i - 1].node;
}

/* A new top frame (the caller made room). */
static void push(struct qp_stack *s, uint32_t node, uint64_t fn, uint8_t flags)
{
	s->f[s->depth++] = (struct qp_frame){ .node = node, .fn = fn, .flags = flags };
}

static void charge_node(struct qp_cg *cg, const struct qp_frame *t, uint64_t n)
{
	if (n)
		cg->charge(cg->ctx, t->node, n, t->flags & QPF_SUSPECT);
}

void qp_cg_charge(struct qp_cg *cg, struct qp_stack *s, uint64_t n)
{
	struct qp_frame *t = top(s);

	if (!n)
		return;
	if (!t)
		cg->charge(cg->ctx, 0, n, false);
	else if (t->flags & (QPF_UNRES | QPF_JCC))
		t->pend += n; /* (its function is not known yet) */
	else
		charge_node(cg, t, n);
}

/* The top frame now runs FN, entered at KEY: a node of its own beside the old one. */
static int replace(struct qp_cg *cg, struct qp_stack *s, uint64_t key, uint64_t fn)
{
	struct qp_frame *t = &s->f[s->depth - 1];
	uint32_t node = qp_cct_child(&cg->cct, parent_of(s, s->depth - 1), key);

	if (node == UINT32_MAX)
		return -ENOMEM;
	t->node = node;
	t->fn = fn;
	return 0;
}

/* An undecided frame decided: what it held goes to its node. */
static void settle(struct qp_cg *cg, struct qp_frame *t)
{
	t->flags &= ~(QPF_UNRES | QPF_JCC);
	charge_node(cg, t, t->pend);
	t->pend = 0;
}

/* The frames above DEPTH gone, what the undecided ones held charged as they stand. */
static void drop_to(struct qp_cg *cg, struct qp_stack *s, int depth)
{
	while (s->depth > depth)
		settle(cg, &s->f[--s->depth]);
}

/* Room for a frame: a full stack (returns went missing) is dropped, the new frame suspect. */
static uint8_t room(struct qp_cg *cg, struct qp_stack *s)
{
	if (s->depth < QP_DEPTH)
		return 0;
	cg->note(cg->ctx, QPN_UNMATCHED, 0, s->f[s->depth - 1].fn, 0);
	drop_to(cg, s, 0);
	return QPF_SUSPECT;
}

void qp_cg_flush(struct qp_cg *cg, struct qp_stack *s, uint64_t n)
{
	qp_cg_charge(cg, s, n);
	for (int i = 0; i < s->depth; i++) { /* (as they stand: still undecided) */
		charge_node(cg, &s->f[i], s->f[i].pend);
		s->f[i].pend = 0;
	}
}

/* Where no frame holds the running code: the top (or a new one) becomes its function's. */
static int unmatched(struct qp_cg *cg, struct qp_stack *s, const struct qp_ev *ev, uint64_t delta)
{
	struct qp_frame *t = top(s);
	uint32_t node;

	cg->note(cg->ctx, QPN_UNMATCHED, ev->site, t ? t->fn : 0, delta);
	if (t) {
		t->flags |= QPF_SUSPECT;
		return replace(cg, s, ev->site, ev->site_fn);
	}
	node = qp_cct_child(&cg->cct, 0, ev->site);
	if (node == UINT32_MAX)
		return -ENOMEM;
	push(s, node, ev->site_fn, QPF_SUSPECT);
	return 0;
}

/* The frame of FN from I down the chain of jumps that led there (a tail call's callers), or -1. */
static int tail_find(const struct qp_stack *s, int i, uint64_t fn)
{
	for (; fn && i >= 0; i--) {
		if (s->f[i].fn == fn)
			return i;
		if (!(s->f[i].flags & QPF_POPTHRU))
			break;
	}
	return -1;
}

/* A jump into FN (at KEY): a tail call's frame, popped with the jumper's; or back to FN's. */
static int jump(struct qp_cg *cg, struct qp_stack *s, uint64_t key, uint64_t fn)
{
	int i = tail_find(s, s->depth - 1, fn);
	uint8_t flags = QPF_POPTHRU | room(cg, s);
	struct qp_frame *t = top(s);
	uint32_t node;

	if (i >= 0 && !(flags & QPF_SUSPECT)) {
		drop_to(cg, s, i + 1);
		return 0;
	}
	node = qp_cct_child(&cg->cct, t ? t->node : 0, key);
	if (node == UINT32_MAX)
		return -ENOMEM;
	push(s, node, fn, flags | (t ? t->flags & QPF_SUSPECT : 0));
	return 0;
}

/* Whether code of FN may be the code of A's run on: A itself, or a symbol a little after it. */
static uint64_t ahead(uint64_t a, uint64_t fn)
{
	return fn >= a && a ? fn - a : UINT64_MAX;
}

/* The undecided top frame decided by the code of EV's instruction. */
static int decide(struct qp_cg *cg, struct qp_stack *s, const struct qp_ev *ev)
{
	struct qp_frame *t = top(s);
	uint64_t fn = ev->site_fn, pend = t->pend, to, from;
	int i, err;

	if (t->flags & QPF_UNRES) {
		/* (a jump back into a function of its chain: no frame of its own) */
		i = t->flags & QPF_POPTHRU ? tail_find(s, s->depth - 2, fn) : -1;
		if (i < 0) {
			err = replace(cg, s, ev->site, fn);
			settle(cg, t);
			return err;
		}
		t->pend = 0;
		drop_to(cg, s, i + 1);
		qp_cg_charge(cg, s, pend);
		return 0;
	}
	/* the conditional jump taken: the code is its target's, or what follows it */
	to = ahead(t->jcc_fn, fn);
	from = ahead(t->fn, fn);
	if (!fn || to > QP_FALLTHROUGH || to >= from) {
		settle(cg, t);
		return 0;
	}
	t->pend = 0;
	t->flags &= ~QPF_JCC;
	err = jump(cg, s, t->jcc_key, t->jcc_fn);
	qp_cg_charge(cg, s, pend);
	return err;
}

/* The frame in force made to hold the code of EV's instruction. */
static int sync(struct qp_cg *cg, struct qp_stack *s, const struct qp_ev *ev, uint64_t delta)
{
	struct qp_frame *t = top(s);
	uint64_t fn = ev->site_fn;
	int i, err;

	if (!t)
		return fn ? unmatched(cg, s, ev, delta) : 0;
	if (t->flags & (QPF_UNRES | QPF_JCC)) {
		bool unres = t->flags & QPF_UNRES;

		err = decide(cg, s, ev);
		if (err || unres)
			return err;
		t = top(s);
	}
	if (!t->fn) /* a call into code the plugin has no symbol of: learnt now */
		t->fn = fn;
	if (!fn || t->fn == fn)
		return 0;
	for (i = s->depth - 2; i >= 0 && s->f[i].fn != fn; i--)
		;
	if (i >= 0) {
		cg->note(cg->ctx, QPN_RECOVER, ev->site, t->fn, delta);
		drop_to(cg, s, i + 1);
		return 0;
	}
	if (ahead(t->fn, fn) <= QP_FALLTHROUGH) {
		cg->note(cg->ctx, QPN_FALLTHROUGH, ev->site, t->fn, 0);
		return replace(cg, s, fn, fn);
	}
	return unmatched(cg, s, ev, delta);
}

static int call(struct qp_cg *cg, struct qp_stack *s, struct qp_ev *ev)
{
	uint8_t flags = room(cg, s) | (ev->flags & QPE_F_POPTHRU ? QPF_POPTHRU : 0);
	struct qp_frame *t = top(s);
	uint32_t parent = t ? t->node : 0, node = ev->cache_child;

	flags |= t ? t->flags & QPF_SUSPECT : 0;
	if (ev->kind == QPE_CALL_IND) { /* (the caller's, should it never be learnt) */
		push(s, parent, 0, flags | QPF_UNRES);
		return 0;
	}
	if (!node || ev->cache_parent != parent) {
		node = qp_cct_child(&cg->cct, parent, ev->target);
		if (node == UINT32_MAX)
			return -ENOMEM;
		ev->cache_parent = parent;
		ev->cache_child = node;
	}
	push(s, node, ev->target_fn, flags);
	return 0;
}

/* Back to what the nearest entry interrupted (all of it, when no entry is known). */
static void iret(struct qp_cg *cg, struct qp_stack *s, const struct qp_ev *ev)
{
	int i;

	for (i = s->depth - 1; i >= 0 && !(s->f[i].flags & QPF_ROOT); i--)
		;
	if (i < 0 && s->depth)
		cg->note(cg->ctx, QPN_RECOVER, ev->site, top(s)->fn, 0);
	drop_to(cg, s, i < 0 ? 0 : i);
}

static int apply(struct qp_cg *cg, struct qp_stack *s, struct qp_ev *ev)
{
	struct qp_frame *t = top(s);
	int i;

	if (!t && ev->kind != QPE_CALL && ev->kind != QPE_CALL_IND)
		return 0;
	switch (ev->kind) {
	case QPE_CALL:
	case QPE_CALL_IND:
		return call(cg, s, ev);
	case QPE_RET: /* (and from the tail calls that led to the frame) */
		for (i = s->depth - 1; i > 0 && (s->f[i].flags & QPF_POPTHRU); i--)
			;
		drop_to(cg, s, i);
		return 0;
	case QPE_JMP:
		return jump(cg, s, ev->target, ev->target_fn);
	case QPE_JCC:
		t->flags |= QPF_JCC;
		t->jcc_fn = ev->target_fn;
		t->jcc_key = ev->target;
		return 0;
	case QPE_JMP_IND: /* (a frame below it, as a jump's, once its code is known) */
		if (ev->flags & QPE_F_THUNK) {
			t->flags |= QPF_UNRES;
		} else { /* (room first: the frame's node is the one below's, until learnt) */
			uint8_t lost = room(cg, s);

			t = top(s);
			push(s, t ? t->node : 0, 0,
			     QPF_UNRES | QPF_POPTHRU | lost | (t ? t->flags & QPF_SUSPECT : 0));
		}
		return 0;
	case QPE_IRET:
		iret(cg, s, ev);
		return 0;
	}
	return 0;
}

int qp_cg_event(struct qp_cg *cg, struct qp_stack *s, struct qp_ev *ev, uint64_t delta)
{
	int err;

	if (ev->flags & QPE_F_ENTRY) {
		/* what ran before the entry's block is the interrupted code's */
		uint64_t own = ev->ninsns < delta ? ev->ninsns : delta;
		uint32_t node = qp_cct_child(&cg->cct, 0, ev->block);

		if (node == UINT32_MAX)
			return -ENOMEM;
		qp_cg_charge(cg, s, delta - own);
		push(s, node, ev->block_fn, QPF_ROOT | room(cg, s));
		delta = own;
	}
	err = sync(cg, s, ev, delta);
	if (err)
		return err;
	qp_cg_charge(cg, s, delta);
	return apply(cg, s, ev);
}
