// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench's XDP programs: the actions (drop, pass, tx, redirect via devmap,
 * cpu via cpumap), the live-frames generator, second-stage cpumap/devmap
 * programs, and a bare drop with no maps (the overhead baseline).
 *
 * Every program counts packets per CPU and, every 2^sample_shift elements,
 * takes one bpf_ktime_get_ns() sample: sampled spans / elements = ns per
 * element on that CPU, without timing each packet. In proof runs they also
 * sample the state of the frame's page_pool (pool.bpf.h), which is costly
 * and therefore never done in timed runs. The *_bare programs do none of
 * this: one-CPU live-frames runs time them with the kernel's own test-run
 * clock, so their timed runs carry no per-packet work of ours.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "ppbench.h"
#include "pool.bpf.h"

const volatile __u32 sample_shift = 10;	    /* timing sample every 1024 elements */
const volatile __u32 action = PPB_ACT_DROP; /* ppb_xdp_act, _load, _paths */
const volatile __u32 verdict = XDP_DROP;    /* action's: XDP_REDIRECT for a devmap or cpumap */
const volatile __u32 remote_action = XDP_DROP;
const volatile __u32 gen_ifindex; /* ppb_xdp_gen: bpf_redirect target, 0: devmap */
const volatile bool count_bytes;  /* load's second stage's Mbit/s; bench reports none */
const volatile __u32 pace_limit;  /* cpumap recipe: most frames in flight (0: off) */
const volatile __u32 fp_adjust;	  /* fast-pass recipe: bytes the head moves down (0: twin) */
const volatile __u8 fp_byte0;	  /* fast-pass recipe: the frame's first byte, restored */
/*
 * log2 of the running kernel's PAGE_SIZE, from the loader (the page size user
 * space sees is the kernel's): 4K, 16K and 64K kernels exist. 0 (unset) maps
 * no frame.
 */
const volatile __u32 page_shift;

/* Run control from user space (.bss, read every packet: keep it small). */
__u64 run_gen;	   /* bumped before each run: spans never cross runs */
__u32 proof;	   /* sample pool state every 2^proof_shift frames per CPU */
__u32 proof_shift; /* 0 in proof runs; load: 6, or half the pool's ring if more */
__u32 elems_role;  /* enum ppb_role whose frames are the pool's allocations */
__u64 calib_pool;  /* calibration: the test-run pool of the last frame */
__u64 calib_page;  /* ... and its page, for user space to check k */
__u64 calib_magic; /* ... and its pp_magic, for user space to report a mismatch */
__u64 calib_psize; /* ... and the PAGE_SIZE its frame shows (0: unknown) */
/* How to find a frame's page and its pool: vmemmap_k is 0 until the calibration succeeds. */
struct ppb_frame_map frame_map;
__u32 cpu_target; /* cpumap key (= CPU) for PPB_ACT_CPU */
/* Filters of the error tracepoints: our programs, our target device, our cpumap. */
__u32 prog_id[PPB_NR_ROLES];
__u32 xmit_ifindex;
__u32 xmit_netns;
__u32 cpumap_id;
__u64 pace_offset; /* producer minus consumer frames when the run began */

/*
 * Per-CPU statistics in global data: the slot is an address computed from
 * the CPU number, no map lookup, key on the stack or NULL check on the
 * packet path. User space reads them through the mmap of .bss (xdpo_stats()).
 */
struct ppb_cpu_stats xdp_stats[PPB_MAX_CPUS];

static __always_inline struct ppb_xdp_stats *stats_on(__u32 cpu, int role)
{
	return &xdp_stats[cpu & (PPB_MAX_CPUS - 1)].role[role];
}

static __always_inline struct ppb_xdp_stats *stats_of(int role)
{
	return stats_on(bpf_get_smp_processor_id(), role);
}

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} tx_devmap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, 1); /* nr_cpus, set at load */
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
} tx_cpumap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ppb_xdp_errs);
} xdp_errs SEC(".maps");

/*
 * First program run of a batch (NAPI poll, cpumap kthread loop), found by
 * the count before it, the one the last batch's end left in batch_mark:
 * start the clock on one batch in four; the batch's end tracepoint stops
 * it. Not inlined: the packet path only compares and calls.
 */
