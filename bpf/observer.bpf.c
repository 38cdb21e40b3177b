// SPDX-License-Identifier: GPL-2.0
/*
 * The page_pool observer: per pool, per CPU, which path each allocation and
 * return took. Two backends, chosen by user space from what the kernel allows:
 *
 * fentry: fentry/fexit on the exported alloc/put entry points classify every
 *   call exactly and time it: pages_state_hold_cnt grown inside an allocation
 *   makes it slow; state_release, firing inside a put on the same CPU, marks a
 *   release (the one program of ours that runs inside a timed call: it times
 *   itself, and the put's time leaves its own out).
 * tracepoint: state_hold/state_release count slow allocations and releases
 *   exactly; ring and cache traffic come from pool-state samples taken by
 *   programs already on the path (our XDP programs, napi_poll for veth,
 *   these tracepoints), see pool_sample().
 *
 * Tracepoints are raw_tp so every argument is a plain u64 whatever its BTF
 * type on a given kernel; fentry arguments are read with bpf_get_func_arg().
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "ppbench.h"
#include "pool.bpf.h"

/*
 * Entries of one page_pool_put_netmem_bulk() call: xdp_return_frame_bulk()
 * flushes its queue at XDP_BULK_QUEUE_SIZE (16) frames. Each entry's pool
 * has a slot, so at most 16 pools.
 */
#define BULK_POOLS 16

/* In-flight call state of the fentry backend, per task (see scratch). */
struct call_scratch {
	__u64 alloc_t0;
	__u64 put_t0;
	__u64 cal_t0;
	__u64 alloc_t1; /* a nested call's exit: the innermost call is timed */
	__u64 put_t1;
	__u64 alloc_i0; /* the CPU's interrupt time at alloc_t0, see irq_clock */
	__u64 alloc_i1; /* ... at alloc_t1 */
	__u64 put_i0;
	__u64 put_i1;
	__u32 alloc_cpu; /* the CPU at alloc_t0 */
	__u32 put_cpu;
	__u64 alloc_pool;
	__u32 alloc_depth;
	__u32 alloc_c0; /* alloc.count at entry */
	__u32 alloc_h0; /* pages_state_hold_cnt at entry */
	__u32 put_depth;
	__u64 put_pool;
	__u64 put_netmem;
	__u32 put_c0;
	__u32 put_cons0;    /* single put: ring.consumer_head at entry */
	__u32 put_released; /* state_release events inside the call */
	__u64 put_tp_ns;    /* ... and the time ppb_tp_release spent there */
	__u32 put_count;    /* bulk: entries */
	__u32 bulk_nr;	    /* mixed bulk (6.14+): distinct pools in bulk_* */
	__u32 alloc_nested; /* hooked calls inside the outermost alloc (a wrapper's) */
	__u32 put_nested;   /* ... and put */
	/* Mixed-pool bulk return (6.14+): its entries grouped by pool. */
	__u64 bulk_pool[BULK_POOLS];
	__u32 bulk_n[BULK_POOLS];   /* entries of that pool */
	__u32 bulk_c0[BULK_POOLS];  /* its alloc.count at entry */
	__u32 bulk_rel[BULK_POOLS]; /* its state_release events inside the call */
};

/*
 * Per task, keyed by its task_struct: a kernel with preemption (lazy
 * preemption in 7.x) can preempt a task inside a hooked call and move it to
 * another CPU, so state kept per CPU saw the entry on one CPU and the exit on
 * the other, and the first CPU's depth stayed raised, every later call there
 * taken for a wrapper's inner one (a vmxnet3 ring fill under rtnl went
 * uncounted after a few calls). An interrupt's calls nest on the task it
 * interrupted, last in first out. LRU: tasks come and go, and an entry in
 * use is always recent.
 */
#define SCRATCH_TASKS 4096

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, SCRATCH_TASKS);
	__type(key, __u64);
	__type(value, struct call_scratch);
} scratch SEC(".maps");

/* A new task's state, from global data: the struct is too big for the stack. */
static const struct call_scratch zero_scratch = {};

/*
 * The pools of a device, from mem_connect (NIC drivers register one per RX
 * queue), so NAPI polls of that device can sample them: drivers need not set
 * p.napi or slow.netdev (vmxnet3 sets neither).
 */
#define DEV_POOLS 8

struct dev_key {
	__u32 ifindex;
	__u32 netns;
};

struct dev_pools {
	struct ppb_pool_key pool[DEV_POOLS];
	__u32 next;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, struct dev_key);
	__type(value, struct dev_pools);
} dev_pools SEC(".maps");

/* Records marked GONE: user space reads the maps when enough wait (obs_drain()). */
__u64 pools_gone;

/* The task's state, or NULL if it has none: then no hooked call of it is in
 * flight (exits and the tracepoints inside calls need no more). */
static __always_inline struct call_scratch *scratch_find(void)
{
	__u64 task = bpf_get_current_task();

	return bpf_map_lookup_elem(&scratch, &task);
}

