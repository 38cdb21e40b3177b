// SPDX-License-Identifier: GPL-2.0
/* Recipes that drive pages through page_pool (see engine/recipe_run.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/bpf.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "engine/recipe_run.h"
#include "instr/instrument.h"
#include "model/bench_types.h"
#include "model/counts.h"
#include "model/testrun_clock.h"
#include "model/pkt.h"
#include "sys/log.h"
#include "sys/util.h"

const struct recipe_desc recipes[NR_RECIPES] = {
	[RCP_LF_DROP] = { "lf-drop", "live-frames BPF_PROG_RUN, XDP_DROP (test-run pool)", true,
			  PPB_ROLE_ACTION, PPB_POOL_TEST_RUN },
	[RCP_LF_VETH] = { "lf-veth", "live frames redirected out of veth a, XDP_DROP on peer b",
			  true, PPB_ROLE_GEN, PPB_POOL_TEST_RUN },
	[RCP_VETH_TX] = { "veth-tx", "UDP a->b, native XDP_TX on veth b (rq pool, skb path)", false,
			  PPB_ROLE_ACTION, PPB_POOL_VETH },
	[RCP_GENERIC_FRAGS] = { "generic-frags",
				"UDP a->b, generic-XDP xdp.frags XDP_DROP on b (system pool)",
				false, PPB_ROLE_ACTION, PPB_POOL_SYSTEM },
	[RCP_XCPU] = { "xcpu", "live frames redirected to a cpumap on another CPU, XDP_DROP there",
		       true, PPB_ROLE_ACTION, PPB_POOL_TEST_RUN },
	[RCP_NIC_DROP] = { "nic-drop",
			   "native XDP_DROP of the traffic the interface receives "
			   "(driver NAPI)",
			   false, PPB_ROLE_ACTION, PPB_POOL_NIC, true },
	[RCP_LF_FASTPASS] = { "lf-fastpass",
			      "live frames PASSed 32 B below their headroom to generic-XDP "
			      "xdp.frags XDP_DROP on a private lo: copied into the system pool, "
			      "recycled directly",
			      true, PPB_ROLE_SECOND, PPB_POOL_SYSTEM },
	[RCP_LF_FASTPASS_TWIN] = { "lf-fastpass-twin",
				   "lf-fastpass with the headroom kept: no copy, the frame's page "
				   "returns to the test-run pool's ring",
				   true, PPB_ROLE_SECOND, PPB_POOL_TEST_RUN },
};

static bool is_fastpass(enum recipe_id id)
{
	return id == RCP_LF_FASTPASS || id == RCP_LF_FASTPASS_TWIN;
}

bool recipe_kernel_clocked(enum recipe_id id)
{
	return recipes[id].live && id != RCP_XCPU;
}

struct recipe_ctx {
	enum recipe_id id;
	struct recipe_params p;
	struct ppb_env *env;
	struct observer *obs;
	struct xdpo *x;
	int link;
	int pin_link; /* keeps the live program in the XDP dispatcher */
	int sock;
	struct sockaddr_in dst;
	uint8_t pkt[PKT_BUF_SIZE];
	uint32_t pkt_len;
	cpu_set_t saved_affinity;
	int kthread_pid; /* the cpumap kthread at SCHED_FIFO, or 0 */
	uint64_t drops0; /* cpumap queue drops when the run began */
	double fixed_ns; /* kernel-clocked runs: a syscall's cost outside the loop */
	bool fixed_known;
};

/*
 * Timed runs of one-CPU live-frames recipes run programs with the same
 * verdicts and no maps or clock (the *_bare programs): the kernel's
 * test-run clock times them, so nothing of ours runs per packet.
 */
static bool bare(const struct recipe_ctx *c)
{
	return c->p.no_proof && recipe_kernel_clocked(c->id);
}

int recipe_by_name(const char *name)
{
	for (int i = 0; i < NR_RECIPES; i++)
		if (!strcmp(recipes[i].name, name))
			return i;
	return -1;
}

void recipe_set_loops(struct recipe_ctx *c, uint32_t repeat, uint32_t runs)
{
	c->p.repeat = repeat;
	c->p.runs = runs;
}