static __noinline void batch_start(struct ppb_xdp_stats *st)
{
	if (!(st->batches & 3))
		st->last_ts = bpf_ktime_get_ns();
}

static __always_inline void batch_end(int role)
{
	struct ppb_xdp_stats *st = stats_of(role);
	__u64 n = st->packets;

	if (n == st->batch_mark)
		return; /* no packet in this batch */
	if (st->last_ts && st->gen == run_gen) {
		st->timed_ns += bpf_ktime_get_ns() - st->last_ts;
		st->timed_elems += n - st->batch_mark;
	}
	st->gen = run_gen;
	st->last_ts = 0;
	st->batch_mark = n;
	st->batches++;
}

/* ---- proof: the frame's page_pool --------------------------------------- */

#define PROOF_PERIOD_MAX 1024 /* sparse sampling: at least one sample per 1024 frames */

/*
 * Sparse sampling (load): every 2^proof_shift frames, or every half ring of
 * the pool if that is more. The ring's counters stay exact while fewer than
 * a ring's worth of returns fall between two samples, and a sample costs as
 * much as several packets.
 */
static __always_inline __u64 sparse_period(__u32 ring_size)
{
	__u64 p = 1ULL << proof_shift, half = ring_size / 2;

	if (half > PROOF_PERIOD_MAX)
		half = PROOF_PERIOD_MAX;
	return half > p ? half : p;
}

static __always_inline __u64 frame_pool(struct xdp_md *ctx, __u64 *pagep)
{
	struct xdp_buff *xb = (void *)ctx;
	__u32 om = bpf_core_field_offset(struct page, pp_magic);
	__u32 op = bpf_core_field_offset(struct page, pp);
	__u64 pp[2] = {}, magic, va, page;

	if (!frame_map.vmemmap_k)
		return 0;
	/* The packet pointer itself may not be used in arithmetic: read it as a number. */
	va = (__u64)BPF_CORE_READ(xb, data);
	page = frame_map.vmemmap_k + (va >> page_shift) * bpf_core_type_size(struct page);
	/* pp_magic and pp are neighbours in struct page: one read for both. */
	if (op == om + 8) {
		bpf_probe_read_kernel(pp, sizeof(pp), (void *)(page + om));
		magic = pp[0];
	} else {
		magic = BPF_CORE_READ((struct page *)page, pp_magic);
		pp[1] = (__u64)BPF_CORE_READ((struct page *)page, pp);
	}
	if ((magic & frame_map.pp_mask) != frame_map.pp_sig)
		return 0;
	*pagep = page;
	return pp[1];
}

/*
 * pc: the allocating role's per-CPU count of frames since its last sample,
 * this one included (NULL for other roles, which only sample). A subprogram,
 * not inlined: four programs call it on their cold path, and one copy keeps
 * each of them small.
 */
static __noinline void proof_sample(struct xdp_md *ctx, int role, struct proof_cpu *pc)
{
	struct ppb_pool_counts *c = NULL;
	struct ppb_pool_key key;
	struct ppb_pool_info *pi;
	__u64 page = 0, pool = frame_pool(ctx, &page);
	bool created = false, first;

	if (!pool) {
		if (pc) { /* not a page_pool page: not an allocation we can place */
			pc->key.ptr = 1;
			pc->unsampled = 0;
			pc->period = 1ULL << proof_shift;
		}
		return;
	}
	pi = pool_get_new(pool, &key, false, &created);
	if (!pi)
		return;
	/*
	 * The allocation ledger of a pool starts at its first frame here. Its
	 * baseline is now - except for a pool seen from its very first page on
	 * (veth, test-run: each page is a frame's) - and always for a NIC pool:
	 * it fills its RX ring at attach, allocations that are no frames.
	 */
	first = role == elems_role &&
		(created || (!(pi->flags & PPB_POOL_F_ELEMS) &&
			     (!(pi->flags & PPB_POOL_F_SEEN_FRESH) || pi->kind == PPB_POOL_NIC)));
	if (first && !created)
		pool_sample(pool, pi, &key, SAMPLE_ALLOC_SIDE | SAMPLE_DENSE);
	/*
	 * This frame's allocation may predate the baseline: if it was a cache
	 * pop (every allocation is, slow ones and refills included) the page is
	 * still in the popped slot - put it back into the baseline. Otherwise
	 * the page was posted earlier (a NIC's RX ring) and the allocation
	 * that replaces it is still to come. Either way the frame counts one.
	 */
	if (first) {
		__u64 slot = 0;

		bpf_probe_read_kernel(&slot, sizeof(slot),
				      pool_cache_slot((void *)pool, pi->last.cache));
		if (slot == page && pi->last.cache < pool_cache_entries())
			pi->last.cache++;
	}
	if (role == elems_role && pc) {
		/* The frames since this CPU's last sample: all allocations of this
		 * pool (one pool per RX queue, one queue per CPU) - unless the
		 * ledger starts with this frame. */
		__u64 n = first ? 1 : pc->unsampled;

		pc->key = key;
		pc->unsampled = 0;
		pc->period = sparse_period(pi->ring_size);
		/* A ring that small can wrap between two samples: say so. */
		if (n >= pi->ring_size && !(pi->flags & PPB_POOL_F_WRAP_RISK))
			__sync_fetch_and_or(&pi->flags, PPB_POOL_F_WRAP_RISK);
		if (!(pi->flags & PPB_POOL_F_ELEMS))
			__sync_fetch_and_or(&pi->flags, PPB_POOL_F_ELEMS);
		__sync_fetch_and_add(&pi->pending_elems, n);
		c = pool_counts_of(&key);
		if (c)
			c->elems += n;
	}
	pool_sample_c(pool, pi, &key, c,
		      SAMPLE_DENSE | (role == elems_role ? SAMPLE_ALLOC_SIDE : 0));
}

