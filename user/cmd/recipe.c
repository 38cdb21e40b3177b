// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench recipe NAME: run one recipe on the private veth pair with the
 * observer on and print the exact path counts per pool kind and CPU. The
 * tests (and the kernel matrix, which compares the fentry and tracepoint
 * backends) are built on it; bench uses the same recipes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "engine/recipe.h"
#include "loader/kfeatures.h"
#include "loader/observer.h"
#include "model/counts.h"
#include "out/report.h"
#include "sys/cpus.h"
#include "sys/env.h"
#include "sys/log.h"
#include "sys/util.h"

struct recipe_cfg {
	struct recipe_params p;
	bool size_set, remote_set;
	int backend; /* 0 auto, 1 fentry, 2 tracepoint */
	const char *json;
	bool kv;
};

enum { OPT_BATCH = 1, OPT_REPEAT, OPT_RUNS, OPT_SIZE, OPT_CPU, OPT_REMOTE, OPT_QSIZE, OPT_BACKEND,
       OPT_JSON, OPT_KV };

static const struct cli_opt recipe_opts[] = {
	{ "batch", 'b', "N", "live-frames batch size, 1..256 (default 64)", OPT_BATCH },
	{ "repeat", 'r', "N", "frames per BPF_PROG_RUN, or packets (socket recipes) (default 4096)",
	  OPT_REPEAT },
	{ "runs", 'n', "N", "BPF_PROG_RUN calls (live recipes, default 1)", OPT_RUNS },
	{ "size", 's', "BYTES", "L2 frame size, 60..3408 (default 64; socket recipes 1500)",
	  OPT_SIZE },
	{ "cpu", 'c', "N", "CPU to run on (default 0)", OPT_CPU },
	{ "remote-cpu", 'R', "N", "xcpu: CPU of the cpumap (default: the next CPU)", OPT_REMOTE },
	{ "qsize", 'q', "N", "xcpu: cpumap queue size (default 2048)", OPT_QSIZE },
	{ "backend", 'B', "auto|fentry|tracepoint", "accounting backend (default auto)",
	  OPT_BACKEND },
	{ "json", 'j', "FILE", "write the counts as JSON to FILE ('-': stdout only)", OPT_JSON },
	{ "kv", 0, NULL, "print totals as KIND.FIELD=VALUE lines (for shell scripts)", OPT_KV },
	{ NULL },
};

static void recipe_init(void *c)
{
	struct recipe_cfg *cfg = c;

	cfg->p = (struct recipe_params){ .batch = 64, .repeat = 4096, .runs = 1, .size = 64,
					 .qsize = 2048 };
}

