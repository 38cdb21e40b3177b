// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench load IFACE --action ACTION: attach an XDP action program to an
 * interface and report, per interval and CPU, packets/s, sampled cycles per
 * packet, errors, and the page_pool path mix of the pages the packets used.
 * This file is the command line; engine/load.c attaches and reports.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "engine/load.h"
#include "loader/kfeatures.h"
#include "sys/cpus.h"
#include "sys/log.h"
#include "sys/nl.h"
#include "sys/util.h"

enum {
	OPT_ACTION = 1,
	OPT_EGRESS_DROP,
	OPT_REMOTE_ACTION,
	OPT_QSIZE,
	OPT_SKB,
	OPT_FRAGS,
	OPT_INTERVAL,
	OPT_DURATION,
	OPT_COUNT,
	OPT_JSON,
	OPT_MULTIPROG,
	OPT_FORCE,
	OPT_BARE,
	OPT_BACKEND,
	OPT_PER_CPU,
	OPT_NO_PATHS,
};

static const struct cli_opt load_opts[] = {
	{ "action", 'a', "ACTION", "drop (default), pass, tx, redirect DEV (devmap), cpu N (cpumap)",
	  OPT_ACTION },
	{ "egress-drop", 0, NULL, "redirect: a devmap egress program drops every frame (the frames "
				  "then return to their pool from the devmap)", OPT_EGRESS_DROP },
	{ "remote-action", 'r', "ACT", "cpu: what the cpumap program does: drop (default), pass, "
				       "redirect:DEV", OPT_REMOTE_ACTION },
	{ "qsize", 'q', "N", "cpu: cpumap queue size, 1..16384 (default 2048)", OPT_QSIZE },
	{ "skb", 'S', NULL, "generic (SKB-mode) XDP instead of native", OPT_SKB },
	{ "frags", 'F', NULL, "multi-buffer programs (xdp.frags), second stage included", OPT_FRAGS },
	{ "interval", 'i', "SECONDS", "report interval, 0.1..3600 (default 1)", OPT_INTERVAL },
	{ "duration", 'd', "SECONDS", "stop after this long (default: until Ctrl-C)", OPT_DURATION },
	{ "count", 'c', "N", "stop after N packets", OPT_COUNT },
	{ "json", 'j', "FILE", "one JSON object per interval, then a summary, to FILE", OPT_JSON },
	{ "multiprog", 'm', NULL, "attach through libxdp's dispatcher (needs bpffs; says when it "
				  "falls back to a single program); a child process removes the "
				  "program if ppbench is killed", OPT_MULTIPROG },
	{ "force", 'f', NULL, "replace an XDP program already attached to IFACE", OPT_FORCE },
	{ "bare", 0, NULL, "attach a drop program with no maps and no clock (the reference for "
			   "overhead measurements; reports nothing)", OPT_BARE },
	{ "backend", 'B', "auto|tracepoint", "page_pool accounting backend (default auto: fentry "
					     "where the kernel allows it)", OPT_BACKEND },
	{ "per-cpu", 'C', NULL, "path mix per CPU too (JSON)", OPT_PER_CPU },
	{ "no-paths", 'P', NULL, "no page_pool observer: packet rates and cycles only (the "
				 "cheapest instrumented run)", OPT_NO_PATHS },
	{ NULL },
};

static void load_init(void *c)
{
	struct load_cfg *cfg = c;

	cfg->action = PPB_ACT_DROP;
	cfg->remote_action = XDP_DROP;
	cfg->qsize = 2048;
	cfg->interval = 1;
}

static int parse_remote(struct load_cfg *cfg, const char *arg)
{
	if (!strcmp(arg, "drop"))
		cfg->remote_action = XDP_DROP;
	else if (!strcmp(arg, "pass"))
		cfg->remote_action = XDP_PASS;
	else if (!strncmp(arg, "redirect:", 9) && arg[9]) {
		cfg->remote_action = XDP_REDIRECT;
		snprintf(cfg->remote_dev, sizeof(cfg->remote_dev), "%s", arg + 9);
	} else {
		pr_err("--remote-action '%s' must be drop, pass or redirect:DEV\n", arg);
		return -EINVAL;
	}
	return 0;
}

