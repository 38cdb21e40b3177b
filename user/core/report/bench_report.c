// SPDX-License-Identifier: GPL-2.0
/* bench output: time_bench lines, the summary table, JSON. */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "report/report.h"

int fmt_time_bench(char *buf, size_t len, const char *name, uint64_t tsc_total, uint64_t ns_total,
		   uint64_t invoked)
{
	unsigned long long c = invoked ? tsc_total / invoked : 0;
	unsigned long long ns = invoked ? ns_total / invoked : 0;
	/* three decimals of the per-element ns, truncated (time_bench does the same) */
	unsigned long long frac = invoked ? (ns_total % invoked) * 1000 / invoked : 0;

	return snprintf(buf, len,
			"Type:%s Per elem: %llu cycles(tsc) %llu.%03llu ns (step:0) - (measurement "
			"period time:%llu.%09llu sec time_interval:%llu) - (invoke count:%llu "
			"tsc_interval:%llu)",
			name, c, ns, frac, (unsigned long long)(ns_total / 1000000000ull),
			(unsigned long long)(ns_total % 1000000000ull),
			(unsigned long long)ns_total, (unsigned long long)invoked,
			(unsigned long long)tsc_total);
}

static double shown(const struct sc_result *r)
{
	return r->has_path ? r->path_cycles : r->cyc.median;
}

bool bench_order_note(const struct sc_result res[NR_SCENARIOS], const char *unit, char *note,
		      size_t len)
{
	static const enum scenario_id order[] = { SC_FAST, SC_RING, SC_SLOW };
	static const char *const upstream[] = { "fast", "ptr_ring", "slow" };
	const struct sc_result *f = &res[SC_FAST], *r = &res[SC_RING], *s = &res[SC_SLOW];
	bool all_path = true;
	int n;

	note[0] = '\0';
	if (!f->ok || !r->ok || !s->ok || (shown(f) < shown(r) && shown(r) < shown(s)))
		return false;
	n = snprintf(note, len,
		     "fast %.1f, ptr_ring %.1f, slow %.1f %s/elem do not order "
		     "fast < ptr_ring < slow as bench_page_pool_simple's paths do",
		     shown(f), shown(r), shown(s), unit);
	for (size_t i = 0; i < 3 && n > 0 && (size_t)n < len; i++) {
		if (res[order[i]].has_path && res[order[i]].cand &&
		    res[order[i]].cand->recipe == RCP_LF_FASTPASS) {
			n += snprintf(note + n, len - n,
				      "%s fast's path figure is its difference to a twin, and "
				      "holds a 1500-byte copy into the system page besides the "
				      "alloc and the direct recycle",
				      all_path ? ":" : ";");
			all_path = false;
			continue;
		}
		if (res[order[i]].has_path)
			continue;
		n += snprintf(note + n, len - n,
			      "%s %s is a scenario figure (no path figure on "
			      "this kernel)",
			      all_path ? ":" : ";", upstream[i]);
		all_path = false;
	}
	if (all_path && n > 0 && (size_t)n < len)
		snprintf(note + n, len - n,
			 ": all three are path figures; see each scenario's "
			 "proof and path method");
	return true;
}

static const char *const upstream_name[NR_SCENARIOS] = {
	[SC_FAST] = "no-softirq-page_pool01",
	[SC_RING] = "no-softirq-page_pool02",
	[SC_SLOW] = "no-softirq-page_pool03",
	[SC_RING_XCPU] = "page_pool_cross_cpu",
};

/*
 * With --upstream-names, a line named after an upstream test must carry a
 * figure of the quantity that test measures: the page_pool calls alone,
 * i.e. the path figure. A scenario figure also holds the loop, program and
 * frame around them, so it keeps ppbench's own name, which the kselftest's
 * grep ("no-softirq-page_pool0N Per elem: ...") does not match.
 */
