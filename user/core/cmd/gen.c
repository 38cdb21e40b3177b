// SPDX-License-Identifier: GPL-2.0
/* ppbench gen IFACE: the command line of the live-frames UDP generator (engine/gen_run.c). */
#include <errno.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "engine/gen_run.h"
#include "loader/kfeatures.h"
#include "model/pkt.h"
#include "report/report.h"
#include "sys/log.h"
#include "sys/nl.h"
#include "sys/util.h"

enum { OPT_SRC_MAC = 1, OPT_DST_MAC, OPT_SRC_IP, OPT_DST_IP, OPT_CPUS };

#define G(m) CLI_MEMBER(struct gen_cfg, m)

static const struct cli_opt gen_opts[] = {
	{ "src-mac", 0, "MAC", "source MAC (default: IFACE's)", OPT_SRC_MAC },
	{ "dst-mac", 0, "MAC",
	  "destination MAC (default: the veth peer's, or the neighbour of "
	  "--dst-ip; required on interfaces that are not veth)",
	  OPT_DST_MAC },
	{ "src-ip", 0, "IP", "source IPv4 or IPv6 address (default: IFACE's first)", OPT_SRC_IP },
	{ "dst-ip", 0, "IP", "destination address (default: IFACE's first neighbour)", OPT_DST_IP },
	{ "src-port", 0, "N", "UDP source port (default 9)", .kind = CLI_UINT, G(spec.sport),
	  .min = 1, .max = 65535 },
	{ "dst-port", 0, "N", "UDP destination port (default 9, discard)", .kind = CLI_UINT,
	  G(spec.dport), .min = 1, .max = 65535 },
	{ "size", 's', "BYTES",
	  "frame size without FCS (default: the smallest that fits, 60 for "
	  "IPv4, 62 for IPv6)",
	  .kind = CLI_UINT, G(spec.size), .min = PKT_MIN_SIZE, .max = PKT_MAX_SIZE,
	  CLI_MARK(struct gen_cfg, size_set) },
	{ "count", 'n', "N", "frames to send in all (default: until --duration or Ctrl-C)",
	  .kind = CLI_UINT, G(count), .min = 1, .max = CLI_U64_NOLIMIT },
	CLI_OPT_DURATION(struct gen_cfg, duration, "stop after this long"),
	{ "cpus", 'c', "LIST", "CPUs to send from, one pinned thread each (default: 0)", OPT_CPUS },
	{ "batch", 'b', "N", "live-frames batch size (default 64)", .kind = CLI_UINT, G(batch),
	  .min = 1, .max = 256 },
	CLI_OPT_INTERVAL(struct gen_cfg, interval, "report interval (default 1)"),
	CLI_OPT_JSON(struct gen_cfg, json, "one JSON object per interval, then a summary, to FILE"),
	{ "bare", 0, NULL,
	  "no xdp tracepoints either (overhead reference): frames pushed "
	  "only, what IFACE took and redirect errors are not counted",
	  .kind = CLI_FLAG, G(bare) },
	{ "quiet", 'q', NULL, "print only the summary", .kind = CLI_FLAG, G(quiet) },
	{ NULL },
};

static void gen_init(void *c)
{
	struct gen_cfg *cfg = c;

	cfg->spec.size = 60;
	cfg->spec.sport = cfg->spec.dport = 9;
	cfg->interval = 1;
	cfg->batch = 64;
	cfg->cpus[0] = true;
	cfg->nr_cpus = 1;
}

/* --cpus: a list, each CPU online (the list parser checks that it exists). */
static int parse_cpus(struct gen_cfg *cfg, const char *arg)
{
	int n = parse_cpu_list(arg, "--cpus", gen_possible_cpus(), cfg->cpus);

	cfg->nr_cpus = n;
	for (int i = 0; n > 0 && i < gen_possible_cpus(); i++)
		if (cfg->cpus[i] && !cpu_is_online(i)) {
			pr_err("--cpus: CPU %d is offline\n", i);
			return -EINVAL;
		}
	return n < 0 ? n : 0;
}

