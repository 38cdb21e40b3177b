// SPDX-License-Identifier: GPL-2.0
/*
 * A known regression for make bench's self-check: burn a fixed number of
 * loop iterations each time a page leaves a page_pool for the page
 * allocator (page_pool_state_release fires once per released page). No
 * clock is read on that path (a clock read costs tens of ns in a VM, and a
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

/*
 * N dependent multiply-adds, a few cycles each. N is read-only data, a
 * constant when the verifier checks the loop, so it is bounded; the empty
 * asm keeps the compiler from folding the loop away.
 */
static __always_inline __u64 burn(__u32 n)
{
	__u64 acc = 1;

	for (__u32 i = 0; i < n; i++) {
		acc = acc * 0x9E3779B97F4A7C15ull + i;
		asm volatile("" : "+r"(acc));
	}
	return acc;
}

SEC("tp_btf/page_pool_state_release")
int BPF_PROG(ppb_burn, __u64 pool, __u64 netmem, __u32 release)
{
	__sync_fetch_and_add(&fired, 1);
	return burn(burn_iters) == 0; /* the result only keeps the loop live */
}

SEC("syscall")
int ppb_burn_calibrate(void *ctx)
{
	__u64 t0 = bpf_ktime_get_ns(), acc = burn(calib_iters);

	calib_ns = bpf_ktime_get_ns() - t0;
	return acc == 0;
}

char LICENSE[] SEC("license") = "GPL";