static int pin(struct recipe_ctx *c, int cpu)
{
	cpu_set_t set;

	sched_getaffinity(0, sizeof(c->saved_affinity), &c->saved_affinity);
	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		pr_err("cannot pin to CPU %d: %s\n", cpu, strerror(errno));
		return -errno;
	}
	return 0;
}

static void unpin(struct recipe_ctx *c)
{
	sched_setaffinity(0, sizeof(c->saved_affinity), &c->saved_affinity);
}

static int build_frame(struct recipe_ctx *c)
{
	struct udp_spec s = { .sport = 9, .dport = 9, .size = c->p.size };
	int n;

	memcpy(s.src_mac, c->env->mac[0], 6);
	memcpy(s.dst_mac, c->env->mac[1], 6);
	s.src = c->env->ip4[0];
	s.dst = c->env->ip4[1];
	n = pkt_build_udp(&s, c->pkt, sizeof(c->pkt));
	if (n < 0) {
		pr_err("frame size %u is out of range (%d..%d)\n", c->p.size, PKT_MIN_SIZE,
		       PKT_BUF_SIZE);
		return n;
	}
	c->pkt_len = n;
	return 0;
}

static struct xdpo_opts xdpo_opts_for(const struct recipe_ctx *c)
{
	struct xdpo_opts o = { .obs = c->obs,
			       .remote_action = XDP_DROP,
			       .sample_shift = c->p.sample_shift };

	/* the peer's program is act or bare (socket recipes, lf-veth) */
	o.progs = XDPO_ACT | (c->obs ? XDPO_CALIB : 0) | (is_fastpass(c->id) ? XDPO_FASTPASS : 0) |
		  (c->id == RCP_LF_VETH ? XDPO_GEN : 0);

	switch (c->id) {
	case RCP_VETH_TX:
		o.action = PPB_ACT_TX;
		break;
	case RCP_GENERIC_FRAGS:
		o.frags = true;
		break;
	case RCP_LF_VETH:
		o.gen_ifindex = c->env->ifindex[0];
		break;
	case RCP_LF_FASTPASS:
	case RCP_LF_FASTPASS_TWIN:
		o.action = PPB_ACT_FASTPASS;
		/* generic XDP copies into the system pool only for frags programs */
		o.frags = true;
		o.fp_adjust = c->id == RCP_LF_FASTPASS ? FASTPASS_ADJUST : 0;
		o.fp_byte0 = c->pkt[0];
		break;
	case RCP_XCPU:
		o.action = PPB_ACT_CPU;
		o.second_stage = true;
		o.cpumap_timing = true;
		o.cpumap_drops = true;
		/*
		 * Half the queue: a deep pipeline but no queue-full drops; never
		 * within two batches: a consumer asleep mid-batch wakes only when
		 * the batch is flushed.
		 */
		o.pace_limit =
			c->p.qsize / 2 > 2 * c->p.batch + 64 ? c->p.qsize / 2 : 2 * c->p.batch + 64;
		break;
	case RCP_NIC_DROP:
		o.napi_clock = true; /* traffic comes and goes: time the NAPI polls */
		break;
	default:
		break;
	}
	return o;
}

/* Programs on side b: the receiver of veth and socket recipes. */
static int attach_peer(struct recipe_ctx *c)
{
	bool skb = c->id == RCP_GENERIC_FRAGS;
	int err;

	if (c->id != RCP_LF_VETH && c->id != RCP_VETH_TX && c->id != RCP_GENERIC_FRAGS &&
	    c->id != RCP_NIC_DROP)
		return 0;
	/* Most drivers re-create their RX pools on attach: let the observer see it
	 * (mem_connect names the device of each new pool). */
	if (c->id == RCP_NIC_DROP && c->obs && obs_start(c->obs))
		return -EIO;
	err = env_enter(c->env, 1);
	if (err)
		return err;
	c->link = xdpo_attach(c->x, bare(c) ? "ppb_xdp_bare" : "ppb_xdp_act", c->env->ifindex[1],
			      skb);
	env_leave(c->env);
	if (c->link < 0) {
		pr_err("cannot attach XDP (%s mode) to %s: %s\n", skb ? "generic" : "native",
		       c->env->ifname[1], strerror(-c->link));
		return c->link;
	}
	return 0;
}