/* The task's state, created at its first hooked call (entries only). */
static __always_inline struct call_scratch *scratch_get(void)
{
	__u64 task = bpf_get_current_task();
	struct call_scratch *s = bpf_map_lookup_elem(&scratch, &task);

	if (s)
		return s;
	bpf_map_update_elem(&scratch, &task, &zero_scratch, BPF_NOEXIST);
	return bpf_map_lookup_elem(&scratch, &task);
}

static __always_inline __u32 page_refcount(__u64 netmem)
{
	struct page *page = (void *)netmem;

	if (netmem & 1) /* net_iov (6.12+ memory providers): no page refcount */
		return 1;
	return BPF_CORE_READ(page, _refcount.counter);
}

/* ---- exact counts from the tracepoints ---------------------------------- */

/* Tracepoint backend only: under fentry, a program here would run inside the
 * timed allocation once per page of a slow bulk, and pages_state_hold_cnt
 * tells the same (alloc_exit). */
SEC("raw_tp/page_pool_state_hold")
int BPF_PROG(ppb_tp_hold, __u64 pool, __u64 netmem, __u32 hold)
{
	struct ppb_pool_key key;
	struct ppb_pool_counts *c;
	struct ppb_pool_info *pi;

	pi = pool_get(pool, &key, hold == 1);
	c = pi ? pool_counts_of(&key) : NULL;
	if (!c)
		return 0;
	c->slow_pages++;
	/* The slow path runs only on an empty cache and fills it page by page:
	 * alloc.count is 1 at the first page of a bulk (0 for a high-order page). */
	if (BPF_CORE_READ((struct page_pool *)pool, alloc.count) <= 1)
		c->cls[PPB_ALLOC_SLOW].calls++;
	return 0;
}

/*
 * The first teardown release: reconstruct the state just before the scrub
 * (this page left the cache or the ring), take a last data-path sample with
 * it, then stop counting refills (the scrub consumes the ring).
 * page_pool_scrub() empties the cache (the page is the slot above the count),
 * then raises destroy_cnt, then empties the ring. A release that is neither
 * is another CPU's put that found the ring full after user_cnt fell to 0 and
 * before the scrub: a data-path release, and no teardown yet (false). Taking
 * it for the ring's scrub put one direct return too many in the ledger.
 */
static __always_inline bool teardown_begin(__u64 pool, __u64 netmem, struct ppb_pool_info *pi,
					   struct ppb_pool_key *key)
{
	struct page_pool *pp = (void *)pool;
	__u64 slot = 0;
	__u32 cache;

	cache = BPF_CORE_READ(pp, alloc.count);
	if (cache < pool_cache_entries())
		bpf_probe_read_kernel(&slot, sizeof(slot), pool_cache_slot(pp, cache));
	if (slot != netmem && !BPF_CORE_READ(pp, destroy_cnt))
		return false;
	if (!obs_cfg.fentry && pool_lock(pi)) {
		/* Undo the scrub's step in the baseline instead of in 'now'. */
		if (slot == netmem)
			pi->last.cache--;
		else
			pi->last.occ--;
		pool_unlock(pi);
		pool_sample(pool, pi, key, SAMPLE_ALLOC_SIDE);
	}
	__sync_fetch_and_or(&pi->flags, PPB_POOL_F_DYING);
	return true;
}

/* A release inside a mixed bulk return: counted for its pool's slot. */
static __always_inline bool bulk_count_release(struct call_scratch *s, __u64 pool)
{
	for (__u32 j = 0; j < BULK_POOLS; j++) {
		if (j >= s->bulk_nr)
			break;
		if (s->bulk_pool[j] == pool) {
			s->bulk_rel[j]++;
			return true;
		}
	}
	return false;
}

SEC("raw_tp/page_pool_state_release")
int BPF_PROG(ppb_tp_release, __u64 pool, __u64 netmem, __u32 release)
{
	/* First: inside a timed put (fentry), this program's own time is left
	 * out of the put's (put_exit). The tracepoint backend times no call, and
	 * obs_cfg is constant at load, so its programs read no clock here. */
	__u64 t0 = obs_cfg.fentry ? bpf_ktime_get_ns() : 0;
	struct ppb_pool_key key;
	struct ppb_pool_counts *c;
	struct ppb_pool_info *pi;
	struct call_scratch *s;
	bool in_put, dying;

	pi = pool_get(pool, &key, false);
	c = pi ? pool_counts_of(&key) : NULL;
	if (!c)
		return 0;
	s = obs_cfg.fentry ? scratch_find() : NULL;
	in_put = s && s->put_depth && (s->put_pool == pool || bulk_count_release(s, pool));
	/* page_pool_destroy() drops user_cnt to 0 before it scrubs. */
	dying = !BPF_CORE_READ((struct page_pool *)pool, user_cnt.refs.counter);
	if (dying && !in_put && !(pi->flags & PPB_POOL_F_DYING))
		dying = teardown_begin(pool, netmem, pi, &key);
	/*
	 * After destroy began, a release is the scrub, or a late return of an
	 * in-flight page that found the ring full. fentry tells them apart (the
	 * latter is inside a put call); sampling cannot, so the tracepoint
	 * backend stops classifying returns here and user space reports the
	 * returns it did not see as unclassified.
	 */
	if (dying && !in_put) {
		c->rel_teardown++;
		return 0;
	}
	c->cls[PPB_RET_RELEASE].calls++;
	if (page_refcount(netmem) > 1)
		c->rel_refcnt++;
	else
		c->rel_other++;
	if (in_put && s->put_pool == pool) {
		s->put_released++;
		s->put_tp_ns += bpf_ktime_get_ns() - t0; /* last */
	} else if (!obs_cfg.fentry)
		pool_sample(pool, pi, &key, sampler_flags(pi));
	return 0;
}

