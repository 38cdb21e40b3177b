/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pool observer core, shared by the observer programs (tracepoints, fentry)
 * and ppbench's XDP programs: the pool maps, CO-RE reads of pool state that
 * load on 6.1 ... 6.18, and the sampling ledger.
 *
 * BPF-only header. Pointers from tracepoints are handled as plain u64 and
 * read with BPF_CORE_READ (bpf_probe_read_kernel), so the same code works in
 * raw_tp, fentry and XDP programs, whatever BTF type an argument has on a
 * given kernel (struct page * before 6.12, netmem_ref after).
 */
#ifndef PPBENCH_POOL_BPF_H
#define PPBENCH_POOL_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "ppbench.h"
#include "pool_compat.bpf.h"

/* ---- maps (the XDP objects reuse the observer's fds) -------------------- */

/*
 * Preallocated: a tracing program that finds the BPF allocator's per-CPU
 * cache empty gets no element from a map that is not, and the pool goes
 * uncounted while the map has room. A deleted element is reused at once, so
 * user space deletes only records nothing touches again (PPB_POOL_F_GONE).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PPB_MAX_POOLS);
	__type(key, struct ppb_pool_key);
	__type(value, struct ppb_pool_info);
} pool_info SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, PPB_MAX_POOLS);
	__type(key, struct ppb_pool_key);
	__type(value, struct ppb_pool_counts);
} pool_counts SEC(".maps");

/*
 * Sparse proof sampling (load): packets since the last sample, per CPU, and
 * the pool of that sample. A flush at the end of an interval hands them to
 * that pool, so the allocation count is complete at every report.
 */
struct proof_cpu {
	struct ppb_pool_key key;
	__u64 unsampled;
	__u64 period; /* sparse sampling: frames between samples (0: sample next) */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct proof_cpu);
} proof_cpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ppb_obs_ctl);
} obs_ctl SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ppb_untracked);
} untracked SEC(".maps");

static __always_inline bool elems_active(void)
{
	__u32 zero = 0;
	struct ppb_obs_ctl *c = bpf_map_lookup_elem(&obs_ctl, &zero);

	return c && c->elems_active;
}

/*
 * Who keeps a pool's allocation ledger (ledger_alloc_side()). Our XDP
 * program while it counts the pool's allocations: it marked the pool
 * PPB_POOL_F_ELEMS, and a run of it is on. It samples the pool on its own
 * packet path; other samplers count only ring returns.
 */
static __always_inline bool ledger_kept_by_xdp(const struct ppb_pool_info *pi)
{
	return (pi->flags & PPB_POOL_F_ELEMS) && elems_active();
}

/* Any sampler, while no program of ours counts the pool's allocations nor runs. */
static __always_inline bool ledger_kept_by_samplers(const struct ppb_pool_info *pi)
{
	return !(pi->flags & PPB_POOL_F_ELEMS) && !elems_active();
}

const volatile struct ppb_obs_config obs_cfg = {};

/* ---- reading pool state ------------------------------------------------- */

static __always_inline __u32 pool_id_of(struct page_pool *pp)
{
	__u32 id = 0;

	if (bpf_core_field_exists(pp->user.id))
		id = BPF_CORE_READ(pp, user.id);
	if (!id)
		id = BPF_CORE_READ(pp, xdp_mem_id);
	return id;
}

/* The device and its namespace: an ifindex alone is ambiguous across netns. */
static __always_inline void pool_set_dev(struct ppb_pool_info *pi, struct net_device *nd)
{
	pi->ifindex = BPF_CORE_READ(nd, ifindex);
	pi->netns_ino = BPF_CORE_READ(nd, nd_net.net, ns.inum);
}

