/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_KIMAGE_H
#define PPBENCH_KIMAGE_H

#include <stddef.h>

/*
 * What a kernel image file is, from its first bytes: the boot protocols
 * qemu's -kernel takes. The x86 boot protocol puts "HdrS" at 0x202 of a
 * bzImage; an arm64 Image has "ARM\x64" at 0x38; an EFI zboot image (arm64's
 * vmlinuz since CONFIG_EFI_ZBOOT) is a PE file with "zimg" at 4 and its
 * machine (0xaa64) in the PE header; Debian's older arm64 vmlinuz is a gzip
 * of an Image (qemu unpacks it), an ELF vmlinux names its machine.
 */
enum kernel_image_kind {
	KIMAGE_UNKNOWN,
	KIMAGE_X86_64, /* bzImage, or an x86-64 ELF vmlinux */
	KIMAGE_ARM64,  /* Image, EFI zboot, or an aarch64 ELF vmlinux */
	KIMAGE_GZIP,   /* compressed: kernel_image_sniff_gzip() looks inside */
};

enum kernel_image_kind kernel_image_sniff(const unsigned char *buf, size_t len);
/* "x86-64", "arm64", "gzip-compressed", "not a kernel image". */
const char *kernel_image_name(enum kernel_image_kind k);

#endif
