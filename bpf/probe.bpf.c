// SPDX-License-Identifier: GPL-2.0
/*
 * Feature probes. Each program is loaded on its own (autoload off for the
 * others), so one refused program type does not hide the rest.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "ppbench.h"

SEC("xdp")
int ppb_probe_xdp(struct xdp_md *ctx)
{
	return XDP_DROP;
}

SEC("xdp.frags")
int ppb_probe_frags(struct xdp_md *ctx)
{
	return XDP_DROP;
}

SEC("xdp/cpumap")
int ppb_probe_cpumap(struct xdp_md *ctx)
{
	return XDP_DROP;
}

SEC("xdp/devmap")
int ppb_probe_devmap(struct xdp_md *ctx)
{
	return XDP_DROP;
}

/* fentry needs BPF trampolines and a kernel that allows them (lockdown, LSMs). */
SEC("fentry/bpf_fentry_test1")
int BPF_PROG(ppb_probe_fentry, int a)
{
	return 0;
}

/*
 * A kernel symbol's address by name, modules included: one lookup in the
 * kernel, where libbpf's __ksym externs read all of /proc/kallsyms for every
 * object (seconds in an emulated guest). User space writes the name, NUL
 * padded (the helper wants the buffer's last byte 0; the lookup stops at the
 * first), runs the program and reads the result.
 */
char ksym_name[64];
__u64 ksym_addr;
long ksym_err;

SEC("syscall")
int ppb_probe_ksym(void *ctx)
{
	ksym_err = bpf_kallsyms_lookup_name(ksym_name, sizeof(ksym_name), 0, &ksym_addr);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
