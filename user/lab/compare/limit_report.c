// SPDX-License-Identifier: GPL-2.0
/* compare --limit: the limits' lines, their JSON and the gate's messages. */
#include <stdio.h>
#include <string.h>
#include "compare/compare_report.h"
#include "sys/log.h"

/* "path instr/elem (fentry)": a path figure names its method. */
static const char *words_of(const struct limit_check *l, char *buf, size_t len)
{
	bool ic = unit_counts_instructions(result_clock_of(l->file)->unit);
	size_t n = strlen(fig_words(l->limit->fig, ic, buf, len));

	if (l->method)
		snprintf(buf + n, len - n, " (%s)", l->method);
	return buf;
}

void limit_desc(const struct limit_check *l, char *buf, size_t len)
{
	char words[64];

	if (!l->has_value)
		snprintf(buf, len, "%s", l->gap);
	else
		snprintf(buf, len, "%s %s %.6g, limit %g", l->limit->scenario,
			 words_of(l, words, sizeof(words)), l->value, l->limit->max);
}

void limit_print_text(FILE *f, const struct limit_check *l, size_t n)
{
	char name[64], words[64];

	if (!n)
		return;
	fprintf(f, "%-24s %-20s %-28s %12s  %s\n", "limit", "file", "figure", "value", "verdict");
	for (size_t i = 0; i < n; i++) {
		hard_limit_name(l[i].limit, name, sizeof(name));
		if (!l[i].has_value) {
			fprintf(f, "%-24s %-20s %-28s %12s  no figure: %s\n", name, l[i].file->path,
				"", "n/a", l[i].gap);
			continue;
		}
		fprintf(f, "%-24s %-20s %-28s %12.6g  %s\n", name, l[i].file->path,
			words_of(&l[i], words, sizeof(words)), l[i].value,
			l[i].exceeded ? "EXCEEDED" : "ok");
	}
}

void limit_json(struct json *j, const struct limit_check *l, size_t n)
{
	if (!n)
		return;
	json_arr_begin(j, "limits");
	for (size_t i = 0; i < n; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "scenario", l[i].limit->scenario);
		json_str(j, "figure", fig_name(l[i].limit->fig));
		if (l[i].method)
			json_str(j, "method", l[i].method);
		json_double(j, "max", l[i].limit->max);
		json_str(j, "file", l[i].file->path);
		if (l[i].has_value) {
			json_double(j, "value", l[i].value);
			json_bool(j, "exceeded", l[i].exceeded);
		} else {
			json_none(j, "value");
			json_str(j, "gap", l[i].gap);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
}

int limit_gate(const struct limit_check *l, size_t n)
{
	size_t over = 0;
	char d[320];

	for (size_t i = 0; i < n; i++) {
		if (!l[i].has_value)
			pr_warn("--limit: cannot check %s: %s\n", l[i].limit->scenario, l[i].gap);
		if (!l[i].has_value || !l[i].exceeded)
			continue;
		over++;
		limit_desc(&l[i], d, sizeof(d));
		fprintf(stderr, "ppbench compare: limit exceeded: %s (%s)\n", d, l[i].file->path);
	}
	return over ? EXIT_REGRESSION : EXIT_OK;
}
