// SPDX-License-Identifier: GPL-2.0
/* The text and JSON of `ppbench probe`: what the kernel supports, what ppbench will use. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "report/report.h"

static const char *yes_err(int err)
{
	static char buf[8][48];
	static int i;

	i = (i + 1) % 8;
	if (!err)
		return "ok";
	snprintf(buf[i], sizeof(buf[i]), "%s (%s)",
		 err == -EPERM || err == -EACCES ? "refused" : "unsupported", errno_name(err));
	return buf[i];
}

/* Whether IFACE's driver takes its buffers from page_pools: yes, no or unknown. */
static const char *pool_verdict(const struct iface_info *ii)
{
	if (ii->nr_pools > 0 || ii->drv_pool == 1)
		return "yes";
	return ii->drv_pool == 0 ? "no" : "unknown";
}

static void print_pools(const struct iface_info *ii, FILE *o)
{
	const char *v = pool_verdict(ii);

	fprintf(o, "  %-24s %s: ", "page_pool", v);
	if (ii->drv_pool == 1)
		fprintf(o, "driver %s holds page_pools (%s, its BTF)", ii->driver,
			ii->drv_pool_member);
	else if (!ii->drv_pool)
		fprintf(o, "driver %s holds none (its BTF)", ii->driver);
	else
		fprintf(o, "driver %s has no BTF of its own (built in?)", ii->driver);
	if (ii->nr_pools > 0)
		fprintf(o, "; the kernel lists %d pool%s of %s\n", ii->nr_pools,
			ii->nr_pools == 1 ? "" : "s", ii->name);
	else if (!ii->nr_pools)
		fprintf(o,
			"; the kernel lists none of %s (a driver that names no device in its "
			"pools, as vmxnet3, is not listed)\n",
			ii->name);
	else
		fprintf(o, "; no list of pools in this kernel (netlink page-pool-get: %s)\n",
			errno_name(ii->nr_pools));
	for (int i = 0; i < ii->nr_pools; i++) {
		const struct nl_page_pool *p = &ii->pools[i];

		fprintf(o, "    pool %u: napi %u, %llu pages in flight", p->id, p->napi_id,
			(unsigned long long)p->inflight);
		if (p->has_stats)
			fprintf(o,
				"; alloc fast %" PRIu64 " slow %" PRIu64 " refill %" PRIu64
				" empty %" PRIu64 " waive %" PRIu64 ", recycle cached %" PRIu64
				" ring %" PRIu64 " cache_full %" PRIu64 " ring_full %" PRIu64
				" released_refcnt %" PRIu64,
				p->alloc_fast, p->alloc_slow, p->alloc_refill, p->alloc_empty,
				p->alloc_waive, p->recycle_cached, p->recycle_ring,
				p->recycle_cache_full, p->recycle_ring_full,
				p->recycle_released_refcnt);
		fprintf(o, "\n");
	}
}

static const char *const stat_names[] = {
	"alloc_fast",	"alloc_slow",	     "alloc_slow_high_order",	"alloc_empty",
	"alloc_refill", "alloc_waive",	     "recycle_cached",		"recycle_cache_full",
	"recycle_ring", "recycle_ring_full", "recycle_released_refcnt",
};

static void json_pools(struct json *j, const struct iface_info *ii)
{
	json_obj_begin(j, "page_pool");
	json_str(j, "verdict", pool_verdict(ii));
	json_str(j, "driver_member", ii->drv_pool == 1 ? ii->drv_pool_member : NULL);
	if (ii->nr_pools < 0) {
		json_none(j, "listed");
	} else {
		json_arr_begin(j, "listed");
		for (int i = 0; i < ii->nr_pools; i++) {
			const struct nl_page_pool *p = &ii->pools[i];

			json_obj_begin(j, NULL);
			json_u64(j, "id", p->id);
			json_u64(j, "napi_id", p->napi_id);
			json_u64(j, "inflight", p->inflight);
			if (!p->has_stats) {
				json_none(j, "stats");
			} else {
				json_obj_begin(j, "stats");
				for (size_t k = 0; k < ARRAY_SIZE(p->stats); k++)
					json_u64(j, stat_names[k], p->stats[k]);
				json_obj_end(j);
			}
			json_obj_end(j);
		}
		json_arr_end(j);
	}
	json_obj_end(j);
}