/*
 * page_pool_release() runs at destroy and then from a retry worker until no
 * page is in flight; with none, the pool is freed right after: its record is
 * marked GONE, and the next snapshot reports and deletes it. This program
 * stays attached while the rest of the observer is stopped (timed runs): it
 * fires once per pool, after the timed loop, and without it pools freed then
 * would stay in the maps for ever.
 */
SEC("raw_tp/page_pool_release")
int BPF_PROG(ppb_tp_pool_release, __u64 pool, __s32 inflight, __u32 hold, __u32 release)
{
	struct ppb_pool_key key;
	struct ppb_pool_info *pi;

	pool_key_of(pool, &key);
	pi = bpf_map_lookup_elem(&pool_info, &key);
	/* A pool we never saw and that is gone already: nothing to record. */
	if (!pi && inflight <= 0)
		return 0;
	if (!pi)
		pi = pool_get(pool, &key, false);
	if (!pi)
		return 0;
	/* Not dying yet (cache and ring were empty: no teardown release): last
	 * allocation-side sample. Dying: returns of in-flight pages since. */
	pool_sample(pool, pi, &key, !(pi->flags & PPB_POOL_F_DYING) ? SAMPLE_ALLOC_SIDE : 0);
	__sync_fetch_and_or(&pi->flags, PPB_POOL_F_DYING);
	pi->final_inflight = inflight;
	/* last: a snapshot that sees GONE sees the final counts */
	if (inflight <= 0 && !(__sync_fetch_and_or(&pi->flags, PPB_POOL_F_GONE) & PPB_POOL_F_GONE))
		__sync_fetch_and_add(&pools_gone, 1);
	return 0;
}

static __always_inline void remember_dev_pool(const struct ppb_pool_info *pi,
					      const struct ppb_pool_key *key)
{
	struct dev_key dk = { .ifindex = pi->ifindex, .netns = pi->netns_ino };
	struct dev_pools zero = {}, *dp;

	dp = bpf_map_lookup_elem(&dev_pools, &dk);
	if (!dp) {
		bpf_map_update_elem(&dev_pools, &dk, &zero, BPF_NOEXIST);
		dp = bpf_map_lookup_elem(&dev_pools, &dk);
	}
	if (dp)
		dp->pool[dp->next++ % DEV_POOLS] = *key; /* the oldest gives way */
}

/* NIC drivers register their RX pool as the queue's XDP memory model. */
SEC("raw_tp/mem_connect")
int BPF_PROG(ppb_tp_mem_connect, __u64 xa, __u64 rxq)
{
	struct xdp_mem_allocator *a = (void *)xa;
	struct xdp_rxq_info *q = (void *)rxq;
	struct ppb_pool_key key;
	struct ppb_pool_info *pi;

	if (BPF_CORE_READ(a, mem.type) != MEM_TYPE_PAGE_POOL)
		return 0;
	pi = pool_get((__u64)BPF_CORE_READ(a, allocator), &key, false);
	if (!pi)
		return 0;
	if (!pi->kind)
		pi->kind = PPB_POOL_NIC;
	pool_set_dev(pi, BPF_CORE_READ(q, dev));
	pi->queue_index = BPF_CORE_READ(q, queue_index);
	remember_dev_pool(pi, &key);
	return 0;
}

/*
 * Per CPU: polls (sampling every second one still sees at most 128 packets
 * between samples, less than any ring; it halves what sampling costs), and
 * the state of the veth pool this CPU last looked at.
 */
struct napi_cpu {
	__u64 polls;
	__u64 pool;
	struct ppb_pool_state st; /* occ unused */
	__u32 frag_users;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct napi_cpu);
} napi_polls SEC(".maps");

static __always_inline struct napi_cpu *napi_skip(void)
{
	__u32 zero = 0;
	struct napi_cpu *n = bpf_map_lookup_elem(&napi_polls, &zero);

	return !n || (n->polls++ & 1) ? NULL : n;
}