/* Addresses and CPU lists: the rules that are gen's alone. */
static int gen_opt(void *c, int key, const char *arg)
{
	struct gen_cfg *cfg = c;
	struct udp_spec *s = &cfg->spec;

	switch (key) {
	case OPT_SRC_MAC:
		cfg->src_mac_set = true;
		return parse_mac(arg, "--src-mac", s->src_mac);
	case OPT_DST_MAC:
		cfg->dst_mac_set = true;
		return parse_mac(arg, "--dst-mac", s->dst_mac);
	case OPT_SRC_IP:
		cfg->src_ip_set = true;
		return parse_ip(arg, "--src-ip", &s->src);
	case OPT_DST_IP:
		cfg->dst_ip_set = true;
		return parse_ip(arg, "--dst-ip", &s->dst);
	case OPT_CPUS:
		return parse_cpus(cfg, arg);
	}
	return -EINVAL;
}

/* The veth peer's MAC, also when the peer lives in another namespace. */
static int peer_mac(struct nl_sock *s, const struct link_info *li, uint8_t mac[6])
{
	struct link_info peer;
	int err;

	if (!li->peer_ifindex)
		return -ENOENT;
	if (li->peer_netnsid >= 0)
		err = rtnl_link_get_nsid(s, li->peer_netnsid, li->peer_ifindex, &peer);
	else
		err = rtnl_link_get(s, NULL, li->peer_ifindex, &peer);
	if (!err)
		memcpy(mac, peer.mac, 6);
	return err;
}

static int default_addrs(struct gen_cfg *cfg, struct nl_sock *s, const struct link_info *li)
{
	struct udp_spec *sp = &cfg->spec;
	int fam = cfg->dst_ip_set ? sp->dst.family : cfg->src_ip_set ? sp->src.family : AF_INET;
	uint8_t mac[6];

	if (!cfg->src_ip_set && rtnl_addr_first(s, cfg->ifindex, fam, &sp->src)) {
		pr_err("%s has no %s address: give --src-ip\n", cfg->ifname,
		       fam == AF_INET ? "IPv4" : "IPv6");
		return -ENOENT;
	}
	if (!cfg->dst_ip_set && rtnl_neigh_first(s, cfg->ifindex, fam, &sp->dst, mac)) {
		pr_err("%s has no %s neighbour: give --dst-ip\n", cfg->ifname,
		       fam == AF_INET ? "IPv4" : "IPv6");
		return -ENOENT;
	}
	if (sp->src.family != sp->dst.family) {
		pr_err("--src-ip and --dst-ip mix IPv4 and IPv6\n");
		return -EINVAL;
	}
	if (!cfg->dst_mac_set && peer_mac(s, li, sp->dst_mac) &&
	    rtnl_neigh_first(s, cfg->ifindex, fam, &sp->dst, sp->dst_mac)) {
		pr_err("no MAC for the destination: give --dst-mac\n");
		return -ENOENT;
	}
	return 0;
}

/* The interface must take XDP frames, and off a veth we only send where told. */
static int check_iface(struct gen_cfg *cfg, const struct link_info *li)
{
	uint64_t f = 0;
	int err = genl_xdp_features(cfg->ifindex, &f);

	if (strcmp(li->kind, "veth") && !cfg->dst_mac_set) {
		pr_err("%s is not a veth: give --dst-mac (gen sends only where it is told)\n",
		       cfg->ifname);
		return -EINVAL;
	}
	if (err) {
		pr_warn("cannot read %s's XDP features (%s): sending anyway\n", cfg->ifname,
			errno_name(err));
		return 0;
	}
	if (!(f & PPB_XDP_ACT_NDO_XMIT)) {
		pr_err("%s cannot take XDP frames (no ndo-xmit)%s\n", cfg->ifname,
		       strcmp(li->kind, "veth") ? ""
						: ": attach an XDP program to its peer or "
						  "enable GRO there (ethtool -K PEER gro on)");
		return -EOPNOTSUPP;
	}
	return 0;
}

