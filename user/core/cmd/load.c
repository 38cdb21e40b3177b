// SPDX-License-Identifier: GPL-2.0
/* ppbench load IFACE --action ACTION: the command line; engine/load_run.c attaches. */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "engine/load_run.h"
#include "loader/kfeatures.h"
#include "report/report.h"
#include "sys/cpus.h"
#include "sys/log.h"
#include "sys/nl.h"
#include "sys/util.h"

enum { OPT_ACTION = 1, OPT_REMOTE_ACTION };

#define L(m) CLI_MEMBER(struct load_cfg, m)

static const struct cli_opt load_opts[] = {
	{ "action", 'a', "ACTION",
	  "drop (default), pass, tx, redirect DEV (devmap), cpu N (cpumap)", OPT_ACTION },
	{ "egress-drop", 0, NULL,
	  "redirect: a devmap egress program drops every frame (the frames "
	  "then return to their pool from the devmap)",
	  .kind = CLI_FLAG, L(egress_drop) },
	{ "remote-action", 'r', "ACT",
	  "cpu: what the cpumap program does: drop (default), pass, "
	  "redirect:DEV",
	  OPT_REMOTE_ACTION },
	{ "qsize", 'q', "N", "cpu: cpumap queue size (default 2048)", .kind = CLI_UINT, L(qsize),
	  .min = 1, .max = 16384 },
	{ "skb", 'S', NULL, "generic (SKB-mode) XDP instead of native", .kind = CLI_FLAG, L(skb) },
	{ "frags", 'F', NULL, "multi-buffer programs (xdp.frags), second stage included",
	  .kind = CLI_FLAG, L(frags) },
	CLI_OPT_INTERVAL(struct load_cfg, interval, "report interval (default 1)"),
	CLI_OPT_DURATION(struct load_cfg, duration, "stop after this long (default: until Ctrl-C)"),
	{ "count", 'c', "N", "stop after N packets", .kind = CLI_UINT, L(count), .min = 1,
	  .max = CLI_U64_NOLIMIT },
	CLI_OPT_JSON(struct load_cfg, json,
		     "one JSON object per interval, then a summary, to FILE"),
	{ "multiprog", 'm', NULL,
	  "attach through libxdp's dispatcher (needs bpffs; says when it "
	  "falls back to a single program); a child process removes the "
	  "program if ppbench is killed",
	  .kind = CLI_FLAG, L(multiprog) },
	{ "force", 'f', NULL, "replace an XDP program already attached to IFACE", .kind = CLI_FLAG,
	  L(force) },
	{ "prog-costs", 0, NULL,
	  "at the end, each of our BPF programs' runs and ns per run and per "
	  "packet (the kernel's BPF run-time stats, on while load runs)",
	  .kind = CLI_FLAG, L(prog_costs) },
	{ "bare", 0, NULL,
	  "attach a drop program with no maps and no clock, and no tracepoint "
	  "program (the reference for overhead measurements; reports nothing)",
	  .kind = CLI_FLAG, L(bare) },
	{ "paths", 0, NULL,
	  "the page_pool path mix too: the observer, and the program samples the "
	  "packets' pools (costs per packet: ppbench-load(8), COST)",
	  .kind = CLI_FLAG, L(paths) },
	{ "backend", 'B', NULL,
	  "path mix backend, implies --paths (default auto: fentry where the kernel "
	  "allows it)",
	  .kind = CLI_ENUM, L(backend), .words = backend_words, CLI_MARK(struct load_cfg, paths) },
	{ "per-cpu", 'C', NULL, "path mix per CPU too (JSON), implies --paths", .kind = CLI_FLAG,
	  L(per_cpu), CLI_MARK(struct load_cfg, paths) },
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
			cfg->pending_action = colon ? colon + 1 : NULL;
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

	if (key == OPT_ACTION)
		return parse_action(cfg, arg);
	if (key == OPT_REMOTE_ACTION)
		return parse_remote(cfg, arg);
	return -EINVAL;
}

static int need_ndo_xmit(const char *dev, int ifindex)
{
	uint64_t f = 0;

	if (genl_xdp_features(ifindex, &f) || (f & PPB_XDP_ACT_NDO_XMIT))
		return 0; /* unknown (pre-6.3): let the kernel say it */
	pr_err("%s cannot take redirected XDP frames (no ndo-xmit); for a veth, attach an XDP "
	       "program to its peer or enable GRO there (ethtool -K PEER gro on)\n",
	       dev);
	return -EOPNOTSUPP;
}