/* Fill kind, device and sizes of a pool seen for the first time. */
static __always_inline void pool_identify(struct page_pool *pp, struct ppb_pool_info *pi)
{
	struct net_device *nd = NULL;
	struct device *dev;

	pi->ring_size = BPF_CORE_READ(pp, ring.size);
	pi->ring_queue = (__u64)BPF_CORE_READ(pp, ring.queue);
	pi->pool_size = BPF_CORE_READ(pp, p.pool_size);
	pi->cpuid = -1;
	if (bpf_core_field_exists(pp->cpuid))
		pi->cpuid = BPF_CORE_READ(pp, cpuid);
	if (pi->ring_size < 2)
		pi->flags |= PPB_POOL_F_TINY_RING;
	if (obs_cfg.ksym_test_run_init_page &&
	    pool_init_callback(pp) == obs_cfg.ksym_test_run_init_page) {
		pi->kind = PPB_POOL_TEST_RUN;
		return;
	}
	if (pool_is_system(pp)) {
		pi->kind = PPB_POOL_SYSTEM;
		return;
	}
	if (bpf_core_field_exists(pp->slow.netdev))
		nd = BPF_CORE_READ(pp, slow.netdev);
	if (nd && (__u64)nd != PPB_NET_PTR_POISON) {
		pi->kind = PPB_POOL_NIC;
		pool_set_dev(pi, nd);
	}
	if (bpf_core_field_exists(pp->p.napi)) {
		struct napi_struct *napi = BPF_CORE_READ(pp, p.napi);

		if (napi) {
			pi->napi_id = BPF_CORE_READ(napi, napi_id);
			if (!pi->ifindex)
				pool_set_dev(pi, BPF_CORE_READ(napi, dev));
			pi->kind = PPB_POOL_NIC;
		}
	}
	/* veth (6.6+) sets p.dev to &netdev->dev: check it is a veth before trusting it. */
	dev = BPF_CORE_READ(pp, p.dev);
	if (dev && !pi->kind && obs_cfg.ksym_veth_xmit) {
		nd = (void *)((char *)dev - bpf_core_field_offset(struct net_device, dev));
		if ((__u64)BPF_CORE_READ(nd, netdev_ops, ndo_start_xmit) ==
		    obs_cfg.ksym_veth_xmit) {
			pi->kind = PPB_POOL_VETH;
			pool_set_dev(pi, nd);
		}
	}
}

/* Unconsumed ring entries. producer == consumer_head means empty or full:
 * the slot at consumer_head is non-NULL only when the ring is full. */
static __always_inline __u32 ring_occupancy(__u32 prod, __u32 cons, __u32 size, __u64 queue)
{
	__u64 slot = 0;

	if (prod != cons)
		return prod > cons ? prod - cons : prod + size - cons;
	if (!queue || cons >= size)
		return 0;
	bpf_probe_read_kernel(&slot, sizeof(slot), (void *)(queue + (__u64)cons * 8));
	return slot ? size : 0;
}

/*
 * Two 32-bit fields of one object, at CO-RE offsets o1 < o2, with one
 * bpf_probe_read_kernel() when they lie within PAIR_SPAN bytes: a sample's
 * cost is its helper calls, not the bytes they copy. The offsets are
 * constants once relocated, so the verifier keeps one of the two branches.
 */
#define PAIR_SPAN 72

static __always_inline void read_u32_pair(__u64 base, __u32 o1, __u32 o2, __u32 *a, __u32 *b)
{
	__u8 buf[PAIR_SPAN] __attribute__((aligned(8)));

	if (o2 > o1 && o2 - o1 <= PAIR_SPAN - 4) {
		bpf_probe_read_kernel(buf, o2 - o1 + 4, (void *)(base + o1));
		*a = *(__u32 *)buf;
		*b = *(__u32 *)(buf + (o2 - o1));
		return;
	}
	bpf_probe_read_kernel(a, 4, (void *)(base + o1));
	bpf_probe_read_kernel(b, 4, (void *)(base + o2));
}

/*
 * The pool's counters, in four reads: the ring's producer and consumer sit
 * one cache line apart, the hold count next to frag_users. Fields are read
 * as their low 32 bits (frag_users is a long; only its change matters).
 */
static __always_inline void pool_read_counters(struct page_pool *pp, struct ppb_pool_state *st,
					       __u32 *frag_users)
{
	__u64 base = (__u64)pp;

	st->cache = BPF_CORE_READ(pp, alloc.count);
	read_u32_pair(base, bpf_core_field_offset(pp->ring.producer),
		      bpf_core_field_offset(pp->ring.consumer_head), &st->prod, &st->cons);
	read_u32_pair(base, bpf_core_field_offset(pp->pages_state_hold_cnt),
		      bpf_core_field_offset(pp->frag_users), &st->hold, frag_users);
	st->release = BPF_CORE_READ(pp, pages_state_release_cnt.counter);
}

