// SPDX-License-Identifier: GPL-2.0
/*
 * A known regression for make bench's self-check: burn a fixed number of
 * loop iterations each time a page leaves a page_pool for the page
 * allocator (page_pool_state_release fires once per released page). The
 * loop is not a clock spin (a clock read costs tens of ns in a VM, and a
 * bpf_loop step about 10): the loader times the same loop with
 * ppb_burn_calibrate and picks the count.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

const volatile __u32 burn_iters = 0;
const volatile __u32 calib_iters = 20000;
__u64 fired = 0;
__u64 calib_ns = 0;
__u64 sink = 0;

/*
 * N dependent multiply-adds, a few cycles each. N is read-only data, a
 * constant when the verifier checks the loop, so it is bounded; the empty
 * asm keeps the compiler from folding the loop away.
 */
static __always_inline __u64 burn(__u64 acc, __u32 n)
{
	for (__u32 i = 0; i < n; i++) {
		acc = acc * 0x9E3779B97F4A7C15ull + i;
		asm volatile("" : "+r"(acc));
	}
	return acc;
}

/*
 * The chain sits between two clock reads, whose rdtsc waits for all earlier
 * instructions: it cannot overlap the kernel's work before it, and the
 * kernel's work after it waits for the second read. Without that, out-of-
 * order execution overlaps a short chain with the work around it (seen,
 * with locked adds around it: +66-70 ns for 100 ns asked, +400 for 400).
 * The two reads cost the same with 0 iterations: the reference pays them too.
 */
static __always_inline __u64 fenced_burn(__u32 n)
{
	__u64 t0 = bpf_ktime_get_ns(), acc = burn(t0, n);

	return bpf_ktime_get_ns() + acc;
}

SEC("tp_btf/page_pool_state_release")
int BPF_PROG(ppb_burn, __u64 pool, __u64 netmem, __u32 release)
{
	__sync_fetch_and_add(&fired, 1);
	sink += fenced_burn(burn_iters);
	return 0;
}

/* ns per iteration: the same fenced chain, long, minus the same with none. */
SEC("syscall")
int ppb_burn_calibrate(void *ctx)
{
	__u64 t0 = bpf_ktime_get_ns(), t1;

	sink += fenced_burn(calib_iters);
	t1 = bpf_ktime_get_ns();
	sink += fenced_burn(0);
	calib_ns = (t1 - t0) - (bpf_ktime_get_ns() - t1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