static bool upstream_line(const struct bench_ctx *b, const struct sc_result *r)
{
	return b->cfg->upstream_names && r->has_path && r->path_cycles > 0;
}

/* The time_bench line's type: ppbench_<scenario>, or the upstream test's name. */
static void tb_name(const struct bench_ctx *b, const struct sc_result *r, char *buf, size_t len)
{
	if (upstream_line(b, r)) {
		snprintf(buf, len, "%s", upstream_name[r->id]);
		return;
	}
	snprintf(buf, len, "ppbench_%s", scenario_defs[r->id].name);
	for (char *p = buf; *p; p++)
		if (*p == '-')
			*p = '_';
}

static const char *pct(double share, char *buf)
{
	if (isnan(share))
		return "n/a";
	snprintf(buf, 16, "%.1f%%", 100 * share);
	return buf;
}

/* "two levels: 3 setups at ~400, 2 at ~1050 cycles; 1 outlier (1095)" */
static void fmt_levels(const struct modes *m, char *buf, size_t len)
{
	static const char *const count[] = { "one", "one", "two", "three", "four" };
	int n;

	if (m->nr_modes < 2)
		n = snprintf(buf, len, "one level");
	else
		n = snprintf(buf, len, "%s levels:", count[m->nr_modes]);
	for (size_t i = 0; m->nr_modes >= 2 && i < m->nr_modes; i++)
		n += snprintf(buf + n, len - n, "%s %zu setups at ~%.0f", i ? "," : "",
			      m->m[i].count, m->m[i].median);
	if (m->nr_modes >= 2)
		n += snprintf(buf + n, len - n, " cycles");
	if (m->nr_outliers)
		n += snprintf(buf + n, len - n, "; %zu outlier%s (", m->nr_outliers,
			      m->nr_outliers == 1 ? "" : "s");
	for (size_t i = 0; i < m->nr_outliers && i < MODES_MAX; i++)
		n += snprintf(buf + n, len - n, "%s%.0f", i ? ", " : "", m->outlier[i]);
	if (m->nr_outliers)
		snprintf(buf + n, len - n, "%s)", m->nr_outliers > MODES_MAX ? ", ..." : "");
}

static void print_setups(const struct sc_result *r)
{
	uint32_t settled = 0, warm = 0;
	char lv[256];

	for (uint32_t i = 0; i < r->nr_setups; i++) {
		settled += r->setups[i].settled;
		warm += r->setups[i].warmups;
	}
	if (r->one_setup)
		printf("  setups: 1 (the interface's XDP program stays attached: re-attaching "
		       "resets most NICs), %u runs\n",
		       r->nr_setups);
	else
		printf("  setups: %u, each with its own program, maps%s and pools; %u warm-up runs "
		       "in all (%u of %u setups agreed within 3%%)\n",
		       r->nr_setups, r->nr_cpu == 2 ? ", cpumap entry and kthread" : "", warm,
		       settled, r->nr_setups);
	fmt_levels(&r->modes, lv, sizeof(lv));
	printf("  spread between setups: CV %.1f%%, %s\n", 100 * r->cyc.cv, lv);
	if (r->probe.n >= 3 && isfinite(r->probe_r))
		printf("  machine speed: a fixed CPU loop timed at each setup varied CV %.1f%% "
		       "(%.3f..%.3f ns/step); the figure's correlation with it: r = %.2f\n",
		       100 * r->probe.cv, r->probe.min, r->probe.max, r->probe_r);
	if (isfinite(r->mde_pct))
		printf("  smallest detectable change: %.1f%% (%.1f cycles) against a run like this "
		       "(%u setups a side, alpha 0.05, power 0.9)\n",
		       r->mde_pct, r->mde_pct / 100 * r->cyc.mean, r->nr_setups);
}

