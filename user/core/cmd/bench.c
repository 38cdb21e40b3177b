// SPDX-License-Identifier: GPL-2.0
/* ppbench bench: the command line; engine/bench_run.c measures, report/ prints. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "engine/bench_run.h"
#include "engine/recipe_run.h"
#include "loader/kfeatures.h"
#include "loader/observer.h"
#include "model/counts.h"
#include "model/scenario.h"
#include "model/spread.h"
#include "report/report.h"
#include "sys/vethenv.h"
#include "sys/log.h"
#include "sys/pmu.h"
#include "sys/runlock.h"
#include "sys/util.h"

enum { OPT_SCENARIO = 1, OPT_COUNTERS, OPT_LOOPS };

#define B(m) CLI_MEMBER(struct bench_cfg, m)
#define STR_(x) #x
#define STR(x) STR_(x)
#define UPMOD_LOOPS_STR STR(UPMOD_LOOPS)

/* --scenario's help, with the scenario table's names. */
static const char *scenario_help(void)
{
	static char help[128];

	snprintf(help, sizeof(help), "scenarios to run, comma separated: %s (default: all)",
		 scenario_name_list());
	return help;
}

static const struct cli_opt bench_opts[] = {
	{ "scenario", 's', "LIST", .help_fn = scenario_help, .key = OPT_SCENARIO },
	{ "repeat", 'r', "N",
	  "setups per scenario, each built afresh, warmed up and timed (default 5)",
	  .kind = CLI_UINT, B(repeat), .min = 1, .max = 1000 },
	{ "loops", 'l', "N|SCENARIO=N,...",
	  "timed elements per setup, 1000..1000000000: N for every scenario, or SCENARIO=N for "
	  "the scenarios named (default per scenario: ring 2M, ring-xcpu 1M, fast 100k, slow "
	  "256k)",
	  OPT_LOOPS },
	{ "cpu", 'c', "N", "CPU to run on (default 0); ring-xcpu returns on the next online CPU",
	  .kind = CLI_CPU, B(cpu) },
	{ "batch", 'b', "N",
	  "live-frames batch size of ring, ring-xcpu and fast's lf-fastpass (default 64; "
	  "ring-xcpu 256, whose larger ring absorbs cross-CPU bursts; slow's is 1)",
	  .kind = CLI_UINT, B(batch), .min = 1, .max = 256, CLI_MARK(struct bench_cfg, batch_set) },
	{ "counters", 0, "LIST",
	  "also count with the CPU's own counters (perf_event_open), kernel and user apart, "
	  "around each timed BPF_PROG_RUN syscall: instructions, or instructions,cycles; "
	  "reported per element beside the clock's figure (ring, fast, slow)",
	  OPT_COUNTERS },
	{ "iface", 'i', "IF",
	  "run the live-frames scenarios on IF (an existing interface) and "
	  "'fast' as native XDP_DROP of IF's traffic, instead of the private "
	  "veth pair",
	  .kind = CLI_IFACE, B(iface), .ifindex_off = offsetof(struct bench_cfg, ifindex) },
	CLI_OPT_JSON(struct bench_cfg, json,
		     "write the results as JSON (schema ppbench/1) to FILE ('-': stdout)"),
	{ "label", 0, "TEXT",
	  "name this result in the JSON (\"label\"), e.g. a commit id or kernel release: "
	  "'ppbench trend' orders and names a series of results by it; at most 64 "
	  "characters, no control characters",
	  .kind = CLI_STRING, B(label) },
	{ "upstream-names", 0, NULL,
	  "name the time_bench lines as the upstream module does, so its kselftest's grep "
	  "reads them: fast no-softirq-page_pool01, ring 02, slow 03, ring-xcpu "
	  "page_pool_cross_cpu (the out-of-tree bench_page_pool_cross_cpu)",
	  .kind = CLI_FLAG, B(upstream_names) },
	{ "upstream-module", 0, "FILE",
	  "then load FILE, the kernel's own page_pool benchmark module (bench_page_pool.ko, "
	  "tools/testing/selftests/net/bench/page_pool), twice per scenario that ran (fast, "
	  "ring, slow: its tests 01, 02, 03; " UPMOD_LOOPS_STR " elements, then twice as many), "
	  "and set its figures beside bench's; under ppbench vm --profile also its path figure, "
	  "function by function",
	  .kind = CLI_STRING, B(upstream_module), .flags = CLI_F_INFILE },
	{ "quiet", 'q', NULL, "print only the time_bench lines and the summary; no progress",
	  .kind = CLI_FLAG, B(quiet) },
	CLI_OPT_WAIT(struct bench_cfg, wait),
	{ "overhead", 0, NULL,
	  "measure what bench's timing leaves on the ring figure instead: its timed "
	  "run (a bare program, the kernel's test-run clock) vs the bare program "
	  "timed over the whole syscall, and the per-packet counting of proof runs, "
	  "in --repeat rotating turns of --loops frames",
	  .kind = CLI_FLAG, B(overhead) },
	{ NULL },
};