static int cpu_arg(const char *arg, const char *what, int *out)
{
	uint32_t v;
	int err = parse_u32(arg, what, 0, nr_possible_cpus() - 1, &v);

	if (err)
		return err;
	if (!cpu_is_online(v)) {
		pr_err("%s %u is offline\n", what, v);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int recipe_opt(void *c, int key, const char *arg)
{
	struct recipe_cfg *cfg = c;

	switch (key) {
	case OPT_BATCH:
		return parse_u32(arg, "--batch", 1, 256, &cfg->p.batch);
	case OPT_REPEAT:
		return parse_u32(arg, "--repeat", 1, 1u << 30, &cfg->p.repeat);
	case OPT_RUNS:
		return parse_u32(arg, "--runs", 1, 100000, &cfg->p.runs);
	case OPT_SIZE:
		cfg->size_set = true;
		return parse_u32(arg, "--size", 60, 3408, &cfg->p.size);
	case OPT_CPU:
		return cpu_arg(arg, "--cpu", &cfg->p.cpu);
	case OPT_REMOTE:
		cfg->remote_set = true;
		return cpu_arg(arg, "--remote-cpu", &cfg->p.remote_cpu);
	case OPT_QSIZE:
		return parse_u32(arg, "--qsize", 1, 16384, &cfg->p.qsize);
	case OPT_BACKEND:
		if (!strcmp(arg, "auto") || !strcmp(arg, "fentry") || !strcmp(arg, "tracepoint")) {
			cfg->backend = arg[0] == 'a' ? 0 : arg[0] == 'f' ? 1 : 2;
			return 0;
		}
		pr_err("--backend '%s' must be auto, fentry or tracepoint\n", arg);
		return -EINVAL;
	case OPT_JSON:
		cfg->json = arg;
		return check_writable(arg, "--json");
	case OPT_KV:
		cfg->kv = true;
		return 0;
	}
	return -EINVAL;
}

static const char *cnt(uint64_t v, bool known, char *buf)
{
	if (!known)
		return "n/a";
	snprintf(buf, 24, "%lld", (long long)v);
	return buf;
}

static void print_kind(const char *name, const struct kind_counts *k, int nr_cpus, unsigned known)
{
	char b[5][24];

	printf("%s pools: %d\n", name, k->pools);
	for (int c = -1; c < nr_cpus; c++) {
		const struct ppb_pool_counts *x = c < 0 ? &k->total : &k->percpu[c];

		if (c >= 0 && counts_zero(x))
			continue;
		printf("  %-6s alloc cache %s refill %s slow %llu (%llu pages) | ret cache %s "
		       "ring %s release %llu (teardown %llu) | elems %llu\n",
		       c < 0 ? "total" : "", cnt(x->alloc_cache, known & KNOWN_CACHE, b[0]),
		       cnt(x->alloc_refill, known & KNOWN_CACHE, b[1]),
		       (unsigned long long)x->alloc_slow, (unsigned long long)x->slow_pages,
		       cnt(x->ret_cache, known & KNOWN_CACHE, b[2]),
		       cnt(x->ret_ring, known & KNOWN_RING, b[3]), (unsigned long long)x->ret_release,
		       (unsigned long long)x->rel_teardown, (unsigned long long)x->elems);
		if (c < 0)
			printf("  per CPU:\n");
		else
			printf("    ^ cpu %d\n", c);
	}
}

static void kv_field(const char *kind, const char *f, uint64_t v, bool known)
{
	if (known)
		printf("%s.%s=%llu\n", kind, f, (unsigned long long)v);
	else
		printf("%s.%s=null\n", kind, f);
}

static void print_kv(const char *kind, const struct kind_counts *k, unsigned known)
{
	const struct ppb_pool_counts *x = &k->total;

	printf("%s.pools=%d\n", kind, k->pools);
	kv_field(kind, "alloc.cache", x->alloc_cache, known & KNOWN_CACHE);
	kv_field(kind, "alloc.refill", x->alloc_refill, known & KNOWN_CACHE);
	kv_field(kind, "alloc.slow", x->alloc_slow, true);
	kv_field(kind, "alloc.slow_pages", x->slow_pages, true);
	kv_field(kind, "ret.cache", x->ret_cache, known & KNOWN_CACHE);
	kv_field(kind, "ret.ring", x->ret_ring, known & KNOWN_RING);
	kv_field(kind, "ret.release", x->ret_release, true);
	kv_field(kind, "ret.unclassified", x->unclassified, true);
	kv_field(kind, "release.refcnt", x->rel_refcnt, true);
	kv_field(kind, "release.teardown", x->rel_teardown, true);
	kv_field(kind, "elems", x->elems, true);
}

static void json_kind(struct json *j, const char *name, const struct kind_counts *k, int nr_cpus,
		      unsigned known, enum obs_backend b)
{
	struct ppb_pool_info fl = { .flags = k->flags };
	char flags[128];

	pool_flags_str(&fl, b, flags, sizeof(flags));
	json_obj_begin(j, NULL);
	json_str(j, "kind", name);
	json_u64(j, "pools", k->pools);
	json_str(j, "flags", flags);
	json_path(j, "path", &k->total, known);
	json_arr_begin(j, "per_cpu");
	for (int c = 0; c < nr_cpus; c++) {
		if (counts_zero(&k->percpu[c]))
			continue;
		json_obj_begin(j, NULL);
		json_u64(j, "cpu", c);
		json_path(j, "path", &k->percpu[c], known);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static int report(const struct recipe_cfg *cfg, int id, struct observer *obs,
		  const struct recipe_result *res)
{
	int nr = res->counts.nr_cpus;
	struct json *j = NULL;

	if (cfg->json && !(j = json_open(cfg->json, false)))
		return EXIT_FAIL;
	bool text = !cfg->kv && (!cfg->json || strcmp(cfg->json, "-"));

	if (text)
		printf("recipe %s: %s; backend %s; %llu elements\n", recipes[id].name,
		       recipes[id].text, obs_backend_name(obs), (unsigned long long)res->elems);
	if (cfg->kv)
		printf("backend=%s\nelems=%llu\npackets.action=%llu\npackets.second=%llu\n",
		       obs_backend_name(obs), (unsigned long long)res->elems,
		       (unsigned long long)res->roles[PPB_ROLE_ACTION].total.packets,
		       (unsigned long long)res->roles[PPB_ROLE_SECOND].total.packets);
	if (j) {
		json_obj_begin(j, NULL);
		json_str(j, "recipe", recipes[id].name);
		json_str(j, "backend", obs_backend_name(obs));
		json_u64(j, "elems", res->elems);
		json_obj_begin(j, "packets");
		json_u64(j, "action", res->roles[PPB_ROLE_ACTION].total.packets);
		json_u64(j, "gen", res->roles[PPB_ROLE_GEN].total.packets);
		json_u64(j, "second", res->roles[PPB_ROLE_SECOND].total.packets);
		json_u64(j, "cpumap_drops", res->cpumap_drops);
		json_obj_end(j);
		json_arr_begin(j, "pools");
	}
	for (int kind = PPB_POOL_UNKNOWN; kind <= PPB_POOL_NIC; kind++) {
		struct kind_counts k;
		unsigned known;

		if (recipe_counts_by_kind(res, kind, nr, &k))
			return EXIT_FAIL;
		known = path_known(obs_backend(obs) == OBS_FENTRY, k.flags);
		if (k.pools && text)
			print_kind(pool_kind_name(kind), &k, nr, known);
		if (k.pools && cfg->kv)
			print_kv(pool_kind_name(kind), &k, known);
		if (k.pools && j)
			json_kind(j, pool_kind_name(kind), &k, nr, known, obs_backend(obs));
		free(k.percpu);
	}
	if (j) {
		json_arr_end(j);
		json_obj_end(j);
		json_flush_line(j);
		if (json_close(j))
			return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int recipe_cmd(void *c, int argc, char **argv)
{
	struct recipe_cfg *cfg = c;
	struct obs_opts oo = { .no_fentry = cfg->backend == 2 };
	struct recipe_ctx *rc = NULL;
	struct recipe_result res = {};
	struct observer *obs = NULL;
	struct ppb_env env;
	int id = recipe_by_name(argv[0]), ret = EXIT_FAIL;

	(void)argc;
	if (id < 0) {
		pr_err("unknown recipe '%s' (lf-drop, lf-veth, veth-tx, generic-frags, xcpu)\n",
		       argv[0]);
		return EXIT_USAGE;
	}
	if (!cfg->size_set && !recipes[id].live)
		cfg->p.size = 1500;
	if (!cfg->remote_set)
		cfg->p.remote_cpu = (cfg->p.cpu + 1) % nr_online_cpus();
	if (need_privileges("recipe") || need_btf())
		return EXIT_FAIL;
	if (obs_open(&obs, &oo))
		return EXIT_FAIL;
	if (cfg->backend == 1 && obs_backend(obs) != OBS_FENTRY) {
		pr_err("fentry backend unavailable: %s\n", obs_fentry_reason(obs));
		goto out;
	}
	if (env_create(&env))
		goto out;
	if (!recipe_setup(&rc, id, &env, obs, &cfg->p) && !recipe_run(rc, true, &res))
		ret = report(cfg, id, obs, &res);
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
		"  xcpu           live frames redirected to a cpumap on another CPU, dropped there\n"
		"Counts are exact; fields the tracepoint backend cannot know are n/a (null).",
	.examples = "  ppbench recipe lf-drop --batch 64 --repeat 100000\n"
		    "  ppbench recipe lf-drop --batch 1 --repeat 64 --runs 10 --json -\n"
		    "  ppbench recipe veth-tx --repeat 1000 --size 1500\n",
	.opts = recipe_opts,
	.min_args = 1,
	.max_args = 1,
	.cfg_size = sizeof(struct recipe_cfg),
	.cfg_init = recipe_init,
	.opt = recipe_opt,
	.run = recipe_cmd,
};