/*
 * A veth's pool is idle while XDP frames from the peer pass through it (they
 * return to the sender's pool): its state stays as this CPU saw it last, and
 * a sample would account nothing. Four reads instead of a sample's map
 * lookups and lock. The counters only grow, and fewer than a ring's
 * worth of returns fit between two looks, so an unchanged state means no
 * traffic; whatever did change is all in the next sample.
 */
static __always_inline bool napi_pool_idle(struct napi_cpu *n, __u64 pool)
{
	struct ppb_pool_state st = {};
	__u32 frag = 0;

	pool_read_counters((struct page_pool *)pool, &st, &frag);
	if (n->pool == pool && n->st.cache == st.cache && n->st.prod == st.prod &&
	    n->st.cons == st.cons && n->st.hold == st.hold && n->st.release == st.release &&
	    n->frag_users == frag)
		return true;
	n->pool = pool;
	n->st = st;
	n->frag_users = frag;
	return false;
}

static __noinline void napi_sample_one(struct ppb_pool_key *key)
{
	struct ppb_pool_info *pi = bpf_map_lookup_elem(&pool_info, key);

	if (!pi || (pi->flags & PPB_POOL_F_DYING))
		return;
	/* our XDP programs sample it on every packet path already */
	if (!ledger_kept_by_xdp(pi))
		pool_sample(pi->ptr, pi, key, SAMPLE_DENSE | sampler_flags(pi));
}

static long napi_sample_slot(__u32 i, void *ctx)
{
	struct dev_pools *dp = ctx;
	struct ppb_pool_key key;

	if (i >= DEV_POOLS)
		return 1;
	key = dp->pool[i];
	if (key.ptr)
		napi_sample_one(&key);
	return 0;
}

/* A NIC's NAPI poll: sample the pools registered for its device (bpf_loop:
 * the sampler is verified once, not once per slot). */
static __always_inline void napi_sample_dev(struct napi_struct *n)
{
	struct net_device *nd = BPF_CORE_READ(n, dev);
	struct dev_key dk = { .ifindex = BPF_CORE_READ(nd, ifindex),
			      .netns = BPF_CORE_READ(nd, nd_net.net, ns.inum) };
	struct dev_pools *dp = bpf_map_lookup_elem(&dev_pools, &dk), copy;

	if (!dp)
		return;
	copy = *dp; /* bpf_loop's context must be on the stack */
	bpf_loop(DEV_POOLS, napi_sample_slot, &copy, 0);
}

/*
 * veth's rq, the one field read. veth is a module in Debian's kernels, so its
 * types are missing from the vmlinux.h of such a kernel (the arm64 build's):
 * libbpf matches this flavor to veth_rq in the running kernel's BTF, veth's
 * module BTF included.
 */
struct veth_rq___ppb {
	struct page_pool *page_pool;
} __attribute__((preserve_access_index));

/*
 * A NAPI poll handles at most its budget (64) of packets, fewer than any
 * ring holds, so sampling per poll cannot miss a wrap. veth: the rq's pool
 * (xdp_napi is veth_rq's first member); NICs: the device's pools.
 */
SEC("raw_tp/napi_poll")
int BPF_PROG(ppb_tp_napi_poll, __u64 napi, int work, int budget)
{
	struct napi_struct *n = (void *)napi;
	struct veth_rq___ppb *rq = (void *)napi;
	struct ppb_pool_key key;
	struct ppb_pool_info *pi;
	struct napi_cpu *nc;
	__u64 pool;

	if (work <= 0 || !(nc = napi_skip()))
		return 0;
	if (!obs_cfg.ksym_veth_poll || (__u64)BPF_CORE_READ(n, poll) != obs_cfg.ksym_veth_poll) {
		napi_sample_dev(n);
		return 0;
	}
	if (!bpf_core_field_exists(rq->page_pool))
		return 0;
	pool = (__u64)BPF_CORE_READ(rq, page_pool);
	if (!pool || napi_pool_idle(nc, pool))
		return 0;
	pi = pool_get(pool, &key, false);
	if (pi && !ledger_kept_by_xdp(pi))
		pool_sample(pool, pi, &key, SAMPLE_DENSE | sampler_flags(pi));
	return 0;
}

/* ---- fentry backend: interrupt time inside timed calls ------------------- */

/*
 * A hardirq that lands inside a timed call (a timer tick, and the softirqs
 * run on its way out) is not the call's work, and costs thousands of
 * instructions: a few of them in a run moved the fast path figure by half a
 * per cent between boots under the instruction clock. So, per CPU, the
 * handlers' exclusive time is summed, and a call's time leaves out what the
 * sum grew by between its t0 and t1 on the same CPU. Exclusive: a handler
 * nested in another (a hardirq in a softirq) counts once; a softirq still
 * open when the call began (a call made from NET_RX) adds only at its exit,
 * after the call. What remains is the entry and exit code around the
 * tracepoints, ours included.
 */
#define IRQ_DEPTH 4