static void bench_init(void *c)
{
	struct bench_cfg *cfg = c;

	cfg->repeat = BENCH_REPEAT;
	cfg->batch = BENCH_BATCH;
	cfg->cpu = 0;
	for (int i = 0; i < NR_SCENARIOS; i++)
		cfg->want[i] = true;
}

static int parse_scenarios(struct bench_cfg *cfg, const char *arg)
{
	char err[256];

	memset(cfg->want, 0, sizeof(cfg->want));
	if (scenario_list_parse(arg, cfg->want, err, sizeof(err))) {
		pr_err("%s\n", err);
		return -EINVAL;
	}
	return 0;
}

static int parse_counters(struct bench_cfg *cfg, const char *arg)
{
	char buf[64], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", arg);
	cfg->counters = true;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "cycles")) {
			cfg->counter_cycles = true;
		} else if (strcmp(tok, "instructions")) {
			pr_err("--counters: unknown counter '%s' (instructions, cycles)\n", tok);
			return -EINVAL;
		}
	}
	return 0;
}

#define LOOPS_MIN 1000
#define LOOPS_MAX 1000000000

/* "SCENARIO=N": that scenario's loops. */
static int parse_sc_loops(struct bench_cfg *cfg, char *tok)
{
	char *eq = strchr(tok, '='), *end;
	unsigned long long v;
	int id;

	*eq = '\0';
	id = scenario_by_name(tok);
	if (id < 0) {
		pr_err("--loops: unknown scenario '%s' (%s)\n", tok, scenario_name_list());
		return -EINVAL;
	}
	errno = 0;
	v = strtoull(eq + 1, &end, 10);
	if (!isdigit((unsigned char)eq[1]) || *end || errno) {
		pr_err("--loops %s='%s' is not a non-negative integer\n", tok, eq + 1);
		return -EINVAL;
	}
	if (v < LOOPS_MIN || v > LOOPS_MAX) {
		pr_err("--loops %s=%s is out of range (%u..%u)\n", tok, eq + 1, LOOPS_MIN,
		       LOOPS_MAX);
		return -ERANGE;
	}
	cfg->sc_loops[id] = v;
	return 0;
}

/* --loops N, or SCENARIO=N[,SCENARIO=N...] */
static int parse_loops(struct bench_cfg *cfg, const char *arg)
{
	char buf[256], *tok, *save = NULL;
	int err = 0;

	if (!strchr(arg, '='))
		return parse_u64(arg, "--loops", LOOPS_MIN, LOOPS_MAX, &cfg->loops);
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save)) {
		if (!strchr(tok, '=')) {
			pr_err("--loops: '%s' is not SCENARIO=N (ring=2000000,slow=20000)\n", tok);
			return -EINVAL;
		}
		err = parse_sc_loops(cfg, tok);
	}
	return err;
}

static int bench_opt(void *c, int key, const char *arg)
{
	if (key == OPT_COUNTERS)
		return parse_counters(c, arg);
	if (key == OPT_LOOPS)
		return parse_loops(c, arg);
	return key == OPT_SCENARIO ? parse_scenarios(c, arg) : -EINVAL;
}

/* --counters: the CPU must have them, let this process count, and count whole (one line if not). */
static int check_counters(const struct bench_cfg *cfg)
{
	struct pmu p;
	char why[200];
	int err = pmu_open(&p, cfg->counter_cycles, why, sizeof(why));

	if (!err) {
		err = pmu_trial(&p, why, sizeof(why));
		pmu_close(&p);
	}
	if (err)
		pr_err("--counters: %s\n", why);
	return err;
}

/* A label names a point in trend's tables and SVG: one short line. */
static int check_label(const struct bench_cfg *cfg)
{
	size_t n = strlen(cfg->label);

	if (!cfg->json) {
		pr_err("--label names the JSON result: give --json FILE too\n");
		return -EINVAL;
	}
	if (!n || n > 64) {
		pr_err("--label: '%s' must be 1 to 64 characters long\n", cfg->label);
		return -EINVAL;
	}
	for (const char *p = cfg->label; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			pr_err("--label: control character 0x%02x in the label\n",
			       (unsigned char)*p);
			return -EINVAL;
		}
	}
	return 0;
}