void bench_print_banner(void *ctx, const struct bench_ctx *b, const struct obs_desc *o,
			const char *where)
{
	const char *why = o->fentry_reason;
	char clock[384];

	(void)ctx;
	if (b->cfg->quiet)
		return;
	inst_clock_describe(inst_clock(), b->tsc.hz, clock, sizeof(clock));
	printf("ppbench bench: %s, observer %s%s%s%s, %s\n", clock, o->backend_name,
	       why ? " (" : "", why ? why : "", why ? ")" : "", where);
	if (o->not_counted)
		printf("  not counted: %s\n", o->not_counted);
}

void bench_print_line(const struct bench_ctx *b, const struct sc_result *r)
{
	char line[512], name[64], p[3][16], cls[256];

	tb_name(b, r, name, sizeof(name));
	if (upstream_line(b, r)) /* the path figure over the median setup's elements */
		fmt_time_bench(line, sizeof(line), name, llround(r->path_cycles * r->tb_elems),
			       llround((b->tsc.hz > 0 ? r->path_cycles / b->tsc.hz * 1e9
						      : r->path_cycles) *
				       r->tb_elems),
			       r->tb_elems);
	else
		fmt_time_bench(line, sizeof(line), name, r->tb_tsc, r->tb_ns, r->tb_elems);
	printf("%s\n", line);
	if (b->cfg->quiet)
		return;
	if (upstream_line(b, r))
		printf("  upstream name: this line is the path figure (%.1f cycles/elem, derived: "
		       "see 'path'), not the scenario figure (%.1f)\n",
		       r->path_cycles, r->cyc.median);
	printf("  scenario %s: %s\n  recipe: %s\n  timing: %s\n", scenario_defs[r->id].name,
	       scenario_defs[r->id].isolates, r->recipe, r->method);
	if (r->clock_syscalls)
		printf("  kernel clock: the wall time placed %llu of %llu timed syscalls "
		       "inside the duration's 1-ns interval (the others count at its middle)\n",
		       (unsigned long long)r->clock_resolved,
		       (unsigned long long)r->clock_syscalls);
	printf("  proof (%s backend, %llu elements): %s\n", r->backend,
	       (unsigned long long)r->proof_elems,
	       fmt_classes(cls, sizeof(cls), &r->counts, r->known, false));
	printf("  purity %s (allocations %s, returns %s)%s%s\n", pct(r->proof.purity, p[0]),
	       pct(r->proof.alloc_share, p[1]), pct(r->proof.ret_share, p[2]),
	       r->proof.note[0] ? "; " : "", r->proof.note);
	if (r->proof_drops)
		printf("  cpumap queue drops in the proof run: %llu (returned on the producer "
		       "CPU)\n",
		       (unsigned long long)r->proof_drops);
	if (!isnan(r->proof.purity) && r->proof.purity < 0.95)
		printf("  WARNING: purity below 95%%: the figure mixes paths\n");
	if (r->untracked_pools)
		printf("  NOTE: proof runs tried: %s; a proof that missed pools is never taken as "
		       "pure\n",
		       r->reason);
	if (r->nr_cpu == 2) {
		printf("  per CPU: producer CPU %d %.1f + consumer CPU %d %.1f = %.1f cycles/elem "
		       "(medians)\n",
		       r->per_cpu[0].cpu, r->per_cpu[0].s.median, r->per_cpu[1].cpu,
		       r->per_cpu[1].s.median, r->cyc.median);
		printf("  pacing: the producer waited for the consumer up to %.1f ns/elem (not "
		       "timed); the consumer got at least %.1f%% of each run's frames\n",
		       r->per_cpu[0].waited_ns, 100 * r->delivered);
	}
	if (r->foreign_probes)
		printf("  WARNING: %d other BPF program%s attached to page_pool hooks (other tools "
		       "or ppbench runs): they run on the timed path and inflate the figures\n",
		       r->foreign_probes, r->foreign_probes == 1 ? " is" : "s are");
	print_setups(r);
	if (r->cyc.cv > BENCH_CV_NOTE)
		printf("  NOTE: CV %.1f%% > %g%%: the setups disagree; more setups (--repeat) or a "
		       "quieter machine\n",
		       100 * r->cyc.cv, 100 * BENCH_CV_NOTE);
}

