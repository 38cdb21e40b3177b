// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP data path without a veth pair: ppb_xdp_act (and load's programs)
 * run by BPF_PROG_RUN on a canned 64-byte UDP frame, normal and with live
 * frames, then the maps read.
 *
 *   account():      the per-CPU ppb_xdp_stats of the action role
 *   proof counting: the proof sampler and the observer's pool maps, which
 *                   must give the exact counts of the test-run page_pool
 *
 * The thread is pinned to one CPU: BPF_PROG_RUN runs the program on the
 * calling CPU, so every count is exact on that CPU and zero on the others.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "loader/kfeatures.h"
#include "loader/observer.h"
#include "loader/xdpobj.h"
#include "model/counts.h"
#include "model/pkt.h"
#include "sys/log_libbpf.h"
#include "sys/util.h"
#include "unit.h"

#define FRAME_LEN 64

struct fixture {
	struct xdpo *x;
	struct observer *obs;
	uint8_t pkt[FRAME_LEN];
	int cpu;
	cpu_set_t saved;
};

/* libbpf's messages go through pr_log like ppbench's (shown with V=1). */
__attribute__((constructor)) static void setup_log(void)
{
	log_setup_libbpf();
}

static bool build_frame(uint8_t *pkt)
{
	struct udp_spec s = { .src_mac = { 2, 0, 0, 0, 0, 1 },
			      .dst_mac = { 2, 0, 0, 0, 0, 2 },
			      .sport = 9,
			      .dport = 9,
			      .size = FRAME_LEN };

	parse_ip("10.77.0.1", "src", &s.src);
	parse_ip("10.77.0.2", "dst", &s.dst);
	return ASSERT_EQ(pkt_build_udp(&s, pkt, FRAME_LEN), FRAME_LEN, "pkt_build_udp");
}

/* Root, and for live frames a kernel that has them: else SKIP, not FAIL. */
static bool can_run(bool live)
{
	if (geteuid()) {
		UNIT_SKIP("needs root (loads BPF programs)");
		return false;
	}
	if (live && ppb_probe_live_frames()) {
		UNIT_SKIP("no BPF_F_TEST_XDP_LIVE_FRAMES on this kernel");
		return false;
	}
	return true;
}

static bool pin_cpu(struct fixture *f)
{
	cpu_set_t set;

	f->cpu = sched_getcpu();
	sched_getaffinity(0, sizeof(f->saved), &f->saved);
	CPU_ZERO(&set);
	CPU_SET(f->cpu, &set);
	return ASSERT_OK(sched_setaffinity(0, sizeof(set), &set), "pin to the current CPU");
}

/*
 * with_obs: the observer first (tracepoint backend: the one that needs the
 * proof sampler), its pool maps shared with the XDP object, and the
 * calibration that lets the sampler map a frame to its page_pool.
 */
static bool fixture_open(struct fixture *f, struct xdpo_opts o, bool with_obs)
{
	struct obs_opts oo = { .no_fentry = true };

	memset(f, 0, sizeof(*f));
	f->cpu = -1;
	if (!build_frame(f->pkt) || !pin_cpu(f))
		return false;
	if (with_obs) {
		if (!ASSERT_OK(obs_open(&f->obs, &oo), "obs_open"))
			return false;
		o.obs = f->obs;
	}
	if (!ASSERT_OK(xdpo_open(&f->x, &o), "xdpo_open"))
		return false;
	return !with_obs || ASSERT_OK(xdpo_calibrate(f->x), "xdpo_calibrate");
}

static void fixture_close(struct fixture *f)
{
	xdpo_close(f->x);
	obs_close(f->obs);
	if (f->cpu >= 0)
		sched_setaffinity(0, sizeof(f->saved), &f->saved);
}

/* A role's per-CPU stats: the sum over CPUs, and the part on our CPU. */
struct role_sum {
	struct ppb_xdp_stats all, here;
};

static bool role_sum(struct fixture *f, enum ppb_role role, struct role_sum *r)
{
	int n = xdpo_nr_cpus(f->x);
	struct ppb_xdp_stats st[n];

	memset(r, 0, sizeof(*r));
	if (!ASSERT_OK(xdpo_stats(f->x, role, st), "xdpo_stats"))
		return false;
	for (int c = 0; c < n; c++) {
		r->all.packets += st[c].packets;
		r->all.bytes += st[c].bytes;
		r->all.timed_elems += st[c].timed_elems;
	}
	r->here = st[f->cpu];
	return true;
}