/*
 * Under live-frames BPF_PROG_RUN the frame's page was just popped from
 * alloc.cache[alloc.count] of the test-run pool (struct xdp_test_data holds
 * the rxq we see and the pool): that pairs a page with its address and gives
 * the vmemmap offset virt_to_page() needs. User space checks it. The page is
 * a page_pool page, so it must carry the signature derived from the kernel
 * config: if it does not, the config is not this kernel's (or page_pool
 * marks its pages otherwise), and no frame is mapped to a pool, rather than
 * frames mapped wrongly. So too when the loader's page size is not the
 * kernel's: a test-run frame is its page less the struct xdp_page_head at
 * the page's start (TEST_XDP_FRAME_SIZE), which gives the kernel's PAGE_SIZE.
 */
static __always_inline void calibrate(struct xdp_md *ctx)
{
	struct xdp_buff *xb = (void *)ctx;
	struct xdp_rxq_info *rxq = BPF_CORE_READ(xb, rxq);
	__u64 page = 0, va, mask = pp_magic_mask();
	struct xdp_test_data *td;
	struct page_pool *pp;
	__u32 n;

	td = (void *)((char *)rxq - bpf_core_field_offset(struct xdp_test_data, rxq));
	pp = BPF_CORE_READ(td, pp);
	n = BPF_CORE_READ(pp, alloc.count);
	if (n >= pool_cache_entries())
		return;
	bpf_probe_read_kernel(&page, sizeof(page), pool_cache_slot(pp, n));
	va = (__u64)BPF_CORE_READ(xb, data_hard_start) & ~((1ULL << page_shift) - 1);
	calib_pool = (__u64)pp;
	calib_page = page;
	calib_magic = BPF_CORE_READ((struct page *)page, pp_magic);
	if (bpf_core_type_exists(struct xdp_page_head))
		calib_psize =
			BPF_CORE_READ(xb, frame_sz) + bpf_core_type_size(struct xdp_page_head);
	frame_map.pp_sig = PPB_PP_SIGNATURE;
	frame_map.pp_mask = mask;
	if ((calib_magic & mask) != PPB_PP_SIGNATURE || !page_shift ||
	    (calib_psize && calib_psize != 1ULL << page_shift))
		return;
	frame_map.vmemmap_k = page - (va >> page_shift) * bpf_core_type_size(struct page);
}

/* ---- per-CPU accounting -------------------------------------------------- */

/*
 * Proof runs: sample the frame's pool, every frame (proof_shift 0) or
 * sparsely. Not inlined, and called first (only while proof is set): the
 * packet path keeps nothing across a call.
 */
