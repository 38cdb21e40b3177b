// SPDX-License-Identifier: GPL-2.0
/* The bench runner: recipe choice by proof, timed runs, path figures. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "engine/bench_run.h"
#include "engine/recipe_run.h"
#include "instr/instrument.h"
#include "instr/guest_profile.h"
#include "loader/kfeatures.h"
#include "loader/observer.h"
#include "loader/xdpobj.h"
#include "model/counts.h"
#include "model/pathfig.h"
#include "model/pkt.h"
#include "sys/cpus.h"
#include "sys/tsc_clock.h"
#include "sys/kconfig.h"
#include "sys/vethenv.h"
#include "sys/log.h"
#include "sys/nl.h"
#include "sys/util.h"
#include "probe.skel.h"

struct sc_env {
	struct bench_ctx *b;
	struct ppb_env *env;
	struct observer *obs;
	int remote_cpu;
	struct sc_result ref[NR_SCENARIOS];   /* reference recipes (path figures without fentry) */
	struct recipe_ctx *nic[NR_SCENARIOS]; /* an interface's XDP: attached once */
	struct counters cnt;		      /* --counters: open on the bench thread */
};

static int next_online_cpu(int cpu)
{
	int n = nr_possible_cpus();

	for (int i = 1; i < n; i++)
		if (cpu_is_online((cpu + i) % n))
			return (cpu + i) % n;
	return -1;
}

static uint64_t sc_loops(const struct bench_ctx *b, enum scenario_id id)
{
	return bench_loops(b->cfg, id) ?: scenario_defs[id].default_loops;
}

/* Sample often enough that even --loops 1000 gets tens of spans. */
static uint32_t sample_shift(uint64_t loops)
{
	uint32_t s = 10;

	while (s > 4 && (loops >> s) < 64)
		s--;
	return s;
}

static const char *unavailable(const struct sc_env *e, const struct candidate *c)
{
	const struct recipe_desc *d = &recipes[c->recipe];

	if (d->live && !e->b->live_frames)
		return "the kernel has no live-frames BPF_PROG_RUN";
	if (d->passive && !e->b->cfg->iface)
		return "measures an interface's own traffic (--iface)";
	if (e->b->cfg->iface && !d->live && !d->passive)
		return "needs the private veth pair (not with --iface)";
	if (c->recipe == RCP_XCPU && inst_clock()->icount)
		return e->remote_cpu < 0 ? "needs a second online CPU; and " INST_CLOCK_NO_XCPU
					 : INST_CLOCK_NO_XCPU;
	if (c->recipe == RCP_XCPU && e->remote_cpu < 0)
		return "needs a second online CPU";
	if (c->recipe == RCP_XCPU && ppb_probe_cpumap_prog())
		return "the kernel cannot run cpumap programs";
	return NULL;
}

static struct recipe_params make_params(const struct sc_env *e, const struct candidate *c,
					uint64_t loops)
{
	/* slow's batch 1 is its recipe; ring-xcpu's 256 a default --batch overrides */
	bool fixed = c->batch && (c->repeat || !e->b->cfg->batch_set);
	struct recipe_params p = { .batch = fixed ? c->batch : e->b->cfg->batch,
				   .size = c->size ? c->size : pkt_page_copy_size(sys_page_size()),
				   .cpu = e->b->cfg->cpu,
				   .remote_cpu = e->remote_cpu,
				   .qsize = 2048,
				   .sample_shift = sample_shift(loops) };

	/* elements -> syscalls: live recipes with a fixed repeat per syscall */
	if (c->repeat) {
		p.repeat = c->repeat == CAND_REPEAT_REFILL ? ppb_pool_refill() : c->repeat;
		p.runs = (uint32_t)((loops + p.repeat - 1) / p.repeat);
	} else {
		p.repeat = (uint32_t)loops;
		p.runs = 1;
	}
	return p;
}

static void describe(const struct sc_env *e, const struct candidate *c, const struct recipe_ctx *rc,
		     struct sc_result *r)
{
	const struct recipe_params p = make_params(e, c, r->loops / SETUP_CHUNKS);
	int n, m;

