// SPDX-License-Identifier: GPL-2.0
/* The text and JSON of `ppbench load`: per interval, rates per CPU, errors, pools. */
#include <math.h>
#include <string.h>
#include "report/report.h"

void load_report_libxdp(void *view, bool legacy, uint32_t dispatcher_id, uint32_t prog_id,
			int nr_progs)
{
	const struct load_view *v = view;

	if (legacy)
		printf("libxdp fell back to a single program on %s (no dispatcher: its reason is "
		       "above; freplace refused?); no other program can share the interface\n",
		       v->ifname);
	else
		printf("libxdp dispatcher %u on %s runs ppbench's program %u (%d program%s)\n",
		       dispatcher_id, v->ifname, prog_id, nr_progs, nr_progs == 1 ? "" : "s");
}

static double cycles_per(const struct load_view *v, const struct load_rates *r)
{
	return r->timed_elems ? tsc_ns_to_cycles(v->tsc, (double)r->timed_ns / r->timed_elems)
			      : NAN;
}

static void print_rate_row(const struct load_view *v, const char *when, const char *cpu,
			   const struct load_rates *r, double secs)
{
	char pk[32], cyc[16];
	double c = cycles_per(v, r);

	if (isnan(c))
		snprintf(cyc, sizeof(cyc), "-");
	else
		snprintf(cyc, sizeof(cyc), "%.1f", c);
	printf("%-6s %-9s %14s %10.1f %11s\n", when, cpu, fmt_count(r->packets / secs, pk, 32),
	       r->bytes * 8 / secs / 1e6, cyc);
}

static void json_rates(const struct load_view *v, const struct load_rates *r, double secs)
{
	json_u64(v->j, "packets", r->packets);
	json_double(v->j, "pps", r->packets / secs);
	json_u64(v->j, "bytes", r->bytes);
	json_double(v->j, "bps", r->bytes * 8 / secs);
	json_double(v->j, "cycles_per_packet", cycles_per(v, r));
}

/* A row per CPU that saw packets; tot: the action program's CPUs summed. */
static void report_cpus(const struct load_view *v, const struct load_interval *iv, const char *when,
			struct load_rates *tot)
{
	const char *second = v->cpumap ? "cpumap" : "egress";
	const char *roles[2] = { "", v->cpumap ? "cpumap " : "egress " };
	char name[32];

	memset(tot, 0, sizeof(*tot));
	if (v->j)
		json_arr_begin(v->j, "per_cpu");
	for (int r = 0; r < 2; r++) {
		for (int c = 0; c < iv->nr_cpus; c++) {
			const struct load_rates *x = &iv->cpu[r][c];

			if (!x->packets)
				continue;
			snprintf(name, sizeof(name), "%scpu%d", roles[r], c);
			print_rate_row(v, tot->packets || r ? "" : when, name, x, iv->secs);
			if (v->j) {
				json_obj_begin(v->j, NULL);
				json_u64(v->j, "cpu", c);
				json_str(v->j, "role", r ? second : "rx");
				json_rates(v, x, iv->secs);
				json_obj_end(v->j);
			}
			if (!r) {
				tot->packets += x->packets, tot->bytes += x->bytes;
				tot->timed_ns += x->timed_ns, tot->timed_elems += x->timed_elems;
			}
		}
	}
	if (v->j)
		json_arr_end(v->j);
}

static void report_errs(const struct load_view *v, const struct ppb_xdp_errs *d, double secs)
{
	printf("       errors/s: exception %.0f redirect %.0f | xmit/s %.0f, not taken %.0f | "
	       "cpumap queue full %.0f\n",
	       d->exception / secs, d->redirect_err / secs, d->xmit_sent / secs,
	       d->xmit_drops / secs, d->cpumap_drops / secs);
	if (!v->j)
		return;
	json_obj_begin(v->j, "errors");
	json_u64(v->j, "exception", d->exception);
	json_u64(v->j, "redirect_err", d->redirect_err);
	json_u64(v->j, "xmit_sent", d->xmit_sent);
	json_u64(v->j, "xmit_drops", d->xmit_drops);
	json_u64(v->j, "cpumap_drops", d->cpumap_drops);
	json_obj_end(v->j);
}

/* The device's pools and the pools our program's packets came from. */
static void report_pools(const struct load_view *v, const struct obs_snapshot *d, double secs)
{
	char id[16];
	int n = 0;

	snap_fold_kind((struct obs_snapshot *)d, PPB_POOL_TEST_RUN, 4);
	if (v->j)
		json_arr_begin(v->j, "pools");
	for (int i = 0; i < d->nr_pools; i++) {
		const struct pool_snap *p = &d->pools[i];
		bool dev = p->info.ifindex == v->ifindex && pool_same_netns(&p->info);

		if ((!dev && !(p->info.flags & PPB_POOL_F_ELEMS)) || !counts_traffic(&p->total))
			continue;
		if (!n++)
			pool_header();
		if (p->folded)
			snprintf(id, sizeof(id), "x%d", p->folded);
		else
			snprintf(id, sizeof(id), "%u", p->info.id);
		pool_row("pool", id, &p->info, &p->total, secs,
			 path_known(d->fentry, p->info.flags));
		if (v->j)
			json_pool(v->j, p, d->fentry, v->per_cpu, d->nr_cpus, NAN);
	}
	if (v->j)
		json_arr_end(v->j);
	report_untracked(v->j, "       ", d->untracked_pools, d->untracked_events, d->capacity);
	report_prog_misses(v->j, "", d->prog_misses);
}