/* --upstream-names: which lines carry the upstream names, and why the others do not. */
static void print_upstream_note(const struct bench_ctx *b)
{
	char note[1024], name[64];
	int n = 0, kept = 0;

	if (!b->cfg->upstream_names)
		return;
	for (int i = 0; i < NR_SCENARIOS && n < (int)sizeof(note); i++) {
		const struct sc_result *r = &b->res[i];

		if (!b->cfg->want[i] || !r->ok)
			continue;
		if (upstream_line(b, r))
			n += snprintf(note + n, sizeof(note) - n, "%s%s is %s's path figure",
				      n ? "; " : "", upstream_name[i], scenario_defs[i].name);
		else {
			tb_name(b, r, name, sizeof(name));
			snprintf(note + n, sizeof(note) - n,
				 "%s%s has no (positive) path figure here, so its scenario figure "
				 "keeps the name %s",
				 n ? "; " : "", scenario_defs[i].name, name);
			kept++;
		}
		n = strlen(note);
	}
	if (kept && n < (int)sizeof(note))
		snprintf(note + n, sizeof(note) - n,
			 ". A scenario figure holds the loop, program and frame around the "
			 "page_pool calls, which the upstream module does not time: under an "
			 "upstream name the kselftest's grep would read it as the module's figure");
	fprint_wrapped(stdout, "upstream names: ", note);
}

/*
 * --counters: the CPU's counters per element, a table of their own (their
 * unit is never the clock's). The clock's column is the figure above, for
 * the same timed runs.
 */
static void print_counters(const struct bench_ctx *b)
{
	bool cyc = b->cfg->counter_cycles;

	if (!b->pmu_on)
		return;
	printf("\n%-10s %12s %12s%s %12s\n", "counters", "kernel ins", "user ins",
	       cyc ? "   kernel cyc     user cyc" : "",
	       inst_clock()->icount ? "clock instr" : "clock cyc");
	for (int i = 0; i < NR_SCENARIOS; i++) {
		const struct sc_result *r = &b->res[i];

		if (!b->cfg->want[i] || !r->ok)
			continue;
		if (!r->has_pmu) {
			printf("%-10s n/a: %s\n", scenario_defs[i].name, r->pmu_why);
			continue;
		}
		printf("%-10s %12.1f %12.2f", scenario_defs[i].name,
		       r->pmu_s[PMU_INSTR_KERNEL].median, r->pmu_s[PMU_INSTR_USER].median);
		if (cyc)
			printf(" %12.1f %12.2f", r->pmu_s[PMU_CYCLES_KERNEL].median,
			       r->pmu_s[PMU_CYCLES_USER].median);
		printf(" %12.1f\n", r->cyc.median);
	}
	printf("counters: the CPU's own (perf_event_open), per element: this task's %s in "
	       "kernel and\nuser mode from each timed BPF_PROG_RUN syscall's entry to its exit "
	       "(the pool's setup and\nteardown, interrupts inside); medians of %u setups; "
	       "the clock's figure times the loop only\n",
	       cyc ? "instructions and cycles" : "instructions", b->cfg->repeat);
}

/*
 * --upstream-module: the module's own figures of each scenario's loop beside
 * bench's path figure. The module times its loop only: alloc and return, as
 * a path figure counts them.
 */
