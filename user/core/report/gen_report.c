// SPDX-License-Identifier: GPL-2.0
/* The text and JSON of `ppbench gen`: the plan, a line per interval, the summary. */
#include <arpa/inet.h>
#include "report/report.h"
#include "sys/util.h"

void gen_report_plan(void *view, const struct udp_spec *s, uint64_t count, uint32_t batch)
{
	const struct gen_view *v = view;
	char sm[24], dm[24], si[64], di[64], cnt[32];

	format_mac(s->src_mac, sm, sizeof(sm));
	format_mac(s->dst_mac, dm, sizeof(dm));
	inet_ntop(s->src.family, &s->src.v4, si, sizeof(si));
	inet_ntop(s->dst.family, &s->dst.v4, di, sizeof(di));
	if (count)
		fmt_count(count, cnt, sizeof(cnt));
	else
		snprintf(cnt, sizeof(cnt), "UDP");
	printf("sending %s%s frames of %zu bytes on %s: %s %s:%u -> %s %s:%u, batch %u\n", cnt,
	       count ? " UDP" : "", s->size, v->ifname, sm, si, s->sport, dm, di, s->dport, batch);
}

void gen_report_interval(void *view, const struct gen_totals *a, const struct gen_totals *b,
			 double secs, double when, int nr, const int *cpu, const uint64_t *sent)
{
	const struct gen_view *v = view;
	char buf[32];

	for (int i = 0; i < nr && !v->quiet; i++)
		printf("%-7.1f cpu%-3d %14s frames/s\n", when, cpu[i],
		       fmt_count(sent[i] / secs, buf, 32));
	if (!v->quiet && v->bare)
		printf("%-7.1f total  %14s frames/s | --bare: what %s took is not counted\n", when,
		       fmt_count((b->frames - a->frames) / secs, buf, 32), v->ifname);
	else if (!v->quiet)
		printf("%-7.1f total  %14s frames/s | taken by %s %.0f/s, not taken %.0f/s, "
		       "redirect errors %.0f/s\n",
		       when, fmt_count((b->frames - a->frames) / secs, buf, 32), v->ifname,
		       (b->taken - a->taken) / secs, (b->not_taken - a->not_taken) / secs,
		       (b->redirect_err - a->redirect_err) / secs);
	if (!v->j)
		return;
	json_obj_begin(v->j, NULL);
	json_str(v->j, "type", "interval");
	json_double(v->j, "time", when);
	json_double(v->j, "seconds", secs);
	json_u64(v->j, "frames", b->frames - a->frames);
	json_double(v->j, "pps", (b->frames - a->frames) / secs);
	if (!v->bare) {
		json_u64(v->j, "taken", b->taken - a->taken);
		json_u64(v->j, "not_taken", b->not_taken - a->not_taken);
		json_u64(v->j, "redirect_err", b->redirect_err - a->redirect_err);
	}
	json_obj_end(v->j);
	json_flush_line(v->j);
}

void gen_report_summary(void *view, const struct gen_totals *t, double secs, int nr_cpus)
{
	const struct gen_view *v = view;
	char a[32], b[32];

	printf("summary: %.2f s, %s frames of %zu bytes from %d CPU%s, %s frames/s; ", secs,
	       fmt_count(t->frames, a, 32), v->size, nr_cpus, nr_cpus == 1 ? "" : "s",
	       fmt_count(secs > 0 ? t->frames / secs : 0, b, 32));
	if (v->bare)
		printf("--bare: what %s took is not counted\n", v->ifname);
	else
		printf("taken by %s %llu, not taken %llu, redirect errors %llu\n", v->ifname,
		       (unsigned long long)t->taken, (unsigned long long)t->not_taken,
		       (unsigned long long)t->redirect_err);
	if (!v->j)
		return;
	json_obj_begin(v->j, NULL);
	json_str(v->j, "type", "summary");
	json_double(v->j, "seconds", secs);
	json_u64(v->j, "frames", t->frames);
	json_double(v->j, "pps", secs > 0 ? t->frames / secs : 0);
	json_u64(v->j, "size", v->size);
	if (!v->bare) {
		json_u64(v->j, "taken", t->taken);
		json_u64(v->j, "not_taken", t->not_taken);
		json_u64(v->j, "redirect_err", t->redirect_err);
	}
	json_obj_end(v->j);
	json_flush_line(v->j);
}