static void pin_dispatcher(struct recipe_ctx *c, const char *prog)
{
	c->pin_link = xdpo_pin_dispatcher(c->x, prog);
	if (c->pin_link < 0)
		pr_debug("cannot keep %s in the XDP dispatcher: %s\n", prog,
			 strerror(-c->pin_link));
}

static int open_socket(struct recipe_ctx *c)
{
	int err;

	if (recipes[c->id].live || recipes[c->id].passive)
		return 0;
	err = env_enter(c->env, 0);
	if (err)
		return err;
	c->sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	err = c->sock < 0 ? -errno : 0;
	env_leave(c->env);
	c->dst.sin_family = AF_INET;
	c->dst.sin_port = htons(9);
	c->dst.sin_addr = c->env->ip4[1].v4;
	return err;
}

/* Not fatal: the proof run's purity shows what a starved consumer costs. */
static void boost_consumer(struct recipe_ctx *c, int cpu)
{
	int pid = xdpo_cpumap_kthread_fifo(c->x, cpu);

	c->kthread_pid = pid > 0 ? pid : 0;
	if (pid < 0)
		pr_warn("cannot run the cpumap kthread of CPU %d at SCHED_FIFO (%s): other "
			"tasks there can delay it\n",
			cpu, strerror(-pid));
}

bool recipe_consumer_fifo(const struct recipe_ctx *c)
{
	return c->kthread_pid > 0;
}

static const char *main_prog(const struct recipe_ctx *c)
{
	if (is_fastpass(c->id))
		return bare(c) ? "ppb_xdp_fastpass_bare" : "ppb_xdp_fastpass";
	if (c->id == RCP_LF_VETH)
		return bare(c) ? "ppb_xdp_gen_bare" : "ppb_xdp_gen";
	return bare(c) ? "ppb_xdp_bare" : "ppb_xdp_act";
}

void recipe_ids(struct recipe_ctx *c, struct setup_rec *s)
{
	struct xdpo_ids x;
	int err = xdpo_ids(c->x, main_prog(c), c->id == RCP_XCPU ? c->p.remote_cpu : -1, &x);

	if (err)
		memset(&x, 0, sizeof(x));
	s->prog_id = x.prog;
	s->cpumap_id = x.cpumap;
	s->cpumap_prog_id = x.cpumap_prog;
	s->kthread_pid = err ? 0 : c->kthread_pid;
}

int recipe_setup(struct recipe_ctx **out, enum recipe_id id, struct ppb_env *env,
		 struct observer *obs, const struct recipe_params *p)
{
	struct recipe_ctx *c = calloc(1, sizeof(*c));
	struct xdpo_opts o;
	int err;

	if (!c)
		return -ENOMEM;
	c->id = id;
	c->p = *p;
	c->env = env;
	c->obs = obs;
	c->link = -1;
	c->pin_link = -1;
	c->sock = -1;
	err = recipes[id].passive ? 0 : build_frame(c);
	/* Smaller copies are page fragments: the fast path would not be taken, and the
	 * CPU's system pool would keep a fragment page (and the observer its counts). */
	if (!err && is_fastpass(id) && p->size < pkt_page_copy_size(sys_page_size())) {
		pr_err("%s needs frames of at least %u bytes on %ld-byte pages (--size %u): "
		       "smaller copies are page fragments of the system pool\n",
		       recipes[id].name, pkt_page_copy_size(sys_page_size()), sys_page_size(),
		       p->size);
		err = -EINVAL;
	}
	o = xdpo_opts_for(c);
	err = err ?: xdpo_open(&c->x, &o);
	if (err)
		goto fail;
	if (is_fastpass(id))
		xdpo_track_prog(c->x, PPB_ROLE_ACTION, main_prog(c));
	/* Without the calibration proof runs cannot find a frame's pool. */
	if (obs && obs_backend(obs) == OBS_TRACEPOINT && !p->no_proof && xdpo_calibrate(c->x))
		pr_warn("cannot map frames to their page_pool (%s): ring/cache counts "
			"unavailable\n",
			xdpo_calib_error(c->x));
	err = xdpo_attach_tracing(c->x) ?: attach_peer(c) ?: open_socket(c);
	if (!err && recipes[id].live)
		pin_dispatcher(c, main_prog(c));
	/* The pin is the recipe's second stage: the frames pass to that lo. */
	if (!err && is_fastpass(id) && c->pin_link < 0) {
		pr_err("%s needs its program as generic XDP on a private lo: %s\n",
		       recipes[id].name, strerror(-c->pin_link));
		err = c->pin_link;
	}
	if (!err && id == RCP_XCPU) {
		err = xdpo_set_cpumap(c->x, p->remote_cpu, p->qsize);
		if (err)
			pr_err("cannot set up the cpumap entry for CPU %d: %s\n", p->remote_cpu,
			       strerror(-err));
		else
			boost_consumer(c, p->remote_cpu);
	}
	if (err)
		goto fail;
	*out = c;
	return 0;
fail:
	recipe_teardown(c);
	return err;
}