static __always_inline void pool_read_state(struct page_pool *pp, const struct ppb_pool_info *pi,
					    struct ppb_pool_state *st, __u32 *frag_users)
{
	pool_read_counters(pp, st, frag_users);
	st->occ = ring_occupancy(st->prod, st->cons, pi->ring_size, pi->ring_queue);
}

/* ---- pool records ------------------------------------------------------- */

/* No record or no counts for this pool (the maps full): its pages go
 * uncounted, and user space says so. */
static __always_inline void pool_untracked(const struct ppb_pool_key *key)
{
	__u32 zero = 0;
	struct ppb_untracked *u = bpf_map_lookup_elem(&untracked, &zero);

	if (!u)
		return;
	u->events++;
	if (u->last_ptr != key->ptr || u->last_id != key->id) {
		u->last_ptr = key->ptr;
		u->last_id = key->id;
		u->pools++;
	}
}

/* A new pool's counts: from global data, not the stack, whose 512 bytes the
 * NAPI sampler's chain of calls (bpf_loop callback, sampler) nearly fills. */
const struct ppb_pool_counts zero_counts = {};

/* A pool's per-CPU counts, created on first use; if that fails (no room),
 * the pool's events go uncounted: said. */
static __always_inline struct ppb_pool_counts *pool_counts_of(struct ppb_pool_key *key)
{
	struct ppb_pool_counts *c;

	c = bpf_map_lookup_elem(&pool_counts, key);
	if (c)
		return c;
	bpf_map_update_elem(&pool_counts, key, &zero_counts, BPF_NOEXIST);
	c = bpf_map_lookup_elem(&pool_counts, key);
	if (!c)
		pool_untracked(key);
	return c;
}

static __always_inline void pool_key_of(__u64 ptr, struct ppb_pool_key *key)
{
	key->ptr = ptr;
	key->id = pool_id_of((struct page_pool *)ptr);
	key->pad = 0;
}

/*
 * Find or create the record of pool ptr. A new record's baseline is the
 * current state, or all zero when the caller knows this is the pool's very
 * first page ('fresh': state_hold with hold == 1).
 */
static __always_inline struct ppb_pool_info *pool_get_new(__u64 ptr, struct ppb_pool_key *key,
							  bool fresh, bool *created)
{
	struct page_pool *pp = (void *)ptr;
	struct ppb_pool_info *pi, init = {};

	pool_key_of(ptr, key);
	pi = bpf_map_lookup_elem(&pool_info, key);
	if (pi)
		return pi;
	*created = true;
	init.ptr = ptr;
	init.id = key->id;
	init.first_ns = bpf_ktime_get_ns();
	pool_identify(pp, &init);
	if (fresh)
		init.flags |= PPB_POOL_F_SEEN_FRESH;
	else
		pool_read_state(pp, &init, &init.last, &init.frag_users);
	init.ret_prod = init.last.prod;
	bpf_map_update_elem(&pool_info, key, &init, BPF_NOEXIST);
	pi = bpf_map_lookup_elem(&pool_info, key);
	if (!pi)
		pool_untracked(key);
	return pi;
}

static __always_inline struct ppb_pool_info *pool_get(__u64 ptr, struct ppb_pool_key *key,
						      bool fresh)
{
	bool created = false;

	return pool_get_new(ptr, key, fresh, &created);
}

/* ---- the sampling ledger (tracepoint backend) --------------------------- */

