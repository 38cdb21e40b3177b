/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_CPUFEAT_H
#define PPBENCH_CPUFEAT_H

#include <stddef.h>

/*
 * The features of the CPU ppbench runs on, as the CPU itself reports them:
 * what a kernel picks its code alternatives by (x86-64: memcpy as
 * `rep movsb` where CPUID says FSRM), so two qemus whose `-cpu max` differ
 * run different kernel code with no kernel change. Read from the CPU, not
 * from /proc/cpuinfo, whose flag names and synthetic flags change from one
 * kernel release to the next: two kernels on one CPU must agree.
 *   x86-64: the CPUID words that carry feature bits, less the two bits the
 *           kernel sets (OSXSAVE, OSPKE): "1.ecx=... 1.edx=... 7.0.ebx=..."
 *   arm64:  MIDR_EL1 and the ID_AA64 registers as the kernel lets user
 *           space read them (its sanitised view, HWCAP_CPUID)
 */
struct cpu_feat {
	char words[384]; /* "" where the CPU says nothing (no CPUID, old arm64 kernel) */
	char digest[24]; /* 16 hex digits of the FNV-1a 64 hash of WORDS, "" without */
};

void cpu_feat_read(struct cpu_feat *f);
/* The digest of WORDS into BUF (pure: the tests' and the reader's). */
void cpu_feat_digest(const char *words, char *buf, size_t len);

#endif
