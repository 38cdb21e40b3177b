// SPDX-License-Identifier: GPL-2.0
/* The plugin's pure logic (qprof_logic.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "vm/qprof/qprof_logic.h"
#include "vmprof.h"

/* Segment overrides: ignored in 64-bit mode, and a compiler may pad with them. */
static bool x86_seg_prefix(uint8_t b)
{
	return b == 0x26 || b == 0x2e || b == 0x36 || b == 0x3e || b == 0x64 || b == 0x65;
}

static int32_t rel32(const uint8_t *b)
{
	return (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
			 (uint32_t)b[3] << 24);
}

/* A relative branch of kind K whose displacement (N bytes) ends the instruction. */
static int rel_branch(int k, const uint8_t *b, size_t left, size_t n, uint64_t end,
		      uint64_t *target)
{
	if (left != n)
		return QPE_NONE;
	*target = end + (uint64_t)(n == 1 ? (int64_t)(int8_t)b[0] : (int64_t)rel32(b));
	return k;
}

/* FF /2 /3 call, /4 /5 jmp: through a register or memory. */
static int x86_ff(uint8_t modrm)
{
	int reg = (modrm >> 3) & 7;

	return reg == 2 || reg == 3 ? QPE_CALL_IND : reg == 4 || reg == 5 ? QPE_JMP_IND : QPE_NONE;
}

/* The two-byte opcodes (0F xx) that branch: jcc rel32, sysret, sysexit, FRED's eretu/erets. */
static int x86_0f(const uint8_t *b, size_t left, bool rep, uint64_t end, uint64_t *target)
{
	if (left >= 2 && b[1] >= 0x80 && b[1] <= 0x8f)
		return rel_branch(QPE_JCC, b + 2, left - 2, 4, end, target);
	if (left == 2 && (b[1] == 0x07 || b[1] == 0x35))
		return QPE_IRET;
	/* (0F 01 CA alone is clac) */
	return left == 3 && rep && b[1] == 0x01 && b[2] == 0xca ? QPE_IRET : QPE_NONE;
}

/*
 * x86-64: how the LEN bytes at B, an instruction at VADDR, change the flow (enum qp_ek), and
 * a direct branch's TARGET. An operand-size prefix, which would change a branch, is refused.
 */
static int qp_x86_branch(const uint8_t *b, size_t len, uint64_t vaddr, uint64_t *target)
{
	uint64_t end = vaddr + len;
	bool rep = false;
	size_t i = 0;

	for (; i < len && (x86_seg_prefix(b[i]) || b[i] == 0xf2 || b[i] == 0xf3); i++)
		rep |= b[i] == 0xf2 || b[i] == 0xf3;
	if (i < len && (b[i] & 0xf0) == 0x40) /* REX */
		i++;
	if (i >= len)
		return QPE_NONE;
	switch (b[i]) {
	case 0xe8:
		return rel_branch(QPE_CALL, b + i + 1, len - i - 1, 4, end, target);
	case 0xe9:
		return rel_branch(QPE_JMP, b + i + 1, len - i - 1, 4, end, target);
	case 0xeb:
		return rel_branch(QPE_JMP, b + i + 1, len - i - 1, 1, end, target);
	case 0xc3:
		return len - i == 1 ? QPE_RET : QPE_NONE;
	case 0xc2:
		return len - i == 3 ? QPE_RET : QPE_NONE;
	case 0xcf:
		return len - i == 1 ? QPE_IRET : QPE_NONE;
	case 0xff:
		return len - i >= 2 ? x86_ff(b[i + 1]) : QPE_NONE;
	case 0x0f:
		return x86_0f(b + i, len - i, rep, end, target);
	}
	if (b[i] >= 0x70 && b[i] <= 0x7f)
		return rel_branch(QPE_JCC, b + i + 1, len - i - 1, 1, end, target);
	return QPE_NONE;
}

bool qp_x86_call(const uint8_t *b, size_t len, uint64_t vaddr, uint64_t *target)
{
	return qp_x86_branch(b, len, vaddr, target) == QPE_CALL;
}

/* ins, outs, movs, cmps, stos, lods, scas (byte and word/dword/qword forms) */
static bool x86_string_op(uint8_t op)
{
	return (op >= 0x6c && op <= 0x6f) || (op >= 0xa4 && op <= 0xa7) ||
	       (op >= 0xaa && op <= 0xaf);
}

bool qp_x86_rep(const uint8_t *b, size_t len)
{
	bool rep = false;
	size_t i;

	/* legacy prefixes, in any order, then at most one REX */
	for (i = 0; i < len; i++) {
		if (b[i] == 0xf2 || b[i] == 0xf3)
			rep = true;
		else if (!x86_seg_prefix(b[i]) && b[i] != 0xf0 && b[i] != 0x66 && b[i] != 0x67)
			break;
	}
	if (i < len && (b[i] & 0xf0) == 0x40)
		i++;
	return rep && i + 1 == len && x86_string_op(b[i]);
}

bool qp_a64_bl(uint32_t w, uint64_t vaddr, uint64_t *target)
{
	int32_t imm;

	if ((w & 0xfc000000u) != 0x94000000u)
		return false;
	/* imm26, in words, sign-extended (the opcode bits shift out) */
	imm = (int32_t)(w << 6) >> 6;
	*target = vaddr + (uint64_t)((int64_t)imm * 4);
	return true;
}

bool qp_calls_ktime(uint64_t target, uint64_t ktime)
{
	return ktime >= 16 && target >= ktime - 16 && target <= ktime + 4;
}