void recipe_teardown(struct recipe_ctx *c)
{
	if (!c)
		return;
	if (c->link >= 0)
		close(c->link);
	xdpo_unpin_dispatcher(c->pin_link);
	if (c->sock >= 0)
		close(c->sock);
	xdpo_close(c->x);
	free(c);
}

static int read_roles(struct recipe_ctx *c, struct ppb_xdp_stats **st)
{
	int n = xdpo_nr_cpus(c->x);

	for (int r = 0; r < PPB_NR_ROLES; r++) {
		st[r] = calloc(n, sizeof(**st));
		if (!st[r] || xdpo_stats(c->x, r, st[r]))
			return -ENOMEM;
	}
	return 0;
}

static uint64_t role_packets(struct recipe_ctx *c, enum ppb_role r)
{
	int n = xdpo_nr_cpus(c->x);
	struct ppb_xdp_stats st[n];
	uint64_t sum = 0;

	if (xdpo_stats(c->x, r, st))
		return 0;
	for (int i = 0; i < n; i++)
		sum += st[i].packets;
	return sum;
}

static int drive_live(struct recipe_ctx *c, struct recipe_result *res)
{
	const char *prog = main_prog(c);
	uint32_t dur;
	double wall;
	int err = 0;

	/* No ingress device: test_run then uses the namespace's loopback. Naming a
	 * real device costs tens of ms per syscall (rxq registration), and no
	 * recipe needs it: redirects resolve ifindexes in the same namespace. */
	int orig = -1;

	/* PASSed frames go to the lo of the caller's namespace: be in the pin's. */
	if (is_fastpass(c->id) && netns_enter_fd(xdpo_pin_netns(c->pin_link), &orig))
		return -EIO;
	/* once per setup: its pools and pages stay alike */
	if (bare(c) && !c->fixed_known) {
		err = xdpo_live_fixed_ns(c->x, prog, c->p.batch, c->p.repeat, c->pkt, c->pkt_len,
					 &c->fixed_ns);
		c->fixed_known = !err;
	}
	for (uint32_t i = 0; !err && i < c->p.runs; i++) {
		/* the instruments' window, outside the wall-clock reads around the syscall */
		struct instr_window w = { INSTR_TIMED };

		err = instr_begin(&w)
			      ?: xdpo_live_run_wall(c->x, prog, c->p.batch, c->p.repeat, c->pkt,
						    c->pkt_len, &dur, &wall);
		err = instr_end(&w, c->p.repeat, err);
		if (err)
			break;
		/* each syscall's pool is freed at its end: out of the observer's maps */
		if (res->proof)
			obs_drain(c->obs);
		res->clock_ns_sum += testrun_clock_loop_ns(dur, c->p.repeat, wall, c->fixed_ns);
		res->clock_resolved += testrun_clock_resolved(dur, c->p.repeat, wall, c->fixed_ns);
		res->clock_syscalls++;
		res->duration_frames += c->p.repeat;
	}
	if (err)
		pr_err("live-frames BPF_PROG_RUN failed: %s\n", strerror(-err));
	if (orig >= 0)
		netns_leave_fd(orig);
	return err;
}

