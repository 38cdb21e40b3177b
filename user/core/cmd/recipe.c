// SPDX-License-Identifier: GPL-2.0
/* ppbench recipe NAME: one recipe's exact path counts (the tests are built on it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "engine/recipe_run.h"
#include "instr/guest_profile.h"
#include "loader/kfeatures.h"
#include "loader/observer.h"
#include "model/counts.h"
#include "model/pkt.h"
#include "report/report.h"
#include "sys/cpus.h"
#include "sys/vethenv.h"
#include "sys/log.h"
#include "sys/runlock.h"
#include "sys/util.h"

struct recipe_cfg {
	struct recipe_params p;
	bool size_set, remote_set;
	int backend; /* enum obs_want */
	const char *json;
	bool kv;
	bool wait;
};

#define R(m) CLI_MEMBER(struct recipe_cfg, m)

static const struct cli_opt recipe_opts[] = {
	{ "batch", 'b', "N", "live-frames batch size (default 64)", .kind = CLI_UINT, R(p.batch),
	  .min = 1, .max = 256 },
	{ "repeat", 'r', "N", "frames per BPF_PROG_RUN, or packets (socket recipes) (default 4096)",
	  .kind = CLI_UINT, R(p.repeat), .min = 1, .max = 1u << 30 },
	{ "runs", 'n', "N", "BPF_PROG_RUN calls (live recipes, default 1)", .kind = CLI_UINT,
	  R(p.runs), .min = 1, .max = 100000 },
	{ "size", 's', "BYTES",
	  "L2 frame size, up to a live frame's page less 688 bytes (3408 on 4K pages) (default "
	  "64; socket recipes 1500; lf-fastpass 1500 on 4K pages, half a page on larger ones)",
	  .kind = CLI_UINT, R(p.size), .min = 60, .max = PKT_BUF_SIZE,
	  CLI_MARK(struct recipe_cfg, size_set) },
	{ "cpu", 'c', "N", "CPU to run on (default 0)", .kind = CLI_CPU, R(p.cpu) },
	{ "remote-cpu", 'R', "N", "xcpu: CPU of the cpumap (default: the next CPU)",
	  .kind = CLI_CPU, R(p.remote_cpu), CLI_MARK(struct recipe_cfg, remote_set) },
	{ "qsize", 'q', "N", "xcpu: cpumap queue size (default 2048)", .kind = CLI_UINT, R(p.qsize),
	  .min = 1, .max = 16384 },
	CLI_OPT_BACKEND(struct recipe_cfg, backend, backend_words_fentry,
			"accounting backend (default auto)"),
	CLI_OPT_JSON(struct recipe_cfg, json,
		     "write the counts as JSON to FILE ('-': stdout only)"),
	CLI_OPT_WAIT(struct recipe_cfg, wait),
	{ "kv", 0, NULL, "print totals as KIND.FIELD=VALUE lines (for shell scripts)",
	  .kind = CLI_FLAG, R(kv) },
	{ NULL },
};

static void recipe_init(void *c)
{
	struct recipe_cfg *cfg = c;

	cfg->p = (struct recipe_params){
		.batch = 64, .repeat = 4096, .runs = 1, .size = 64, .qsize = 2048
	};
}

/* Counts per pool kind; a one-line error and EXIT_FAIL if memory runs out. */
static int report(const struct recipe_cfg *cfg, int id, struct observer *obs,
		  const struct recipe_result *res)
{
	struct recipe_facts r = {
		.name = recipes[id].name,
		.text = recipes[id].text,
		.backend = obs_backend(obs),
		.backend_name = obs_backend_name(obs),
		.elems = res->elems,
		.untracked_pools = res->counts.untracked_pools,
		.untracked_events = res->counts.untracked_events,
		.capacity = res->counts.capacity,
		.packets_action = res->roles[PPB_ROLE_ACTION].total.packets,
		.packets_gen = res->roles[PPB_ROLE_GEN].total.packets,
		.packets_second = res->roles[PPB_ROLE_SECOND].total.packets,
		.cpumap_drops = res->cpumap_drops,
		.nr_cpus = res->counts.nr_cpus,
		.probe_ns = NAN,
	};
	int err = 0;

	/* the JSON's timing subtracts it, as bench does (measured after the run) */
	if (cfg->json && r.backend == OBS_FENTRY && !obs_start(obs)) {
		if (obs_probe_overhead(obs, &r.probe_ns))
			r.probe_ns = NAN;
		obs_stop(obs);
	}
	for (int kind = 0; kind < RECIPE_NR_KINDS && !err; kind++)
		err = recipe_counts_by_kind(res, kind, r.nr_cpus, &r.kinds[kind]);
	if (!err)
		err = recipe_report(&r, cfg->json, cfg->kv);
	for (int kind = 0; kind < RECIPE_NR_KINDS; kind++)
		free(r.kinds[kind].percpu);
	return err ? EXIT_FAIL : EXIT_OK;
}