static void print_decisions(const struct ppb_features *f, FILE *o)
{
	bool hold = features_tp_present(f, "page_pool_state_hold");
	bool rel = features_tp_present(f, "page_pool_state_release");

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
	fprintf(o, "  scenario ring-xcpu %s%s\n",
		f->live_frames	       ? "unavailable: no live-frames BPF_PROG_RUN"
		: f->cpumap_prog       ? "unavailable: no cpumap programs"
		: inst_clock()->icount ? "unavailable: "
		: f->nr_cpus < 2       ? "unavailable: needs 2 CPUs"
				       : "available",
		!f->live_frames && !f->cpumap_prog && inst_clock()->icount ? INST_CLOCK_NO_XCPU
									   : "");
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

static void print_text(const struct ppb_features *f, const struct iface_info *ii,
		       const char *bpffs_path, FILE *o)
{
	fprintf(o, "ppbench probe: kernel %s, %d CPUs\n", f->kernel, f->nr_cpus);
	fprintf(o, "  %-26s %s\n", "kernel release", f->kernel);
	fprintf(o, "  %-26s %s (%s)\n", "BTF", f->btf ? "yes" : "no", f->btf_path);
	fprintf(o, "  %-26s %ld bytes (the kernel's PAGE_SIZE)\n", "page size", f->page_size);
	fprintf(o,
		"  %-26s %u entries, slow allocations of %u pages (PP_ALLOC_CACHE_SIZE, _REFILL)\n",
		"page_pool alloc cache", f->pp_cache_size, f->pp_refill);
	if (inst_clock()->icount)
		fprintf(o,
			"  %-26s qemu's instruction clock (%s): one tick per guest instruction\n",
			"clock", inst_clock()->qemu);
	else if (inst_clock()->tcg)
		fprintf(o, "  %-26s plain qemu emulation (%s): timings mean nothing\n", "clock",
			inst_clock()->qemu);
	if (f->tsc_ok)
		fprintf(o, "  %-26s %.3f GHz (calibrated), clocksource %s%s%s\n", "TSC",
			f->tsc.hz / 1e9, f->tsc.clocksource, f->tsc.constant ? ", constant" : "",
			f->tsc.nonstop ? ", nonstop" : "");
	else if (inst_clock()->counter_hz > 0) /* arm64: a timer, no cycle counter */
		fprintf(o,
			"  %-26s none (clocksource %s; %s at %.3f MHz is a timer, not CPU "
			"cycles)\n",
			"TSC", f->tsc.clocksource, inst_clock()->counter,
			inst_clock()->counter_hz / 1e6);
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
		print_pools(ii, o);
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
	json_u64(j, "page_size", f->page_size);
	json_u64(j, "pp_alloc_cache_size", f->pp_cache_size);
	json_u64(j, "pp_alloc_cache_refill", f->pp_refill);
	json_str(j, "cpu_model", f->tsc.cpu_model);
	json_double(j, "tsc_hz", f->tsc_ok ? f->tsc.hz : 0);
	json_bool(j, "tsc_constant", f->tsc.constant);
	json_clock(j);
	json_bool(j, "tsc_nonstop", f->tsc.nonstop);
	json_str(j, "clocksource", f->tsc.clocksource);
	json_bool(j, "live_frames", !f->live_frames);
	json_bool(j, "fentry", !f->fentry);
	json_str(j, "fentry_error", f->fentry ? errno_name(f->fentry) : NULL);
	json_bool(j, "cpumap_prog", !f->cpumap_prog);
	json_bool(j, "devmap_prog", !f->devmap_prog);
	json_bool(j, "generic_xdp_frags", !f->generic_frags);
	if (f->pp_stats < 0)
		json_none(j, "page_pool_stats");
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
		json_pools(j, ii);
		json_obj_end(j);
	}
	json_obj_begin(j, "uses");
	json_str(j, "accounting_backend", f->fentry ? "tracepoint" : "fentry");
	json_bool(j, "ring", !f->live_frames);
	json_bool(j, "ring_xcpu", !f->live_frames && !f->cpumap_prog && f->nr_cpus >= 2);
	json_str(j, "fast", f->generic_frags ? "nic-only" : "generic-xdp-frags");
	json_bool(j, "slow", true);
	json_obj_end(j);
}

int probe_report(const struct ppb_features *f, const struct iface_info *ii, const char *bpffs_path,
		 const char *json)
{
	struct json *j;

	if (!json || strcmp(json, "-"))
		print_text(f, ii, bpffs_path, stdout);
	if (!json)
		return 0;
	j = json_open(json, true);
	if (!j)
		return -1;
	write_json(j, f, ii);
	return json_doc_end(j) ? -1 : 0; /* its error line names the file */
}