static void print_upmod(const struct bench_ctx *b)
{
	const char *unit = inst_clock()->icount ? "instr/elem" : "cycles(tsc)/elem";

	if (!b->cfg->upstream_module)
		return;
	printf("\nupstream module %s: its time_bench figures, %s, per load (elements), "
	       "beside bench's path figure\n",
	       b->cfg->upstream_module, unit);
	for (int i = 0; i < NR_SCENARIOS; i++) {
		const struct upstream_module_fig *u = &b->res[i].up;
		const struct sc_result *r = &b->res[i];

		if (!u->tried)
			continue;
		if (!u->ran) {
			printf("%-10s %s: not run: %s\n", scenario_defs[i].name, u->test, u->why);
			continue;
		}
		printf("%-10s %s", scenario_defs[i].name, u->test);
		for (int k = 0; k < UPMOD_LOADS; k++)
			printf("  %" PRIu64 ": %" PRIu64, u->loops[k], u->tsc[k]);
		if (r->has_path && u->tsc[UPMOD_LOADS - 1])
			printf("  | path %.1f (%+.1f %%)\n", r->path_cycles,
			       100 * (r->path_cycles / u->tsc[UPMOD_LOADS - 1] - 1));
		else
			printf("  | path n/a\n");
	}
}

void bench_print_summary(const struct bench_ctx *b)
{
	char p[16], path[24], note[400], mde[16];

	bool ic = inst_clock()->icount;

	printf("\n%-10s %10s %10s %9s %8s %6s %6s %8s %12s\n", "scenario",
	       ic ? "instr/el" : "cycles/el", "ns/elem", ic ? "min inst" : "min cyc", "stddev",
	       "CV%", "MDE%", "purity", ic ? "path instr" : "path cycles");
	for (int i = 0; i < NR_SCENARIOS; i++) {
		const struct sc_result *r = &b->res[i];

		if (!b->cfg->want[i])
			continue;
		if (!r->ok) {
			printf("%-10s skipped: %s\n", scenario_defs[i].name, r->reason);
			report_untracked(NULL, "  ", r->untracked_pools, r->untracked_events,
					 r->pool_room);
			continue;
		}
		if (r->has_path)
			snprintf(path, sizeof(path), "%.1f", r->path_cycles);
		else
			snprintf(path, sizeof(path), "n/a");
		if (isfinite(r->mde_pct))
			snprintf(mde, sizeof(mde), "%.1f%%", r->mde_pct);
		else
			snprintf(mde, sizeof(mde), "n/a");
		printf("%-10s %10.1f %10.3f %9.1f %8.2f %5.1f%% %6s %8s %12s\n",
		       scenario_defs[i].name, r->cyc.median, r->nsec.median, r->cyc.min,
		       r->cyc.stddev, 100 * r->cyc.cv, mde, pct(r->proof.purity, p), path);
		report_untracked(NULL, "  ", r->untracked_pools, r->untracked_events, r->pool_room);
	}
	if (ic)
		printf("figures are guest instructions per element (qemu's instruction clock: "
		       "cycles(tsc) and\nns count instructions), medians of %u setups; MDE: "
		       "smallest change a run like this\ncould detect (alpha 0.05, power 0.9); "
		       "path instr: see 'path' methods%s\n",
		       b->cfg->repeat, b->cfg->json ? " in the JSON" : " (--json)");
	else if (b->tsc.hz > 0)
		printf("cycles are TSC cycles (%.3f GHz), medians of %u setups; MDE: smallest "
		       "change a run like this\ncould detect (alpha 0.05, power 0.9); path "
		       "cycles: see 'path' methods%s\n",
		       b->tsc.hz / 1e9, b->cfg->repeat,
		       b->cfg->json ? " in the JSON" : " (--json)");
	else
		printf("cycles are ns of the kernel's clock (no cycle counter on this CPU), "
		       "medians of %u setups; MDE:\nsmallest change a run like this could detect "
		       "(alpha 0.05, power 0.9); path cycles:\nsee 'path' methods%s\n",
		       b->cfg->repeat, b->cfg->json ? " in the JSON" : " (--json)");
	for (int i = 0; i < NR_SCENARIOS; i++) {
		const struct sc_result *r = &b->res[i];
		char lv[256];

		if (!b->cfg->want[i] || !r->ok || !r->modes.multi)
			continue;
		fmt_levels(&r->modes, lv, sizeof(lv));
		printf("UNSTABLE: %s: %s (ppbench-compare(8): the gating rule)\n",
		       scenario_defs[i].name, lv);
	}
	if (bench_order_note(b->res, inst_clock()->icount ? "instr" : "cycles", note, sizeof(note)))
		fprint_wrapped(stdout, "NOTE: ", note);
	print_upstream_note(b);
	print_counters(b);
	print_upmod(b);
}

