/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs in struct page_pool between the kernels ppbench loads on
 * (6.1 ... 7.x): CO-RE flavours of the older and newer layouts, the
 * accessors that pick the one this kernel has, and the kernel's pool
 * constants. BPF-only header, included by pool.bpf.h.
 */
#ifndef PPBENCH_POOL_COMPAT_BPF_H
#define PPBENCH_POOL_COMPAT_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>

/*
 * The most entries of a pool's alloc cache (the kernel's PP_ALLOC_CACHE_SIZE
 * on 4K pages, 128 in every version; a power of two: indexes are masked with
 * size - 1). This kernel's own is pool_cache_entries().
 */
#define PPB_ALLOC_CACHE_SIZE 128

/* <= 6.7: init_callback and flags sit in p (struct page_pool_params). */
struct page_pool_params___old {
	unsigned int flags;
	void *init_callback;
} __attribute__((preserve_access_index));

struct page_pool___old {
	struct page_pool_params___old p;
} __attribute__((preserve_access_index));

/* <= 6.11: the alloc cache holds struct page pointers, not netmem_ref. */
struct pp_alloc_cache___page {
	__u32 count;
	struct page *cache[PPB_ALLOC_CACHE_SIZE];
} __attribute__((preserve_access_index));

struct page_pool___page {
	struct pp_alloc_cache___page alloc;
} __attribute__((preserve_access_index));

/*
 * Entries of this kernel's alloc cache: PP_ALLOC_CACHE_SIZE: 128 on 4K pages;
 * 32 on 16K and 8 on 64K pages in kernels that scale it, as 7.3 does. A
 * macro is not in BTF, but the array it sizes is.
 */
static __always_inline __u32 pool_cache_entries(void)
{
	struct page_pool___page *old = NULL;
	struct page_pool *pp = NULL;

	if (bpf_core_field_exists(old->alloc.cache))
		return bpf_core_field_size(old->alloc.cache) / sizeof(__u64);
	return bpf_core_field_size(pp->alloc.cache) / sizeof(__u64);
}

/* Address of alloc.cache[i] whatever the element type of this kernel. */
static __always_inline void *pool_cache_slot(struct page_pool *pp, __u32 i)
{
	struct page_pool___page *old = (void *)pp;

	if (bpf_core_field_exists(old->alloc.cache))
		return &old->alloc.cache[i & (PPB_ALLOC_CACHE_SIZE - 1)];
	return &pp->alloc.cache[i & (PPB_ALLOC_CACHE_SIZE - 1)];
}

/*
 * The kernel's poison values are offsets from POISON_POINTER_DELTA, which is
 * CONFIG_ILLEGAL_POINTER_VALUE, or 0 where an arch has none
 * (include/linux/poison.h; 0xdead000000000000 on x86-64 and arm64). Not
 * __weak: user space hands libbpf the running kernel's value (ppb_open_opts())
 * or refuses to run, and a value missing there must fail the load, never
 * read as 0.
 */
extern unsigned long CONFIG_ILLEGAL_POINTER_VALUE __kconfig;
#define PPB_POISON_POINTER_DELTA CONFIG_ILLEGAL_POINTER_VALUE
/* slow.netdev of a pool whose device was unregistered (6.8+: NET_PTR_POISON). */
#define PPB_NET_PTR_POISON (0x801 + PPB_POISON_POINTER_DELTA)
/* What page_pool ORs into page->pp_magic of each of its pages (PP_SIGNATURE). */
#define PPB_PP_SIGNATURE (0x40 + PPB_POISON_POINTER_DELTA)
/* 6.15+ keeps a DMA index in pp_magic from this bit up: 1 + __fls(0x40). */
#define PPB_PP_DMA_INDEX_SHIFT 7

/*
 * The pp_magic bits compared with PP_SIGNATURE: all but bits 0-1 (compound
 * head, pfmemalloc) and, since 6.15, the DMA index (PP_MAGIC_MASK). The
 * index has min(32, __ffs(delta) - shift) bits, so it ends below the lowest
 * bit of the delta (bits 7-38 on x86-64 and arm64). Older kernels leave
 * those bits 0 in their pages, so the mask holds for them too.
 */
static __always_inline __u64 pp_magic_mask(void)
{
	__u64 delta = PPB_POISON_POINTER_DELTA;
	__u64 below_delta = (delta & -delta) - 1; /* all ones if delta is 0 */
	__u64 dma_index = below_delta & (0xffffffffULL << PPB_PP_DMA_INDEX_SHIFT);

	return ~(dma_index | 3);
}

/* 6.9+: PP_FLAG_SYSTEM_POOL in slow.flags (in <= 6.6 that bit means PP_FLAG_PAGE_FRAG). */
#define PPB_PP_FLAG_SYSTEM_POOL (1U << 2)

static __always_inline __u64 pool_init_callback(struct page_pool *pp)
{
	struct page_pool___old *old = (void *)pp;

	if (bpf_core_field_exists(pp->slow.init_callback))
		return (__u64)BPF_CORE_READ(pp, slow.init_callback);
	if (bpf_core_field_exists(old->p.init_callback))
		return (__u64)BPF_CORE_READ(old, p.init_callback);
	return 0;
}

/*
 * After 6.18 (seen in 7.3) struct page_pool has a 'system' bit, which the
 * kernel sets only under CONFIG_PAGE_POOL_STATS; the flag in slow.flags stays
 * the one source that does not depend on the config, so either says so.
 */
struct page_pool___sysbit {
	bool system : 1;
} __attribute__((preserve_access_index));

static __always_inline bool pool_is_system(struct page_pool *pp)
{
	struct page_pool___sysbit *sb = (void *)pp;

	if (bpf_core_field_exists(sb->system) && BPF_CORE_READ_BITFIELD_PROBED(sb, system))
		return true;
	if (bpf_core_field_exists(pp->slow.flags) && bpf_core_field_exists(pp->cpuid))
		return BPF_CORE_READ(pp, slow.flags) & PPB_PP_FLAG_SYSTEM_POOL;
	return false;
}

#endif