/* Normal BPF_PROG_RUN: the program sees a copy of pkt REPEAT times. */
static bool prog_run(struct fixture *f, uint32_t repeat, uint32_t *retval)
{
	uint8_t out[FRAME_LEN + 256];
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = f->pkt, .data_size_in = FRAME_LEN,
		    .data_out = out, .data_size_out = sizeof(out), .repeat = repeat);

	if (!ASSERT_OK(bpf_prog_test_run_opts(xdpo_prog_fd(f->x, "ppb_xdp_act"), &o),
		       "BPF_PROG_RUN"))
		return false;
	*retval = o.retval;
	/* No program of ours touches the frame: what comes out is what went in. */
	return ASSERT_EQ(o.data_size_out, FRAME_LEN, "data_size_out") &&
	       ASSERT_EQ(memcmp(out, f->pkt, FRAME_LEN), 0, "frame unchanged");
}

/* The other roles' programs never ran: nothing may count there. */
static void assert_roles_idle(struct fixture *f)
{
	struct role_sum r;

	for (int role = PPB_ROLE_GEN; role < PPB_NR_ROLES; role++)
		if (role_sum(f, role, &r))
			ASSERT_EQ(r.all.packets, 0, "packets of an idle role");
}

/*
 * account() with a timing sample every 2^10 packets: N = 4096 is four
 * samples. The first one only starts the clock (run generation changed),
 * the next three close one span of 1024 elements each.
 */
void test_account_drop_repeat(void)
{
	struct xdpo_opts o = { .action = PPB_ACT_DROP, .count_bytes = true };
	const uint32_t n = 4096;
	struct fixture f;
	struct role_sum r;
	uint32_t ret = 0;

	if (!can_run(false))
		return;
	if (!fixture_open(&f, o, false))
		goto out;
	xdpo_begin_run(f.x, false, PPB_ROLE_ACTION);
	if (!prog_run(&f, n, &ret) || !role_sum(&f, PPB_ROLE_ACTION, &r))
		goto out;
	ASSERT_EQ(ret, XDP_DROP, "verdict");
	ASSERT_EQ(r.all.packets, n, "packets, all CPUs");
	ASSERT_EQ(r.here.packets, n, "packets on the running CPU");
	ASSERT_EQ(r.all.bytes, (uint64_t)n * FRAME_LEN, "bytes");
	ASSERT_EQ(r.all.timed_elems, 3 * 1024, "timed elements: 3 spans of 2^10");
	assert_roles_idle(&f);
out:
	fixture_close(&f);
}

/* The verdict is a load-time constant: one object per action. */
static void account_action(uint32_t action, uint32_t verdict, uint32_t n)
{
	struct xdpo_opts o = { .action = action };
	struct fixture f;
	struct role_sum r;
	uint32_t ret = 0;

	if (!fixture_open(&f, o, false))
		goto out;
	xdpo_begin_run(f.x, false, PPB_ROLE_ACTION);
	/* Twice: the counts are cumulative over runs of one object. */
	if (!prog_run(&f, n, &ret) || !prog_run(&f, n, &ret) || !role_sum(&f, PPB_ROLE_ACTION, &r))
		goto out;
	ASSERT_EQ(ret, verdict, "verdict");
	ASSERT_EQ(r.all.packets, 2 * n, "packets of two runs");
	ASSERT_EQ(r.all.bytes, 0, "bytes (not counted unless asked)");
out:
	fixture_close(&f);
}

void test_account_pass_tx(void)
{
	if (!can_run(false))
		return;
	account_action(PPB_ACT_PASS, XDP_PASS, 1000);
	account_action(PPB_ACT_TX, XDP_TX, 1000);
}

/* Pool records in the observer's map (any kind, any state). */
static int nr_pool_records(struct observer *obs)
{
	struct ppb_pool_key key, next, *prev = NULL;
	int n = 0;

	while (!bpf_map_get_next_key(obs_pool_info_fd(obs), prev, &next)) {
		key = next;
		prev = &key;
		n++;
	}
	return n;
}

