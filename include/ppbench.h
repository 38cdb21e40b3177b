/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every struct and constant that crosses the BPF / user-space boundary.
 * Fixed-width fields only, 64-bit counters, sizes a multiple of 8, so the
 * layout is the same for clang -target bpf and for the host compiler.
 * BPF code gets __u64 & co. from vmlinux.h, user space from linux/types.h.
 */
#ifndef PPBENCH_SHARED_H
#define PPBENCH_SHARED_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* All our BPF program names start with this, so leak checks can find them. */
#define PPB_PROG_PREFIX "ppb_"

/*
 * The observer's room for pools: live ones, and freed ones until user space
 * reads them (it does when a quarter of the room waits). Preallocated, so a
 * tracing program never waits on an allocation that can fail: each pool costs
 * its per-CPU counts (272 bytes) on every possible CPU, plus its record.
 */
#define PPB_MAX_POOLS 1024
#define PPB_MAX_CPUS 1024

/* ---- page_pool observer ------------------------------------------------ */

enum ppb_pool_kind {
	PPB_POOL_UNKNOWN = 0,
	PPB_POOL_TEST_RUN = 1, /* live-frames BPF_PROG_RUN pool (one per syscall) */
	PPB_POOL_SYSTEM = 2,   /* per-CPU system page pool (6.9+) */
	PPB_POOL_VETH = 3,     /* veth rq pool (6.6+) */
	PPB_POOL_NIC = 4,      /* a driver's RX pool */
};

/* pool_info.flags */
enum {
	PPB_POOL_F_DYING = 1 << 0,	  /* page_pool_destroy() has started */
	PPB_POOL_F_ELEMS = 1 << 1,	  /* an XDP program of ours counts its allocations */
	PPB_POOL_F_WRAP_RISK = 1 << 2,	  /* a sample interval may have wrapped the ring */
	PPB_POOL_F_TINY_RING = 1 << 3,	  /* ring size < 2: produces invisible to sampling */
	PPB_POOL_F_INCONSISTENT = 1 << 4, /* a sample gave negative deltas (race, waive) */
	PPB_POOL_F_SEEN_FRESH = 1 << 5,	  /* observed from its first page on */
	PPB_POOL_F_COARSE = 1 << 6,	  /* an interval held several allocations: call
					   * counts (cache/refill) are estimates */
	PPB_POOL_F_MULTI_CPU = 1 << 7,	  /* sampled from several CPUs: the per-CPU split of
					   * ring returns follows the sampler */
	PPB_POOL_F_FRAG = 1 << 8,	  /* hands out page fragments: packets are not page
					   * allocations, so cache counts are unknown */
	PPB_POOL_F_DENSE = 1 << 9,	  /* sampled on its data path (our XDP programs, NAPI
					   * polls): ring counts hold; otherwise they may wrap */
	PPB_POOL_F_GONE = 1 << 10,	  /* freed: page_pool_release found nothing in flight.
					   * Nothing touches the record again; the next
					   * snapshot reports it and deletes it */
};

/* Pools are keyed by pointer and id: a freed pool's address is reused. */
struct ppb_pool_key {
	__u64 ptr;
	__u32 id; /* user.id (6.8+), else xdp_mem_id, else 0 */
	__u32 pad;
};

/* One sample of the pool's state. */
struct ppb_pool_state {
	__u32 cache;   /* alloc.count */
	__u32 occ;     /* ring occupancy: unconsumed entries */
	__u32 prod;    /* ring.producer */
	__u32 cons;    /* ring.consumer_head */
	__u32 hold;    /* pages_state_hold_cnt */
	__u32 release; /* pages_state_release_cnt */
};

/* Global record per pool (BPF hash map, key struct ppb_pool_key). */
struct ppb_pool_info {
	__u64 ptr;
	__u64 ring_queue;    /* ring.queue (array of entries) */
	__u64 first_ns;	     /* first time seen */
	__u64 pending_elems; /* allocations our XDP programs saw since the last sample */
	__u64 samples;
	__u64 prod_total;	    /* ring produces seen by all samplers */
	__u64 alloc_prod;	    /* prod_total at the last allocation-side sample */
	struct ppb_pool_state last; /* baseline of the allocation-side ledger */
	__u32 ret_prod;		    /* baseline of ring-return counting (any sampler) */
	__u32 last_cpu;		    /* CPU of the last sample */
	__u32 id;
	__u32 kind;    /* enum ppb_pool_kind */
	__s32 ifindex; /* device, 0 if unknown */
	__s32 cpuid;   /* system pools: their CPU, else -1 */
	__u32 napi_id;
	__u32 ring_size;
	__u32 pool_size;      /* p.pool_size */
	__u32 flags;	      /* PPB_POOL_F_* */
	__u32 busy;	      /* sampler try-lock (tracing programs cannot spin) */
	__u32 queue_index;    /* RX queue, from the XDP memory-model registration */
	__s32 final_inflight; /* from page_pool_release, valid if DYING */
	__u32 netns_ino;      /* network namespace of ifindex (its inode) */
	__u32 frag_users;     /* pool->frag_users at the last sample */
	__u32 pad;
};