static int drive_socket(struct recipe_ctx *c)
{
	size_t payload = c->p.size - pkt_hdr_size(AF_INET);

	for (uint32_t i = 0; i < c->p.repeat; i++) {
		if (sendto(c->sock, c->pkt + pkt_hdr_size(AF_INET), payload, 0,
			   (struct sockaddr *)&c->dst, sizeof(c->dst)) < 0) {
			if (errno == ENOBUFS || errno == EAGAIN) {
				i--;
				continue;
			}
			pr_err("sendto %s: %s\n", inet_ntoa(c->dst.sin_addr), strerror(errno));
			return -errno;
		}
	}
	return 0;
}

/* The program that sees every element last (after any queue or NAPI hop). */
static enum ppb_role final_role(const struct recipe_ctx *c)
{
	return c->id == RCP_XCPU ? PPB_ROLE_SECOND : PPB_ROLE_ACTION;
}

/* Frames the cpumap queue dropped so far (all CPUs; 0 if not counted). */
static uint64_t cpumap_drops(struct recipe_ctx *c)
{
	int n = xdpo_nr_cpus(c->x);
	struct ppb_xdp_errs e[n];
	uint64_t sum = 0;

	if (c->id != RCP_XCPU || xdpo_errs(c->x, e))
		return 0;
	for (int i = 0; i < n; i++)
		sum += e[i].cpumap_drops;
	return sum;
}

/*
 * Frames still on their way (cpumap queue, peer NAPI): wait until all
 * arrived, then say how many did not and go on. They take microseconds, but
 * once the softirq work is left to ksoftirqd, a busy host can keep that
 * thread off the CPU for more than a second: wait up to WAIT_DELIVERY_S.
 */
#define WAIT_DELIVERY_S 5
static void wait_delivery(struct recipe_ctx *c, uint64_t before, uint64_t want)
{
	uint64_t t0 = now_ns(), got;

	for (;;) {
		/* frames the cpumap queue dropped will not arrive */
		got = role_packets(c, final_role(c)) - before + cpumap_drops(c) - c->drops0;
		if (got >= want)
			return;
		if (now_ns() - t0 > WAIT_DELIVERY_S * 1000000000ull)
			break;
		usleep(5000);
	}
	pr_warn("%s: waited %d s for the frames to reach the %s program: %llu of %llu "
		"arrived (dropped on the way?)\n",
		recipes[c->id].name, WAIT_DELIVERY_S,
		final_role(c) == PPB_ROLE_SECOND ? "second-stage" : "action",
		(unsigned long long)got, (unsigned long long)want);
}

static void stats_delta(struct recipe_ctx *c, struct ppb_xdp_stats **a, struct ppb_xdp_stats **b,
			struct recipe_result *res)
{
	int n = xdpo_nr_cpus(c->x);

	for (int r = 0; r < PPB_NR_ROLES; r++) {
		struct role_stats *rs = &res->roles[r];

		rs->percpu = b[r];
		memset(&rs->total, 0, sizeof(rs->total));
		for (int i = 0; i < n; i++) {
			struct ppb_xdp_stats *x = &b[r][i], *y = &a[r][i];

			x->packets -= y->packets;
			x->bytes -= y->bytes;
			x->timed_ns -= y->timed_ns;
			x->timed_elems -= y->timed_elems;
			x->paced_ns -= y->paced_ns;
			rs->total.packets += x->packets;
			rs->total.bytes += x->bytes;
			rs->total.timed_ns += x->timed_ns;
			rs->total.timed_elems += x->timed_elems;
			rs->total.paced_ns += x->paced_ns;
		}
		free(a[r]);
	}
	res->elems = res->roles[recipes[c->id].elems_role].total.packets;
}

/* Passive recipes: wait until the interface has received the elements. */
static int drive_passive(struct recipe_ctx *c, uint64_t before, uint64_t want)
{
	uint64_t t0 = now_ns(), seen;

	for (;;) {
		seen = role_packets(c, PPB_ROLE_ACTION) - before;
		if (seen >= want)
			return 0;
		if (now_ns() - t0 > NIC_WAIT_S * 1000000000ull + want * 10000ull) {
			pr_err("%s received %llu of %llu packets in time: this recipe measures "
			       "the traffic the interface receives (start a generator)\n",
			       c->env->ifname[1][0] ? c->env->ifname[1] : "the interface",
			       (unsigned long long)seen, (unsigned long long)want);
			return -ETIMEDOUT;
		}
		usleep(2000);
	}
}