/* --upstream-module: a module file to load, and a scenario that has a loop in it. */
static int check_module(const struct bench_cfg *cfg)
{
	struct stat st;
	bool any = false;

	if (stat(cfg->upstream_module, &st) || access(cfg->upstream_module, R_OK)) {
		int err = errno;

		pr_err("--upstream-module %s: %s\n", cfg->upstream_module, strerror(err));
		return -err;
	}
	if (!S_ISREG(st.st_mode)) {
		pr_err("--upstream-module %s: not a file\n", cfg->upstream_module);
		return -EINVAL;
	}
	for (int i = 0; i < NR_SCENARIOS; i++)
		any |= cfg->want[i] && upstream_module_test(i);
	if (!any) {
		pr_err("--upstream-module: no scenario to set it beside: the module's loops are "
		       "fast's, ring's and slow's\n");
		return -EINVAL;
	}
	if (cfg->overhead) {
		pr_err("--upstream-module goes with the scenarios, not with --overhead\n");
		return -EINVAL;
	}
	return 0;
}

/* --iface must take native XDP (it exists: the option kind checked that). */
static int bench_check(void *c, int argc, char **argv)
{
	struct bench_cfg *cfg = c;

	(void)argc;
	(void)argv;
	if (cfg->label && check_label(cfg))
		return EXIT_USAGE;
	if (cfg->upstream_module && check_module(cfg))
		return EXIT_USAGE;
	if (cfg->counters && check_counters(cfg))
		return EXIT_USAGE;
	return cfg->iface && bench_check_iface(cfg) ? EXIT_USAGE : EXIT_OK;
}

/* The result file, with the command line that made it (its reproduction). */
static int write_json(const struct bench_ctx *b, const char *path)
{
	char *line = cli_command_line();
	int ret = bench_write_json(b, path, line ? line : "ppbench bench");

	free(line);
	return ret;
}

/* The scenarios' lines, the summary and the JSON of what bench_main() measured. */
static int bench_measure(struct bench_cfg *cfg)
{
	const struct bench_sink sink = { NULL, bench_print_banner };
	struct bench_ctx b = { .cfg = cfg };
	int ok = 0, ret = EXIT_FAIL;

	if (!bench_main(&b, &sink)) {
		for (int i = 0; i < NR_SCENARIOS; i++) {
			if (!cfg->want[i] || !b.res[i].ok)
				continue;
			bench_print_line(&b, &b.res[i]);
			ok++;
		}
		bench_print_summary(&b);
		ret = ok ? EXIT_OK : EXIT_FAIL;
		if (!ok)
			pr_err("no scenario could run here (the summary says why)\n");
		if (cfg->json && write_json(&b, cfg->json))
			ret = EXIT_FAIL;
	}
	bench_free(&b);
	return ret;
}

static int bench_run(void *c, int argc, char **argv)
{
	struct bench_cfg *cfg = c;
	struct overhead_figs f;

	(void)argc;
	(void)argv;
	if (run_lock_take("bench", cfg->wait))
		return EXIT_FAIL;
	if (!cfg->overhead)
		return bench_measure(cfg);
	if (bench_overhead(cfg, &f))
		return EXIT_FAIL;
	overhead_report(&f);
	return EXIT_OK;
}

/* The figures ppbench-bench(8) states (@{NAME}), from the constants bench uses. */
static int bench_figures(struct cli_fig *f)
{
	const struct scenario_def *d = scenario_defs;
	double mde = MDE_POWER * 100;
	const struct cli_fig v[] = {
		{ "purity_min", PURITY_MIN * 100 },
		{ "purity_floor", PURITY_FLOOR * 100 },
		{ "proof_loops", PROOF_LOOPS },
		{ "repeat", BENCH_REPEAT },
		{ "batch", BENCH_BATCH },
		{ "chunks", SETUP_CHUNKS },
		{ "warm_tol", WARM_TOL * 100 },
		{ "warm_max", WARM_MAX },
		{ "cv_note", BENCH_CV_NOTE * 100 },
		{ "mode_gap_pct", MODE_GAP_REL * 100 },
		{ "mode_gap_k", MODE_GAP_K },
		{ "mde_alpha", MDE_ALPHA },
		{ "mde_power", mde },
		/* the MDE of a CV of 1 % with 5 and with 20 setups a side */
		{ "mde_5", round(mde_pct(0.01, 5, 5, MDE_ALPHA, MDE_POWER) * 100) / 100 },
		{ "mde_20", round(mde_pct(0.01, 20, 20, MDE_ALPHA, MDE_POWER) * 100) / 100 },
		{ "loops_ring", d[SC_RING].default_loops },
		{ "loops_ring_xcpu", d[SC_RING_XCPU].default_loops },
		{ "loops_fast", d[SC_FAST].default_loops },
		{ "loops_slow", d[SC_SLOW].default_loops },
		{ "xcpu_batch", d[SC_RING_XCPU].cand[0].batch },
		{ "slow_batch", d[SC_SLOW].cand[0].batch },
		{ "fast_size", FASTPASS_MIN_SIZE },
		{ "fastpass_adjust", FASTPASS_ADJUST },
		{ "nic_wait", NIC_WAIT_S },
		{ "upstream_module_loops", UPMOD_LOOPS },
	};

	return CLI_FIGURES(f, v);
}

