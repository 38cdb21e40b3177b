// SPDX-License-Identifier: GPL-2.0
/* The plugin's pure logic (qpdecode.h). */
#include "vm/qprof/qpdecode.h"
#include "vmprof.h"

/* Segment overrides: ignored in 64-bit mode, and a compiler may pad with them. */
static bool x86_seg_prefix(uint8_t b)
{
	return b == 0x26 || b == 0x2e || b == 0x36 || b == 0x3e || b == 0x64 || b == 0x65;
}

bool qp_x86_call(const uint8_t *b, size_t len, uint64_t vaddr, uint64_t *target)
{
	size_t i = 0;
	int32_t rel;

	while (i < len && x86_seg_prefix(b[i]))
		i++;
	if (len - i != 5 || b[i] != 0xe8)
		return false;
	rel = (int32_t)((uint32_t)b[i + 1] | (uint32_t)b[i + 2] << 8 | (uint32_t)b[i + 3] << 16 |
			(uint32_t)b[i + 4] << 24);
	*target = vaddr + len + (int64_t)rel;
	return true;
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

int qp_proto_feed(struct qp_proto *p, int op, struct qp_msg *m)
{
	uint64_t v = p->acc;

	if (op >= VMPROF_NIBBLE && op < VMPROF_NIBBLE + 16) {
		p->acc = p->acc << 4 | (uint64_t)(op - VMPROF_NIBBLE);
		return 0;
	}
	p->acc = 0;
	if (op < 0 || op >= VMPROF_NR_OPS) {
		p->have_lo = false;
		return -1;
	}
	if (op == VMPROF_SITE_LO) {
		p->site_lo = v;
		p->have_lo = true;
		return 0;
	}
	*m = (struct qp_msg){ .op = op, .a = v };
	if (op != VMPROF_SITE_HI) {
		p->have_lo = false;
		return 1;
	}
	if (!p->have_lo || v <= p->site_lo) {
		p->have_lo = false;
		return -1;
	}
	m->a = p->site_lo;
	m->b = v;
	p->have_lo = false;
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