/*
 * The classes that partition a pool's allocations and returns, the way the
 * kernel's page_pool stats do: the three allocation classes sum to the
 * allocations, the three return classes to the returns. Allocations come
 * first (PPB_NR_ALLOC_CLASSES of them).
 */
enum ppb_class {
	PPB_ALLOC_CACHE,  /* served from the alloc cache */
	PPB_ALLOC_REFILL, /* triggered a refill from the ring */
	PPB_ALLOC_SLOW,	  /* went to the page allocator (slow calls) */
	PPB_RET_CACHE,	  /* direct recycle into the alloc cache */
	PPB_RET_RING,	  /* produced into the ptr_ring */
	PPB_RET_RELEASE,  /* released to the page allocator (not teardown) */
	PPB_NR_CLASSES,
	PPB_NR_ALLOC_CLASSES = PPB_RET_CACHE,
};

/*
 * One class of one pool on one CPU. A class's time is its clean calls' mean
 * times its calls (pool_path_ns()): the entry and exit code around an
 * interrupt's handler is not in irq_ns and stays in the time of a call it
 * landed in, and which calls the timer ticks hit differs from boot to boot.
 */
struct ppb_class_count {
	__u64 calls;	/* calls of the class (a bulk return: one per page) */
	__u64 ns;	/* fentry: ns inside the timed calls (probe overhead included) */
	__u64 clean;	/* fentry: the timed calls no interrupt landed in */
	__u64 clean_ns; /* fentry: their ns */
};

/* Per-CPU, per-pool counts: each class's, and what they do not partition. */
struct ppb_pool_counts {
	struct ppb_class_count cls[PPB_NR_CLASSES];
	__u64 refill_pages; /* pages moved ring -> cache */
	__u64 slow_pages;   /* pages from the page allocator (state_hold events) */
	__u64 rel_refcnt;   /* releases of which: page refcount > 1 */
	__u64 rel_other;    /* releases of which: ring full, NUMA, skb build (6.1) */
	__u64 rel_teardown; /* releases while the pool is being destroyed */
	__u64 elems;	    /* allocations our XDP programs saw (tracepoint backend) */
	__u64 samples;	    /* pool-state samples taken on this CPU */
	__u64 unclassified; /* returns that could not be classified (ppbench-watch(8)) */
	/* fentry: hooked calls made inside another hooked call (a wrapper such as
	 * page_pool_alloc_pages calling page_pool_alloc_netmems); the innermost
	 * call is the one timed, so one probe pair's window is in each time */
	__u64 nested_calls;
	/* fentry: interrupt handlers' ns inside timed calls, left out of the classes' ns */
	__u64 irq_ns;
};

/*
 * Pools that found no room in pool_info or pool_counts (per-CPU array
 * untracked, index 0): their pages are not counted anywhere. Events of one
 * pool come in runs on one CPU, so a pool counts once per run (last_ptr and
 * last_id: a freed pool's address is reused); events counts every miss.
 */
struct ppb_untracked {
	__u64 pools;
	__u64 events;
	__u64 last_ptr;
	__u64 last_id;
};

/* Observer configuration, set by user space before load (rodata). */
struct ppb_obs_config {
	__u32 fentry;  /* fentry backend active: no sampling needed */
	__u32 nr_cpus; /* possible CPUs */
	/*
	 * Kernel text addresses that tell pools apart, looked up by name in the
	 * kernel (modules included) before the object loads; 0 where the kernel
	 * has no such symbol, or veth.ko is not loaded yet.
	 */
	__u64 ksym_test_run_init_page; /* init_callback of BPF_PROG_RUN's pools */
	__u64 ksym_veth_xmit;	       /* ndo_start_xmit of veth devices */
	__u64 ksym_veth_poll;	       /* NAPI poll function of veth */
};

/* Run-time switches shared by the observer and the XDP objects (array map obs_ctl, index 0). */
struct ppb_obs_ctl {
	__u32 elems_active; /* an XDP program of ours counts allocations: it alone
			     * (and flushes) keeps the allocation-side ledger */
	__u32 pad;
};

/* ---- XDP programs ------------------------------------------------------ */

