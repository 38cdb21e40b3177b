// SPDX-License-Identifier: GPL-2.0
/* The bench runner: recipe choice by proof, timed runs, path figures. */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "engine/bench.h"
#include "engine/recipe.h"
#include "loader/kfeatures.h"
#include "loader/observer.h"
#include "loader/xdpobj.h"
#include "model/counts.h"
#include "out/bench.h"
#include "out/report.h"
#include "sys/cpus.h"
#include "sys/env.h"
#include "sys/log.h"
#include "sys/nl.h"
#include "sys/util.h"
#include <unistd.h>

#define PURITY_MIN 0.95
/* Below this the best recipe measures another path: skip rather than mislabel. */
#define PURITY_FLOOR 0.5
#define PROOF_LOOPS 100000

struct sc_env {
	struct bench_ctx *b;
	struct ppb_env *env;
	struct observer *obs;
	int remote_cpu;
};

/* The kind of pool a recipe allocates from. */
static int recipe_pool_kind(enum recipe_id r)
{
	switch (r) {
	case RCP_VETH_TX:
		return PPB_POOL_VETH;
	case RCP_GENERIC_FRAGS:
		return PPB_POOL_SYSTEM;
	case RCP_NIC_DROP:
		return PPB_POOL_NIC;
	default:
		return PPB_POOL_TEST_RUN;
	}
}

static int next_online_cpu(int cpu)
{
	int n = nr_possible_cpus();

	for (int i = 1; i < n; i++)
		if (cpu_is_online((cpu + i) % n))
			return (cpu + i) % n;
	return -1;
}

/* Elements -> syscalls: live recipes with a fixed repeat per syscall. */
static void loops_to_runs(const struct candidate *c, uint64_t loops, uint32_t *repeat,
			  uint32_t *runs)
{
	if (c->repeat) {
		*repeat = c->repeat;
		*runs = (uint32_t)((loops + c->repeat - 1) / c->repeat);
	} else {
		*repeat = (uint32_t)loops;
		*runs = 1;
	}
}

static uint64_t sc_loops(const struct bench_ctx *b, enum scenario_id id)
{
	return b->cfg->loops ? b->cfg->loops : scenario_defs[id].default_loops;
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
				   .size = c->size,
				   .cpu = e->b->cfg->cpu,
				   .remote_cpu = e->remote_cpu,
				   .qsize = 2048,
				   .sample_shift = sample_shift(loops) };

	loops_to_runs(c, loops, &p.repeat, &p.runs);
	return p;
}

static void describe(const struct sc_env *e, const struct candidate *c, const struct recipe_ctx *rc,
		     struct sc_result *r)
{
	const struct recipe_params p = make_params(e, c, r->loops);
	int n;

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
	if (c->recipe == RCP_XCPU)
		snprintf(r->recipe + n, sizeof(r->recipe) - n, ", cpumap on CPU %d%s", p.remote_cpu,
			 recipe_consumer_fifo(rc) ? " (kthread at SCHED_FIFO 1)" : "");
	if (c->duration)
		snprintf(r->method, sizeof(r->method),
			 "kernel test_run duration (ns/frame of the "
			 "batch loop) x TSC Hz, averaged over the syscalls");
	else if (recipes[c->recipe].passive)
		snprintf(r->method, sizeof(r->method),
			 "BPF-timed NAPI polls (first XDP run to the "
			 "poll's end, one poll in four), all CPUs, x TSC Hz");
	else
		snprintf(r->method, sizeof(r->method),
			 "BPF-sampled bpf_ktime_get_ns() per CPU every %u "
			 "elements, x TSC Hz%s",
			 1u << p.sample_shift,
			 c->recipe == RCP_XCPU
				 ? "; consumer: per cpumap kthread batch, first XDP run to "
				   "the batch's end (its dequeue untimed)"
				 : "");
}

static uint64_t remote_elems(const struct recipe_result *res, int cpu)
{
	return cpu >= 0 ? res->roles[PPB_ROLE_SECOND].percpu[cpu].packets : 0;
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
	err = recipe_counts_by_kind(&res, recipe_pool_kind(c->recipe), res.counts.nr_cpus, &k);
	if (!err) {
		r->counts = k.total;
		r->known = path_known(fentry, k.flags);
		r->proof_elems = res.elems;
		r->proof_drops = res.cpumap_drops;
		proof_eval(r->id, &k.total, res.elems, remote_elems(&res, rcpu),
			   rcpu >= 0 ? &k.percpu[rcpu] : NULL, fentry, r->known & KNOWN_CACHE,
			   r->known & KNOWN_RING, &r->proof);
		free(k.percpu);
	}
	recipe_result_free(&res);
	return err;
}