struct irq_clock {
	__u64 total; /* exclusive handler time, ns */
	__u64 stamp[IRQ_DEPTH];
	__u64 child[IRQ_DEPTH];
	__u32 depth;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct irq_clock);
} irq_clock SEC(".maps");

static __always_inline struct irq_clock *irq_clock_get(void)
{
	__u32 k = 0;

	return bpf_map_lookup_elem(&irq_clock, &k);
}

/* The CPU's handler time so far (0 if the map cannot be read: nothing subtracted). */
static __always_inline __u64 irq_total(void)
{
	struct irq_clock *q = irq_clock_get();

	return q ? q->total : 0;
}

static __always_inline int irq_enter(void)
{
	struct irq_clock *q = irq_clock_get();
	__u32 d;

	if (!q)
		return 0;
	d = q->depth++;
	if (d < IRQ_DEPTH) {
		q->stamp[d] = bpf_ktime_get_ns();
		q->child[d] = 0;
	}
	return 0;
}

static __always_inline int irq_leave(void)
{
	struct irq_clock *q = irq_clock_get();
	__u64 el;
	__u32 d;

	/* an exit whose entry came before we attached */
	if (!q || !q->depth)
		return 0;
	d = --q->depth;
	if (d >= IRQ_DEPTH || !q->stamp[d])
		return 0;
	el = bpf_ktime_get_ns() - q->stamp[d];
	q->total += el > q->child[d] ? el - q->child[d] : 0;
	/* (masked: IRQ_DEPTH is a power of two, and the verifier sees the bound) */
	if (d)
		q->child[(d - 1) & (IRQ_DEPTH - 1)] += el;
	return 0;
}

/* Exits first in the object: attached in its order, an exit never waits for
 * an entry it missed. local_timer_* are x86's timer vector (user space loads
 * them where the tracepoint exists); arm64's timer is a device irq. */
SEC("raw_tp/irq_handler_exit")
int BPF_PROG(ppb_irq_exit)
{
	return irq_leave();
}

SEC("raw_tp/softirq_exit")
int BPF_PROG(ppb_sirq_exit)
{
	return irq_leave();
}

SEC("raw_tp/local_timer_exit")
int BPF_PROG(ppb_ltimer_exit)
{
	return irq_leave();
}

SEC("raw_tp/irq_handler_entry")
int BPF_PROG(ppb_irq_entry)
{
	return irq_enter();
}

SEC("raw_tp/softirq_entry")
int BPF_PROG(ppb_sirq_entry)
{
	return irq_enter();
}

SEC("raw_tp/local_timer_entry")
int BPF_PROG(ppb_ltimer_entry)
{
	return irq_enter();
}

/* The time of a call from t0 to t1 (i0, i1: irq_total() then), less the
 * interrupts in between if it stayed on one CPU; those go to c->irq_ns.
 * *clean: no interrupt landed in it, and it stayed on its CPU. */
static __always_inline __u64 call_ns(struct ppb_pool_counts *c, __u64 t0, __u64 t1, __u64 i0,
				     __u64 i1, __u32 cpu, bool *clean)
{
	__u64 dt = t1 - t0, irq = i1 - i0;

	*clean = false;
	if (cpu != bpf_get_smp_processor_id())
		return dt; /* moved: the two CPUs' sums do not compare */
	*clean = !irq;
	if (irq > dt)
		irq = dt;
	c->irq_ns += irq;
	return dt - irq;
}

/* A timed call of one class: its time, and apart what the clean calls took. */
static __always_inline void class_time(struct ppb_class_count *k, __u64 dt, bool clean)
{
	k->ns += dt;
	if (clean) {
		k->clean++;
		k->clean_ns += dt;
	}
}

/* ---- fentry backend: allocations ----------------------------------------- */

static __always_inline int alloc_enter(void *ctx)
{
	struct call_scratch *s = scratch_get();
	__u64 pool = 0;

	if (!s)
		return 0;
	if (s->alloc_depth++) {
		/* A wrapper's inner call: classified once, at the outermost exit, but
		 * timed here, so that one probe pair's window is in the time, as in
		 * the calibration (the inner pair would be inside the outer's). */
		s->alloc_nested++;
		s->alloc_i0 = irq_total();
		s->alloc_t0 = bpf_ktime_get_ns();
		return 0;
	}
	bpf_get_func_arg(ctx, 0, &pool);
	s->alloc_pool = pool;
	s->alloc_nested = 0;
	s->alloc_c0 = BPF_CORE_READ((struct page_pool *)pool, alloc.count);
	/* Only the pool's allocating context writes it: a plain read is exact. */
	s->alloc_h0 = BPF_CORE_READ((struct page_pool *)pool, pages_state_hold_cnt);
	s->alloc_cpu = bpf_get_smp_processor_id();
	s->alloc_i0 = irq_total();
	s->alloc_t0 = bpf_ktime_get_ns(); /* last: as little of us as possible inside */
	return 0;
}

