/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_VM_RUN_H
#define PPBENCH_VM_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/kimage.h"

/* --clock: qemu's instruction clock (the default), or plain emulation. */
enum vm_clock { VM_CLOCK_ICOUNT, VM_CLOCK_TCG };

/* --arch: the guest's architecture (its kernels, its static ppbench, its qemu). */
enum vm_arch { VM_ARCH_X86_64, VM_ARCH_ARM64 };

/* --stall's default, and the floor of a boot's silence whatever --stall says:
 * a kernel booting with "quiet" prints nothing until init runs. */
#define VM_STALL_DEFAULT_S 300

/* The guest's NIC pair (--nic[=MODEL]): none, or two of one model on a qemu hub. */
enum vm_nic { VM_NIC_NONE, VM_NIC_VMXNET3, VM_NIC_VIRTIO };

struct vm_cfg {
	const char *debian;  /* --debian SPEC (default "newest") */
	const char *kernel;  /* --kernel IMAGE */
	const char *modules; /* --modules DIR */
	int clock;	     /* enum vm_clock */
	int arch;	     /* enum vm_arch */
	uint32_t cpus;	     /* 0: the clock's default */
	uint32_t mem_mb;
	int nic;       /* enum vm_nic: --nic[=MODEL] */
	uint32_t rate; /* --rate: pktgen frames/s from peer0 to nic0, 0: none */
	double stall;  /* seconds without a byte from the guest */
	bool quiet;
};

/*
 * Boots the guest and runs ppbench ARGV[0] ARGV[1..] (the command line after
 * "--", checked by the caller) in it; the command's stdout and stderr come
 * out on ours as it prints them, its files at the paths its options named.
 * Returns the command's exit status, or EXIT_USAGE (the guest could not run
 * it: the one-line reason is printed), or EXIT_FAIL.
 */
int vm_run(const struct vm_cfg *cfg, int argc, char **argv);

/*
 * The kind of the kernel image at PATH, whose first LEN bytes are HEAD; a
 * gzip-compressed image is looked at inside.
 */
enum kimage_kind vm_image_kind(const char *path, const unsigned char *head, size_t len);
/* The number of CPUs a guest gets when --cpus is not given. */
uint32_t vm_default_cpus(int clock);
/* ARCH's name ("x86-64", "arm64"), qemu program and Debian package of it. */
const char *vm_arch_name(int arch);
const char *vm_arch_qemu(int arch);
const char *vm_arch_qemu_pkg(int arch);
/* The image kind a guest of ARCH boots. */
enum kimage_kind vm_arch_image(int arch);

#endif