	r->batch = p.batch;
	n = snprintf(r->recipe, sizeof(r->recipe), "%s; %s, CPU %d", recipes[c->recipe].name,
		     recipes[c->recipe].text, p.cpu);
	if (recipes[c->recipe].live)
		n += snprintf(r->recipe + n, sizeof(r->recipe) - n,
			      ", batch %u, %u frame%s/syscall", p.batch, p.repeat,
			      p.repeat == 1 ? "" : "s");
	else if (recipes[c->recipe].passive)
		n += snprintf(r->recipe + n, sizeof(r->recipe) - n, ", on %s", e->b->cfg->iface);
	else
		n += snprintf(r->recipe + n, sizeof(r->recipe) - n, ", %u-byte frames", p.size);
	/* (4K pages: 1500 bytes, as the recipe's own text has always meant) */
	if (!c->size && !recipes[c->recipe].passive && sys_page_size() > 4096)
		n += snprintf(r->recipe + n, sizeof(r->recipe) - n,
			      ", %u-byte frames (%ld-byte pages)", p.size, sys_page_size());
	if (c->recipe == RCP_XCPU)
		snprintf(r->recipe + n, sizeof(r->recipe) - n, ", cpumap on CPU %d%s", p.remote_cpu,
			 recipe_consumer_fifo(rc) ? " (kthread at SCHED_FIFO 1)" : "");
	if (recipe_kernel_clocked(c->recipe))
		m = snprintf(r->method, sizeof(r->method),
			     "kernel test_run clock (ns/frame of the batch loop) of a program with "
			     "no maps or clock, its 1-ns truncation resolved by the syscall's wall "
			     "time less its fixed cost, x TSC Hz");
	else if (recipes[c->recipe].passive)
		m = snprintf(r->method, sizeof(r->method),
			     "BPF-timed NAPI polls (first XDP run to the "
			     "poll's end, one poll in four), all CPUs, x TSC Hz");
	else
		m = snprintf(r->method, sizeof(r->method),
			     "BPF-sampled bpf_ktime_get_ns() per CPU every %u "
			     "elements, x TSC Hz%s",
			     1u << p.sample_shift,
			     c->recipe == RCP_XCPU
				     ? "; consumer: per cpumap kthread batch, first XDP run to "
				       "the batch's end (its dequeue untimed)"
				     : "");
	snprintf(r->method + m, sizeof(r->method) - m,
		 "; per setup %u chunks of %llu elements, the setup's figure is the chunk "
		 "ranked %u from the fastest",
		 SETUP_CHUNKS, (unsigned long long)(r->loops / SETUP_CHUNKS), CHUNK_RANK + 1);
}

/* Proof run: path counts of the recipe on this kernel. */
static int prove(struct sc_env *e, struct recipe_ctx *rc, const struct candidate *c,
		 struct sc_result *r)
{
	struct recipe_result res;
	struct kind_counts k;
	uint64_t loops = r->loops < PROOF_LOOPS ? r->loops : PROOF_LOOPS;
	struct recipe_params p = make_params(e, c, loops);
	bool fentry = obs_backend(e->obs) == OBS_FENTRY;
	int err, rcpu = c->recipe == RCP_XCPU ? e->remote_cpu : -1;

	recipe_set_loops(rc, p.repeat, p.runs);
	err = recipe_run(rc, true, &res);
	if (err)
		return err;
	err = recipe_counts_by_kind(&res, recipes[c->recipe].pool, res.counts.nr_cpus, &k);
	if (!err) {
		r->counts = k.total;
		r->known = path_known(fentry, k.flags);
		r->proof_elems = res.elems;
		r->proof_drops = res.cpumap_drops;
		proof_eval(r->id, &k.total, res.elems,
			   rcpu >= 0 ? res.roles[PPB_ROLE_SECOND].percpu[rcpu].packets : 0,
			   rcpu >= 0 ? &k.percpu[rcpu] : NULL, fentry, r->known & KNOWN_CACHE,
			   r->known & KNOWN_RING, &r->proof);
		proof_set_untracked(&r->proof, res.counts.untracked_pools);
		r->untracked_pools += res.counts.untracked_pools;
		r->untracked_events += res.counts.untracked_events;
		r->pool_room = res.counts.capacity;
		/* (a kernel that has no such pool: 6.1's generic XDP copies into no
		 * page_pool, which the tracepoint backend cannot tell from unknown
		 * counts) */
		if (!k.pools && !res.counts.untracked_pools)
			proof_set_no_pool(&r->proof, pool_kind_name(recipes[c->recipe].pool));
		free(k.percpu);
	}
	recipe_result_free(&res);
	return err;
}

/* ns per element of a role on a CPU, from the BPF timing samples. */
static double role_ns(const struct recipe_result *res, enum ppb_role role, int cpu)
{
	const struct ppb_xdp_stats *st = &res->roles[role].percpu[cpu];

	return st->timed_elems ? (double)st->timed_ns / st->timed_elems : NAN;
}

/* Traffic spread over CPUs by the NIC (RSS): one figure over all of them. */
static double role_ns_all(const struct recipe_result *res, enum ppb_role role, int nr_cpus)
{
	uint64_t ns = 0, elems = 0;

	for (int c = 0; c < nr_cpus; c++) {
		ns += res->roles[role].percpu[c].timed_ns;
		elems += res->roles[role].percpu[c].timed_elems;
	}
	return elems ? (double)ns / elems : NAN;
}

/* What one run measured, in ns per element. */
struct run_fig {
	double ns, prod_ns, cons_ns; /* scenario figure; ring-xcpu: its two CPUs */
	double pmu[NR_PMU_COUNTERS]; /* --counters: per element of the timed syscalls (or NAN) */
	uint32_t pmu_short;	     /* ... of which this many were not counted whole */
	uint64_t prod_elems, cons_elems;
	double waited_ns;			 /* paced producer: its wait per element */
	uint32_t clock_syscalls, clock_resolved; /* kernel-clocked: see model/testrun_clock.h */
};

static int measure(struct sc_env *e, struct recipe_ctx *rc, const struct candidate *c,
		   struct run_fig *f)
{
	enum ppb_role role = recipes[c->recipe].elems_role;
	int cpu = e->b->cfg->cpu, err;
	struct recipe_result res;