static bool range_end(int op)
{
	return op == VMPROF_SITE_HI || op == VMPROF_ENTRY_HI || op == VMPROF_RETTHUNK_HI ||
	       op == VMPROF_INDTHUNK_HI;
}

int qp_proto_feed(struct qp_proto *p, int op, struct qp_msg *m)
{
	uint64_t v = p->acc;
	bool lo = p->have_lo;

	if (op >= VMPROF_NIBBLE && op < VMPROF_NIBBLE + 16) {
		p->acc = p->acc << 4 | (uint64_t)(op - VMPROF_NIBBLE);
		return 0;
	}
	p->acc = 0;
	p->have_lo = false;
	if (op < 0 || op >= VMPROF_NR_OPS)
		return -1;
	if (op == VMPROF_SITE_LO) {
		p->site_lo = v;
		p->have_lo = true;
		return 0;
	}
	*m = (struct qp_msg){ .op = op, .a = v };
	if (!range_end(op))
		return 1;
	if (!lo || v <= p->site_lo)
		return -1;
	m->a = p->site_lo;
	m->b = v;
	return 1;
}

enum qp_act qp_win_begin(struct qp_win *w, uint64_t tag, bool whole)
{
	*w = (struct qp_win){ .tag = tag, .open = true, .whole = whole, .span = whole };
	return whole ? QP_SNAP : QP_NONE;
}

enum qp_act qp_win_site(struct qp_win *w)
{
	if (!w->open || w->whole)
		return QP_NONE;
	w->span = !w->span;
	return w->span ? QP_SNAP : QP_ADD;
}

enum qp_act qp_win_end(struct qp_win *w)
{
	enum qp_act a = QP_NONE;

	if (w->open && w->span)
		a = w->whole ? QP_ADD : QP_DROP;
	w->open = w->span = false;
	return a;
}

/* ---- symbols ------------------------------------------------------------------- */
static int add_u64(uint64_t **a, size_t *n, size_t *cap, uint64_t v)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 1024;
		uint64_t *p = realloc(*a, c * sizeof(*p));

		if (!p)
			return -ENOMEM;
		*a = p;
		*cap = c;
	}
	(*a)[(*n)++] = v;
	return 0;
}

int qp_syms_add_fn(struct qp_syms *s, uint64_t start, bool bpf)
{
	return bpf ? add_u64(&s->bpf, &s->nbpf, &s->capbpf, start)
		   : add_u64(&s->fn, &s->nfn, &s->capfn, start);
}

int qp_syms_add_range(struct qp_syms *s, enum qp_rkind k, uint64_t lo, uint64_t hi)
{
	return add_u64(&s->r[k], &s->nr[k], &s->capr[k], lo)
		       ?: add_u64(&s->r[k], &s->nr[k], &s->capr[k], hi);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void sort_unique(uint64_t *a, size_t *n)
{
	size_t k = 0;

	if (*n)
		qsort(a, *n, sizeof(*a), cmp_u64);
	for (size_t i = 0; i < *n; i++)
		if (!k || a[i] != a[k - 1])
			a[k++] = a[i];
	*n = k;
}

void qp_syms_sort(struct qp_syms *s)
{
	sort_unique(s->fn, &s->nfn);
	sort_unique(s->bpf, &s->nbpf);
}

void qp_syms_free(struct qp_syms *s)
{
	free(s->fn);
	free(s->bpf);
	for (int k = 0; k < QPR_NR; k++)
		free(s->r[k]);
	memset(s, 0, sizeof(*s));
}

/* The greatest of the N sorted starts at or below ADDR, or 0. */
static uint64_t floor_of(const uint64_t *a, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? a[lo - 1] : 0;
}

uint64_t qp_syms_fn(const struct qp_syms *s, uint64_t addr)
{
	uint64_t k = floor_of(s->fn, s->nfn, addr), b = floor_of(s->bpf, s->nbpf, addr);

	return k > b ? k : b;
}

bool qp_syms_in(const struct qp_syms *s, enum qp_rkind k, uint64_t addr)
{
	for (size_t i = 0; i + 1 < s->nr[k]; i += 2)
		if (addr >= s->r[k][i] && addr < s->r[k][i + 1])
			return true;
	return false;
}

void qp_syms_classify(const struct qp_syms *s, uint64_t block, uint32_t ninsns, uint64_t site,
		      const uint8_t *last, size_t len, struct qp_ev *ev)
{
	uint64_t target = 0;
	int k = qp_x86_branch(last, len, site, &target);

	*ev = (struct qp_ev){ .ninsns = ninsns, .block = block, .site = site };
	if (qp_syms_in(s, QPR_ENTRY, block))
		ev->flags |= QPE_F_ENTRY;
	if (k == QPE_NONE && !ev->flags)
		return;
	ev->block_fn = qp_syms_fn(s, block);
	ev->site_fn = qp_syms_fn(s, site);
	if (k == QPE_CALL || k == QPE_JMP || k == QPE_JCC) {
		ev->target = target;
		ev->target_fn = qp_syms_fn(s, target);
	}
	if (qp_syms_in(s, QPR_INDTHUNK, site)) {
		if (k == QPE_CALL)
			k = QPE_NONE;
		else if (k == QPE_RET || k == QPE_JMP_IND)
			k = QPE_JMP_IND;
		if (k == QPE_JMP_IND)
			ev->flags |= QPE_F_THUNK;
	} else if (k == QPE_CALL && qp_syms_in(s, QPR_RETTHUNK, site)) {
		ev->flags |= QPE_F_POPTHRU;
	}
	if ((k == QPE_JMP || k == QPE_JCC) && ev->target_fn == ev->site_fn)
		k = QPE_NONE;
	ev->kind = (uint8_t)k;
}