/* The recipe, and the defaults that depend on it. */
static int recipe_check(void *c, int argc, char **argv)
{
	struct recipe_cfg *cfg = c;
	int id = recipe_by_name(argv[0]);

	(void)argc;
	if (id < 0) {
		pr_err("unknown recipe '%s' (lf-drop, lf-veth, veth-tx, generic-frags, "
		       "lf-fastpass, lf-fastpass-twin, xcpu)\n",
		       argv[0]);
		return EXIT_USAGE;
	}
	/* lf-fastpass: smaller copies would be page fragments */
	if (!cfg->size_set && (id == RCP_LF_FASTPASS || id == RCP_LF_FASTPASS_TWIN))
		cfg->p.size = pkt_page_copy_size(sys_page_size());
	else if (!cfg->size_set && !recipes[id].live)
		cfg->p.size = 1500;
	if (cfg->p.size > pkt_live_max(sys_page_size())) {
		pr_err("--size %u is out of range (60..%u on this kernel's %ld-byte pages)\n",
		       cfg->p.size, pkt_live_max(sys_page_size()), sys_page_size());
		return EXIT_USAGE;
	}
	if (!cfg->remote_set)
		cfg->p.remote_cpu = (cfg->p.cpu + 1) % nr_online_cpus();
	return EXIT_OK;
}

static int recipe_cmd(void *c, int argc, char **argv)
{
	struct recipe_cfg *cfg = c;
	struct obs_opts oo = { .no_fentry = cfg->backend == OBS_WANT_TRACEPOINT };
	struct recipe_ctx *rc = NULL;
	struct recipe_result res = {};
	struct observer *obs = NULL;
	struct ppb_env env;
	int id = recipe_by_name(argv[0]), ret = EXIT_FAIL;

	(void)argc;
	if (run_lock_take("recipe", cfg->wait))
		return EXIT_FAIL;
	guest_prof_arm();
	if (obs_open(&obs, &oo))
		return EXIT_FAIL;
	if (cfg->backend == OBS_WANT_FENTRY && obs_backend(obs) != OBS_FENTRY) {
		pr_err("fentry backend unavailable: %s\n", obs_fentry_reason(obs));
		goto out;
	}
	if (env_create(&env))
		goto out;
	if (!recipe_setup(&rc, id, &env, obs, &cfg->p)) {
		/* vm --profile: the live runs are the windows of a tag of their own */
		struct guest_prof prof;

		guest_prof_add(&prof,
			       recipes[id].live ? guest_prof_tag("recipe", argv[0], NULL) : 0);
		guest_prof_bpf_syms(prof.tag);
		if (!recipe_run(rc, true, &res))
			ret = report(cfg, id, obs, &res);
		instr_remove(&prof.in);
	}
	recipe_result_free(&res);
	recipe_teardown(rc);
	env_destroy(&env);
out:
	obs_close(obs);
	return ret;
}

const struct cli_cmd cmd_recipe = {
	.name = "recipe",
	.args = "NAME",
	.summary = "run one page_pool recipe with path accounting and print its counts",
	.description =
		"Run one recipe on the private veth pair with the page_pool observer on, and\n"
		"print per pool kind and CPU how many allocations came from the cache, a ring\n"
		"refill or the page allocator, and how many returns went to the cache, the ring\n"
		"or the page allocator (kernel page_pool stats semantics). Recipes:\n"
		"  lf-drop        live-frames BPF_PROG_RUN, XDP_DROP (test-run pool)\n"
		"  lf-veth        live frames redirected out of veth a, XDP_DROP on peer b\n"
		"  veth-tx        UDP a->b, native XDP_TX on veth b (rq pool, skb path)\n"
		"  generic-frags  UDP a->b, generic-XDP xdp.frags XDP_DROP on b (system pool)\n"
		"  lf-fastpass    live frames PASSed 32 B below their headroom to generic-XDP\n"
		"                 xdp.frags XDP_DROP on a private lo: copied into the system\n"
		"                 pool, recycled directly (1500-byte frames: smaller copies\n"
		"                 are page fragments)\n"
		"  lf-fastpass-twin  the same with the headroom kept: no copy, the frame's page\n"
		"                 returns to the test-run pool's ring\n"
		"  xcpu           live frames redirected to a cpumap on another CPU, dropped "
		"there\n"
		"Counts are exact; fields the tracepoint backend cannot know are n/a (null).",
	.examples = "  ppbench recipe lf-drop --batch 64 --repeat 100000\n"
		    "  ppbench recipe lf-drop --batch 1 --repeat 64 --runs 10 --json -\n"
		    "  ppbench recipe veth-tx --repeat 1000 --size 1500\n",
	.opts = recipe_opts,
	.min_args = 1,
	.max_args = 1,
	.cfg_size = sizeof(struct recipe_cfg),
	.cfg_init = recipe_init,
	.check = recipe_check,
	.needs = PPB_NEED_ROOT | PPB_NEED_BTF | PPB_NEED_KCONFIG,
	.run = recipe_cmd,
};