static int prepare(struct gen_cfg *cfg, const char *ifname)
{
	struct link_info li;
	struct nl_sock s;
	int err;

	cfg->ifname = ifname;
	if (iface_index(ifname, NULL, &cfg->ifindex))
		return -ENODEV;
	err = nl_open(&s, NETLINK_ROUTE);
	if (err)
		return err;
	err = rtnl_link_get(&s, NULL, cfg->ifindex, &li);
	if (!err && !cfg->src_mac_set)
		memcpy(cfg->spec.src_mac, li.mac, 6);
	err = err ?: check_iface(cfg, &li) ?: default_addrs(cfg, &s, &li);
	nl_close(&s);
	/* The default is the smallest valid frame of the family the addresses chose. */
	if (!err && !cfg->size_set && cfg->spec.size < pkt_hdr_size(cfg->spec.src.family))
		cfg->spec.size = pkt_hdr_size(cfg->spec.src.family);
	if (!err && cfg->spec.size < pkt_hdr_size(cfg->spec.src.family)) {
		pr_err("--size %zu is too small for IPv6/UDP (minimum %zu)\n", cfg->spec.size,
		       pkt_hdr_size(cfg->spec.src.family));
		return -EINVAL;
	}
	return err;
}

/* The interface and the defaults taken from it: usage errors, before the needs. */
static int gen_check(void *c, int argc, char **argv)
{
	int err = prepare(c, argv[0]);

	(void)argc;
	if (err)
		return err == -ENODEV || err == -EINVAL || err == -EOPNOTSUPP ? EXIT_USAGE
									      : EXIT_FAIL;
	return EXIT_OK;
}

static int gen_run(void *c, int argc, char **argv)
{
	struct gen_cfg *cfg = c;
	struct gen_view v = { .ifname = cfg->ifname,
			      .size = cfg->spec.size,
			      .quiet = cfg->quiet,
			      .bare = cfg->bare };
	const struct gen_sink sink = { &v, gen_report_plan, gen_report_interval,
				       gen_report_summary };
	int ret;

	(void)argc;
	(void)argv;
	if (report_json_open(&v.j, cfg->json))
		return EXIT_FAIL;
	ret = gen_main(cfg, &sink);
	if (report_json_close(&v.j))
		ret = EXIT_FAIL;
	return ret;
}

const struct cli_cmd cmd_gen = {
	.name = "gen",
	.args = "IFACE",
	.summary = "live-frames UDP traffic generator (IPv4 or IPv6) on one interface",
	.description =
		"Send UDP frames out of IFACE with live-frames BPF_PROG_RUN: one thread per CPU\n"
		"of --cpus, pinned, each running a program that redirects every frame to IFACE.\n"
		"Frames come from the thread's test-run page_pool, like a driver's RX pages, and\n"
		"carry correct IPv4/UDP or IPv6/UDP checksums. Addresses default to IFACE's own\n"
		"(MAC, first IP) and its neighbour (or veth peer); the family follows the\n"
		"addresses. Before sending, gen checks that IFACE takes XDP frames (netlink\n"
		"NETDEV_XDP_ACT_NDO_XMIT; a veth needs an XDP program or GRO on its peer) and\n"
		"stops with the reason if frames do not leave, rather than report 0 frames/s.\n"
		"It sends only on IFACE; on an interface that is not a veth it needs --dst-mac\n"
		"and prints what it will send first. Per interval: frames/s per CPU, frames the\n"
		"interface took (xdp_devmap_xmit) and redirect errors; a summary at the end.",
	.examples = "  ppbench gen veth0 --count 1000000\n"
		    "  ppbench gen veth0 --cpus 0-1 --size 1500 --duration 10\n"
		    "  ppbench gen eth1 --dst-mac 02:00:00:00:00:02 --dst-ip fd00::2 --src-ip "
		    "fd00::1\n",
	.opts = gen_opts,
	.min_args = 1,
	.max_args = 1,
	.cfg_size = sizeof(struct gen_cfg),
	.cfg_init = gen_init,
	.opt = gen_opt,
	.check = gen_check,
	.needs = PPB_NEED_ROOT | PPB_NEED_BTF | PPB_NEED_KCONFIG,
	.run = gen_run,
};