	memset(f, 0, sizeof(*f));
	err = recipe_run(rc, false, &res);
	/* (this run's counts only, whatever its outcome) */
	f->pmu_short = counters_take(&e->cnt, f->pmu);
	if (err)
		return err;
	if (recipe_kernel_clocked(c->recipe))
		f->ns = res.duration_frames ? res.clock_ns_sum / res.duration_frames : NAN;
	else if (recipes[c->recipe].passive)
		f->ns = role_ns_all(&res, role, e->b->nr_cpus);
	else
		f->ns = role_ns(&res, role, cpu);
	f->clock_syscalls = res.clock_syscalls;
	f->clock_resolved = res.clock_resolved;
	f->prod_ns = f->ns;
	f->prod_elems = c->recipe == RCP_XCPU ? res.roles[role].percpu[cpu].packets : res.elems;
	if (recipe_kernel_clocked(c->recipe))
		f->prod_elems = res.duration_frames; /* its program counts nothing */
	if (c->recipe == RCP_XCPU) {
		f->cons_ns = role_ns(&res, PPB_ROLE_SECOND, e->remote_cpu);
		f->cons_elems = res.roles[PPB_ROLE_SECOND].percpu[e->remote_cpu].packets;
		if (f->prod_elems)
			f->waited_ns = (double)res.roles[role].percpu[cpu].paced_ns / f->prod_elems;
		f->ns += f->cons_ns;
	}
	recipe_result_free(&res);
	return isfinite(f->ns) ? 0 : -ENODATA;
}

/* Setup I's figures into the result. */
static void store(struct sc_env *e, struct sc_result *r, uint32_t i, const struct run_fig *f)
{
	/* a sum over part of the syscalls would read low: no figure, and why */
	if (r->has_pmu && f->pmu_short) {
		r->has_pmu = false;
		snprintf(r->pmu_why, sizeof(r->pmu_why),
			 "the CPU's counters were not counted whole in %u timed syscalls of "
			 "setup %u (multiplexed with other events, or never scheduled)",
			 f->pmu_short, i + 1);
	}
	for (int k = 0; r->has_pmu && k < NR_PMU_COUNTERS; k++)
		r->pmu[k][i] = f->pmu[k];
	r->ns[i] = f->ns;
	r->cycles[i] = tsc_ns_to_cycles(&e->b->tsc, f->ns);
	r->per_cpu[0].cycles[i] = tsc_ns_to_cycles(&e->b->tsc, f->prod_ns);
	r->per_cpu[0].elems = f->prod_elems;
	if (r->nr_cpu < 2)
		return;
	r->per_cpu[1].cycles[i] = tsc_ns_to_cycles(&e->b->tsc, f->cons_ns);
	r->per_cpu[1].elems = f->cons_elems;
	if (f->prod_elems)
		r->delivered = fmin(r->delivered, (double)f->cons_elems / f->prod_elems);
	r->per_cpu[0].waited_ns = fmax(r->per_cpu[0].waited_ns, f->waited_ns);
}

/*
 * A fresh setup's first runs are slow (pages not yet in the pool, caches
 * cold; right after the veth pair is built, for several runs): runs as long
 * as a timed chunk until two in a row agree within WARM_TOL, at most
 * WARM_MAX of them.
 */
static int warm_up(struct sc_env *e, struct recipe_ctx *rc, const struct candidate *c,
		   struct setup_rec *s)
{
	double prev = NAN;
	struct run_fig f;
	int err;

	for (s->warmups = 0; s->warmups < WARM_MAX;) {
		err = measure(e, rc, c, &f);
		if (err)
			return err;
		s->warmups++;
		if (fabs(f.ns - prev) <= WARM_TOL * fmin(f.ns, prev)) {
			s->settled = true;
			break;
		}
		prev = f.ns;
	}
	return 0;
}