static int drive(struct recipe_ctx *c, struct recipe_result *res)
{
	uint64_t want = recipes[c->id].live ? (uint64_t)c->p.repeat * c->p.runs : c->p.repeat;
	uint64_t before = role_packets(c, final_role(c));
	int err;

	if (recipes[c->id].passive)
		return drive_passive(c, before, want);
	err = pin(c, c->p.cpu);
	if (err)
		return err;
	err = env_enter(c->env, 0);
	if (!err) {
		err = recipes[c->id].live ? drive_live(c, res) : drive_socket(c);
		env_leave(c->env);
	}
	unpin(c);
	/* Bare programs count nothing, and the kernel's clock stopped with the syscall. */
	if (!err && c->id != RCP_LF_DROP && !bare(c))
		wait_delivery(c, before, want);
	return err;
}

int recipe_run(struct recipe_ctx *c, bool proof, struct recipe_result *res)
{
	struct ppb_xdp_stats *before[PPB_NR_ROLES] = {}, *after[PPB_NR_ROLES] = {};
	struct obs_snapshot s0 = {}, s1 = {};
	int err;

	memset(res, 0, sizeof(*res));
	proof = proof && c->obs;
	res->proof = proof;
	if (proof)
		obs_clear_retired(c->obs);
	if (proof &&
	    (obs_start(c->obs) || obs_set_elems_active(c->obs, true) || obs_snapshot(c->obs, &s0)))
		return -EIO;
	xdpo_begin_run(c->x, proof, recipes[c->id].elems_role);
	err = read_roles(c, before);
	if (!err && c->id == RCP_XCPU)
		xdpo_set_pace_offset(c->x,
				     before[PPB_ROLE_ACTION][c->p.cpu].packets -
					     before[PPB_ROLE_SECOND][c->p.remote_cpu].packets);
	c->drops0 = cpumap_drops(c);
	err = err ?: drive(c, res);
	/* Destroy may be deferred to a worker: its returns belong to this run. A
	 * pool that is not freed in time is named, and the run goes on. */
	if (proof && !err) {
		obs_wait_test_run_settled(c->obs, 3.0);
		obs_flush(c->obs);
	}
	err = err ?: read_roles(c, after);
	if (!err)
		stats_delta(c, before, after, res);
	res->cpumap_drops = cpumap_drops(c) - c->drops0;
	if (proof) {
		if (!err && !obs_snapshot(c->obs, &s1))
			err = snap_delta(&s0, &s1, &res->counts);
		obs_set_elems_active(c->obs, false);
		obs_stop(c->obs);
		snap_free(&s0);
		snap_free(&s1);
	}
	xdpo_begin_run(c->x, false, recipes[c->id].elems_role);
	return err;
}

void recipe_result_free(struct recipe_result *res)
{
	for (int r = 0; r < PPB_NR_ROLES; r++)
		free(res->roles[r].percpu);
	snap_free(&res->counts);
	memset(res, 0, sizeof(*res));
}

int recipe_counts_by_kind(const struct recipe_result *res, int kind, int nr_cpus,
			  struct kind_counts *out)
{
	memset(out, 0, sizeof(*out));
	out->percpu = calloc(nr_cpus, sizeof(*out->percpu));
	if (!out->percpu)
		return -ENOMEM;
	for (int i = 0; i < res->counts.nr_pools; i++) {
		const struct pool_snap *p = &res->counts.pools[i];

		if (kind >= 0 && (int)p->info.kind != kind)
			continue;
		if (counts_zero(&p->total))
			continue;
		out->pools += p->folded ? p->folded : 1;
		out->flags |= p->info.flags;
		counts_add(&out->total, &p->total);
		for (int c = 0; c < nr_cpus && c < res->counts.nr_cpus; c++)
			counts_add(&out->percpu[c], &p->percpu[c]);
	}
	return 0;
}
