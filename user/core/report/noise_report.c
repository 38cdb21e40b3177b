// SPDX-License-Identifier: GPL-2.0
/* Noise profiles: the JSON file calibrate writes and the table it prints. */
#include "report/report.h"

/* (METHOD: a path figure's, or NULL) */
static void json_fig(struct json *j, const char *key, const struct noise_fig *f, const char *method)
{
	json_obj_begin(j, key);
	if (method)
		json_str(j, "method", method);
	json_u64(j, "invocations", f->n);
	json_double(j, "median", f->median);
	json_double(j, "min", f->min);
	json_double(j, "max", f->max);
	json_double(j, "cv_between", f->cv_between);
	json_double(j, "cv_within", f->cv_within);
	json_double(j, "max_pair_pct", f->max_pair_pct);
	json_double(j, "floor_pct", f->floor_pct);
	json_levels(j, "levels", f->levels, f->nr_levels, "invocations");
	json_obj_end(j);
}

static void json_level(struct json *j, const struct noise_scenario *ns)
{
	if (!ns->has_level) {
		json_none(j, "level_probe");
		return;
	}
	json_obj_begin(j, "level_probe");
	json_double(j, "median_ns", ns->level_median_ns);
	json_double(j, "r_cycles", ns->level_r);
	json_double(j, "cv_resid", ns->level_cv_resid);
	json_obj_end(j);
}

int noise_write(const struct noise_profile *p, const char *path, const char *cmdline)
{
	struct json *j = json_open(path, true);

	if (!j)
		return -1;
	json_doc_begin(j, NOISE_SCHEMA);
	json_str(j, "command", cmdline);
	json_str(j, "first", p->first);
	json_str(j, "last", p->last);
	json_double(j, "span_s", p->span_s);
	json_u64(j, "invocations", p->invocations);
	json_u64(j, "repeat", p->repeat);
	json_host_copy(j, p->host_doc, &p->host.clock);
	json_arr_begin(j, "scenarios");
	for (size_t i = 0; i < p->nr_sc; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "name", p->sc[i].name);
		json_fig(j, "cycles_per_elem", &p->sc[i].cycles, NULL);
		if (p->sc[i].has_path)
			json_fig(j, "path_cost_cycles", &p->sc[i].path, p->sc[i].path_method);
		else
			json_none(j, "path_cost_cycles");
		json_level(j, &p->sc[i]);
		json_obj_end(j);
	}
	json_arr_end(j);
	return json_doc_end(j) ? -1 : 0; /* its error line names the file */
}

/* "35.2 (9), 58.4 (3)" or "one" */
static void fmt_levels(const struct noise_fig *f, char *buf, size_t len)
{
	int n = 0;

	if (f->nr_levels < 2) {
		snprintf(buf, len, "one");
		return;
	}
	for (size_t i = 0; i < f->nr_levels && n < (int)len; i++)
		n += snprintf(buf + n, len - n, "%s%.1f (%zu)", i ? ", " : "", f->levels[i].median,
			      f->levels[i].count);
}

/* The per-scenario table: spread between and within, levels, floor; and the file. */
void calibrate_report(const struct noise_profile *p, const char *path)
{
	const char *unit = p->host.clock.unit ? p->host.clock.unit : "cycles";
	bool ic = unit_counts_instructions(unit);
	char lv[96], text[400];

	printf("noise between invocations: %llu bench runs of %llu setups over %.0f s\n",
	       (unsigned long long)p->invocations, (unsigned long long)p->repeat, p->span_s);
	printf("%-10s %10s %10s %10s %8s %8s %8s  levels (%s/elem, runs)\n", "scenario", "median",
	       "min", "max", "CV betw", "CV in", "floor", ic ? "instr" : "cycles");
	for (size_t i = 0; i < p->nr_sc; i++) {
		const struct noise_fig *c = &p->sc[i].cycles;

		fmt_levels(c, lv, sizeof(lv));
		/* instructions: floors near 0.1 %, one more digit */
		printf("%-10s %10.1f %10.1f %10.1f %7.*f%% %7.*f%% %7.*f%%  %s\n", p->sc[i].name,
		       c->median, c->min, c->max, ic ? 2 : 1, c->cv_between * 100, ic ? 2 : 1,
		       c->cv_within * 100, ic ? 2 : 1, c->floor_pct, lv);
	}
	for (size_t i = 0; i < p->nr_sc; i++) {
		const struct noise_scenario *ns = &p->sc[i];

		if (ns->has_level)
			printf("level probe, %s: %.2f ns, r = %.2f with cycles; as a covariate it "
			       "leaves a CV of %.1f%% between runs (of %.1f%%)\n",
			       ns->name, ns->level_median_ns, ns->level_r, ns->level_cv_resid * 100,
			       ns->cycles.cv_between * 100);
	}
	snprintf(text, sizeof(text),
		 "floor: what a change between two single runs must exceed to count as "
		 "real: the largest of %g%% (of %s), the largest change seen between two of "
		 "these runs, and t(1 - 0.025/k, n-1) x sqrt(2) x CV between, k the number "
		 "of scenarios a gate tests together (so that a quiet pair of invocations "
		 "trips none of them with probability 0.95)",
		 unit_floor_pct(unit), unit);
	fprint_wrapped(stdout, "", text);
	printf("profile: %s\n", path);
}
