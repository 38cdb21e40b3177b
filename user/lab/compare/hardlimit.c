// SPDX-License-Identifier: GPL-2.0
/*
 * compare --limit: absolute ceilings on one file's figures, checked, and
 * their lines, their JSON and the gate's messages.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/hardlimit.h"
#include "model/scenario.h"
#include "sys/log.h"

/* FIGURE: cycles, ns or path, fig_name()'s words of the first three. */
static int parse_fig(const char *w, size_t n, enum fig *f)
{
	for (enum fig k = FIG_CYCLES; k <= FIG_PATH; k++)
		if (strlen(fig_name(k)) == n && !strncmp(fig_name(k), w, n)) {
			*f = k;
			return 0;
		}
	return -EINVAL;
}

int hard_limit_parse(const char *arg, struct hard_limit *l, char *err, size_t len)
{
	const char *eq = strchr(arg, '='), *colon;
	size_t sn;
	char *end;

	memset(l, 0, sizeof(*l));
	l->fig = FIG_CYCLES;
	if (!eq) {
		snprintf(err, len,
			 "--limit '%s': expected SCENARIO[:FIGURE]=MAX, e.g. fast:path=70", arg);
		return -EINVAL;
	}
	colon = memchr(arg, ':', eq - arg);
	sn = (colon ? colon : eq) - arg;
	if (!sn || sn >= sizeof(l->scenario)) {
		snprintf(err, len, "--limit '%s': no scenario before '%c'", arg, colon ? ':' : '=');
		return -EINVAL;
	}
	memcpy(l->scenario, arg, sn);
	if (scenario_by_name(l->scenario) < 0) {
		snprintf(err, len, "--limit '%s': no scenario '%s' (%s)", arg, l->scenario,
			 scenario_name_list());
		return -EINVAL;
	}
	if (colon && parse_fig(colon + 1, eq - colon - 1, &l->fig)) {
		snprintf(err, len, "--limit '%s': the figure is cycles, ns or path", arg);
		return -EINVAL;
	}
	errno = 0;
	l->max = strtod(eq + 1, &end);
	if (eq[1] == 0 || *end || errno || !isfinite(l->max) || l->max <= 0) {
		snprintf(err, len, "--limit '%s': MAX must be a number above 0", arg);
		return -EINVAL;
	}
	return 0;
}

void hard_limit_name(const struct hard_limit *l, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s=%g", l->scenario, fig_name(l->fig), l->max);
}

bool figure_gap(const struct result *r, const char *scn, enum fig f, char *buf, size_t len)
{
	const struct result_scenario *sc = result_find(r, scn);

	if (!sc)
		snprintf(buf, len, "%s: not in %s", scn, r->path);
	else if (!sc->ok)
		snprintf(buf, len, "%s: skipped in %s: %s", scn, r->path,
			 sc->reason ? sc->reason : "no reason given");
	else if (f == FIG_PATH && !sc->has_path_cost)
		snprintf(buf, len, "%s: no path figure in %s (%s)", scn, r->path,
			 sc->path_cost_method ? sc->path_cost_method : "n/a");
	else
		return false;
	return true;
}

void hard_limit_check(const struct hard_limit *l, const struct result *r, struct limit_check *out)
{
	const struct result_scenario *sc = result_find(r, l->scenario);

	memset(out, 0, sizeof(*out));
	out->limit = l;
	out->file = r;
	if (figure_gap(r, l->scenario, l->fig, out->gap, sizeof(out->gap)))
		return;
	out->has_value = true;
	out->method = l->fig == FIG_PATH ? sc->path_method : NULL;
	out->value = l->fig == FIG_PATH ? sc->path_cost
		     : l->fig == FIG_NS ? sc->ns.median
					: sc->cycles.median;
	out->exceeded = out->value > l->max;
}

int hard_limit_exact(const struct result *r, char *why, size_t len)
{
	const struct result_clock *c = result_clock_of(r);

	if (unit_counts_instructions(c->unit))
		return 0;
	snprintf(why, len,
		 "%s counts %s of the %s clock, which move between invocations: no single "
		 "figure is exact enough for a limit; use files of the instruction clock "
		 "(ppbench vm), or --fail-above against a baseline",
		 r->path, c->unit, c->kind);
	return -EXDEV;
}

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
