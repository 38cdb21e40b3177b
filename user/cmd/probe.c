// SPDX-License-Identifier: GPL-2.0
/* ppbench probe [IFACE]: what this kernel (and interface) supports, and what ppbench will use. */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/if_link.h>
#include <bpf/libbpf.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "loader/kfeatures.h"
#include "report/json.h"
#include "sys/log.h"
#include "sys/nl.h"
#include "sys/util.h"

struct probe_cfg {
	const char *json;
};

struct iface_info {
	const char *name;
	int ifindex;
	char driver[64];
	char kind[32];
	uint64_t xdp_features;
	int xdp_features_err;
	__u32 prog_id;
	const char *attach_mode;
};

static const struct cli_opt probe_opts[] = {
	CLI_OPT_JSON(struct probe_cfg, json,
		     "also write the report as JSON to FILE ('-' for stdout only)"),
	{ NULL },
};

static const char *yes_err(int err)
{
	static char buf[8][48];
	static int i;

	i = (i + 1) % 8;
	if (!err)
		return "ok";
	if (err == -EPERM || err == -EACCES)
		snprintf(buf[i], sizeof(buf[i]), "refused (%s)", errno_name(err));
	else
		snprintf(buf[i], sizeof(buf[i]), "unsupported (%s)", errno_name(err));
	return buf[i];
}

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

static const char *backend_name(const struct ppb_features *f)
{
	return f->fentry ? "tracepoint" : "fentry";
}

static void print_decisions(const struct ppb_features *f, FILE *o)
{
	bool hold = ppb_tracepoint_present("page_pool_state_hold");
	bool rel = ppb_tracepoint_present("page_pool_state_release");

	fprintf(o, "\nppbench will use:\n");
	if (!f->fentry)
		fprintf(o,
			"  path accounting  fentry/fexit on the page_pool entry points, each call "
			"classified by the change in pool state (exact, per CPU)\n");
	else
		fprintf(o,
			"  path accounting  tracepoints%s%s + CO-RE pool-state reads from "
			"ppbench's XDP programs and napi_poll (fentry %s)\n",
			hold ? " page_pool_state_hold" : "", rel ? "/state_release" : "",
			yes_err(f->fentry));
	if (!hold || !rel)
		fprintf(o, "                   NOT counted: %s%s (tracepoint missing)\n",
			hold ? "" : "slow allocations ", rel ? "" : "releases");
	fprintf(o, "  timing           %s, sampled per CPU by the BPF programs\n",
		f->tsc_ok ? "TSC cycles = bpf_ktime_get_ns() x calibrated TSC Hz"
			  : "ns only (no TSC on this CPU)");
	fprintf(o, "  scenario ring      %s\n",
		f->live_frames ? "unavailable: no live-frames BPF_PROG_RUN" : "available");
	fprintf(o, "  scenario ring-xcpu %s\n",
		f->live_frames	 ? "unavailable: no live-frames BPF_PROG_RUN"
		: f->cpumap_prog ? "unavailable: no cpumap programs"
		: f->nr_cpus < 2 ? "unavailable: needs 2 CPUs"
				 : "available");
	fprintf(o, "  scenario fast      %s\n",
		f->generic_frags ? "native NAPI XDP_DROP on a NIC only (no generic-XDP frags)"
				 : "available (generic-XDP frags on the per-CPU system pool; "
				   "verified by path counts)");
	fprintf(o, "  scenario slow      %s\n",
		f->live_frames ? "veth skb path + XDP_TX only" : "available");
	fprintf(o, "  cross-check      %s\n",
		f->pp_stats == 1 ? "kernel page_pool stats (CONFIG_PAGE_POOL_STATS)"
				 : "none: CONFIG_PAGE_POOL_STATS is off");
}

static void print_text(const struct ppb_features *f, const struct iface_info *ii, FILE *o)
{
	const char *bpffs_path;

	bpffs_mounted(&bpffs_path);
	fprintf(o, "ppbench probe: kernel %s, %d CPUs\n", f->kernel, f->nr_cpus);
	fprintf(o, "  %-26s %s\n", "kernel release", f->kernel);
	fprintf(o, "  %-26s %s (%s)\n", "BTF", f->btf ? "yes" : "no", f->btf_path);
	if (f->tsc_ok)
		fprintf(o, "  %-26s %.3f GHz (calibrated), clocksource %s%s%s\n", "TSC",
			f->tsc.hz / 1e9, f->tsc.clocksource, f->tsc.constant ? ", constant" : "",
			f->tsc.nonstop ? ", nonstop" : "");
	else
		fprintf(o, "  %-26s none (clocksource %s)\n", "TSC", f->tsc.clocksource);
	fprintf(o, "  %-26s %s\n", "live-frames BPF_PROG_RUN", yes_err(f->live_frames));
	fprintf(o, "  %-26s %s\n", "fentry/fexit", yes_err(f->fentry));
	fprintf(o, "  %-26s %s\n", "cpumap programs", yes_err(f->cpumap_prog));
	fprintf(o, "  %-26s %s\n", "devmap programs", yes_err(f->devmap_prog));
	fprintf(o, "  %-26s %s\n", "generic-XDP frags", yes_err(f->generic_frags));
	fprintf(o, "  %-26s %s (%s)\n", "CONFIG_PAGE_POOL_STATS",
		f->pp_stats == 1   ? "on"
		: f->pp_stats == 0 ? "off"
				   : "unknown",
		f->pp_stats_source);
	fprintf(o, "  %-26s %s at %s\n", "bpffs", f->bpffs ? "mounted" : "not mounted", bpffs_path);
	fprintf(o, "tracepoints:\n");
	for (int i = 0; i < ppb_nr_tracepoints; i++) {
		const struct tp_desc *t = &ppb_tracepoints[i];
		char full[64];

		snprintf(full, sizeof(full), "%s:%s", t->group, t->name);
		fprintf(o, "  %-36s %-8s %s\n", full, f->tp_present[i] ? "present" : "absent",
			t->use ? t->use : "(not used)");
	}
	if (ii) {
		fprintf(o, "interface %s (ifindex %d): driver %s%s%s\n", ii->name, ii->ifindex,
			ii->driver, ii->kind[0] ? ", kind " : "", ii->kind);
		if (ii->xdp_features_err) {
			fprintf(o, "  XDP features             unknown (%s)\n",
				errno_name(ii->xdp_features_err));
		} else {
			fprintf(o, "  XDP features             ");
			for (int b = 0; b < 7; b++)
				if (ii->xdp_features & (1ull << b))
					fprintf(o, "%s ", xdp_act_names[b]);
			fprintf(o, "%s\n", ii->xdp_features ? "" : "none (no native XDP)");
		}
		fprintf(o, "  XDP program attached     %s", ii->attach_mode);
		if (ii->prog_id)
			fprintf(o, " (prog id %u)", ii->prog_id);
		fprintf(o, "\n");
	}
	print_decisions(f, o);
}