static __noinline void proof_step(struct xdp_md *ctx, int role)
{
	struct proof_cpu *pc;
	__u32 zero = 0;

	if (role != elems_role) {
		/* this packet's number, counted next */
		if (!((stats_of(role)->packets + 1) & ((1ULL << proof_shift) - 1)))
			proof_sample(ctx, role, NULL);
		return;
	}
	pc = bpf_map_lookup_elem(&proof_cpu, &zero);
	/* Proof runs sample every frame; sparse sampling on the CPU's first frame
	 * (its period is 0 until then), then every sparse_period() frames. */
	if (pc && ++pc->unsampled >= (proof_shift ? pc->period : 1))
		proof_sample(ctx, role, pc);
}

/* What account() does besides counting packets: constants of each program. */
enum acct {
	ACCT_BATCHED = 1 << 0, /* the batch clock, not a sample every 2^sample_shift */
	ACCT_BYTES = 1 << 1,
	ACCT_PROOF = 1 << 2, /* proof runs: sample the frame's pool (proof_step()) */
};

/*
 * Count the packet; time it either by a sample every 2^sample_shift
 * elements, or (batched: load's NAPI polls, the cpumap kthread) by the
 * batch clock, whose spans exclude the idle time between batches. Returns the
 * role's stats on this CPU.
 */
static __always_inline struct ppb_xdp_stats *account(struct xdp_md *ctx, int role, __u32 how)
{
	struct ppb_xdp_stats *st;
	__u64 n, now;

	if ((how & ACCT_PROOF) && proof) /* no call on timed runs */
		proof_step(ctx, role);
	st = stats_of(role);
	barrier_var(st); /* one address in one register, not recomputed at each use */
	n = st->packets;
	st->packets = n + 1;
	if (how & ACCT_BYTES)
		st->bytes += (__u64)ctx->data_end - (__u64)ctx->data;
	if (how & ACCT_BATCHED) {
		if (n == st->batch_mark)
			batch_start(st);
	} else if (!((n + 1) & ((1ULL << sample_shift) - 1))) {
		now = bpf_ktime_get_ns();
		if (st->gen == run_gen && st->last_ts) {
			st->timed_ns += now - st->last_ts;
			st->timed_elems += 1ULL << sample_shift;
		}
		st->last_ts = now;
		st->gen = run_gen;
	}
	return st;
}

/* The verdict of action, a constant to the verifier, or the redirect. */
static __always_inline int do_action(void)
{
	__u32 v = verdict;

	if (v != XDP_REDIRECT)
		return v;
	if (action == PPB_ACT_CPU)
		return bpf_redirect_map(&tx_cpumap, cpu_target, 0);
	return bpf_redirect_map(&tx_devmap, 0, 0);
}

/* ---- cross-CPU pacing ------------------------------------------------------ */

#define PACE_MAX_NS 50000000 /* a consumer stalled this long: give up pacing */

struct pace {
	__u64 sent; /* producer frames, less pace_offset */
	__u64 deadline;
	__u32 cpu;
	__u32 done;
};

static long pace_poll(__u64 i, void *arg)
{
	struct pace *p = arg;
	struct ppb_xdp_stats *r = stats_on(p->cpu, PPB_ROLE_SECOND);

	if (p->sent - r->packets < pace_limit) {
		p->done = 1;
		return 1;
	}
	return !(i & 255) && bpf_ktime_get_ns() > p->deadline;
}

/*
 * The cpumap consumer (XDP program, page_pool ring return) is a little
 * slower than the live-frames producer, so the cpumap queue fills up and its
 * drops go back to the pool on the producer CPU: not the path measured.
 * Every 64 frames, while more than pace_limit frames are on their way, wait
 * for the consumer; the wait is taken out of the producer's clock. If the
 * consumer stalls for 50 ms, pacing stops for the rest of the run (and the
 * queue's drops are counted).
 */
static __always_inline void pace(struct ppb_xdp_stats *st)
{
	struct pace p;
	__u64 t0, waited;

	if ((st->packets & 63) || st->pace_gen == run_gen)
		return;
	p = (struct pace){ .sent = st->packets - pace_offset, .cpu = cpu_target };
	/* The common case, the consumer keeping up, costs one remote read. */
	pace_poll(0, &p);
	if (p.done)
		return;
	t0 = bpf_ktime_get_ns();
	p.deadline = t0 + PACE_MAX_NS;
	bpf_loop(1 << 23, pace_poll, &p, 0);
	waited = bpf_ktime_get_ns() - t0;
	if (!p.done)
		st->pace_gen = run_gen;
	st->paced_ns += waited;
	if (st->last_ts && st->gen == run_gen)
		st->last_ts += waited;
}

