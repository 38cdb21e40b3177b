// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench bench: TSC cycles per element for the fast, ptr_ring (same CPU and
 * cross-CPU) and slow paths, with proof of the path from the observer.
 *
 * Per scenario: pick the first candidate recipe whose proof run shows >= 95 %
 * of the elements on the named path on this kernel; then a discarded warm-up
 * and --repeat timed runs with the observer detached (proof costs time, so it
 * is never taken in a timed run); then the path figure.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "engine/bench.h"
#include "engine/overhead.h"
#include "loader/kfeatures.h"
#include "loader/observer.h"
#include "model/counts.h"
#include "model/scenario.h"
#include "sys/cpus.h"
#include "sys/env.h"
#include "sys/log.h"
#include "sys/util.h"

enum { OPT_SCENARIO = 1, OPT_REPEAT, OPT_LOOPS, OPT_CPU, OPT_BATCH, OPT_IFACE, OPT_JSON,
       OPT_QUIET, OPT_OVERHEAD };

static const struct cli_opt bench_opts[] = {
	{ "scenario", 's', "LIST", "scenarios to run, comma separated: ring, ring-xcpu, fast, slow "
				   "(default: all)", OPT_SCENARIO },
	{ "repeat", 'r', "N", "timed repetitions, 1..1000, after one discarded warm-up (default 5)",
	  OPT_REPEAT },
	{ "loops", 'l', "N", "elements per repetition, 1000..1000000000 (default per scenario: "
			     "ring 2M, ring-xcpu 1M, fast 200k, slow 256k)", OPT_LOOPS },
	{ "cpu", 'c', "N", "CPU to run on (default 0); ring-xcpu returns on the next online CPU",
	  OPT_CPU },
	{ "batch", 'b', "N", "live-frames batch size of ring and ring-xcpu, 1..256 (default 64; "
			     "ring-xcpu 256, whose larger ring absorbs cross-CPU bursts)", OPT_BATCH },
	{ "iface", 'i', "IF", "run the live-frames scenarios on IF (an existing interface) and "
			      "'fast' as native XDP_DROP of IF's traffic, instead of the private "
			      "veth pair", OPT_IFACE },
	{ "json", 'j', "FILE", "write the results as JSON (schema ppbench/1) to FILE ('-': stdout)",
	  OPT_JSON },
	{ "quiet", 'q', NULL, "print only the time_bench lines and the summary; no progress",
	  OPT_QUIET },
	{ "overhead", 0, NULL, "measure the instrumentation overhead instead: the ring recipe with "
			       "bench's per-packet stats and sampled clock vs a bare program, in "
			       "--repeat alternating pairs of --loops frames", OPT_OVERHEAD },
	{ NULL },
};

static void bench_init(void *c)
{
	struct bench_cfg *cfg = c;

	cfg->repeat = 5;
	cfg->batch = 64;
	cfg->cpu = 0;
	for (int i = 0; i < NR_SCENARIOS; i++)
		cfg->want[i] = true;
}

static int parse_scenarios(struct bench_cfg *cfg, const char *arg)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", arg);
	memset(cfg->want, 0, sizeof(cfg->want));
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int id = scenario_by_name(tok);

		if (id < 0) {
			pr_err("unknown scenario '%s' (ring, ring-xcpu, fast, slow)\n", tok);
			return -EINVAL;
		}
		cfg->want[id] = true;
	}
	return 0;
}

static int bench_opt(void *c, int key, const char *arg)
{
	struct bench_cfg *cfg = c;
	uint32_t v;
	int err;

	switch (key) {
	case OPT_SCENARIO:
		return parse_scenarios(cfg, arg);
	case OPT_REPEAT:
		return parse_u32(arg, "--repeat", 1, 1000, &cfg->repeat);
	case OPT_LOOPS:
		return parse_u64(arg, "--loops", 1000, 1000000000, &cfg->loops);
	case OPT_CPU:
		err = parse_u32(arg, "--cpu", 0, nr_possible_cpus() - 1, &v);
		if (!err && !cpu_is_online(v)) {
			pr_err("--cpu %u is offline\n", v);
			err = -EINVAL;
		}
		cfg->cpu = v;
		return err;
	case OPT_BATCH:
		cfg->batch_set = true;
		return parse_u32(arg, "--batch", 1, 256, &cfg->batch);
	case OPT_IFACE:
		cfg->iface = arg;
		return 0;
	case OPT_JSON:
		cfg->json = arg;
		return check_writable(arg, "--json");
	case OPT_QUIET:
		cfg->quiet = true;
		return 0;
	case OPT_OVERHEAD:
		cfg->overhead = true;
		return 0;
	}
	return -EINVAL;
}

static int bench_run(void *c, int argc, char **argv)
{
	struct bench_cfg *cfg = c;

	(void)argc;
	(void)argv;
	if (cfg->iface && bench_check_iface(cfg))
		return EXIT_USAGE;
	if (need_privileges("bench") || need_btf())
		return EXIT_FAIL;
	return cfg->overhead ? bench_overhead(cfg) : bench_main(cfg);
}

const struct cli_cmd cmd_bench = {
	.name = "bench",
	.args = NULL,
	.summary = "cycles per element for the fast, ptr_ring and slow paths, with path proof",
	.description =
		"Measure, in TSC cycles and ns per element, what each page_pool path costs:\n"
		"  ring       live-frames XDP_DROP: alloc from the cache/ring refill, return to\n"
		"             the ptr_ring on the same CPU (bench_page_pool_simple test 02)\n"
		"  ring-xcpu  live frames redirected to a cpumap on another CPU that drops them:\n"
		"             the return crosses CPUs into the origin pool's ring; producer and\n"
		"             consumer CPU cycles are reported separately, and their sum; the\n"
		"             cpumap kthread runs at SCHED_FIFO 1 so other tasks cannot starve it\n"
		"  fast       generic-XDP xdp.frags drop of full-page frames on the per-CPU system\n"
		"             pool: direct recycle into the alloc cache (test 01)\n"
		"  slow       live frames at batch 1, 64 per syscall: page allocator bulk alloc and\n"
		"             release (test 03)\n"
		"Each scenario first runs a proof run with the page_pool observer: it picks the\n"
		"first recipe that puts >= 95 % of its elements on the named path on this kernel\n"
		"and prints the recipe and the counts. Then one discarded warm-up and --repeat\n"
		"timed runs with the observer detached. Cycles are TSC cycles (like time_bench's\n"
		"cycles(tsc)): bpf_ktime_get_ns() sampled per CPU every 1024 elements by the XDP\n"
		"programs, times the calibrated TSC Hz ('slow' uses the kernel's test_run\n"
		"duration). The path figure subtracts what is not the path: per-call fentry\n"
		"timing minus the probe overhead where fentry is allowed, a reference recipe\n"
		"otherwise, or n/a with the reason. With no interface it runs on a private veth\n"
		"pair in namespaces it creates and removes.",
	.examples = "  ppbench bench\n"
		    "  ppbench bench --scenario ring,slow --repeat 10 --json result.json\n"
		    "  ppbench bench --cpu 2 --loops 5000000 --quiet\n",
	.opts = bench_opts,
	.min_args = 0,
	.max_args = 0,
	.cfg_size = sizeof(struct bench_cfg),
	.cfg_init = bench_init,
	.opt = bench_opt,
	.run = bench_run,
};
