/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The marker protocol of `ppbench vm --profile`: how ppbench inside a guest
 * (user/core/instr/guest_profile.c) talks to the qemu TCG plugin that counts the
 * guest's instructions (user/lab/vm/qprof/qprof.c), without a device, a hypercall or any
 * memory access: the plugin sees every instruction qemu translates, and a
 * marker is an instruction no compiler emits whose operand carries 8 bits.
 *
 *   x86-64  nopl 0x504242NN(%rax)          bytes 0f 1f 80 NN 42 42 50
 *           (a multi-byte NOP: it reads no memory)
 *   arm64   movz xzr, #0x42NN, lsl #48     word 0xd2e0001f | (0x42NN << 5)
 *           (a write to the zero register: discarded)
 *
 * NN is the op. Ops 0x00-0x0f are nibbles: acc = acc << 4 | NN. Every other
 * op uses acc and then clears it, so a 64-bit value is up to 16 nibbles
 * followed by its op (a small one, FN_NEXT's, fewer). The plugin honours
 * markers only in user space (below the kernel's half of the address space).
 */
#ifndef PPBENCH_VMPROF_H
#define PPBENCH_VMPROF_H

#include <stddef.h>
#include <stdint.h>

enum vmprof_op {
	VMPROF_NIBBLE = 0x00,	   /* 0x00..0x0f: acc = acc << 4 | n */
	VMPROF_KTIME = 0x10,	   /* acc = ktime_get's address */
	VMPROF_SITE_LO = 0x11,	   /* acc = the start of a range (any of the *_HI ops ends it) */
	VMPROF_SITE_HI = 0x12,	   /* acc = its end: a function that may call ktime_get */
	VMPROF_ARM = 0x13,	   /* configuration complete: retranslate everything */
	VMPROF_BEGIN_TIMER = 0x14, /* acc = tag: count between the test-run timer's reads */
	VMPROF_BEGIN_WHOLE = 0x15, /* acc = tag: count everything until END */
	VMPROF_END = 0x16,	   /* acc = the window's elements */
	/* the call graph's symbols (before ARM; BPF ones after, each window's then ARM again) */
	VMPROF_ENTRY_HI = 0x17,	   /* a block starting in the range enters an interrupt, ... */
	VMPROF_RETTHUNK_HI = 0x18, /* the range is a return thunk's */
	VMPROF_INDTHUNK_HI = 0x19, /* the range is an indirect-branch thunk's */
	VMPROF_FN_AT = 0x1a,	   /* acc = a function's start */
	VMPROF_FN_NEXT = 0x1b,	   /* acc = the next function's start less the last one's */
	VMPROF_BPF_CLEAR = 0x1c,   /* the last window's programs are gone */
	VMPROF_NR_OPS
};

/* The kernel command-line word that turns the markers on in a guest. */
#define VMPROF_CMDLINE "ppbench.profile=1"
/* Where a guest's ppbench writes its tags and BPF symbols (set by vm's init). */
#define VMPROF_DIR_ENV "PPBENCH_PROF_DIR"

#define VMPROF_X86_LEN 7
#define VMPROF_A64_BASE 0xd2e0001fu /* movz xzr, #0, lsl #48 */
#define VMPROF_A64_TAG 0x4200u	    /* the high byte of imm16 */
#define VMPROF_A64_WORD(op) (VMPROF_A64_BASE | ((VMPROF_A64_TAG | (op)) << 5))

/* The op of an x86-64 marker of LEN bytes at B, or -1 for any other instruction. */
static inline int vmprof_x86_op(const uint8_t *b, size_t len)
{
	if (len != VMPROF_X86_LEN || b[0] != 0x0f || b[1] != 0x1f || b[2] != 0x80 || b[4] != 0x42 ||
	    b[5] != 0x42 || b[6] != 0x50 || b[3] >= VMPROF_NR_OPS)
		return -1;
	return b[3];
}

/* The op of an arm64 marker, or -1 for any other instruction word. */
static inline int vmprof_a64_op(uint32_t w)
{
	uint32_t op = (w >> 5) & 0xff;

	if ((w & ~(0xffu << 5)) != VMPROF_A64_WORD(0) || op >= VMPROF_NR_OPS)
		return -1;
	return op;
}

#endif