static double ns_to_cycles(const struct bench_ctx *b, double ns)
{
	return tsc_ns_to_cycles(&b->tsc, ns);
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

/* A paced cross-CPU run: what the consumer got, and how long the producer
 * waited for it (taken out of its clock). */
static void xcpu_run_checks(struct sc_result *r, const struct ppb_xdp_stats *prod)
{
	double got, waited;

	if (!r->per_cpu[0].elems)
		return;
	got = (double)r->per_cpu[1].elems / r->per_cpu[0].elems;
	waited = (double)prod->paced_ns / r->per_cpu[0].elems;
	r->delivered = fmin(r->delivered, got);
	r->per_cpu[0].waited_ns = fmax(r->per_cpu[0].waited_ns, waited);
}

/* One timed run: the scenario figure (and per-CPU figures) in ns/elem. */
static int timed_run(struct sc_env *e, struct recipe_ctx *rc, const struct candidate *c,
		     struct sc_result *r, int i)
{
	enum ppb_role role = recipes[c->recipe].elems_role;
	int cpu = e->b->cfg->cpu, err;
	struct recipe_result res;
	double ns, cons = 0;

	err = recipe_run(rc, false, &res);
	if (err)
		return err;
	if (c->duration)
		ns = res.duration_frames ? res.duration_ns_sum / res.duration_frames : NAN;
	else if (recipes[c->recipe].passive)
		ns = role_ns_all(&res, role, e->b->nr_cpus);
	else
		ns = role_ns(&res, role, cpu);
	if (c->recipe == RCP_XCPU) {
		cons = role_ns(&res, PPB_ROLE_SECOND, e->remote_cpu);
		r->per_cpu[0].cycles[i] = ns_to_cycles(e->b, ns);
		r->per_cpu[1].cycles[i] = ns_to_cycles(e->b, cons);
		r->per_cpu[0].elems = res.roles[role].percpu[cpu].packets;
		r->per_cpu[1].elems = res.roles[PPB_ROLE_SECOND].percpu[e->remote_cpu].packets;
		xcpu_run_checks(r, &res.roles[role].percpu[cpu]);
	} else {
		r->per_cpu[0].cycles[i] = ns_to_cycles(e->b, ns);
		r->per_cpu[0].elems = res.elems;
	}
	r->ns[i] = ns + cons;
	r->cycles[i] = ns_to_cycles(e->b, ns + cons);
	recipe_result_free(&res);
	if (!isfinite(r->ns[i])) {
		pr_err("%s: no timing samples: raise --loops\n", scenario_defs[r->id].name);
		return -ENODATA;
	}
	return 0;
}

static int alloc_runs(struct sc_result *r, uint32_t n, const struct candidate *c, int cpu, int rcpu)
{
	r->cycles = calloc(n, sizeof(double));
	r->ns = calloc(n, sizeof(double));
	r->nr_cpu = c->recipe == RCP_XCPU ? 2 : 1;
	r->per_cpu[0] = (struct cpu_fig){ .cpu = cpu, .role = r->nr_cpu == 2 ? "producer" : "run" };
	r->per_cpu[1] = (struct cpu_fig){ .cpu = rcpu, .role = "consumer" };
	r->delivered = 1;
	for (int i = 0; i < r->nr_cpu; i++)
		r->per_cpu[i].cycles = calloc(n, sizeof(double));
	return r->cycles && r->ns && r->per_cpu[0].cycles && r->per_cpu[r->nr_cpu - 1].cycles
		       ? 0
		       : -ENOMEM;
}

static void free_runs(struct sc_result *r)
{
	free(r->cycles);
	free(r->ns);
	for (int i = 0; i < 2; i++)
		free(r->per_cpu[i].cycles);
}

/* The time_bench line reports the median run, like one time_bench measurement. */
static void summarize_runs(struct bench_ctx *b, struct sc_result *r, uint32_t n)
{
	double best = INFINITY;

	summarize(r->cycles, n, &r->cyc);
	summarize(r->ns, n, &r->nsec);
	for (int i = 0; i < r->nr_cpu; i++)
		summarize(r->per_cpu[i].cycles, n, &r->per_cpu[i].s);
	for (uint32_t i = 0; i < n; i++)
		if (fabs(r->ns[i] - r->nsec.median) < best) {
			best = fabs(r->ns[i] - r->nsec.median);
			r->tb_elems = r->loops;
			r->tb_ns = (uint64_t)llround(r->ns[i] * r->loops);
			r->tb_tsc = (uint64_t)llround(r->cycles[i] * r->loops);
		}
	(void)b;
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

static int time_scenario(struct sc_env *e, struct recipe_ctx *rc, const struct candidate *c,
			 struct sc_result *r)
{
	struct recipe_params p = make_params(e, c, r->loops);
	uint32_t n = e->b->cfg->repeat;
	int err;

	err = alloc_runs(r, n, c, e->b->cfg->cpu, e->remote_cpu);
	if (err)
		return err;
	recipe_set_loops(rc, p.repeat, p.runs);
	/* Our observer is detached now: whatever is attached belongs to others. */
	r->foreign_probes = ppb_count_pp_probes();
	for (int i = -1; i < (int)n; i++) {
		bench_progress(e->b, "%s: %s %d/%u", scenario_defs[r->id].name,
			       i < 0 ? "warm-up" : "repetition", i < 0 ? 0 : i + 1, n);
		/* i == -1: the warm-up, discarded (its figures are overwritten) */
		err = timed_run(e, rc, c, r, i < 0 ? 0 : i);
		if (err)
			return err;
		if (i < 0) {
			r->delivered = 1;
			r->per_cpu[0].waited_ns = 0;
		}
	}
	summarize_runs(e->b, r, n);
	if (r->nr_cpu == 2 && r->delivered < 1)
		fold_delivered(r);
	return 0;
}

/* --- path figures ---------------------------------------------------------- */

static void path_fentry(struct sc_env *e, struct sc_result *r)
{
	const struct ppb_pool_counts *c = &r->counts;
	double ovh, ns, sum;
	uint64_t calls = counts_allocs(c) + counts_returns(c);

	if (obs_start(e->obs) || obs_probe_overhead(e->obs, &ovh) || !r->proof_elems || !calls) {
		obs_stop(e->obs);
		snprintf(r->path_method, sizeof(r->path_method),
			 "not derivable: fentry probe overhead could not be measured");
		return;
	}
	obs_stop(e->obs);
	sum = (double)c->alloc_cache_ns + c->alloc_refill_ns + c->alloc_slow_ns + c->ret_cache_ns +
	      c->ret_ring_ns + c->ret_release_ns;
	ns = (sum - ovh * calls) / r->proof_elems;
	if (ns <= 0) {
		snprintf(
			r->path_method, sizeof(r->path_method),
			"not derivable: the page_pool calls took no longer than the probe overhead "
			"(%.1f ns per call) - below the method's resolution",
			ovh);
		return;
	}
	r->has_path = true;
	r->path_cycles = ns_to_cycles(e->b, ns);
	snprintf(r->path_method, sizeof(r->path_method),
		 "fentry/fexit per-call timing of the page_pool alloc and put calls of the proof "
		 "run, minus the probe overhead (%.1f ns per call, timed around bpf_fentry_test1)",
		 ovh);
}

/*
 * Without fentry: 'slow' minus the same live-frames loop at batch 1 whose
 * pages stay in the pool (returned to the 1-entry ring, refilled from it).
 * The two differ only in where the pages go; page init by the test-run
 * pool's callback is part of its slow path and stays in the figure.
 */
static void path_slow_reference(struct sc_env *e, struct sc_result *r)
{
	const struct candidate ref = { RCP_LF_DROP, 1, 0, 64, true };
	struct sc_result t = { .id = r->id, .loops = r->loops };
	struct recipe_params p = make_params(e, &ref, r->loops);
	struct recipe_ctx *rc;
	int err;

	err = recipe_setup(&rc, RCP_LF_DROP, e->env, e->obs, &p);
	if (!err) {
		err = time_scenario(e, rc, &ref, &t);
		recipe_teardown(rc);
	}
	if (!err) {
		r->has_path = true;
		r->path_cycles = r->cyc.median - t.cyc.median;
		snprintf(r->path_method, sizeof(r->path_method),
			 "difference of medians to the same loop at batch 1 with the pages kept in "
			 "the pool (ring produce + refill: %.1f cycles/elem): page allocator alloc "
			 "+ "
			 "release + page init, minus ring produce + refill",
			 t.cyc.median);
	}
	free(t.cycles);
	free(t.ns);
	free(t.per_cpu[0].cycles);
}

static void path_figure(struct sc_env *e, const struct candidate *c, struct sc_result *r)
{
	if (obs_backend(e->obs) == OBS_FENTRY) {
		path_fentry(e, r);
		return;
	}
	if (r->id == SC_SLOW && c->recipe == RCP_LF_DROP) {
		path_slow_reference(e, r);
		if (r->has_path)
			return;
	}
	snprintf(r->path_method, sizeof(r->path_method),
		 "not derivable here: fentry is refused on this kernel (%s) and no recipe differs "
		 "from this one only in the page_pool path",
		 obs_fentry_reason(e->obs));
}

/* --- one scenario --------------------------------------------------------- */

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

/* What a proof run leaves in the result. */
struct proof_run {
	struct proof proof;
	struct ppb_pool_counts counts;
	unsigned known;
	uint64_t elems, drops;
};

static void save_proof(struct proof_run *p, const struct sc_result *r)
{
	*p = (struct proof_run){ r->proof, r->counts, r->known, r->proof_elems, r->proof_drops };
}

static void restore_proof(struct sc_result *r, const struct proof_run *p)
{
	r->proof = p->proof;
	r->counts = p->counts;
	r->known = p->known;
	r->proof_elems = p->elems;
	r->proof_drops = p->drops;
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
		if (r->proof.partial || r->proof.purity >= PURITY_MIN) {
			recipe_teardown(best_rc);
			r->cand = c;
			return 0;
		}
		if (r->proof.purity > best.proof.purity) {
			recipe_teardown(best_rc);
			best_rc = *rcp;
			save_proof(&best, r);
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
			 "no recipe puts its elements on this path "
			 "here (purity: %s)",
			 tried);
		return -ENOENT;
	}
	restore_proof(r, &best);
	r->cand = &d->cand[best_i];
	*rcp = best_rc;
	return 0;
}

static void run_scenario(struct sc_env *e, enum scenario_id id)
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
	if (!time_scenario(e, rc, r->cand, r)) {
		r->ok = true;
		path_figure(e, r->cand, r);
	} else {
		snprintf(r->reason, sizeof(r->reason), "timed runs failed");
	}
	recipe_teardown(rc);
	bench_progress_done(e->b);
	if (r->ok)
		bench_print_line(e->b, r);
}