/*
 * Account what happened to the pool since its last sample, from the change
 * of its state. On every kernel an allocation takes a page from the alloc
 * cache (alloc.count drops), refills an empty cache from the ring first
 * (ring.consumer_head moves), or gets pages from the page allocator
 * (pages_state_hold_cnt grows); a return goes into the cache (direct
 * recycling, alloc.count grows), into the ring (ring.producer moves) or back
 * to the page allocator (pages_state_release_cnt grows). So:
 *   ring returns   = producer delta (exact while < ring size per interval)
 *   refill pages   = produces - occupancy delta
 *   direct returns = cache delta - refill pages - slow pages + allocations
 * Ring returns are counted by any sampler, for the sampling CPU. The rest is
 * the allocation side: only 'alloc_side' samplers (the program that sees the
 * pool's allocations and counts them in pending_elems, or any sampler when no
 * such program exists) keep that ledger, so it stays on the allocating CPU.
 * Deltas are added signed and never dropped: state read while another CPU
 * works on the pool is slightly inconsistent, but the error of one interval
 * is undone by the next, so sums are exact. A try-lock keeps two samplers
 * from using one baseline (tracing programs cannot take spin locks); a
 * skipped sample loses nothing, the next one sees the same deltas.
 */
static __always_inline void ledger_alloc_side(struct ppb_pool_info *pi, struct ppb_pool_counts *c,
					      const struct ppb_pool_state *now, __u64 elems)
{
	const struct ppb_pool_state *last = &pi->last;
	__s64 dprod, docc, cons, dhold, dcache;
	bool refill, slow;

	/* Produces since the last allocation-side sample, from the running total
	 * (other CPUs may have produced a whole ring's worth in between). */
	dprod = pi->prod_total - pi->alloc_prod;
	/* u32 differences read as signed: the teardown correction may take a
	 * baseline below zero, and the counters wrap at 2^32. */
	docc = (__s32)(now->occ - last->occ);
	cons = dprod - docc;
	dhold = (__s32)(now->hold - last->hold);
	dcache = (__s32)(now->cache - last->cache);
	if (dhold < 0) { /* counters went back: another pool at this address */
		pi->flags |= PPB_POOL_F_INCONSISTENT;
		return;
	}
	c->refill_pages += cons;
	refill = cons > 0 && !dhold;
	slow = dhold > 0;
	c->cls[PPB_ALLOC_REFILL].calls += refill;
	if (!(pi->flags & PPB_POOL_F_ELEMS))
		return;
	c->cls[PPB_RET_CACHE].calls += dcache - cons - dhold + (__s64)elems;
	if (elems)
		c->cls[PPB_ALLOC_CACHE].calls += elems - refill - slow;
	if (elems > 1)
		pi->flags |=
			(__s64)elems >= pi->ring_size ? PPB_POOL_F_WRAP_RISK : PPB_POOL_F_COARSE;
}

/*
 * Samplers on other CPUs hold the lock for a few hundred ns: wait for it a
 * bounded while (tracing programs may not spin forever), else give up - a
 * skipped sample loses nothing, its deltas go to the next one.
 */
struct lock_try_ctx {
	struct ppb_pool_info *pi;
	__u32 locked;
};

static long lock_try(__u32 i, void *ctx)
{
	struct lock_try_ctx *t = ctx;

	if (__sync_val_compare_and_swap(&t->pi->busy, 0, 1))
		return 0;
	t->locked = 1;
	return 1;
}

/* The first try inline (the usual case: nobody holds it); the retries in
 * bpf_loop, not a counted loop: the verifier checks the try once instead of
 * walking all 2048 iterations at every inlined call site. */
static __always_inline bool pool_lock(struct ppb_pool_info *pi)
{
	struct lock_try_ctx t = { .pi = pi };

	if (!__sync_val_compare_and_swap(&pi->busy, 0, 1))
		return true;
	bpf_loop(2047, lock_try, &t, 0);
	return t.locked;
}

/*
 * The release must order the critical section's stores (the baseline in
 * pi->last, ret_prod, samples) before the store that frees the lock, or a
 * sampler on another CPU takes the lock and reads a half-written baseline.
 * A plain store gives no such order: the compiler may move the section's
 * stores after a volatile one (clang 14 did, in every inlined copy), and on
 * arm64 the JIT emits STR, which the CPU may make visible before earlier
 * stores. A store-release instruction is newer than clang 14 and the
 * kernels of 6.1 (clang 14 cannot even select __atomic_store_n(..,
 * __ATOMIC_RELEASE) for BPF, and turns a release-only exchange whose result
 * is unused into that store), so the lock is freed with an exchange:
 * BPF_XCHG, which every JIT makes fully ordered since 5.12. arm64 emits
 * SWPAL (LSE atomics: acquire and release) or an LDXR/STLXR loop (a
 * store-release) followed by DMB ISH; x86-64 an XCHG, a locked instruction.
 * ACQ_REL is the weakest C ordering that keeps it an exchange.
 */