static int cmp_fig(const void *a, const void *b)
{
	const struct run_fig *x = a, *y = b;

	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/*
 * vm --profile: a tag for one setup's timed runs of a scenario (or its
 * reference), 0 for a recipe the kernel does not clock. A tag per setup: each
 * loads its programs anew, where the JIT may put another setup's before.
 */
static uint32_t prof_tag(struct sc_env *e, const struct sc_result *r, const struct candidate *c)
{
	bool ref = r == &e->ref[r->id];
	char extra[64];

	if (!recipe_kernel_clocked(c->recipe))
		return 0;
	snprintf(extra, sizeof(extra), "recipe=%s", recipes[c->recipe].name);
	return guest_prof_tag(ref ? "reference" : "scenario", scenario_defs[r->id].name, extra);
}

/*
 * The instruments of a setup's timed runs, into the hook: those of a recipe
 * the kernel clocks (whose timed syscalls are the figure); PROF, its
 * profile's windows.
 */
static void instruments_add(struct sc_env *e, const struct sc_result *r, const struct candidate *c,
			    struct guest_prof *prof)
{
	uint32_t tag = prof_tag(e, r, c);

	/* this setup's programs, loaded now */
	guest_prof_bpf_syms(tag);
	guest_prof_add(prof, tag);
	if (!recipe_kernel_clocked(c->recipe))
		return;
	/* (it waits for no other task) */
	instr_add(&fifo_chunks);
	if (e->b->pmu_on)
		instr_add(&e->cnt.in);
}

static void instruments_remove(struct sc_env *e, struct guest_prof *prof)
{
	instr_remove(&prof->in);
	instr_remove(&fifo_chunks);
	instr_remove(&e->cnt.in);
}

/* The timed run in SETUP_CHUNKS chunks; the setup's figure is the chunk at
 * CHUNK_RANK in increasing order, with its per-CPU figures. */
static int timed_chunks(struct sc_env *e, struct recipe_ctx *rc, const struct candidate *c,
			struct sc_result *r, struct setup_rec *s, struct run_fig *pick)
{
	struct run_fig f[SETUP_CHUNKS];
	struct guest_prof prof;
	int err = 0;

	instruments_add(e, r, c, &prof);
	for (s->nr_chunks = 0; s->nr_chunks < SETUP_CHUNKS; s->nr_chunks++) {
		struct instr_window w = { INSTR_CHUNK };

		err = instr_begin(&w) ?: measure(e, rc, c, &f[s->nr_chunks]);
		err = instr_end(&w, 0, err);
		if (err)
			break;
		r->clock_syscalls += f[s->nr_chunks].clock_syscalls;
		r->clock_resolved += f[s->nr_chunks].clock_resolved;
		s->chunk_cycles[s->nr_chunks] = tsc_ns_to_cycles(&e->b->tsc, f[s->nr_chunks].ns);
	}
	instruments_remove(e, &prof);
	if (err)
		return err;
	qsort(f, SETUP_CHUNKS, sizeof(f[0]), cmp_fig);
	*pick = f[CHUNK_RANK];
	return 0;
}

/*
 * How fast this CPU runs right now: ns per step of a chain of dependent
 * multiply-adds in user space, the fastest of a few short rounds. Its work
 * never changes, so when it takes longer the machine is slower (in a VM:
 * the host runs the vCPU slower or beside other work).
 */
#define CPU_PROBE_STEPS 200000 /* a round */
#define CPU_PROBE_ROUNDS 5

static double cpu_probe_ns(void)
{
	double best = 0;

	for (int r = 0; r < CPU_PROBE_ROUNDS; r++) {
		uint64_t t0 = now_ns(), acc = r;
		double ns;

		for (int i = 0; i < CPU_PROBE_STEPS; i++) {
			acc = acc * 0x9E3779B97F4A7C15ull + i;
			__asm__ volatile("" : "+r"(acc)); /* keeps every step */
		}
		ns = (double)(now_ns() - t0) / CPU_PROBE_STEPS;
		if (!r || ns < best)
			best = ns; /* an interrupt only makes a round slower */
	}
	return best;
}

/*
 * The host's level as guest kernel work sees it (user-space loops do not):
 * ns per run of a trivial XDP_DROP program under non-live BPF_PROG_RUN, the
 * median of LEVEL_ROUNDS syscalls of LEVEL_REPEAT runs; NAN if it cannot run.
 */
#define LEVEL_ROUNDS 5
#define LEVEL_REPEAT 100000

/* Loaded once per process: every setup probes, and a load costs more than a probe. */
static struct probe_bpf *level_skel;
static int level_load_err;

static double level_probe_ns(void)
{
	unsigned char pkt[64] = { [12] = 0x08, [13] = 0x00, [14] = 0x45 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = LEVEL_REPEAT);
	double v[LEVEL_ROUNDS];

	if (!level_skel && !level_load_err)
		level_skel = ppb_probe_xdp_load(&level_load_err);
	if (!level_skel)
		return NAN;
	for (int i = 0; i < LEVEL_ROUNDS; i++) {
		uint64_t t = now_ns();
		double wall;

		if (bpf_prog_test_run_opts(bpf_program__fd(level_skel->progs.ppb_probe_xdp), &o))
			return NAN;
		/*
		 * The kernel's duration leaves out the time the loop yielded the
		 * CPU, but is whole ns per run; wall time is finer but counts a
		 * yield in. Wall time where it agrees with the kernel's, else the
		 * middle of the kernel's ns.
		 */
		wall = (double)(now_ns() - t) / LEVEL_REPEAT;
		v[i] = wall < o.duration + 1.0 ? wall : o.duration + 0.5;
	}
	return median_of(v, LEVEL_ROUNDS);
}

/* Setup I of a scenario: its own recipe instance, warmed up, then timed. */
static int one_setup(struct sc_env *e, struct sc_result *r, const struct candidate *c,
		     struct recipe_ctx *shared, uint32_t i)
{
	/* sampled often enough for a chunk */
	struct recipe_params p = make_params(e, c, r->loops / SETUP_CHUNKS);
	struct setup_rec *s = &r->setups[i];
	struct recipe_ctx *rc = shared;
	struct run_fig f = {};
	int err = 0;

	p.no_proof = true;
	if (!rc)
		err = recipe_setup(&rc, c->recipe, e->env, e->obs, &p);
	else
		recipe_set_loops(rc, p.repeat, p.runs);
	err = err ?: warm_up(e, rc, c, s);
	if (!err) {
		recipe_ids(rc, s);
		s->cpu_probe_ns = cpu_probe_ns();
		s->level_probe_ns = level_probe_ns();
		err = timed_chunks(e, rc, c, r, s, &f);
		s->cpu_probe_ns = fmin(s->cpu_probe_ns, cpu_probe_ns());
		/* levels switch within seconds: the mean of both sides of the chunks */
		s->level_probe_ns = (s->level_probe_ns + level_probe_ns()) / 2;
	}
	if (!err)
		store(e, r, i, &f);
	if (rc != shared)
		recipe_teardown(rc);
	if (err == -ENODATA)
		pr_err("%s: no timing samples: raise --loops\n", scenario_defs[r->id].name);
	return err;
}

/*
 * --counters: a recipe timed by BPF_PROG_RUN syscalls on one CPU (the
 * kernel-clocked ones) has them per element; the others say why not.
 */
static int alloc_pmu(const struct bench_ctx *b, struct sc_result *r, uint32_t n,
		     const struct candidate *c)
{
	if (!b->pmu_on)
		return 0;
	if (!recipe_kernel_clocked(c->recipe)) {
		snprintf(r->pmu_why, sizeof(r->pmu_why),
			 "%s is not timed by BPF_PROG_RUN syscalls on one CPU: its elements "
			 "cross %s",
			 recipes[c->recipe].name,
			 c->recipe == RCP_XCPU	      ? "to another CPU"
			 : recipes[c->recipe].passive ? "a NIC's NAPI polls"
						      : "a socket and a veth");
		return 0;
	}
	r->has_pmu = true;
	for (int k = 0; k < NR_PMU_COUNTERS; k++) {
		r->pmu[k] = calloc(n, sizeof(double));
		if (!r->pmu[k])
			return -ENOMEM;
	}
	return 0;
}

static int alloc_runs(struct sc_result *r, uint32_t n, const struct candidate *c, int cpu, int rcpu)
{
	r->cycles = calloc(n, sizeof(double));
	r->ns = calloc(n, sizeof(double));
	r->setups = calloc(n, sizeof(*r->setups));
	r->nr_setups = n;
	r->nr_cpu = c->recipe == RCP_XCPU ? 2 : 1;
	r->per_cpu[0] = (struct cpu_fig){ .cpu = cpu, .role = r->nr_cpu == 2 ? "producer" : "run" };
	r->per_cpu[1] = (struct cpu_fig){ .cpu = rcpu, .role = "consumer" };
	r->delivered = 1;
	for (int i = 0; i < r->nr_cpu; i++)
		r->per_cpu[i].cycles = calloc(n, sizeof(double));
	if (!r->cycles || !r->ns || !r->setups || !r->per_cpu[0].cycles ||
	    !r->per_cpu[r->nr_cpu - 1].cycles)
		return -ENOMEM;
	return 0;
}

static void free_runs(struct sc_result *r)
{
	for (int k = 0; k < NR_PMU_COUNTERS; k++)
		free(r->pmu[k]);
	free(r->cycles);
	free(r->ns);
	free(r->setups);
	for (int i = 0; i < 2; i++)
		free(r->per_cpu[i].cycles);
}

/* How the machine's speed moved over the setups, and whether the figure followed it. */
static void machine_speed(struct sc_result *r, uint32_t n)
{
	double *p = calloc(n, sizeof(*p));

	r->probe_r = NAN;
	if (!p)
		return;
	for (uint32_t i = 0; i < n; i++)
		p[i] = r->setups[i].cpu_probe_ns;
	if (!summarize(p, n, &r->probe))
		r->probe_r = correlation(p, r->cycles, n);
	r->level_r = NAN;
	for (uint32_t i = 0; i < n; i++)
		p[i] = r->setups[i].level_probe_ns;
	if (!summarize(p, n, &r->level)) /* refused when a probe could not run (NAN) */
		r->level_r = correlation(p, r->cycles, n);
	free(p);
}

/* The time_bench line reports the median setup, like one time_bench measurement. */
static void summarize_runs(struct sc_result *r, uint32_t n)
{
	double best = INFINITY;

	summarize(r->cycles, n, &r->cyc);
	summarize(r->ns, n, &r->nsec);
	for (int k = 0; r->has_pmu && k < NR_PMU_COUNTERS; k++)
		summarize(r->pmu[k], n, &r->pmu_s[k]);
	find_modes(r->cycles, n, &r->modes);
	machine_speed(r, n);
	r->mde_pct = mde_pct(r->cyc.cv, n, n, MDE_ALPHA, MDE_POWER);
	for (int i = 0; i < r->nr_cpu; i++)
		summarize(r->per_cpu[i].cycles, n, &r->per_cpu[i].s);
	for (uint32_t i = 0; i < n; i++)
		if (fabs(r->ns[i] - r->nsec.median) < best) {
			best = fabs(r->ns[i] - r->nsec.median);
			r->tb_elems = r->loops;
			r->tb_ns = (uint64_t)llround(r->ns[i] * r->loops);
			r->tb_tsc = (uint64_t)llround(r->cycles[i] * r->loops);
		}
}

/* Frames the cpumap dropped in a timed run returned on the producer CPU: the
 * proof run's purity does not cover them, so they lower it here. */
static void fold_delivered(struct sc_result *r)
{
	size_t n = strlen(r->proof.note);

	r->proof.ret_share = fmin(r->proof.ret_share, r->delivered);
	if (!r->proof.partial)
		r->proof.purity = fmin(r->proof.alloc_share, r->proof.ret_share);
	snprintf(r->proof.note + n, sizeof(r->proof.note) - n,
		 "%stimed runs: as few as %.1f%% "
		 "reached the remote CPU",
		 n ? "; " : "", 100 * r->delivered);
}

/* --- path figures ---------------------------------------------------------- */

static void path_fentry(struct sc_env *e, struct sc_result *r)
{
	const struct ppb_pool_counts *c = &r->counts;
	double ovh, ns;
	int err;

	if (obs_start(e->obs) || obs_probe_overhead(e->obs, &ovh) || !r->proof_elems ||
	    !(counts_allocs(c) + counts_returns(c))) {
		obs_stop(e->obs);
		snprintf(r->path_method, sizeof(r->path_method),
			 "not derivable: fentry probe overhead could not be measured");
		return;
	}
	obs_stop(e->obs);
	err = scenario_path_ns(c, scenario_path_classes(r->id), ovh, &ns);
	if (err == -EINVAL) {
		snprintf(r->path_method, sizeof(r->path_method),
			 "not derivable: the proof run timed no call of this path");
		return;
	}
	if (err) {
		snprintf(
			r->path_method, sizeof(r->path_method),
			"not derivable: the page_pool calls took no longer than the probe overhead "
			"(%.1f ns per call) - below the method's resolution",
			ovh);
		return;
	}
	r->has_path = true;
	r->path_cycles = tsc_ns_to_cycles(&e->b->tsc, ns);
	snprintf(r->path_method, sizeof(r->path_method),
		 PATH_TEXT_FENTRY
		 " of the proof run: the mean page_pool alloc and "
		 "put call of this path's classes (calls no interrupt hit), minus the probe "
		 "overhead (%.1f ns per call, timed around bpf_fentry_test1)",
		 ovh);
}

/*
 * Without fentry: 'slow' minus the same live-frames loop at batch 1 whose
 * pages stay in the pool (returned to the 1-entry ring, refilled from it).
 * The two differ only in where the pages go; page init by the test-run
 * pool's callback is part of its slow path and stays in the figure. The
 * reference gets its own setups, each right after one of slow's.
 */
static const struct candidate slow_ref = { RCP_LF_DROP, 1, 0, 64 };

/*
 * And 'fast' with lf-fastpass minus its twin: the same frames with their
 * headroom kept, so generic XDP copies nothing and the frame's page goes
 * back to the test-run pool's ring instead.
 */
static const struct candidate fast_twin = { RCP_LF_FASTPASS_TWIN, 0, 0, 0 };

static const struct candidate *ref_of(const struct sc_env *e, const struct sc_result *r)
{
	if (obs_backend(e->obs) == OBS_FENTRY || !r->cand)
		return NULL;
	if (r->id == SC_SLOW && r->cand->recipe == RCP_LF_DROP)
		return &slow_ref;
	if (r->id == SC_FAST && r->cand->recipe == RCP_LF_FASTPASS)
		return &fast_twin;
	return NULL;
}

static void path_reference(struct sc_env *e, struct sc_result *r)
{
	struct sc_result *t = &e->ref[r->id];

	if (!t->ok)
		return;
	summarize_runs(t, t->nr_setups);
	r->has_path = true;
	r->path_cycles = r->cyc.median - t->cyc.median;
	if (r->id == SC_SLOW)
		snprintf(r->path_method, sizeof(r->path_method),
			 PATH_TEXT_REFERENCE
			 " at batch 1 with the pages kept "
			 "in the pool (ring produce + refill: %.1f cycles/elem, own setups): page "
			 "allocator alloc + release + page init, minus ring produce + refill",
			 t->cyc.median);
	else
		snprintf(r->path_method, sizeof(r->path_method),
			 PATH_TEXT_TWIN
			 " lf-fastpass-twin (headroom kept: no "
			 "copy, the frame's page back to the test-run ring; %.1f cycles/elem, own "
			 "setups): a system-pool page from the cache, the copy into it, its direct "
			 "recycle, and the frame's page returned directly instead of to the ring",
			 t->cyc.median);
}

static void path_figure(struct sc_env *e, struct sc_result *r)
{
	if (obs_backend(e->obs) == OBS_FENTRY) {
		path_fentry(e, r);
		return;
	}
	if (ref_of(e, r)) {
		path_reference(e, r);
		if (r->has_path)
			return;
	}
	snprintf(r->path_method, sizeof(r->path_method),
		 "not derivable here: fentry is refused on this kernel (%s) and no recipe differs "
		 "from this one only in the page_pool path",
		 obs_fentry_reason(e->obs));
}

/* --- one scenario --------------------------------------------------------- */

/* Where the run is, on the progress line (sys/log.h). */
__attribute__((format(printf, 2, 3))) static void bench_progress(const struct bench_ctx *b,
								 const char *fmt, ...)
{
	va_list ap;

	if (!progress_wanted(b->cfg->quiet))
		return;
	va_start(ap, fmt);
	progress_vshow(b->t0, fmt, ap);
	va_end(ap);
}

/* What a proof run leaves in the result. */
struct proof_run {
	struct proof proof;
	struct ppb_pool_counts counts;
	unsigned known;
	uint64_t elems, drops;
};

static int try_candidate(struct sc_env *e, const struct candidate *c, struct sc_result *r,
			 struct recipe_ctx **rcp)
{
	struct recipe_params p = make_params(e, c, r->loops);
	int err;

	bench_progress(e->b, "%s: proving recipe %s", scenario_defs[r->id].name,
		       recipes[c->recipe].name);
	err = recipe_setup(rcp, c->recipe, e->env, e->obs, &p);
	if (!err) {
		err = prove(e, *rcp, c, r);
		if (err) {
			recipe_teardown(*rcp);
			*rcp = NULL;
		}
	}
	return err;
}

/*
 * On PREEMPT_RT page_pool_napi_local() is false: a softirq may be preempted
 * by the pool's consumer, so the kernel never returns a page directly into a
 * pool's cache on its own. A driver that recycles directly itself
 * (page_pool_recycle_direct() on XDP_DROP, as vmxnet3 does) still does.
 */
#define PREEMPT_RT_NO_FAST                                                                         \
	"PREEMPT_RT: page_pool_napi_local() is false, so only a driver recycles directly "         \
	"(bench --iface)"

static bool preempt_rt(void)
{
	const char *v = kconfig_get("PREEMPT_RT");

	return v && !strcmp(v, "y");
}

/* Choose the first candidate that isolates the path (best one otherwise).
 * The best so far stays set up, so its figures come from the proof run that
 * chose it. */
static int choose(struct sc_env *e, struct sc_result *r, struct recipe_ctx **rcp)
{
	const struct scenario_def *d = &scenario_defs[r->id];
	struct recipe_ctx *best_rc = NULL;
	const char *why = NULL;
	struct proof_run best = { .proof = { .purity = -1 } };
	int best_i = -1, n = 0;

	for (int i = 0; i < d->nr_cand; i++) {
		const struct candidate *c = &d->cand[i];

		why = unavailable(e, c);
		if (why || try_candidate(e, c, r, rcp))
			continue;
		n += snprintf(r->reason + n, sizeof(r->reason) - n, "%s%s %.0f%%", n ? ", " : "",
			      recipes[c->recipe].name, 100 * r->proof.purity);
		if (r->proof.untracked)
			n += snprintf(r->reason + n, sizeof(r->reason) - n,
				      " (%llu pools untracked)",
				      (unsigned long long)r->proof.untracked);
		if (r->proof.partial ? !r->proof.untracked : proof_pure(&r->proof, PURITY_MIN)) {
			recipe_teardown(best_rc);
			r->cand = c;
			return 0;
		}
		if (r->proof.purity > best.proof.purity) {
			recipe_teardown(best_rc);
			best_rc = *rcp;
			best = (struct proof_run){ r->proof, r->counts, r->known, r->proof_elems,
						   r->proof_drops };
			best_i = i;
		} else {
			recipe_teardown(*rcp);
		}
		*rcp = NULL;
	}
	if (best_i < 0 && !n) {
		snprintf(r->reason, sizeof(r->reason), "%s", why ? why : "no recipe could run");
		return -ENOENT;
	}
	if (best.proof.purity < PURITY_FLOOR) {
		char tried[120];

		recipe_teardown(best_rc);
		snprintf(tried, sizeof(tried), "%s", r->reason);
		snprintf(r->reason, sizeof(r->reason),
			 "%sno recipe puts its elements on this path "
			 "here (purity: %s)",
			 r->id == SC_FAST && preempt_rt() ? PREEMPT_RT_NO_FAST "; " : "", tried);
		return -ENOENT;
	}
	r->proof = best.proof;
	r->counts = best.counts;
	r->known = best.known;
	r->proof_elems = best.elems;
	r->proof_drops = best.drops;
	r->cand = &d->cand[best_i];
	*rcp = best_rc;
	return 0;
}

/* Proof: choose the recipe. Its instance is kept only for an interface's XDP. */
static void prove_scenario(struct sc_env *e, enum scenario_id id)
{
	struct sc_result *r = &e->b->res[id];
	struct recipe_ctx *rc = NULL;

	r->id = id;
	r->loops = sc_loops(e->b, id);
	r->batch = e->b->cfg->batch;
	r->backend = obs_backend_name(e->obs);
	if (choose(e, r, &rc))
		return;
	describe(e, r->cand, rc, r);
	r->one_setup = recipes[r->cand->recipe].passive;
	if (alloc_runs(r, e->b->cfg->repeat, r->cand, e->b->cfg->cpu, e->remote_cpu) ||
	    alloc_pmu(e->b, r, e->b->cfg->repeat, r->cand)) {
		snprintf(r->reason, sizeof(r->reason), "out of memory");
		recipe_teardown(rc);
		return;
	}
	/* Our observer is detached now: whatever is attached belongs to others. */
	r->foreign_probes = ppb_count_pp_probes();
	r->ok = true;
	if (r->one_setup)
		e->nic[id] = rc;
	else
		recipe_teardown(rc);
	if (ref_of(e, r)) {
		e->ref[id] = (struct sc_result){ .id = id, .loops = r->loops, .ok = true };
		if (alloc_runs(&e->ref[id], e->b->cfg->repeat, ref_of(e, r), e->b->cfg->cpu, -1))
			e->ref[id].ok = false;
	}
}

/*
 * The timed setups, round-robin over the scenarios: setup i of every
 * scenario before setup i + 1 of any, so a drift of the machine reaches all
 * of them alike.
 */
static void run_rounds(struct sc_env *e)
{
	uint32_t n = e->b->cfg->repeat;

	for (uint32_t i = 0; i < n; i++) {
		for (int id = 0; id < NR_SCENARIOS; id++) {
			struct sc_result *r = &e->b->res[id];

			if (!r->ok)
				continue;
			bench_progress(e->b, "setup %u/%u: %s", i + 1, n, scenario_defs[id].name);
			if (one_setup(e, r, r->cand, e->nic[id], i)) {
				r->ok = false;
				snprintf(r->reason, sizeof(r->reason), "timed runs failed");
				recipe_teardown(e->nic[id]);
				e->nic[id] = NULL;
				continue;
			}
			if (ref_of(e, r) && e->ref[id].ok &&
			    one_setup(e, &e->ref[id], ref_of(e, r), NULL, i))
				e->ref[id].ok = false;
		}
	}
}

static void finish_scenario(struct sc_env *e, enum scenario_id id)
{
	struct sc_result *r = &e->b->res[id];

	recipe_teardown(e->nic[id]);
	e->nic[id] = NULL;
	if (!r->ok)
		return;
	summarize_runs(r, r->nr_setups);
	if (r->nr_cpu == 2 && r->delivered < 1)
		fold_delivered(r);
	path_figure(e, r);
}

static int bench_prepare(struct bench_ctx *b, struct sc_env *e, struct ppb_env *env)
{
	struct obs_opts oo = {};

	/* (under the instruction clock ns are instructions: the header says so) */
	if (tsc_calibrate(&b->tsc) && !inst_clock()->icount)
		pr_warn("no TSC on this CPU: cycles are reported as ns of the kernel's clock\n");
	b->live_frames = !ppb_probe_live_frames();
	b->nr_cpus = nr_possible_cpus();
	if (b->nr_cpus < 0)
		return b->nr_cpus;
	b->t0 = now_ns();
	e->b = b;
	e->remote_cpu = next_online_cpu(b->cfg->cpu);
	if (obs_open(&e->obs, &oo))
		return -EINVAL;
	b->fentry = obs_backend(e->obs) == OBS_FENTRY;
	e->env = env;
	/* on this thread: the one that makes the timed BPF_PROG_RUN syscalls */
	if (b->cfg->counters) {
		char why[200];

		if (counters_open(&e->cnt, b->cfg->counter_cycles, why, sizeof(why))) {
			pr_err("--counters: %s\n", why);
			return -ENOENT;
		}
		b->pmu_on = true;
	}
	if (b->cfg->iface) {
		/* No namespaces: the live-frames recipes run on the interface as it is. */
		memset(env, 0, sizeof(*env));
		env->ifindex[0] = env->ifindex[1] = b->cfg->ifindex;
		env->orig_ns = env->ns[0] = env->ns[1] = -1;
		env->ip4[0].family = env->ip4[1].family = AF_INET;
		snprintf(env->ifname[0], IF_NAMESIZE, "%s", b->cfg->iface);
		snprintf(env->ifname[1], IF_NAMESIZE, "%s", b->cfg->iface);
		return 0;
	}
	return env_create(env);
}

int bench_main(struct bench_ctx *b, const struct bench_sink *sink)
{
	struct bench_cfg *cfg = b->cfg;
	struct ppb_env env;
	struct sc_env e = {};
	struct obs_desc od;
	int ret = -EINVAL;

	/* vm --profile: before anything is translated for the runs */
	guest_prof_arm();
	if (bench_prepare(b, &e, &env))
		goto out;
	obs_describe(e.obs, &od);
	sink->banner(sink->ctx, b, &od, cfg->iface ? cfg->iface : "private veth pair");
	for (int i = 0; i < NR_SCENARIOS; i++)
		if (cfg->want[i])
			prove_scenario(&e, i);
	run_rounds(&e);
	if (progress_wanted(cfg->quiet))
		progress_clear();
	probe_bpf__destroy(level_skel);
	level_skel = NULL;
	level_load_err = 0;
	for (int i = 0; i < NR_SCENARIOS; i++)
		if (cfg->want[i])
			finish_scenario(&e, i);
	/* after the scenarios: the module's loops are not among their timed runs */
	if (cfg->upstream_module) {
		upstream_module_run(b);
		if (progress_wanted(cfg->quiet))
			progress_clear();
	}
	ret = 0;
out:
	if (e.env && !cfg->iface)
		env_destroy(e.env);
	obs_close(e.obs);
	for (int i = 0; i < NR_SCENARIOS; i++) {
		recipe_teardown(e.nic[i]);
		free_runs(&e.ref[i]);
	}
	if (b->pmu_on)
		counters_close(&e.cnt);
	return ret;
}

void bench_free(struct bench_ctx *b)
{
	for (int i = 0; i < NR_SCENARIOS; i++)
		free_runs(&b->res[i]);
}

int bench_check_iface(struct bench_cfg *cfg)
{
	uint64_t feat = 0;
	int err;

	err = genl_xdp_features(cfg->ifindex, &feat);
	if (!err && !(feat & PPB_XDP_ACT_BASIC)) {
		pr_err("--iface %s has no native XDP support (XDP features: none)\n", cfg->iface);
		return -EOPNOTSUPP;
	}
	return 0;
}