/*
 * Live frames: the frames come from the test-run page_pool in batches, each
 * a real xdp_frame. Every batch size must count each frame once, a last
 * partial batch included (10000 = 156 x 64 + 16). The observer's maps are
 * shared and the sampler calibrated, but proof is off: a timed run must
 * leave the maps untouched (the observer itself is not attached).
 */
void test_account_live_frames(void)
{
	static const uint32_t batch[] = { 1, 64, 256 }, repeat[] = { 100, 10000, 10000 };
	struct xdpo_opts o = { .action = PPB_ACT_DROP, .count_bytes = true };
	struct fixture f;
	struct role_sum r;
	uint64_t total = 0;

	if (!can_run(true))
		return;
	if (!fixture_open(&f, o, true))
		goto out;
	xdpo_begin_run(f.x, false, PPB_ROLE_ACTION);
	for (size_t i = 0; i < ARRAY_SIZE(batch); i++) {
		if (!ASSERT_OK(xdpo_live_run(f.x, "ppb_xdp_act", batch[i], repeat[i], f.pkt,
					     FRAME_LEN, NULL),
			       "live-frames BPF_PROG_RUN") ||
		    !role_sum(&f, PPB_ROLE_ACTION, &r))
			goto out;
		total += repeat[i];
		ASSERT_EQ(r.all.packets, total, "packets after each batch size");
		ASSERT_EQ(r.here.packets, total, "... all on the running CPU");
	}
	ASSERT_EQ(r.all.bytes, total * FRAME_LEN, "bytes");
	ASSERT_EQ(nr_pool_records(f.obs), 0, "pool records of a run without proof");
	assert_roles_idle(&f);
out:
	fixture_close(&f);
}

/* ---- proof counting ------------------------------------------------------ */

/*
 * One live-frames DROP of PROG with the observer on (proof: ours samples
 * the pool too); d gets what the pool maps saw of it.
 */
static bool observed_run(struct fixture *f, const char *prog, bool proof, uint32_t batch,
			 uint32_t repeat, struct obs_snapshot *d)
{
	struct obs_snapshot s0 = {}, s1 = {};
	bool ok;

	ok = ASSERT_OK(obs_start(f->obs), "obs_start") &&
	     ASSERT_OK(obs_set_elems_active(f->obs, proof), "obs_set_elems_active") &&
	     ASSERT_OK(obs_snapshot(f->obs, &s0), "snapshot before");
	xdpo_begin_run(f->x, proof, PPB_ROLE_ACTION);
	ok = ok && ASSERT_OK(xdpo_live_run(f->x, prog, batch, repeat, f->pkt, FRAME_LEN, NULL),
			     "live-frames BPF_PROG_RUN");
	if (ok) {
		ok = ASSERT_OK(obs_wait_test_run_settled(f->obs, 3.0), "test-run pool freed") &&
		     ASSERT_OK(obs_flush(f->obs), "obs_flush") &&
		     ASSERT_OK(obs_snapshot(f->obs, &s1), "snapshot after") &&
		     ASSERT_OK(snap_delta(&s0, &s1, d), "obs_delta");
	}
	xdpo_begin_run(f->x, false, PPB_ROLE_ACTION);
	obs_set_elems_active(f->obs, false);
	obs_stop(f->obs);
	snap_free(&s0);
	snap_free(&s1);
	return ok;
}

static bool proof_run(struct fixture *f, uint32_t batch, uint32_t repeat, struct obs_snapshot *d)
{
	return observed_run(f, "ppb_xdp_act", true, batch, repeat, d);
}

/*
 * The pool whose allocations our program counted: exactly one, the run's
 * test-run pool (other pools the observer saw meanwhile have no elements).
 */
static const struct pool_snap *counted_pool(const struct obs_snapshot *d)
{
	const struct pool_snap *found = NULL;
	int n = 0;

	for (int i = 0; i < d->nr_pools; i++) {
		if (!d->pools[i].total.elems)
			continue;
		found = &d->pools[i];
		n++;
	}
	if (!ASSERT_EQ(n, 1, "pools with counted elements"))
		return NULL;
	if (!ASSERT_EQ(found->info.kind, PPB_POOL_TEST_RUN, "its kind"))
		return NULL;
	return found;
}