/* "redirect DEV" / "cpu N" take their argument from the next word, or after ':'. */
static int parse_action(struct load_cfg *cfg, const char *arg)
{
	static const char *const names[] = { "drop", "pass", "tx", "redirect", "cpu" };
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);

	for (int i = 0; i < 5; i++) {
		if (strlen(names[i]) != len || strncmp(arg, names[i], len))
			continue;
		cfg->action = i;
		if (i >= PPB_ACT_REDIRECT)
			cfg->pending_action = colon ? strdup(colon + 1) : NULL;
		if (i < PPB_ACT_REDIRECT && colon)
			break;
		return 0;
	}
	pr_err("--action '%s' must be drop, pass, tx, redirect DEV or cpu N\n", arg);
	return -EINVAL;
}

static int load_opt(void *c, int key, const char *arg)
{
	struct load_cfg *cfg = c;

	switch (key) {
	case OPT_ACTION:
		return parse_action(cfg, arg);
	case OPT_EGRESS_DROP:
		cfg->egress_drop = true;
		return 0;
	case OPT_REMOTE_ACTION:
		return parse_remote(cfg, arg);
	case OPT_QSIZE:
		return parse_u32(arg, "--qsize", 1, 16384, &cfg->qsize);
	case OPT_SKB:
		cfg->skb = true;
		return 0;
	case OPT_FRAGS:
		cfg->frags = true;
		return 0;
	case OPT_INTERVAL:
		return parse_seconds(arg, "--interval", 0.1, 3600, &cfg->interval);
	case OPT_DURATION:
		return parse_seconds(arg, "--duration", 0.1, 31536000, &cfg->duration);
	case OPT_COUNT:
		return parse_u64(arg, "--count", 1, UINT64_MAX / 2, &cfg->count);
	case OPT_JSON:
		cfg->json = arg;
		return check_writable(arg, "--json");
	case OPT_MULTIPROG:
		cfg->multiprog = true;
		return 0;
	case OPT_FORCE:
		cfg->force = true;
		return 0;
	case OPT_BARE:
		cfg->bare = true;
		return 0;
	case OPT_BACKEND:
		if (strcmp(arg, "auto") && strcmp(arg, "tracepoint")) {
			pr_err("--backend '%s' must be auto or tracepoint\n", arg);
			return -EINVAL;
		}
		cfg->no_fentry = arg[0] == 't';
		return 0;
	case OPT_PER_CPU:
		cfg->per_cpu = true;
		return 0;
	case OPT_NO_PATHS:
		cfg->no_paths = true;
		return 0;
	}
	return -EINVAL;
}

static int need_ndo_xmit(const char *dev, int ifindex)
{
	uint64_t f = 0;

	if (genl_xdp_features(ifindex, &f) || (f & PPB_XDP_ACT_NDO_XMIT))
		return 0; /* unknown (pre-6.3): let the kernel say it */
	pr_err("%s cannot take redirected XDP frames (no ndo-xmit); for a veth, attach an XDP "
	       "program to its peer or enable GRO there (ethtool -K PEER gro on)\n", dev);
	return -EOPNOTSUPP;
}

static int resolve_dev(const char *name, const char *what, int *ifindex)
{
	*ifindex = if_nametoindex(name);
	if (!*ifindex) {
		pr_err("%s: interface '%s' does not exist\n", what, name);
		return -ENODEV;
	}
	return 0;
}

static int check_target(struct load_cfg *cfg, const char *arg)
{
	uint32_t cpu;

	if (cfg->action == PPB_ACT_CPU) {
		if (parse_u32(arg, "cpu", 0, nr_possible_cpus() - 1, &cpu))
			return -EINVAL;
		if (!cpu_is_online(cpu)) {
			pr_err("cpu %u is offline\n", cpu);
			return -EINVAL;
		}
		cfg->cpu = cpu;
		return 0;
	}
	snprintf(cfg->target, sizeof(cfg->target), "%s", arg);
	if (resolve_dev(arg, "redirect", &cfg->target_ifindex))
		return -ENODEV;
	if (cfg->target_ifindex == cfg->ifindex) {
		pr_err("redirect: %s is the interface itself (use --action tx)\n", arg);
		return -EINVAL;
	}
	return need_ndo_xmit(arg, cfg->target_ifindex);
}

