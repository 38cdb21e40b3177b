// SPDX-License-Identifier: GPL-2.0
/* ppbench probe [IFACE]: what this kernel (and interface) supports, and what ppbench will use. */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <linux/netlink.h>
#include <linux/if_link.h>
#include <bpf/libbpf.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "loader/kfeatures.h"
#include "report/report.h"
#include "sys/log.h"
#include "sys/nl.h"
#include "sys/util.h"

struct probe_cfg {
	const char *json;
};

static const struct cli_opt probe_opts[] = {
	CLI_OPT_JSON(struct probe_cfg, json,
		     "also write the report as JSON to FILE ('-' for stdout only)"),
	{ NULL },
};

static int iface_query(struct iface_info *ii)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	struct link_info li;
	struct nl_sock s;

	if (iface_index(ii->name, NULL, &ii->ifindex))
		return -ENODEV;
	if (ethtool_driver(ii->name, ii->driver, sizeof(ii->driver)))
		snprintf(ii->driver, sizeof(ii->driver), "unknown");
	if (!nl_open(&s, NETLINK_ROUTE)) {
		if (!rtnl_link_get(&s, NULL, ii->ifindex, &li))
			snprintf(ii->kind, sizeof(ii->kind), "%s", li.kind);
		nl_close(&s);
	}
	ii->xdp_features_err = genl_xdp_features(ii->ifindex, &ii->xdp_features);
	ii->drv_pool =
		ppb_driver_page_pool(ii->driver, ii->drv_pool_member, sizeof(ii->drv_pool_member));
	ii->nr_pools = genl_page_pools(ii->ifindex, ii->pools, ARRAY_SIZE(ii->pools));
	ii->attach_mode = "none";
	if (!bpf_xdp_query(ii->ifindex, 0, &q) && q.prog_id) {
		ii->prog_id = q.prog_id;
		ii->attach_mode = q.attach_mode == XDP_ATTACHED_DRV   ? "native"
				  : q.attach_mode == XDP_ATTACHED_SKB ? "generic"
				  : q.attach_mode == XDP_ATTACHED_HW  ? "offload"
								      : "multi";
	}
	return 0;
}

/* IFACE must exist before the needs are checked; probe_run() queries it. */
static int probe_check(void *c, int argc, char **argv)
{
	int ifindex;

	(void)c;
	return argc && iface_index(argv[0], NULL, &ifindex) ? EXIT_USAGE : EXIT_OK;
}

static int probe_run(void *c, int argc, char **argv)
{
	struct probe_cfg *cfg = c;
	struct iface_info ii = { .name = argc ? argv[0] : NULL };
	struct ppb_features f;
	const char *bpffs_path;

	features_probe(&f);
	bpffs_mounted(&bpffs_path);
	if (ii.name && iface_query(&ii))
		return EXIT_USAGE;
	return probe_report(&f, ii.name ? &ii : NULL, bpffs_path, cfg->json) ? EXIT_FAIL : EXIT_OK;
}

const struct cli_cmd cmd_probe = {
	.name = "probe",
	.args = "[IFACE]",
	.summary = "report what this kernel and interface support, and what ppbench will use",
	.description =
		"Probe the running kernel by trying each feature (never by version number):\n"
		"kernel BTF; TSC frequency (calibrated against CLOCK_MONOTONIC) and the clock\n"
		"source; live-frames BPF_PROG_RUN; whether fentry/fexit programs may load; each\n"
		"page_pool, xdp and napi tracepoint ppbench knows; cpumap/devmap second-stage\n"
		"programs; generic-XDP multi-buffer (frags) programs; CONFIG_PAGE_POOL_STATS;\n"
		"bpffs. With IFACE: its driver, XDP features (netlink NETDEV_XDP_ACT_*) and any\n"
		"XDP program already attached. Ends with what ppbench will therefore use: the\n"
		"path-accounting backend, the timing method, and which bench scenarios can run.\n"
		"PPBENCH_BTF=/path overrides the kernel BTF location.",
	.examples = "  ppbench probe\n"
		    "  ppbench probe eth0 --json probe.json\n",
	.opts = probe_opts,
	.max_args = 1,
	.cfg_size = sizeof(struct probe_cfg),
	.check = probe_check,
	.needs = PPB_NEED_ROOT | PPB_NEED_BTF,
	.run = probe_run,
};