/* What the kernel's page_pool code implies for one live-frames DROP syscall. */
struct proof_case {
	uint32_t batch, repeat;
	uint64_t cls[PPB_NR_CLASSES]; /* each class's calls */
	uint64_t slow_pages, rel_teardown;
};

static const struct proof_case proof_cases[] = {
	/*
	 * 64 frames per batch: the first batch is one slow bulk of 64 pages,
	 * each later one a refill of the cache from the ring, and every frame
	 * goes back to the ring (no NAPI: no direct recycling). The 64 pages
	 * are released when the pool is destroyed.
	 */
	{ .batch = 64,
	  .repeat = 20000,
	  .cls = { [PPB_ALLOC_SLOW] = 1,
		   [PPB_ALLOC_REFILL] = (20000 + 63) / 64 - 1,
		   [PPB_ALLOC_CACHE] = 20000 - (20000 + 63) / 64,
		   [PPB_RET_RING] = 20000 },
	  .slow_pages = 64,
	  .rel_teardown = 64 },
	/*
	 * 16 frames per batch into a 16-entry ring: the slow bulk's 64 pages
	 * serve the first four batches, each later batch is one refill. Of
	 * those 64 pages, 48 find the ring full on their return and are
	 * released; the other returns go to the ring, which is full at destroy.
	 */
	{ .batch = 16,
	  .repeat = 1024,
	  .cls = { [PPB_ALLOC_SLOW] = 1,
		   [PPB_ALLOC_REFILL] = 1024 / 16 - 64 / 16,
		   [PPB_ALLOC_CACHE] = 1024 - 1 - (1024 / 16 - 64 / 16),
		   [PPB_RET_RING] = 1024 - 48,
		   [PPB_RET_RELEASE] = 48 },
	  .slow_pages = 64,
	  .rel_teardown = 16 },
};

static void check_pool_counts(const struct proof_case *pc, const struct pool_snap *p)
{
	const struct ppb_pool_counts *c = &p->total;

	ASSERT_EQ(c->elems, pc->repeat, "elements");
	ASSERT_EQ(counts_allocs(c), pc->repeat, "allocations (cache+refill+slow)");
	ASSERT_EQ(counts_returns(c), pc->repeat, "returns (cache+ring+release)");
	for (int i = 0; i < PPB_NR_CLASSES; i++)
		ASSERT_EQ(c->cls[i].calls, pc->cls[i], class_name(i));
	ASSERT_EQ(c->slow_pages, pc->slow_pages, "pages from the page allocator");
	ASSERT_EQ(c->rel_teardown, pc->rel_teardown, "releases at destroy");
	ASSERT_EQ(c->unclassified, 0, "unclassified returns");
	ASSERT_EQ(c->slow_pages - c->cls[PPB_RET_RELEASE].calls - c->rel_teardown, 0,
		  "pages taken minus pages released");
	ASSERT_TRUE(p->info.flags & PPB_POOL_F_DYING, "pool destroyed");
	ASSERT_TRUE(snap_gone(p), "freed, and shown as itself");
}

void test_proof_lf_drop_pool_counts(void)
{
	struct xdpo_opts o = { .action = PPB_ACT_DROP };
	struct obs_snapshot d = {};
	const struct pool_snap *p;
	struct fixture f;
	struct role_sum r;
	uint64_t total = 0;

	if (!can_run(true))
		return;
	if (!fixture_open(&f, o, true))
		goto out;
	for (size_t i = 0; i < ARRAY_SIZE(proof_cases); i++) {
		const struct proof_case *pc = &proof_cases[i];

		if (!proof_run(&f, pc->batch, pc->repeat, &d))
			break;
		p = counted_pool(&d);
		if (p)
			check_pool_counts(pc, p);
		snap_free(&d);
		/* The proof run is still counted by account(), once per frame. */
		total += pc->repeat;
		if (role_sum(&f, PPB_ROLE_ACTION, &r))
			ASSERT_EQ(r.all.packets, total, "packets of the proof runs");
	}
out:
	fixture_close(&f);
}

/* Elements any pool of a snapshot counted. */
static uint64_t all_elems(const struct obs_snapshot *d)
{
	uint64_t n = 0;

	for (int i = 0; i < d->nr_pools; i++)
		n += d->pools[i].total.elems;
	return n;
}