static int check_iface(struct load_cfg *cfg)
{
	uint64_t f = 0;
	int err;

	if (resolve_dev(cfg->ifname, "load", &cfg->ifindex))
		return -ENODEV;
	err = genl_xdp_features(cfg->ifindex, &f);
	if (!cfg->skb && !err && !(f & PPB_XDP_ACT_BASIC)) {
		pr_err("%s has no native XDP support; --skb uses generic XDP\n", cfg->ifname);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Cross-option checks, once all arguments are known. */
static int check_args(struct load_cfg *cfg, int argc, char **argv)
{
	bool needs = cfg->action >= PPB_ACT_REDIRECT;
	const char *arg = cfg->pending_action ? cfg->pending_action : argc > 1 ? argv[1] : NULL;

	snprintf(cfg->ifname, sizeof(cfg->ifname), "%s", argv[0]);
	if (argc > 1 && (!needs || cfg->pending_action)) {
		pr_err("unexpected argument '%s'\n", argv[1]);
		return -EINVAL;
	}
	if (needs && (!arg || !*arg)) {
		pr_err("--action %s needs %s\n", cfg->action == PPB_ACT_CPU ? "cpu" : "redirect",
		       cfg->action == PPB_ACT_CPU ? "a CPU number" : "a device");
		return -EINVAL;
	}
	if (cfg->egress_drop && cfg->action != PPB_ACT_REDIRECT) {
		pr_err("--egress-drop needs --action redirect\n");
		return -EINVAL;
	}
	if (check_iface(cfg) || (needs && check_target(cfg, arg)))
		return -EINVAL;
	if (cfg->remote_action == XDP_REDIRECT) {
		if (resolve_dev(cfg->remote_dev, "--remote-action redirect", &cfg->remote_ifindex))
			return -ENODEV;
		return need_ndo_xmit(cfg->remote_dev, cfg->remote_ifindex);
	}
	return 0;
}

static int load_run(void *c, int argc, char **argv)
{
	struct load_cfg *cfg = c;
	int ret;

	if (check_args(cfg, argc, argv)) {
		free(cfg->pending_action);
		return EXIT_USAGE;
	}
	free(cfg->pending_action);
	if (need_privileges("load") || need_btf())
		return EXIT_FAIL;
	ret = load_main(cfg);
	return ret;
}

const struct cli_cmd cmd_load = {
	.name = "load",
	.args = "IFACE [DEV|N]",
	.summary = "attach an XDP action to an interface: per-CPU rates, cycles, page_pool path mix",
	.description =
		"Attach an XDP program that drops, passes, transmits back (tx), redirects to DEV\n"
		"through a devmap, or redirects to CPU N through a cpumap (whose program then\n"
		"drops, passes or redirects) every packet IFACE receives, and report per\n"
		"interval and CPU: packets/s, Mbit/s, cycles per packet, errors and redirect\n"
		"failures (xdp tracepoints), and which page_pool path the packets' pages took:\n"
		"allocations from the cache, ring refills, the page allocator; returns to the\n"
		"cache, the ring, the page allocator (the page_pool observer; the program\n"
		"samples pool state every 64 packets). Cycles per packet are TSC cycles of the\n"
		"CPU's NAPI polls, from the poll's first XDP run to its end, sampled in one poll\n"
		"of four; for cpumap, the remote CPU's kthread batches likewise.\n"
		"The program is attached with a bpf_link: the kernel detaches it when ppbench\n"
		"exits for any reason, even SIGKILL. It refuses to replace an XDP program that\n"
		"is already there unless --force. Native mode unless --skb.",
	.examples = "  ppbench load eth0 --action drop\n"
		    "  ppbench load eth0 --action redirect eth1 --egress-drop --interval 2\n"
		    "  ppbench load eth0 --action cpu 3 --remote-action pass --json load.json\n"
		    "  ppbench load veth1 --action tx --count 100000\n",
	.opts = load_opts,
	.min_args = 1,
	.max_args = 2,
	.cfg_size = sizeof(struct load_cfg),
	.cfg_init = load_init,
	.opt = load_opt,
	.run = load_run,
};