static void write_json(struct json *j, const struct ppb_features *f, const struct iface_info *ii)
{
	json_obj_begin(j, NULL);
	json_str(j, "schema", "ppbench-probe/1");
	json_str(j, "kernel", f->kernel);
	json_bool(j, "btf", f->btf);
	json_str(j, "btf_path", f->btf_path);
	json_u64(j, "nr_cpus", f->nr_cpus);
	json_str(j, "cpu_model", f->tsc.cpu_model);
	json_double(j, "tsc_hz", f->tsc_ok ? f->tsc.hz : 0);
	json_bool(j, "tsc_constant", f->tsc.constant);
	json_bool(j, "tsc_nonstop", f->tsc.nonstop);
	json_str(j, "clocksource", f->tsc.clocksource);
	json_bool(j, "live_frames", !f->live_frames);
	json_bool(j, "fentry", !f->fentry);
	json_str(j, "fentry_error", f->fentry ? errno_name(f->fentry) : NULL);
	json_bool(j, "cpumap_prog", !f->cpumap_prog);
	json_bool(j, "devmap_prog", !f->devmap_prog);
	json_bool(j, "generic_xdp_frags", !f->generic_frags);
	if (f->pp_stats < 0)
		json_null(j, "page_pool_stats");
	else
		json_bool(j, "page_pool_stats", f->pp_stats == 1);
	json_str(j, "page_pool_stats_source", f->pp_stats_source);
	json_bool(j, "bpffs", f->bpffs);
	json_obj_begin(j, "tracepoints");
	for (int i = 0; i < ppb_nr_tracepoints; i++) {
		char full[64];

		snprintf(full, sizeof(full), "%s:%s", ppb_tracepoints[i].group,
			 ppb_tracepoints[i].name);
		json_bool(j, full, f->tp_present[i]);
	}
	json_obj_end(j);
	if (ii) {
		json_obj_begin(j, "iface");
		json_str(j, "name", ii->name);
		json_u64(j, "ifindex", ii->ifindex);
		json_str(j, "driver", ii->driver);
		json_str(j, "kind", ii->kind);
		json_arr_begin(j, "xdp_features");
		for (int b = 0; b < 7; b++)
			if (ii->xdp_features & (1ull << b))
				json_str(j, NULL, xdp_act_names[b]);
		json_arr_end(j);
		json_str(j, "xdp_attached", ii->attach_mode);
		json_obj_end(j);
	}
	json_obj_begin(j, "uses");
	json_str(j, "accounting_backend", backend_name(f));
	json_bool(j, "ring", !f->live_frames);
	json_bool(j, "ring_xcpu", !f->live_frames && !f->cpumap_prog && f->nr_cpus >= 2);
	json_str(j, "fast", f->generic_frags ? "nic-only" : "generic-xdp-frags");
	json_bool(j, "slow", true);
	json_obj_end(j);
	json_obj_end(j);
	json_flush_line(j);
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
	struct json *j;
	bool json_stdout = cfg->json && !strcmp(cfg->json, "-");

	features_probe(&f);
	if (ii.name && iface_query(&ii))
		return EXIT_USAGE;
	if (!json_stdout)
		print_text(&f, ii.name ? &ii : NULL, stdout);
	if (cfg->json) {
		j = json_open(cfg->json, true);
		if (!j)
			return EXIT_FAIL;
		write_json(j, &f, ii.name ? &ii : NULL);
		if (json_close(j)) {
			pr_err("writing %s failed\n", cfg->json);
			return EXIT_FAIL;
		}
	}
	return EXIT_OK;
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
	.min_args = 0,
	.max_args = 1,
	.cfg_size = sizeof(struct probe_cfg),
	.check = probe_check,
	.needs = CLI_NEED_ROOT | CLI_NEED_BTF,
	.run = probe_run,
};