/*
 * load's programs, live frames with proof on: both count every packet and
 * its bytes, and start the batch clock at the first; ppb_xdp_load (the
 * default) samples no pool, ppb_xdp_paths (--paths) gives the run's pool its
 * exact path mix.
 */
void test_account_load_programs(void)
{
	/* proof_cases[0]'s kind of run, shorter: 10 batches of 64 */
	static const struct proof_case pc = { .batch = 64,
					      .repeat = 640,
					      .cls = { [PPB_ALLOC_SLOW] = 1,
						       [PPB_ALLOC_REFILL] = 9,
						       [PPB_ALLOC_CACHE] = 630,
						       [PPB_RET_RING] = 640 },
					      .slow_pages = 64,
					      .rel_teardown = 64 };
	static const char *const progs[] = { "ppb_xdp_load", "ppb_xdp_paths" };
	struct xdpo_opts o = { .action = PPB_ACT_DROP };
	struct obs_snapshot d = {};
	const struct pool_snap *p;
	struct fixture f;
	struct role_sum r;

	if (!can_run(true))
		return;
	if (!fixture_open(&f, o, true))
		goto out;
	for (int i = 0; i < 2; i++) {
		if (!observed_run(&f, progs[i], true, pc.batch, pc.repeat, &d) ||
		    !role_sum(&f, PPB_ROLE_ACTION, &r))
			break;
		ASSERT_EQ(r.here.packets, (i + 1) * pc.repeat, progs[i]);
		ASSERT_EQ(r.here.bytes, (i + 1) * pc.repeat * FRAME_LEN, "bytes, counted always");
		/* No NAPI poll ends here: the first batch's clock stays open. */
		ASSERT_TRUE(r.here.last_ts, "the first packet started the batch clock");
		ASSERT_EQ(r.here.timed_elems, 0, "timed elements, no batch ended");
		if (!i)
			ASSERT_EQ(all_elems(&d), 0, "ppb_xdp_load: elements of a pool");
		else if ((p = counted_pool(&d)))
			check_pool_counts(&pc, p);
		snap_free(&d);
	}
out:
	fixture_close(&f);
}

/*
 * A kernel config that is not this kernel's: a poison delta other than the
 * one the running kernel's config gives. The calibration's page is a
 * page_pool page that lacks the signature of that delta, so the
 * calibration refuses and says why (and the proof sampler, never
 * calibrated, maps no frame), rather than match pages with a wrong signature.
 */
void test_calibrate_refuses_foreign_signature(void)
{
	struct xdpo_opts o = { .action = PPB_ACT_DROP, .progs = XDPO_ACT | XDPO_CALIB };
	const char *real = ppb_bpf_kconfig();
	unsigned long long delta;
	struct xdpo *x = NULL;
	char planted[64];

	if (!can_run(true))
		return;
	if (!ASSERT_TRUE(real && sscanf(real, "CONFIG_ILLEGAL_POINTER_VALUE=%lli", &delta) == 1,
			 "this kernel's CONFIG_ILLEGAL_POINTER_VALUE"))
		return;
	snprintf(planted, sizeof(planted), "CONFIG_ILLEGAL_POINTER_VALUE=0x%llx",
		 delta ? 0 : 0xdead000000000000ULL);
	setenv("PPBENCH_TEST_KCONFIG", planted, 1);
	if (!ASSERT_OK(xdpo_open(&x, &o), "xdpo_open with a foreign config"))
		goto out;
	ASSERT_EQ(xdpo_calibrate(x), -EBADMSG, "the calibration refuses");
	ASSERT_FALSE(xdpo_calibrated(x), "not calibrated");
	ASSERT_HAS_SUBSTR(xdpo_calib_error(x), "pp_magic", "the reason names the page's mark");
out:
	unsetenv("PPBENCH_TEST_KCONFIG");
	xdpo_close(x);
}

/*
 * A BPF object given a page size that is not the kernel's (a loader that
 * hard-codes 4K pages, run on a 16K kernel, or here the reverse): the
 * calibration sees the kernel's page size in its test-run frame and refuses,
 * saying so, rather than map frames to the wrong struct page. And the
 * loader's own choice, the running kernel's, calibrates.
 */