/* ---- JSON (schema ppbench/1, ppbench-bench(8) "JSON") ---------------------- */

static void json_stat(struct json *j, const char *key, const struct summary *s, const double *runs,
		      uint32_t n)
{
	json_obj_begin(j, key);
	json_double(j, "min", s->min);
	json_double(j, "median", s->median);
	json_double(j, "mean", s->mean);
	json_double(j, "stddev", s->stddev);
	json_double(j, "cv", s->cv);
	json_arr_begin(j, "runs");
	for (uint32_t i = 0; i < n; i++)
		json_double(j, NULL, runs[i]);
	json_arr_end(j);
	json_obj_end(j);
}

static void json_per_cpu(struct json *j, const struct sc_result *r, uint32_t n)
{
	json_arr_begin(j, "per_cpu");
	for (int i = 0; i < r->nr_cpu; i++) {
		json_obj_begin(j, NULL);
		json_u64(j, "cpu", r->per_cpu[i].cpu);
		json_str(j, "role", r->per_cpu[i].role);
		json_u64(j, "elems", r->per_cpu[i].elems);
		json_stat(j, "cycles_per_elem", &r->per_cpu[i].s, r->per_cpu[i].cycles, n);
		if (i == 0 && r->nr_cpu == 2)
			json_double(j, "waited_ns_per_elem", r->per_cpu[0].waited_ns);
		if (i == 1)
			json_double(j, "delivered_share", r->delivered);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_modes(struct json *j, const struct modes *m)
{
	json_levels(j, "modes", m->m, m->nr_modes, "setups");
	json_arr_begin(j, "outliers");
	for (size_t i = 0; i < m->nr_outliers && i < MODES_MAX; i++)
		json_double(j, NULL, m->outlier[i]);
	json_arr_end(j);
}

static void json_setups(struct json *j, const struct sc_result *r)
{
	json_arr_begin(j, "setups");
	for (uint32_t i = 0; i < r->nr_setups; i++) {
		const struct setup_rec *s = &r->setups[i];

		json_obj_begin(j, NULL);
		json_double(j, "cycles_per_elem", r->cycles[i]);
		json_arr_begin(j, "chunks");
		for (uint32_t k = 0; k < s->nr_chunks; k++)
			json_double(j, NULL, s->chunk_cycles[k]);
		json_arr_end(j);
		json_u64(j, "warmup_runs", s->warmups);
		json_bool(j, "warmup_settled", s->settled);
		json_double(j, "cpu_probe_ns", s->cpu_probe_ns);
		json_double(j, "level_probe_ns", s->level_probe_ns);
		json_u64(j, "prog_id", s->prog_id);
		if (r->nr_cpu == 2) {
			json_u64(j, "cpumap_id", s->cpumap_id);
			json_u64(j, "cpumap_prog_id", s->cpumap_prog_id);
			json_i64(j, "kthread_pid", s->kthread_pid);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* --counters: "counters": {counter name: stat block per element, or a reason}. */
static void json_counters(struct json *j, const struct bench_ctx *b, const struct sc_result *r)
{
	int n = b->cfg->counter_cycles ? NR_PMU_COUNTERS : PMU_CYCLES_KERNEL;

	if (!b->pmu_on)
		return;
	json_obj_begin(j, "counters");
	json_str(j, "unit", "per element");
	if (!r->has_pmu) {
		json_str(j, "reason", r->pmu_why);
	} else {
		for (int k = 0; k < n; k++)
			json_stat(j, pmu_counter_name(k), &r->pmu_s[k], r->pmu[k], b->cfg->repeat);
	}
	json_obj_end(j);
}

/* --upstream-module: the module's loop of this scenario, its figures per load. */
static void json_upmod(struct json *j, const struct bench_ctx *b, const struct sc_result *r)
{
	const struct upstream_module_fig *u = &r->up;

	if (!u->tried)
		return;
	json_obj_begin(j, "upstream_module");
	json_str(j, "file", b->cfg->upstream_module);
	json_str(j, "test", u->test);
	json_str(j, "status", u->ran ? "ok" : "failed");
	if (!u->ran)
		json_str(j, "reason", u->why);
	json_arr_begin(j, "loops");
	for (int k = 0; k < UPMOD_LOADS; k++)
		json_u64(j, NULL, u->loops[k]);
	json_arr_end(j);
	json_arr_begin(j, "cycles_per_elem");
	for (int k = 0; u->ran && k < UPMOD_LOADS; k++)
		json_u64(j, NULL, u->tsc[k]);
	json_arr_end(j);
	json_arr_begin(j, "ns_per_elem");
	for (int k = 0; u->ran && k < UPMOD_LOADS; k++)
		json_double(j, NULL, u->ns[k]);
	json_arr_end(j);
	json_obj_end(j);
}

static void json_scenario(struct json *j, const struct bench_ctx *b, const struct sc_result *r)
{
	uint32_t n = b->cfg->repeat;
	char tb[64];

	json_obj_begin(j, NULL);
	json_str(j, "name", scenario_defs[r->id].name);
	json_str(j, "status", r->ok ? "ok" : "skipped");
	report_untracked(j, NULL, r->untracked_pools, r->untracked_events, r->pool_room);
	if (!r->ok) {
		json_str(j, "reason", r->reason);
		json_obj_end(j);
		return;
	}
	json_str(j, "isolates", scenario_defs[r->id].isolates);
	tb_name(b, r, tb, sizeof(tb));
	json_str(j, "time_bench_type", tb);
	json_str(j, "recipe", r->recipe);
	json_str(j, "proof_tried", r->reason);
	json_str(j, "method", r->method);
	if (r->clock_syscalls) {
		json_obj_begin(j, "kernel_clock");
		json_u64(j, "syscalls", r->clock_syscalls);
		json_u64(j, "resolved", r->clock_resolved);
		json_obj_end(j);
	}
	json_arr_begin(j, "cpus");
	for (int i = 0; i < r->nr_cpu; i++)
		json_u64(j, NULL, r->per_cpu[i].cpu);
	json_arr_end(j);
	json_u64(j, "loops", r->loops);
	json_u64(j, "repeat", n);
	json_u64(j, "batch", r->batch);
	json_stat(j, "cycles_per_elem", &r->cyc, r->cycles, n);
	json_stat(j, "ns_per_elem", &r->nsec, r->ns, n);
	/* "setup": each value of "runs" is its own setup; "run": runs of one */
	json_str(j, "replication", r->one_setup ? "run" : "setup");
	json_modes(j, &r->modes);
	json_double(j, "mde_pct", r->mde_pct); /* null if not finite */
	json_setups(j, r);
	/* the page_pool-free kernel loop next to the setups: the host's level */
	json_obj_begin(j, "level_probe");
	json_str(j, "what", "ns per run, trivial XDP program, non-live BPF_PROG_RUN");
	json_double(j, "median_ns", r->level.n ? r->level.median : NAN);
	json_double(j, "cv", r->level.n ? r->level.cv : NAN);
	json_double(j, "r_cycles", r->level_r);
	json_obj_end(j);
	json_path(j, "path", &r->counts, r->known);
	json_double(j, "purity", r->proof.purity);
	json_double(j, "purity_alloc", r->proof.alloc_share);
	json_double(j, "purity_ret", r->proof.ret_share);
	json_str(j, "purity_note", r->proof.note);
	json_str(j, "accounting_backend", r->backend);
	json_u64(j, "proof_elems", r->proof_elems);
	if (r->nr_cpu == 2)
		json_u64(j, "cpumap_drops", r->proof_drops);
	json_u64(j, "foreign_probes", r->foreign_probes);
	json_obj_begin(j, "path_cost_cycles");
	json_double(j, "value", r->has_path ? r->path_cycles : NAN);
	json_str(j, "method", r->path_method);
	json_obj_end(j);
	json_per_cpu(j, r, n);
	json_counters(j, b, r);
	json_upmod(j, b, r);
	json_obj_end(j);
}

int bench_write_json(const struct bench_ctx *b, const char *path, const char *cmdline)
{
	struct json *j = json_open(path, true);
	char note[400];

	if (!j)
		return -1;
	json_doc_begin(j, "ppbench/1");
	if (b->cfg->label)
		json_str(j, "label", b->cfg->label);
	json_str(j, "command", cmdline);
	json_host(j, &b->tsc, b->fentry, b->live_frames);
	if (b->pmu_on) {
		json_obj_begin(j, "counters");
		json_str(j, "source", "perf_event_open");
		json_str(j, "scope",
			 "this task, kernel and user mode apart, from each timed BPF_PROG_RUN "
			 "syscall's entry to its exit (interrupts inside included)");
		json_arr_begin(j, "events");
		for (int k = 0; k < (b->cfg->counter_cycles ? NR_PMU_COUNTERS : PMU_CYCLES_KERNEL);
		     k++)
			json_str(j, NULL, pmu_counter_name(k));
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_begin(j, "scenarios");
	for (int i = 0; i < NR_SCENARIOS; i++)
		if (b->cfg->want[i])
			json_scenario(j, b, &b->res[i]);
	json_arr_end(j);
	/* null when fast, ring and slow order as upstream's paths do (or did not all run) */
	json_str(j, "order_note",
		 bench_order_note(b->res, inst_clock()->icount ? "instr" : "cycles", note,
				  sizeof(note))
			 ? note
			 : NULL);
	return json_doc_end(j) ? -1 : 0; /* its error line names the file */
}

/* The text of bench --overhead. */
void overhead_report(const struct overhead_figs *f)
{
	printf("instrumentation overhead, ring recipe (live-frames XDP_DROP, batch 64, %u frames "
	       "x %u runs, CPU %u):\n",
	       f->frames, f->runs, f->cpu);
	printf("  bench's timed run: bare program, kernel test_run clock  %8.3f ns/frame "
	       "(median, CV %.1f%%)\n",
	       f->timed.median, 100 * f->timed.cv);
	printf("  bare program, wall time of the syscall                 %8.3f ns/frame "
	       "(median, CV %.1f%%)\n",
	       f->bare.median, 100 * f->bare.cv);
	printf("  overhead                               %+8.2f %% (median of %u pairs, %+.2f .. "
	       "%+.2f %%;\n    target <= 3 %%; reported, not asserted): bench's timed runs carry "
	       "no per-packet work,\n    so this compares only the clocks (the kernel's loop "
	       "time against the whole syscall)\n",
	       f->timed_pct.median, f->runs, f->timed_pct.min, f->timed_pct.max);
	printf("  per-packet counting of proof runs and load (stats, sampled clock), wall time: "
	       "%.3f ns/frame,\n    %+.2f %% against the bare program (median of %u pairs, "
	       "%+.2f .. %+.2f %%)\n",
	       f->counted.median, f->counted_pct.median, f->runs, f->counted_pct.min,
	       f->counted_pct.max);
}
