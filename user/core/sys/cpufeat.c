// SPDX-License-Identifier: GPL-2.0
/* The CPU's own feature words and their digest (cpufeat.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include "sys/cpufeat.h"

void cpu_feat_digest(const char *words, char *buf, size_t len)
{
	/* FNV-1a, 64 bits: a name for the words, not a defence against forgery */
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const unsigned char *p = (const unsigned char *)words; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ULL;
	}
	snprintf(buf, len, "%016llx", (unsigned long long)h);
}

static void add_word(struct cpu_feat *f, const char *name, uint64_t v, int hexdigits)
{
	size_t n = strlen(f->words);

	snprintf(f->words + n, sizeof(f->words) - n, "%s%s=%0*llx", n ? " " : "", name, hexdigits,
		 (unsigned long long)v);
}

#if defined(__x86_64__)
#include <cpuid.h>

#define OSXSAVE_BIT (1u << 27) /* CPUID.1:ECX, set by the kernel (CR4.OSXSAVE) */
#define OSPKE_BIT (1u << 4)    /* CPUID.7.0:ECX, set by the kernel (CR4.PKE) */

static void read_words(struct cpu_feat *f)
{
	unsigned int a, b, c, d, max = __get_cpuid_max(0, NULL),
				 xmax = __get_cpuid_max(0x80000000, NULL);

	if (max >= 1) {
		__cpuid(1, a, b, c, d);
		add_word(f, "1.ecx", c & ~OSXSAVE_BIT, 8);
		add_word(f, "1.edx", d, 8);
	}
	if (max >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		add_word(f, "7.0.ebx", b, 8);
		add_word(f, "7.0.ecx", c & ~OSPKE_BIT, 8);
		add_word(f, "7.0.edx", d, 8);
		__cpuid_count(7, 1, a, b, c, d);
		add_word(f, "7.1.eax", a, 8);
	}
	if (max >= 0xd) {
		__cpuid_count(0xd, 1, a, b, c, d);
		add_word(f, "d.1.eax", a, 8);
	}
	if (xmax >= 0x80000001) {
		__cpuid(0x80000001, a, b, c, d);
		add_word(f, "80000001.ecx", c, 8);
		add_word(f, "80000001.edx", d, 8);
	}
	if (xmax >= 0x80000008) {
		__cpuid(0x80000008, a, b, c, d);
		add_word(f, "80000008.ebx", b, 8);
	}
}
#elif defined(__aarch64__)
#ifndef HWCAP_CPUID
#define HWCAP_CPUID (1UL << 11)
#endif

/* (by encoding: an assembler that predates a register's name still takes it) */
#define READ_ID(f, name, enc)                                                                      \
	do {                                                                                       \
		uint64_t v_;                                                                       \
		__asm__ __volatile__("mrs %0, " enc : "=r"(v_));                                   \
		add_word(f, name, v_, 16);                                                         \
	} while (0)

static void read_words(struct cpu_feat *f)
{
	/* without HWCAP_CPUID the kernel does not emulate these reads: SIGILL */
	if (!(getauxval(AT_HWCAP) & HWCAP_CPUID))
		return;
	READ_ID(f, "midr", "S3_0_C0_C0_0");
	READ_ID(f, "isar0", "S3_0_C0_C6_0");
	READ_ID(f, "isar1", "S3_0_C0_C6_1");
	READ_ID(f, "isar2", "S3_0_C0_C6_2");
	READ_ID(f, "pfr0", "S3_0_C0_C4_0");
	READ_ID(f, "pfr1", "S3_0_C0_C4_1");
	READ_ID(f, "zfr0", "S3_0_C0_C4_4");
	READ_ID(f, "mmfr0", "S3_0_C0_C7_0");
	READ_ID(f, "mmfr1", "S3_0_C0_C7_1");
	READ_ID(f, "mmfr2", "S3_0_C0_C7_2");
}
#else
static void read_words(struct cpu_feat *f)
{
	(void)f;
}
#endif

void cpu_feat_read(struct cpu_feat *f)
{
	memset(f, 0, sizeof(*f));
	read_words(f);
	if (f->words[0])
		cpu_feat_digest(f->words, f->digest, sizeof(f->digest));
}
