// SPDX-License-Identifier: GPL-2.0
/* compare --limit: absolute ceilings on one file's figures (model/hardlimit.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/hardlimit.h"
#include "model/scenario.h"

static const struct {
	const char *word;
	enum fig fig;
} limit_figs[] = {
	{ "cycles", FIG_CYCLES },
	{ "ns", FIG_NS },
	{ "path", FIG_PATH },
};

static const char *limit_fig_word(enum fig f)
{
	for (size_t i = 0; i < sizeof(limit_figs) / sizeof(limit_figs[0]); i++)
		if (limit_figs[i].fig == f)
			return limit_figs[i].word;
	return "?";
}

static int parse_fig(const char *w, size_t n, enum fig *f)
{
	for (size_t i = 0; i < sizeof(limit_figs) / sizeof(limit_figs[0]); i++)
		if (strlen(limit_figs[i].word) == n && !strncmp(limit_figs[i].word, w, n)) {
			*f = limit_figs[i].fig;
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
	snprintf(buf, len, "%s:%s=%g", l->scenario, limit_fig_word(l->fig), l->max);
}

void hard_limit_check(const struct hard_limit *l, const struct result *r, struct limit_check *out)
{
	const struct result_scenario *sc = result_find(r, l->scenario);

	memset(out, 0, sizeof(*out));
	out->limit = l;
	out->file = r;
	if (!sc)
		snprintf(out->gap, sizeof(out->gap), "%s: not in %s", l->scenario, r->path);
	else if (!sc->ok)
		snprintf(out->gap, sizeof(out->gap), "%s: skipped in %s: %s", l->scenario, r->path,
			 sc->reason ? sc->reason : "no reason given");
	else if (l->fig == FIG_PATH && !sc->has_path_cost)
		snprintf(out->gap, sizeof(out->gap), "%s: no path figure in %s (%s)", l->scenario,
			 r->path, sc->path_cost_method ? sc->path_cost_method : "n/a");
	if (out->gap[0])
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