static __always_inline int alloc_exit(void *ctx)
{
	__u64 t1 = bpf_ktime_get_ns(); /* first, see alloc_enter */
	__u64 i1 = irq_total();
	struct call_scratch *s = scratch_find();
	struct ppb_pool_counts *c;
	struct ppb_pool_key key;
	__u64 ret = 0, pool, dt;
	__u32 after, holds;
	bool clean;

	if (!s || !s->alloc_depth)
		return 0;
	if (--s->alloc_depth) {
		s->alloc_t1 = t1; /* the timed inner call, see alloc_enter */
		s->alloc_i1 = i1;
		return 0;
	}
	if (s->alloc_nested) {
		t1 = s->alloc_t1;
		i1 = s->alloc_i1;
	}
	pool = s->alloc_pool;
	holds = BPF_CORE_READ((struct page_pool *)pool, pages_state_hold_cnt) - s->alloc_h0;
	bpf_get_func_ret(ctx, &ret);
	/* A pool's first allocation registers it from its start ('fresh'). */
	if (!ret || !pool_get(pool, &key, !s->alloc_h0 && holds))
		return 0; /* failed allocation: not an element */
	c = pool_counts_of(&key);
	if (!c)
		return 0;
	dt = call_ns(c, s->alloc_t0, t1, s->alloc_i0, i1, s->alloc_cpu, &clean);
	c->nested_calls += s->alloc_nested;
	c->slow_pages += holds;
	if (holds) {
		c->cls[PPB_ALLOC_SLOW].calls++;
		class_time(&c->cls[PPB_ALLOC_SLOW], dt, clean);
	} else if (!s->alloc_c0) {
		/* empty cache and no slow path: the ring refilled it */
		after = BPF_CORE_READ((struct page_pool *)pool, alloc.count);
		c->cls[PPB_ALLOC_REFILL].calls++;
		class_time(&c->cls[PPB_ALLOC_REFILL], dt, clean);
		c->refill_pages += after + 1;
	} else {
		c->cls[PPB_ALLOC_CACHE].calls++;
		class_time(&c->cls[PPB_ALLOC_CACHE], dt, clean);
	}
	return 0;
}

/*
 * The fentry/fexit programs below name no function in their section: which
 * function a program attaches to depends on the kernel (page_pool_alloc_pages,
 * _netmem or _netmems; the put and bulk functions likewise), so user space
 * picks it at load time (setup_fentry() in user/core/loader/observer.c, with
 * bpf_program__set_attach_target()) and does not load a program whose
 * function this kernel lacks.
 */
SEC("fentry") /* target set at load time, see above */
int BPF_PROG(ppb_fe_alloc)
{
	return alloc_enter(ctx);
}

SEC("fexit") /* target set at load time */
int BPF_PROG(ppb_fx_alloc)
{
	return alloc_exit(ctx);
}

SEC("fentry") /* target set at load time */
int BPF_PROG(ppb_fe_alloc2)
{
	return alloc_enter(ctx);
}

SEC("fexit") /* target set at load time */
int BPF_PROG(ppb_fx_alloc2)
{
	return alloc_exit(ctx);
}

/* ---- fentry backend: returns -------------------------------------------- */

static __always_inline int put_enter(void *ctx, bool bulk)
{
	struct call_scratch *s = scratch_get();
	__u64 pool = 0, arg = 0;

	if (!s)
		return 0;
	if (s->put_depth++) {
		s->put_nested++; /* timed instead of the wrapper, see alloc_enter */
		if (!bulk) {
			s->put_i0 = irq_total();
			s->put_t0 = bpf_ktime_get_ns();
		}
		return 0;
	}
	bpf_get_func_arg(ctx, 0, &pool);
	bpf_get_func_arg(ctx, bulk ? 2 : 1, &arg);
	s->put_pool = pool;
	s->put_nested = 0;
	s->bulk_nr = 0;
	s->put_netmem = bulk ? 0 : arg;
	s->put_count = bulk ? arg : 1;
	s->put_released = 0;
	s->put_tp_ns = 0;
	s->put_c0 = BPF_CORE_READ((struct page_pool *)pool, alloc.count);
	if (!bulk)
		s->put_cons0 = BPF_CORE_READ((struct page_pool *)pool, ring.consumer_head);
	s->put_cpu = bpf_get_smp_processor_id();
	s->put_i0 = irq_total();
	s->put_t0 = bpf_ktime_get_ns();
	return 0;
}