static void rate_header(void)
{
	printf("%-6s %-9s %14s %10s %11s\n", "time", "cpu", "packets/s", "Mbit/s", "cycles/pkt");
}

void load_report_interval(void *view, const struct load_interval *iv)
{
	const struct load_view *v = view;
	struct load_rates tot;
	char when[32];

	if (iv->summary) {
		printf("summary: %.1f s, %d intervals\n", iv->time, iv->intervals);
		rate_header();
	}
	snprintf(when, sizeof(when), iv->summary ? "total" : "%.1fs", iv->time);
	if (v->j) {
		json_obj_begin(v->j, NULL);
		json_str(v->j, "type", iv->summary ? "summary" : "interval");
		json_double(v->j, "time", iv->time);
		json_double(v->j, "seconds", iv->secs);
	}
	report_cpus(v, iv, when, &tot);
	if (tot.packets || iv->summary)
		print_rate_row(v, tot.packets ? "" : when, "total", &tot, iv->secs);
	if (v->j) {
		json_obj_begin(v->j, "total");
		json_rates(v, &tot, iv->secs);
		json_obj_end(v->j);
	}
	report_errs(v, &iv->errs, iv->secs);
	if (iv->d)
		report_pools(v, iv->d, iv->secs);
	if (v->j) {
		json_obj_end(v->j);
		json_flush_line(v->j);
	}
}

void load_report_banner(void *view, const struct load_setup *s)
{
	const struct obs_desc *o = s->obs;
	struct load_view *v = view;

	v->tsc = s->tsc;

	printf("ppbench load %s (ifindex %d, driver %s, native XDP %s): %s%s, %s mode, %s\n",
	       v->ifname, v->ifindex, s->driver, s->native_xdp ? "yes" : "no", s->action, s->target,
	       s->skb ? "generic" : "native", s->multiprog ? "libxdp" : "bpf_link");
	if (o)
		printf("observer: %s backend%s%s; cycles/pkt: TSC cycles per packet, NAPI polls\n",
		       o->backend_name, o->fentry_reason ? ", " : "",
		       o->fentry_reason ? o->fentry_reason : "");
	else if (!s->bare)
		printf("observer: none (--paths adds the path mix); cycles/pkt: TSC cycles per "
		       "packet, NAPI polls\n");
	if (o && o->not_counted)
		printf("  not counted: %s\n", o->not_counted);
	if (s->bare)
		printf("bare program: no statistics (reference for overhead measurements)\n");
	rate_header();
}

static void prog_costs_json(const struct load_view *v, const struct prog_cost *c, int n,
			    const char *xdp, uint64_t packets, uint64_t total_ns)
{
	json_obj_begin(v->j, NULL);
	json_str(v->j, "type", "prog_costs");
	json_str(v->j, "per_run_of", xdp);
	json_u64(v->j, "packets", packets);
	json_arr_begin(v->j, "programs");
	for (int i = 0; i < n; i++) {
		if (!c[i].runs)
			continue;
		json_obj_begin(v->j, NULL);
		json_str(v->j, "name", c[i].name);
		json_u64(v->j, "runs", c[i].runs);
		json_u64(v->j, "run_ns", c[i].run_ns);
		json_double(v->j, "ns_per_run", (double)c[i].run_ns / c[i].runs);
		if (packets)
			json_double(v->j, "ns_per_packet", (double)c[i].run_ns / packets);
		json_obj_end(v->j);
	}
	json_arr_end(v->j);
	if (packets)
		json_double(v->j, "ns_per_packet", (double)total_ns / packets);
	json_obj_end(v->j);
	json_flush_line(v->j);
}

void load_report_prog_costs(void *view, const struct prog_cost *c, int n, const char *xdp,
			    uint64_t packets)
{
	const struct load_view *v = view;
	uint64_t total = 0;
	char buf[32];

	printf("program costs (the kernel's BPF run-time stats, on for this run; every figure "
	       "includes the stats' own clock reads, once per run)\n");
	printf("  %-24s %14s %10s %10s\n", "program", "runs", "ns/run", "ns/packet");
	for (int i = 0; i < n; i++) {
		if (!c[i].runs)
			continue;
		total += c[i].run_ns;
		printf("  %-24s %14s %10.1f", c[i].name, fmt_count(c[i].runs, buf, sizeof(buf)),
		       (double)c[i].run_ns / c[i].runs);
		if (packets)
			printf(" %10.1f", (double)c[i].run_ns / packets);
		printf("\n");
	}
	if (packets)
		printf("  %-24s %14s %10s %10.1f  (packets: the runs of %s)\n", "all of ours", "",
		       "", (double)total / packets, xdp);
	else
		printf("  no run of %s was counted: no packet to divide by\n", xdp);
	if (v->j)
		prog_costs_json(v, c, n, xdp, packets, total);
}