const struct cli_cmd cmd_bench = {
	.name = "bench",
	.summary = "cycles per element for the fast, ptr_ring and slow paths, with path proof",
	.description =
		"Measure, in TSC cycles and ns per element, what each page_pool path costs:\n"
		"  ring       live-frames XDP_DROP: alloc from the cache/ring refill, return to\n"
		"             the ptr_ring on the same CPU (bench_page_pool_simple test 02)\n"
		"  ring-xcpu  live frames redirected to a cpumap on another CPU that drops them:\n"
		"             the return crosses CPUs into the origin pool's ring; producer and\n"
		"             consumer CPU cycles are reported separately, and their sum; the\n"
		"             cpumap kthread runs at SCHED_FIFO 1 so other tasks cannot starve it\n"
		"  fast       generic-XDP xdp.frags drop of full-page frames on the per-CPU "
		"system\n"
		"             pool: direct recycle into the alloc cache (test 01; from BPF\n"
		"             direct recycling goes through page_pool_napi_local(), like the\n"
		"             RFC's tasklet_page_pool04_napi_aware)\n"
		"  slow       live frames at batch 1, a bulk's pages per syscall (64 on 4K "
		"pages):\n"
		"             page allocator bulk alloc and release (test 03)\n"
		"Each scenario first runs a proof run with the page_pool observer: it picks the\n"
		"first recipe that puts >= 95 % of its elements on the named path on this kernel\n"
		"and prints the recipe and the counts.\n"
		"\n"
		"Setups. A repetition is a setup: the recipe's programs, maps and pools (and the\n"
		"cpumap entry with its kthread) are built afresh for each, because runs of one\n"
		"setup agree with each other better than setups do. Setups run round-robin over\n"
		"the scenarios, so a drift of the machine reaches all of them alike. Each is\n"
		"warmed up with runs of 1/8 of --loops until two in a row agree within 3 % (at\n"
		"most 6), then timed in 8 chunks with the observer detached; the setup's figure\n"
		"is its second fastest chunk (other work only adds time). Per scenario bench\n"
		"prints the median over the setups, the spread between them, the levels they sit\n"
		"on (two or more: 'UNSTABLE'; ppbench-compare(8) says how a gate takes them)\n"
		"and the smallest change a comparison with a run like this one could detect\n"
		"(alpha 0.05, power 0.9; JSON mde_pct): more setups make it smaller, about as\n"
		"1/sqrt(N).\n"
		"\n"
		"Cycles are TSC cycles (like time_bench's cycles(tsc)): ns times the calibrated\n"
		"TSC Hz. One-CPU live-frames runs (ring, fast, slow) time programs without maps\n"
		"or clock by the kernel's test_run clock; ring-xcpu samples bpf_ktime_get_ns()\n"
		"per CPU in its XDP programs. The path figure subtracts\n"
		"what is not the path: per-call fentry timing minus the probe overhead where\n"
		"fentry is allowed, a reference recipe otherwise, or n/a with the reason. With\n"
		"no interface it runs on a private veth pair in namespaces it creates and\n"
		"removes.\n"
		"\n"
		"One at a time. bench and recipe hold a lock (/run/ppbench.lock) while they run:\n"
		"two measuring runs put each other's probes on the timed path. A second one\n"
		"exits at once naming the first one's PID, or queues with --wait. The kernel\n"
		"drops the lock when its holder exits, however it ends. watch, load and gen may\n"
		"run beside a bench; bench counts their probes and warns (foreign_probes).",
	.examples = "  ppbench bench\n"
		    "  ppbench bench --scenario ring,slow --repeat 10 --json result.json\n"
		    "  ppbench bench --cpu 2 --loops 5000000 --quiet\n"
		    "  ppbench bench --label v6.18-rc1 --json ci/6.18-rc1.json\n"
		    "  ppbench bench --upstream-names | grep -oE 'no-softirq-page_pool0[1-3] Per "
		    "elem: [0-9]+ cycles'\n",
	.figures = bench_figures,
	.opts = bench_opts,
	.cfg_size = sizeof(struct bench_cfg),
	.cfg_init = bench_init,
	.opt = bench_opt,
	.check = bench_check,
	.needs = PPB_NEED_ROOT | PPB_NEED_BTF | PPB_NEED_KCONFIG,
	.run = bench_run,
};