static int check_target(struct load_cfg *cfg, const char *arg)
{
	if (cfg->action == PPB_ACT_CPU)
		return parse_online_cpu(arg, "cpu", &cfg->cpu);
	snprintf(cfg->target, sizeof(cfg->target), "%s", arg);
	if (iface_index(arg, "redirect", &cfg->target_ifindex))
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

	if (iface_index(cfg->ifname, "load", &cfg->ifindex))
		return -ENODEV;
	err = genl_xdp_features(cfg->ifindex, &f);
	if (!cfg->skb && !err && !(f & PPB_XDP_ACT_BASIC)) {
		pr_err("%s has no native XDP support; --skb uses generic XDP\n", cfg->ifname);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Cross-option checks, once all arguments are known. */
static int load_check(void *c, int argc, char **argv)
{
	struct load_cfg *cfg = c;
	bool needs = cfg->action >= PPB_ACT_REDIRECT;
	const char *arg = cfg->pending_action ? cfg->pending_action : argc > 1 ? argv[1] : NULL;

	snprintf(cfg->ifname, sizeof(cfg->ifname), "%s", argv[0]);
	if (argc > 1 && (!needs || cfg->pending_action)) {
		pr_err("unexpected argument '%s'\n", argv[1]);
		return EXIT_USAGE;
	}
	if (needs && (!arg || !*arg)) {
		pr_err("--action %s needs %s\n", cfg->action == PPB_ACT_CPU ? "cpu" : "redirect",
		       cfg->action == PPB_ACT_CPU ? "a CPU number" : "a device");
		return EXIT_USAGE;
	}
	if (cfg->egress_drop && cfg->action != PPB_ACT_REDIRECT) {
		pr_err("--egress-drop needs --action redirect\n");
		return EXIT_USAGE;
	}
	if (check_iface(cfg) || (needs && check_target(cfg, arg)))
		return EXIT_USAGE;
	if (cfg->remote_action == XDP_REDIRECT &&
	    (iface_index(cfg->remote_dev, "--remote-action redirect", &cfg->remote_ifindex) ||
	     need_ndo_xmit(cfg->remote_dev, cfg->remote_ifindex)))
		return EXIT_USAGE;
	return EXIT_OK;
}

static int load_run(void *c, int argc, char **argv)
{
	struct load_cfg *cfg = c;
	struct load_view v = { .ifname = cfg->ifname,
			       .ifindex = cfg->ifindex,
			       .cpumap = cfg->action == PPB_ACT_CPU,
			       .per_cpu = cfg->per_cpu };
	const struct load_sink sink = { &v, load_report_libxdp, load_report_banner,
					load_report_interval, load_report_prog_costs };
	int ret;

	(void)argc;
	(void)argv;
	if (report_json_open(&v.j, cfg->json))
		return EXIT_FAIL;
	ret = load_main(cfg, &sink);
	if (report_json_close(&v.j))
		ret = EXIT_FAIL;
	return ret;
}

const struct cli_cmd cmd_load = {
	.name = "load",
	.args = "IFACE [DEV|N]",
	.summary = "attach an XDP action to an interface: per-CPU rates, cycles; --paths: path mix",
	.description =
		"Attach an XDP program that drops, passes, transmits back (tx), redirects to DEV\n"
		"through a devmap, or redirects to CPU N through a cpumap (whose program then\n"
		"drops, passes or redirects) every packet IFACE receives, and report per\n"
		"interval and CPU: packets/s, Mbit/s, cycles per packet, errors and redirect\n"
		"failures (xdp tracepoints). Cycles per packet are TSC cycles of the CPU's NAPI\n"
		"polls, from the poll's first XDP run to its end, sampled in one poll of four;\n"
		"for cpumap, the remote CPU's kthread batches likewise. --paths adds which\n"
		"page_pool path the packets' pages took: allocations from the cache, ring\n"
		"refills, the page allocator; returns to the cache, the ring, the page allocator\n"
		"(the page_pool observer; the program samples pool state every half ring, 64 to\n"
		"1024 packets), at a cost per packet (ppbench-load(8), COST).\n"
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
	.check = load_check,
	.needs = PPB_NEED_ROOT | PPB_NEED_BTF | PPB_NEED_KCONFIG,
	.run = load_run,
};