void test_calibrate_refuses_foreign_page_size(void)
{
	struct xdpo_opts o = { .action = PPB_ACT_DROP, .progs = XDPO_ACT | XDPO_CALIB };
	struct xdpo *x = NULL;
	char want[64];

	if (!can_run(true))
		return;
	if (!ASSERT_OK(xdpo_open(&x, &o), "xdpo_open") ||
	    !ASSERT_OK(xdpo_calibrate(x), "the kernel's page size calibrates"))
		goto out;
	xdpo_close(x);
	x = NULL;
	o.page_shift = sys_page_shift() == 12 ? 14 : 12;
	if (!ASSERT_OK(xdpo_open(&x, &o), "xdpo_open with a foreign page size"))
		goto out;
	ASSERT_EQ(xdpo_calibrate(x), -EBADMSG, "the calibration refuses");
	ASSERT_FALSE(xdpo_calibrated(x), "not calibrated");
	snprintf(want, sizeof(want), "pages of %ld bytes", sys_page_size());
	ASSERT_HAS_SUBSTR(xdpo_calib_error(x), want, "the reason names the kernel's page size");
out:
	xdpo_close(x);
}

/* Our test-run pools (our program counted their allocations) in s: live and freed. */
static void own_pools(const struct obs_snapshot *s, int *live, int *gone)
{
	*live = *gone = 0;
	for (int i = 0; i < s->nr_pools; i++) {
		const struct pool_snap *p = &s->pools[i];

		if (p->retired || p->info.kind != PPB_POOL_TEST_RUN ||
		    !(p->info.flags & PPB_POOL_F_ELEMS))
			continue;
		if (snap_gone(p))
			(*gone)++;
		else
			(*live)++;
	}
}

static int test_run_retired(const struct obs_snapshot *s)
{
	for (int i = 0; i < s->nr_pools; i++)
		if (s->pools[i].retired && s->pools[i].info.kind == PPB_POOL_TEST_RUN)
			return s->pools[i].folded;
	return 0;
}

/*
 * Every live-frames syscall creates and frees a pool: the next snapshot
 * shows each freed pool once, as itself, and takes its record out of the
 * maps; from then on its counts are in the retired row. (Other processes'
 * pools may come and go meanwhile: only ours count their allocations.)
 */
void test_observer_retires_freed_pools(void)
{
	struct xdpo_opts o = { .action = PPB_ACT_DROP };
	struct obs_snapshot s1 = {}, s2 = {};
	struct ppb_pool_info pi;
	int live, gone, runs = 50, missing = 0;
	struct fixture f;

	if (!can_run(true))
		return;
	if (!fixture_open(&f, o, true))
		goto out;
	if (!ASSERT_OK(obs_start(f.obs), "obs_start") ||
	    !ASSERT_OK(obs_set_elems_active(f.obs, true), "obs_set_elems_active"))
		goto out;
	xdpo_begin_run(f.x, true, PPB_ROLE_ACTION);
	for (int i = 0; i < runs; i++)
		if (!ASSERT_OK(xdpo_live_run(f.x, "ppb_xdp_act", 64, 640, f.pkt, FRAME_LEN, NULL),
			       "live-frames BPF_PROG_RUN"))
			goto out;
	if (!ASSERT_OK(obs_wait_test_run_settled(f.obs, 3.0), "pools freed") ||
	    !ASSERT_OK(obs_snapshot(f.obs, &s1), "snapshot after the runs") ||
	    !ASSERT_OK(obs_snapshot(f.obs, &s2), "the next snapshot"))
		goto out;
	own_pools(&s1, &live, &gone);
	ASSERT_EQ(live, 0, "our pools still live");
	ASSERT_EQ(gone, runs, "our pools shown freed, each as itself");
	for (int i = 0; i < s1.nr_pools; i++)
		if (snap_gone(&s1.pools[i]) &&
		    !bpf_map_lookup_elem(obs_pool_info_fd(f.obs), &s1.pools[i].key, &pi))
			missing++;
	ASSERT_EQ(missing, 0, "freed pools' records left in the map after the snapshot");
	own_pools(&s2, &live, &gone);
	ASSERT_EQ(live + gone, 0, "our pools in the next snapshot, but in the retired row");
	ASSERT_TRUE(test_run_retired(&s2) - test_run_retired(&s1) >= runs, "retired row grew");
out:
	if (f.x)
		xdpo_begin_run(f.x, false, PPB_ROLE_ACTION);
	snap_free(&s1);
	snap_free(&s2);
	fixture_close(&f);
}