/* A multicast bit in the first byte: no unicast destination has it. */
#define FP_MARK 0x01

/*
 * The fast-pass recipe: live frames PASSed to the namespace's lo, where this
 * same program (pinned there as generic XDP) sees them again and drops them.
 * The first pass marks byte 0. With fp_adjust the head moves down first, so
 * the skb has less than XDP_PACKET_HEADROOM and generic XDP copies it into
 * this CPU's system page_pool, whose page the DROP recycles directly; the
 * frame's own page goes back to the test-run pool. Without it nothing is
 * copied and the second pass restores byte 0: the twin, which differs only
 * in the system pool's alloc + copy + direct recycle.
 */
static __always_inline int fastpass(struct xdp_md *ctx, bool counted)
{
	__u8 *d = (void *)(long)ctx->data;

	if ((void *)(d + 1) > (void *)(long)ctx->data_end)
		return XDP_ABORTED;
	if (*d == FP_MARK) {
		*d = fp_byte0; /* the twin's page is the frame's: leave it as it was */
		if (counted)
			account(ctx, PPB_ROLE_SECOND, ACCT_PROOF);
		return XDP_DROP;
	}
	if (counted)
		account(ctx, PPB_ROLE_ACTION, ACCT_PROOF);
	if (bpf_xdp_adjust_head(ctx, -(int)fp_adjust))
		return XDP_ABORTED;
	d = (void *)(long)ctx->data;
	if ((void *)(d + 1) > (void *)(long)ctx->data_end)
		return XDP_ABORTED;
	*d = FP_MARK;
	return XDP_PASS;
}

/*
 * A program of its own: bpf_xdp_adjust_head makes a program one that
 * changes packet data, and since 6.12 an extension may replace only a
 * function that does too - libxdp's dispatcher slots do not, so
 * ppb_xdp_act must not call it.
 */
SEC("xdp")
int ppb_xdp_fastpass(struct xdp_md *ctx)
{
	return fastpass(ctx, true);
}

/* Its timed twin: the same frames and verdicts, no maps, no clock. */
SEC("xdp")
int ppb_xdp_fastpass_bare(struct xdp_md *ctx)
{
	return fastpass(ctx, false);
}

/* The recipes' action program: timing samples every 2^sample_shift frames. */
SEC("xdp")
int ppb_xdp_act(struct xdp_md *ctx)
{
	struct ppb_xdp_stats *st =
		account(ctx, PPB_ROLE_ACTION, (count_bytes ? ACCT_BYTES : 0) | ACCT_PROOF);

	if (action == PPB_ACT_CPU && pace_limit)
		pace(st);
	return do_action();
}

/*
 * load's: packets and bytes, and the batch clock of the NAPI polls; on the
 * packet path two adds and a compare, nothing kept across a call.
 */
SEC("xdp")
int ppb_xdp_load(struct xdp_md *ctx)
{
	account(ctx, PPB_ROLE_ACTION, ACCT_BATCHED | ACCT_BYTES);
	return do_action();
}

/* load --paths: the same, and the frames' pools sampled for the path mix. */
SEC("xdp")
int ppb_xdp_paths(struct xdp_md *ctx)
{
	account(ctx, PPB_ROLE_ACTION, ACCT_BATCHED | ACCT_BYTES | ACCT_PROOF);
	return do_action();
}

/* Calibration run only (repeat 1): find vmemmap_k, drop. */
SEC("xdp")
int ppb_xdp_calib(struct xdp_md *ctx)
{
	calibrate(ctx);
	return XDP_DROP;
}

/*
 * The generator's bare twin: same verdict, no maps, no clock. ppbench gen
 * runs it (its threads count the frames they push), and so do the timed
 * runs of recipes that send.
 */
SEC("xdp")
int ppb_xdp_gen_bare(struct xdp_md *ctx)
{
	return bpf_redirect(gen_ifindex, 0);
}

/* Live-frames generator of recipes' proof runs: every frame out of
 * gen_ifindex (or devmap slot 0), counted and sampled per CPU. */