static int bench_prepare(struct bench_ctx *b, struct sc_env *e, struct ppb_env *env)
{
	struct obs_opts oo = {};

	if (tsc_calibrate(&b->tsc))
		pr_warn("no TSC on this CPU: cycles are reported as ns\n");
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

int bench_main(struct bench_cfg *cfg)
{
	struct bench_ctx b = { .cfg = cfg };
	struct ppb_env env;
	struct sc_env e = {};
	int ok = 0, ret = EXIT_FAIL;

	if (bench_prepare(&b, &e, &env))
		goto out;
	if (!cfg->quiet)
		printf("ppbench bench: TSC %.3f GHz, observer %s%s%s%s, %s\n", b.tsc.hz / 1e9,
		       obs_backend_name(e.obs), obs_fentry_reason(e.obs) ? " (" : "",
		       obs_fentry_reason(e.obs) ? obs_fentry_reason(e.obs) : "",
		       obs_fentry_reason(e.obs) ? ")" : "",
		       cfg->iface ? cfg->iface : "private veth pair");
	if (!cfg->quiet && obs_not_counted(e.obs))
		printf("  not counted: %s\n", obs_not_counted(e.obs));
	for (int i = 0; i < NR_SCENARIOS; i++) {
		if (!cfg->want[i])
			continue;
		run_scenario(&e, i);
		ok += b.res[i].ok;
	}
	bench_print_summary(&b);
	ret = ok ? EXIT_OK : EXIT_FAIL;
	if (!ok)
		pr_err("no scenario could run here (the summary says why)\n");
	if (cfg->json && bench_write_json(&b, cfg->json, "ppbench bench"))
		ret = EXIT_FAIL;
out:
	if (e.env && !cfg->iface)
		env_destroy(e.env);
	obs_close(e.obs);
	for (int i = 0; i < NR_SCENARIOS; i++)
		free_runs(&b.res[i]);
	return ret;
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