/* A full map is counted: with no room (its one entry taken by a record no
 * snapshot shows), the test-run pool of a syscall is untracked (once per run
 * of its events). */
void test_observer_counts_untracked_pools(void)
{
	struct xdpo_opts o = { .action = PPB_ACT_DROP };
	struct obs_snapshot s = {};
	struct fixture f;

	if (!can_run(true))
		return;
	setenv("PPBENCH_TEST_MAX_POOLS", "0", 1);
	if (!fixture_open(&f, o, true))
		goto out;
	if (!ASSERT_EQ(nr_pool_records(f.obs), 1, "the map full") ||
	    !ASSERT_OK(obs_start(f.obs), "obs_start") ||
	    !ASSERT_OK(xdpo_live_run(f.x, "ppb_xdp_act", 64, 640, f.pkt, FRAME_LEN, NULL),
		       "live-frames BPF_PROG_RUN") ||
	    !ASSERT_OK(obs_snapshot(f.obs, &s), "snapshot"))
		goto out;
	ASSERT_EQ(s.capacity, 0, "the map's room");
	ASSERT_EQ(s.nr_pools, 0, "pools in the snapshot");
	/* other processes' pools that come and go find no room either */
	ASSERT_TRUE(s.untracked_pools >= 1, "the syscall's pool untracked");
	ASSERT_TRUE(s.untracked_events > s.untracked_pools, "its events, each");
out:
	unsetenv("PPBENCH_TEST_MAX_POOLS");
	snap_free(&s);
	fixture_close(&f);
}

/* The run's test-run pool, found by its pages from the page allocator. */
static const struct pool_snap *test_run_pool(const struct obs_snapshot *d)
{
	const struct pool_snap *found = NULL;
	int n = 0;

	for (int i = 0; i < d->nr_pools; i++) {
		if (d->pools[i].info.kind != PPB_POOL_TEST_RUN || !d->pools[i].total.slow_pages)
			continue;
		found = &d->pools[i];
		n++;
	}
	return ASSERT_EQ(n, 1, "test-run pools that took pages") ? found : NULL;
}

/*
 * bench times one-CPU live-frames recipes with ppb_xdp_bare (no maps, no
 * clock) and proves them with ppb_xdp_act: the two must drive the same
 * recipe. What the tracepoints see without our program's sampling - pages
 * taken from the page allocator, slow calls, releases in the run and at
 * destroy - must be the proof run's, exactly: ring (batch 64), its
 * small-batch transient, and slow (batch 1, 64 frames per syscall).
 */
void test_timed_bare_same_recipe(void)
{
	static const uint32_t cases[][2] = { { 64, 20000 }, { 16, 1024 }, { 1, 64 } };
	struct xdpo_opts o = { .action = PPB_ACT_DROP };
	struct obs_snapshot dp = {}, db = {};
	const struct pool_snap *p, *b;
	struct fixture f;

	if (!can_run(true))
		return;
	if (!fixture_open(&f, o, true))
		goto out;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!proof_run(&f, cases[i][0], cases[i][1], &dp) ||
		    !observed_run(&f, "ppb_xdp_bare", false, cases[i][0], cases[i][1], &db))
			break;
		p = counted_pool(&dp);
		b = test_run_pool(&db);
		if (p && b) {
			ASSERT_EQ(p->total.elems, cases[i][1], "proof run: its elements");
			ASSERT_EQ(b->total.slow_pages, p->total.slow_pages, "pages taken");
			ASSERT_EQ(b->total.cls[PPB_ALLOC_SLOW].calls,
				  p->total.cls[PPB_ALLOC_SLOW].calls, "slow calls");
			ASSERT_EQ(b->total.cls[PPB_RET_RELEASE].calls,
				  p->total.cls[PPB_RET_RELEASE].calls, "releases in the run");
			ASSERT_EQ(b->total.rel_teardown, p->total.rel_teardown,
				  "releases at destroy");
		}
		snap_free(&dp);
		snap_free(&db);
	}
out:
	snap_free(&dp);
	snap_free(&db);
	fixture_close(&f);
}