enum ppb_action {
	PPB_ACT_DROP = 0,
	PPB_ACT_PASS = 1,
	PPB_ACT_TX = 2,
	PPB_ACT_REDIRECT = 3, /* devmap index 0 */
	PPB_ACT_CPU = 4,      /* cpumap index 0 */
	PPB_ACT_FASTPASS = 5, /* ppb_xdp_fastpass: the lf-fastpass recipes */
};

/*
 * Roles of our XDP programs: the index of a program's statistics (xdp_stats)
 * and of its id (prog_id[]). In proof runs exactly one role counts the
 * allocations of a pool (elems_role).
 */
enum ppb_role {
	PPB_ROLE_ACTION, /* ppb_xdp_act: the action program */
	PPB_ROLE_GEN,	 /* ppb_xdp_gen: the live-frames generator */
	PPB_ROLE_SECOND, /* ppb_cpumap_prog, ppb_devmap_prog: the second stage */
	PPB_NR_ROLES,
};

/* Statistics of one XDP program on one CPU. */
struct ppb_xdp_stats {
	__u64 packets;
	__u64 bytes;
	__u64 timed_ns;	   /* sum of sampled spans */
	__u64 timed_elems; /* elements in those spans */
	__u64 last_ts;	   /* last timing sample, or start of the timed batch */
	__u64 gen;	   /* run generation of last_ts */
	__u64 batch_mark;  /* batch clock: packets when the last batch ended */
	__u64 batches;	   /* batch clock: batches seen */
	__u64 paced_ns;	   /* cross-CPU pacing: time waited for the consumer (not timed) */
	__u64 pace_gen;	   /* run generation in which pacing gave up (consumer stalled) */
};

/* A CPU's statistics of every role (xdp.bpf.c's xdp_stats[cpu]), a cache
 * line apart from the next CPU's. */
struct ppb_cpu_stats {
	struct ppb_xdp_stats role[PPB_NR_ROLES];
} __attribute__((aligned(64)));

/* Per-CPU error and transmit counters from the xdp tracepoints (index 0). */
struct ppb_xdp_errs {
	__u64 exception;    /* xdp_exception of our programs (ABORTED, bad action, TX failure) */
	__u64 redirect_err; /* xdp_redirect_err of our programs */
	__u64 xmit_sent;    /* xdp_devmap_xmit to the target device: frames sent */
	__u64 xmit_drops;   /* ... and the frames the driver did not take */
	__u64 cpumap_drops; /* xdp_cpumap_enqueue on our cpumap: remote queue full */
	__u64 pad[3];
};

/*
 * How the XDP object maps a frame to its page and page_pool (global
 * frame_map), set by the calibration run (ppb_xdp_calib). vmemmap_k stays 0
 * unless the run's page_pool page carries pp_sig, and then the proof sampler
 * maps no frame.
 */
struct ppb_frame_map {
	__u64 vmemmap_k; /* virt_to_page: page = k + (va >> PAGE_SHIFT) * sizeof(struct page) */
	__u64 pp_sig;	 /* PP_SIGNATURE of this kernel (from its config) */
	__u64 pp_mask;	 /* the bits of page->pp_magic that carry it */
};

/* Sizes a multiple of 8, checked by both compilers (see the top of this file). */
_Static_assert(sizeof(struct ppb_pool_key) % 8 == 0, "struct ppb_pool_key");
_Static_assert(sizeof(struct ppb_pool_state) % 8 == 0, "struct ppb_pool_state");
_Static_assert(sizeof(struct ppb_pool_info) % 8 == 0, "struct ppb_pool_info");
_Static_assert(sizeof(struct ppb_class_count) % 8 == 0, "struct ppb_class_count");
_Static_assert(sizeof(struct ppb_pool_counts) % 8 == 0, "struct ppb_pool_counts");
_Static_assert(sizeof(struct ppb_untracked) % 8 == 0, "struct ppb_untracked");
_Static_assert(sizeof(struct ppb_obs_config) % 8 == 0, "struct ppb_obs_config");
_Static_assert(sizeof(struct ppb_obs_ctl) % 8 == 0, "struct ppb_obs_ctl");
_Static_assert(sizeof(struct ppb_xdp_stats) % 8 == 0, "struct ppb_xdp_stats");
_Static_assert(sizeof(struct ppb_cpu_stats) % 64 == 0, "struct ppb_cpu_stats");
_Static_assert(sizeof(struct ppb_xdp_errs) % 8 == 0, "struct ppb_xdp_errs");
_Static_assert(sizeof(struct ppb_frame_map) % 8 == 0, "struct ppb_frame_map");

#endif