static __always_inline void pool_unlock(struct ppb_pool_info *pi)
{
	__atomic_exchange_n(&pi->busy, 0, __ATOMIC_ACQ_REL);
}

/* What a sample does besides counting the ring returns (pool_sample_c()). */
enum sample_flags {
	/* Keep the pool's allocation ledger (ledger_alloc_side()): the sampler is
	 * the program that counts its allocations, or no program does. */
	SAMPLE_ALLOC_SIDE = 1 << 0,
	/* The sampler sees every packet or NAPI poll of the pool (PPB_POOL_F_DENSE). */
	SAMPLE_DENSE = 1 << 1,
};

/*
 * The flags of a sampler that is not the pool's XDP program: it keeps the
 * allocation ledger only while no program of ours counts the allocations.
 */
static __always_inline __u32 sampler_flags(const struct ppb_pool_info *pi)
{
	return ledger_kept_by_samplers(pi) ? SAMPLE_ALLOC_SIDE : 0;
}

/* c: the pool's counts on this CPU if the caller has them, else NULL. */
static __always_inline void pool_sample_c(__u64 ptr, struct ppb_pool_info *pi,
					  struct ppb_pool_key *key, struct ppb_pool_counts *c,
					  __u32 flags /* enum sample_flags */)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct ppb_pool_state now;
	__u32 frag_users = 0;
	__s64 dret;

	if (!pool_lock(pi))
		return;
	pool_read_state((void *)ptr, pi, &now, &frag_users);
	if ((flags & SAMPLE_DENSE) && !(pi->flags & PPB_POOL_F_DENSE))
		pi->flags |= PPB_POOL_F_DENSE;
	/*
	 * Fragments handed out since the last sample: several packets share a
	 * page, reused in place when all are freed (page_pool_drain_frag),
	 * invisible to the counters. A count that does not move is a fragment
	 * page left from earlier traffic (the pool keeps it until it fragments
	 * again), not this traffic's.
	 */
	if (!(pi->flags & PPB_POOL_F_FRAG) && pi->samples && frag_users != pi->frag_users)
		pi->flags |= PPB_POOL_F_FRAG;
	pi->frag_users = frag_users;
	if (obs_cfg.fentry)
		c = NULL;
	else if (!c)
		c = pool_counts_of(key);
	if (!c)
		goto save; /* fentry counts every call; keep the state for in-flight */
	dret = (__s64)now.prod - (__s64)pi->ret_prod;
	if (dret < 0)
		dret += pi->ring_size;
	/* Once destroy began, late returns are not classified (see ppb_tp_release). */
	if (!(pi->flags & PPB_POOL_F_DYING))
		c->cls[PPB_RET_RING].calls += dret;
	pi->prod_total += dret;
	c->samples++;
	if (pi->samples && cpu != pi->last_cpu)
		pi->flags |= PPB_POOL_F_MULTI_CPU;
	/* After destroy the scrub consumes the ring: that is no refill. A 1-entry
	 * ring shows no index movement at all. */
	if ((flags & SAMPLE_ALLOC_SIDE) && !(pi->flags & (PPB_POOL_F_DYING | PPB_POOL_F_TINY_RING)))
		ledger_alloc_side(pi, c, &now, __sync_lock_test_and_set(&pi->pending_elems, 0));
save:
	pi->ret_prod = now.prod;
	if ((flags & SAMPLE_ALLOC_SIDE) || obs_cfg.fentry) {
		pi->last = now;
		pi->alloc_prod = pi->prod_total;
	}
	pi->samples++;
	pi->last_cpu = cpu;
	pool_unlock(pi);
}

static __always_inline void pool_sample(__u64 ptr, struct ppb_pool_info *pi,
					struct ppb_pool_key *key, __u32 flags)
{
	pool_sample_c(ptr, pi, key, NULL, flags);
}

#endif