static __always_inline int put_exit(void *ctx)
{
	__u64 t1 = bpf_ktime_get_ns();
	__u64 i1 = irq_total();
	struct call_scratch *s = scratch_find();
	struct page_pool *pp;
	struct ppb_pool_counts *c;
	struct ppb_pool_key key;
	__u64 slot = 0, dt;
	__u32 after, direct;
	bool clean;

	if (!s || !s->put_depth)
		return 0;
	if (--s->put_depth) {
		s->put_t1 = t1;
		s->put_i1 = i1;
		return 0;
	}
	if (s->put_nested) {
		t1 = s->put_t1;
		i1 = s->put_i1;
	}
	pp = (void *)s->put_pool;
	if (!pool_get(s->put_pool, &key, false))
		return 0;
	c = pool_counts_of(&key);
	if (!c)
		return 0;
	after = BPF_CORE_READ(pp, alloc.count);
	if (s->put_netmem) {
		c->nested_calls += s->put_nested;
		/* Only the pool's owner writes alloc.count, and it is this CPU if the
		 * page went to the cache: then cache[c0] holds exactly this page. */
		dt = call_ns(c, s->put_t0, t1, s->put_i0, i1, s->put_cpu, &clean);
		if (s->put_released) {
			/* counted by ppb_tp_release, which ran inside: its time is not the put's */
			class_time(&c->cls[PPB_RET_RELEASE],
				   dt > s->put_tp_ns ? dt - s->put_tp_ns : 0, clean);
			return 0;
		}
		if (after == s->put_c0 + 1 && s->put_c0 < pool_cache_entries())
			bpf_probe_read_kernel(&slot, sizeof(slot), pool_cache_slot(pp, s->put_c0));
		/*
		 * Put into the ring on another CPU, the page can reach cache[c0]
		 * during the call all the same: the owner refilled its cache from
		 * the ring (seen with a cpumap consumer under TCG). The owner's
		 * consumer index then moved; a direct return leaves it.
		 */
		if (slot && slot == s->put_netmem &&
		    BPF_CORE_READ(pp, ring.consumer_head) == s->put_cons0) {
			c->cls[PPB_RET_CACHE].calls++;
			class_time(&c->cls[PPB_RET_CACHE], dt, clean);
		} else {
			c->cls[PPB_RET_RING].calls++;
			class_time(&c->cls[PPB_RET_RING], dt, clean);
		}
		return 0;
	}
	/* Bulk (one pool, <= 6.13): whatever did not stay in the cache or get
	 * released went to the ring; fragments not on their last reference are
	 * skipped by the kernel and would show up here as ring (ppbench-watch(8)). */
	direct = after > s->put_c0 ? after - s->put_c0 : 0;
	c->cls[PPB_RET_CACHE].calls += direct;
	if (s->put_count >= direct + s->put_released)
		c->cls[PPB_RET_RING].calls += s->put_count - direct - s->put_released;
	return 0;
}

SEC("fentry") /* target set at load time, as ppb_fe_alloc */
int BPF_PROG(ppb_fe_put)
{
	return put_enter(ctx, false);
}

SEC("fexit") /* target set at load time */
int BPF_PROG(ppb_fx_put)
{
	return put_exit(ctx);
}

SEC("fentry") /* target set at load time */
int BPF_PROG(ppb_fe_put2)
{
	return put_enter(ctx, false);
}

SEC("fexit") /* target set at load time */
int BPF_PROG(ppb_fx_put2)
{
	return put_exit(ctx);
}

SEC("fentry") /* target set at load time */
int BPF_PROG(ppb_fe_bulk)
{
	return put_enter(ctx, true);
}

SEC("fexit") /* target set at load time */
int BPF_PROG(ppb_fx_bulk)
{
	return put_exit(ctx);
}

/*
 * 6.14+: page_pool_put_netmem_bulk(netmem_ref *data, u32 count) returns the
 * frames of xdp_return_frame_bulk() (NIC XDP_TX / XDP_REDIRECT completions),
 * whose pages may come from several pools. The kernel rewrites data[] as it
 * goes, so the entries are grouped by pool at entry; at exit each pool's
 * alloc.count growth is its direct returns, its releases were counted by
 * ppb_tp_release, and the rest went to its ring.
 */
static __always_inline __u64 netmem_pool(__u64 netmem)
{
	struct page *page = (void *)netmem;
	__u64 head = 0;

	if (!netmem || (netmem & 1)) /* net_iov (memory providers): not an XDP frame's page */
		return 0;
	/* A tail page's first word is its head's address + 1. */
	bpf_probe_read_kernel(&head, sizeof(head), page);
	if (head & 1)
		page = (void *)(head - 1);
	return (__u64)BPF_CORE_READ(page, pp);
}

static __always_inline void bulk_add(struct call_scratch *s, __u64 pool)
{
	__u32 j;

	for (j = 0; j < BULK_POOLS; j++) {
		if (j >= s->bulk_nr)
			break;
		if (s->bulk_pool[j] == pool) {
			s->bulk_n[j]++;
			return;
		}
	}
	if (j >= BULK_POOLS)
		return;
	s->bulk_pool[j] = pool;
	s->bulk_n[j] = 1;
	s->bulk_rel[j] = 0;
	s->bulk_c0[j] = BPF_CORE_READ((struct page_pool *)pool, alloc.count);
	s->bulk_nr = j + 1;
}

