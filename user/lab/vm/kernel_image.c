// SPDX-License-Identifier: GPL-2.0
/* The kind of a kernel image from its first bytes (kernel_image.h). */
#include <stdint.h>
#include <string.h>
#include "vm/kernel_image.h"

#define ELF_MACHINE_X86_64 62
#define ELF_MACHINE_AARCH64 183
#define PE_MACHINE_ARM64 0xaa64

static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static enum kernel_image_kind elf_kind(const unsigned char *b, size_t len)
{
	uint16_t m;

	if (len < 20 || b[5] != 1) /* little-endian only */
		return KIMAGE_UNKNOWN;
	m = le16(b + 18);
	if (m == ELF_MACHINE_X86_64)
		return KIMAGE_X86_64;
	return m == ELF_MACHINE_AARCH64 ? KIMAGE_ARM64 : KIMAGE_UNKNOWN;
}

/* A PE image: its machine, at the COFF header that 0x3c points to. */
static enum kernel_image_kind pe_kind(const unsigned char *b, size_t len)
{
	uint32_t pe;

	if (len < 0x40)
		return KIMAGE_UNKNOWN;
	pe = le32(b + 0x3c);
	if (pe > len - 6 || memcmp(b + pe, "PE\0\0", 4))
		return KIMAGE_UNKNOWN;
	return le16(b + pe + 4) == PE_MACHINE_ARM64 ? KIMAGE_ARM64 : KIMAGE_UNKNOWN;
}

enum kernel_image_kind kernel_image_sniff(const unsigned char *b, size_t len)
{
	if (len >= 4 && !memcmp(b,
				"\x7f"
				"ELF",
				4))
		return elf_kind(b, len);
	if (len >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		return KIMAGE_GZIP;
	if (len >= 0x3c && !memcmp(b + 0x38, "ARM\x64", 4))
		return KIMAGE_ARM64;
	if (len >= 0x206 && !memcmp(b + 0x202, "HdrS", 4) && b[0x1fe] == 0x55 && b[0x1ff] == 0xaa)
		return KIMAGE_X86_64;
	if (len >= 8 && b[0] == 'M' && b[1] == 'Z')
		return pe_kind(b, len);
	return KIMAGE_UNKNOWN;
}

const char *kernel_image_name(enum kernel_image_kind k)
{
	switch (k) {
	case KIMAGE_X86_64:
		return "x86-64";
	case KIMAGE_ARM64:
		return "arm64";
	case KIMAGE_GZIP:
		return "gzip-compressed";
	default:
		return "not a kernel image";
	}
}