SEC("xdp")
int ppb_xdp_gen(struct xdp_md *ctx)
{
	account(ctx, PPB_ROLE_GEN, ACCT_PROOF);
	if (gen_ifindex)
		return bpf_redirect(gen_ifindex, 0);
	return bpf_redirect_map(&tx_devmap, 0, 0);
}

/* The instrumentation-free reference: same verdict, no maps, no clock. */
SEC("xdp")
int ppb_xdp_bare(struct xdp_md *ctx)
{
	return XDP_DROP;
}

/* ---- second stage: cpumap (remote CPU) and devmap egress ---------------- */

SEC("xdp/cpumap")
int ppb_cpumap_prog(struct xdp_md *ctx)
{
	account(ctx, PPB_ROLE_SECOND, ACCT_BATCHED | (count_bytes ? ACCT_BYTES : 0) | ACCT_PROOF);
	if (remote_action == XDP_REDIRECT)
		return bpf_redirect_map(&tx_devmap, 0, 0);
	return remote_action;
}

/*
 * End of a cpumap kthread batch (<= 8 frames): the span from the batch's
 * first program run to here covers the remote CPU's work per frame,
 * including returning each dropped frame to its pool (ring, cross-CPU).
 */
SEC("raw_tp/xdp_cpumap_kthread")
int BPF_PROG(ppb_tp_cpumap_kthread)
{
	batch_end(PPB_ROLE_SECOND);
	return 0;
}

/* End of a NAPI poll on this CPU: closes load's per-poll clock. The span
 * from the poll's first XDP run to here is the CPU's work on its packets:
 * driver RX, the program, and for drops the page's return. */
SEC("raw_tp/napi_poll")
int BPF_PROG(ppb_tp_napi_clock)
{
	batch_end(PPB_ROLE_ACTION);
	return 0;
}

/* ---- errors and transmits (load, gen) ----------------------------------- */

static __always_inline struct ppb_xdp_errs *errs(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&xdp_errs, &zero);
}

static __always_inline bool ours(__u64 prog)
{
	__u32 id = BPF_CORE_READ((struct bpf_prog *)prog, aux, id);

	return id && (id == prog_id[0] || id == prog_id[1] || id == prog_id[2]);
}

SEC("raw_tp/xdp_exception")
int BPF_PROG(ppb_tp_exception, __u64 dev, __u64 prog)
{
	struct ppb_xdp_errs *e = errs();

	if (e && ours(prog))
		e->exception++;
	return 0;
}

SEC("raw_tp/xdp_redirect_err")
int BPF_PROG(ppb_tp_redirect_err, __u64 dev, __u64 prog)
{
	struct ppb_xdp_errs *e = errs();

	if (e && ours(prog))
		e->redirect_err++;
	return 0;
}

__u64 xmit_dev; /* the target's net_device, learned from its first event */

/* Fires per transmit bulk (<= 16 frames): compare a pointer, read nothing. */
SEC("raw_tp/xdp_devmap_xmit")
int BPF_PROG(ppb_tp_devmap_xmit, __u64 from, __u64 to, int sent, int drops, int err)
{
	struct net_device *nd = (void *)to;
	struct ppb_xdp_errs *e;

	if (to != xmit_dev) {
		if (xmit_dev || BPF_CORE_READ(nd, ifindex) != xmit_ifindex ||
		    BPF_CORE_READ(nd, nd_net.net, ns.inum) != xmit_netns)
			return 0;
		xmit_dev = to;
	}
	e = errs();
	if (!e)
		return 0;
	e->xmit_sent += sent;
	e->xmit_drops += drops;
	return 0;
}

SEC("raw_tp/xdp_cpumap_enqueue")
int BPF_PROG(ppb_tp_cpumap_enqueue, int map_id, unsigned int processed, unsigned int drops)
{
	struct ppb_xdp_errs *e = errs();

	if (e && cpumap_id && (__u32)map_id == cpumap_id)
		e->cpumap_drops += drops;
	return 0;
}

SEC("xdp/devmap")
int ppb_devmap_prog(struct xdp_md *ctx)
{
	account(ctx, PPB_ROLE_SECOND, (count_bytes ? ACCT_BYTES : 0) | ACCT_PROOF);
	return remote_action;
}

char LICENSE[] SEC("license") = "GPL";