SEC("fentry") /* target set at load time: page_pool_put_netmem_bulk */
int BPF_PROG(ppb_fe_nbulk)
{
	struct call_scratch *s = scratch_get();
	__u64 data = 0, count = 0, netmem, pool;

	if (!s)
		return 0;
	if (s->put_depth++)
		return 0;
	bpf_get_func_arg(ctx, 0, &data);
	bpf_get_func_arg(ctx, 1, &count);
	s->put_pool = 0;
	s->put_netmem = 0;
	s->bulk_nr = 0;
	for (__u32 i = 0; i < BULK_POOLS; i++) {
		if (i >= count)
			break;
		netmem = 0;
		bpf_probe_read_kernel(&netmem, sizeof(netmem), (void *)(data + i * sizeof(__u64)));
		pool = netmem_pool(netmem);
		if (pool)
			bulk_add(s, pool);
	}
	return 0;
}

SEC("fexit") /* target set at load time, as ppb_fe_nbulk */
int BPF_PROG(ppb_fx_nbulk)
{
	struct call_scratch *s = scratch_find();
	struct ppb_pool_counts *c;
	struct ppb_pool_key key;
	struct page_pool *pp;
	__u32 after, direct, n;

	if (!s || !s->put_depth)
		return 0;
	if (--s->put_depth)
		return 0;
	for (__u32 j = 0; j < BULK_POOLS; j++) {
		if (j >= s->bulk_nr)
			break;
		pp = (void *)s->bulk_pool[j];
		if (!pool_get((__u64)pp, &key, false))
			continue;
		c = pool_counts_of(&key);
		if (!c)
			continue;
		after = BPF_CORE_READ(pp, alloc.count);
		direct = after > s->bulk_c0[j] ? after - s->bulk_c0[j] : 0;
		n = s->bulk_n[j];
		c->cls[PPB_RET_CACHE].calls += direct;
		if (n >= direct + s->bulk_rel[j])
			c->cls[PPB_RET_RING].calls += n - direct - s->bulk_rel[j];
	}
	s->bulk_nr = 0;
	return 0;
}

/* ---- probe overhead: the same timing around an empty function ----------- */

__u64 cal_ns, cal_calls;

SEC("fentry/bpf_fentry_test1")
int BPF_PROG(ppb_fe_cal)
{
	struct call_scratch *s = scratch_get();
	__u64 arg = 0;

	if (!s)
		return 0;
	/* the work alloc_enter does before its clock read */
	bpf_get_func_arg(ctx, 0, &arg);
	BPF_CORE_READ((struct page_pool *)arg, alloc.count);
	s->cal_t0 = bpf_ktime_get_ns();
	return 0;
}

SEC("fexit/bpf_fentry_test1")
int BPF_PROG(ppb_fx_cal)
{
	__u64 t1 = bpf_ktime_get_ns();
	struct call_scratch *s = scratch_find();

	if (s && s->cal_t0) {
		cal_ns += t1 - s->cal_t0;
		cal_calls++;
		s->cal_t0 = 0;
	}
	return 0;
}

/* ---- closing the sampling window --------------------------------------- */

static long flush_one(struct bpf_map *map, const void *key, void *value, void *ctx)
{
	struct ppb_pool_info *pi = value;

	if (!(pi->flags & PPB_POOL_F_DYING))
		pool_sample(pi->ptr, pi, (struct ppb_pool_key *)key, SAMPLE_ALLOC_SIDE);
	return 0;
}

/*
 * Run by user space (plain BPF_PROG_RUN) at the end of a run or interval:
 * one more sample of every live pool, so returns after the last packet's
 * sample are counted. Must only run when the pools' allocations are quiet
 * or counted (it closes the allocation-side interval).
 */
/* Packets of sparse sampling not yet handed to their pool: give them now. */
static __always_inline void flush_unsampled(__u32 cpu)
{
	struct ppb_pool_counts *c;
	struct ppb_pool_info *pi;
	struct proof_cpu *pc;
	__u32 zero = 0;

	pc = bpf_map_lookup_percpu_elem(&proof_cpu, &zero, cpu);
	/* No sample on this CPU yet: its first sample will count them. */
	if (!pc || !pc->unsampled || pc->key.ptr <= 1)
		return;
	pi = bpf_map_lookup_elem(&pool_info, &pc->key);
	c = bpf_map_lookup_percpu_elem(&pool_counts, &pc->key, cpu);
	if (pi && !(pi->flags & PPB_POOL_F_DYING)) {
		__sync_fetch_and_add(&pi->pending_elems, pc->unsampled);
		if (c)
			c->elems += pc->unsampled;
	}
	pc->unsampled = 0;
}

SEC("xdp")
int ppb_obs_flush(struct xdp_md *ctx)
{
	for (__u32 cpu = 0; cpu < PPB_MAX_CPUS; cpu++) {
		if (cpu >= obs_cfg.nr_cpus)
			break;
		flush_unsampled(cpu);
	}
	bpf_for_each_map_elem(&pool_info, flush_one, NULL, 0);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
