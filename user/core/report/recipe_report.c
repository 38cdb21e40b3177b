// SPDX-License-Identifier: GPL-2.0
/* The text, KIND.FIELD=VALUE lines and JSON of `ppbench recipe NAME`. */
#include <string.h>
#include "report/report.h"

static void print_kind(const char *name, const struct kind_counts *k, int nr_cpus, unsigned known)
{
	char b[256];

	printf("%s pools: %d\n", name, k->pools);
	for (int c = -1; c < nr_cpus; c++) {
		const struct ppb_pool_counts *x = c < 0 ? &k->total : &k->percpu[c];

		if (c >= 0 && counts_zero(x))
			continue;
		printf("  %-6s %s | elems %llu\n", c < 0 ? "total" : "",
		       fmt_classes(b, sizeof(b), x, known, true), (unsigned long long)x->elems);
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
	for (int i = 0; i < PPB_NR_CLASSES; i++) {
		char f[32];

		snprintf(f, sizeof(f), "%s.%s", class_side(i), class_name(i));
		kv_field(kind, f, x->cls[i].calls, class_known(i, known));
		if (i == PPB_ALLOC_SLOW)
			kv_field(kind, "alloc.slow_pages", x->slow_pages, true);
	}
	kv_field(kind, "ret.unclassified", x->unclassified, true);
	kv_field(kind, "release.refcnt", x->rel_refcnt, true);
	kv_field(kind, "release.teardown", x->rel_teardown, true);
	kv_field(kind, "elems", x->elems, true);
}

static void json_kind(struct json *j, const char *name, const struct kind_counts *k, int nr_cpus,
		      unsigned known, enum obs_backend b, double probe_ns)
{
	struct ppb_pool_info fl = { .flags = k->flags };
	char flags[128];

	pool_flags_str(&fl, b, flags, sizeof(flags));
	json_obj_begin(j, NULL);
	json_str(j, "kind", name);
	json_u64(j, "pools", k->pools);
	json_str(j, "flags", flags);
	json_path(j, "path", &k->total, known);
	if (b == OBS_FENTRY)
		json_timing(j, &k->total, probe_ns);
	json_per_cpu_paths(j, k->percpu, nr_cpus, known);
	json_obj_end(j);
}

static void print_head(const struct recipe_facts *r, bool text, bool kv)
{
	if (text)
		printf("recipe %s: %s; backend %s; %llu elements\n", r->name, r->text,
		       r->backend_name, (unsigned long long)r->elems);
	report_untracked(NULL, text ? "" : NULL, r->untracked_pools, r->untracked_events,
			 r->capacity);
	if (kv)
		printf("backend=%s\nelems=%llu\npackets.action=%llu\npackets.second=%llu\n"
		       "untracked.pools=%llu\nuntracked.events=%llu\n",
		       r->backend_name, (unsigned long long)r->elems,
		       (unsigned long long)r->packets_action, (unsigned long long)r->packets_second,
		       (unsigned long long)r->untracked_pools,
		       (unsigned long long)r->untracked_events);
}

static void json_head(struct json *j, const struct recipe_facts *r)
{
	json_obj_begin(j, NULL);
	json_str(j, "recipe", r->name);
	json_str(j, "backend", r->backend_name);
	json_u64(j, "elems", r->elems);
	report_untracked(j, NULL, r->untracked_pools, r->untracked_events, r->capacity);
	if (r->backend == OBS_FENTRY)
		json_double(j, "probe_overhead_ns", r->probe_ns);
	json_obj_begin(j, "packets");
	json_u64(j, "action", r->packets_action);
	json_u64(j, "gen", r->packets_gen);
	json_u64(j, "second", r->packets_second);
	json_u64(j, "cpumap_drops", r->cpumap_drops);
	json_obj_end(j);
	json_arr_begin(j, "pools");
}

int recipe_report(const struct recipe_facts *r, const char *json, bool kv)
{
	bool text = !kv && (!json || strcmp(json, "-"));
	struct json *j = NULL;

	if (json && !(j = json_open(json, false)))
		return -1;
	print_head(r, text, kv);
	if (j)
		json_head(j, r);
	for (int kind = 0; kind < RECIPE_NR_KINDS; kind++) {
		const struct kind_counts *k = &r->kinds[kind];
		unsigned known = path_known(r->backend == OBS_FENTRY, k->flags);

		if (!k->pools)
			continue;
		if (text)
			print_kind(pool_kind_name(kind), k, r->nr_cpus, known);
		if (kv)
			print_kv(pool_kind_name(kind), k, known);
		if (j)
			json_kind(j, pool_kind_name(kind), k, r->nr_cpus, known, r->backend,
				  r->probe_ns);
	}
	if (!j)
		return 0;
	json_arr_end(j);
	return json_doc_end(j) ? -1 : 0;
}
