// SPDX-License-Identifier: GPL-2.0
/* git bisect run's statuses: compare --bisect's, vm --bisect's and ppbench-bisect's. */
#include <stdio.h>
#include <string.h>
#include "compare/bisect_status.h"

int bisect_compare_status(enum cmp_outcome o)
{
	switch (o) {
	case CMP_PASS:
		return BISECT_GOOD;
	case CMP_GATED:
		return BISECT_BAD;
	case CMP_NO_FIGURE:
	case CMP_BAD_NEW:
		return BISECT_SKIP;
	case CMP_NO_BASELINE_FIG:
	case CMP_BAD_USAGE:
	case CMP_FAILED:
		break;
	}
	return BISECT_STOP;
}

int bisect_guest_status(int rc, bool host)
{
	if (rc < 0)
		return BISECT_STOP;
	if (!rc || rc >= BISECT_STOP)
		return rc;
	return host ? BISECT_STOP : BISECT_SKIP;
}

int bisect_step_status(enum bisect_stage stage, int status, bool have_result, bool host)
{
	if (stage == BISECT_AT_BOOT)
		return status || have_result ? bisect_guest_status(status, host) : BISECT_SKIP;
	if (status < 0 || (status && host))
		return BISECT_STOP;
	/* (126, 127: the tool could not run; 128 and above: a signal) */
	if (status < 126)
		return status ? BISECT_SKIP : BISECT_GOOD;
	return status > BISECT_STOP ? status : BISECT_STOP;
}

const char *bisect_status_name(int status)
{
	if (status == BISECT_GOOD)
		return "good";
	if (status == BISECT_SKIP)
		return "skip";
	return status > 0 && status < BISECT_STOP ? "bad" : "stop";
}

/* Why the files of one side have no METRIC figure of SCN, into WHY; false if they have. */
static bool side_lacks(const struct result *files, size_t n, const char *scn, enum fig metric,
		       char *why, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		const struct result_scenario *sc = result_find(&files[i], scn);

		if (!sc)
			snprintf(why, len, "%s: not in %s", scn, files[i].path);
		else if (!sc->ok)
			snprintf(why, len, "%s: skipped in %s: %s", scn, files[i].path,
				 sc->reason ? sc->reason : "no reason given");
		else if (metric == FIG_PATH && !sc->has_path_cost)
			snprintf(why, len, "%s: no path figure in %s (%s)", scn, files[i].path,
				 sc->path_cost_method ? sc->path_cost_method : "n/a");
		else
			continue;
		return true;
	}
	return false;
}

static bool named_before(const struct result *files, size_t file, size_t sc)
{
	for (size_t i = 0; i <= file; i++)
		for (size_t k = 0; k < (i < file ? files[i].nr_sc : sc); k++)
			if (!strcmp(files[i].sc[k].name, files[file].sc[sc].name))
				return true;
	return false;
}

/*
 * A scenario neither side has a figure of (ring-xcpu, which no guest of the
 * instruction clock runs) is no gate: nobody measured it. But when that
 * leaves nothing to decide on, the baseline cannot judge the scenarios
 * benched. The first gap of each kind is kept.
 */
enum cmp_outcome bisect_figures(const struct comparison *c, enum fig metric, char *why, size_t len)
{
	char old_why[256] = "", new_why[256] = "", w_old[256], w_new[256];
	size_t decided = 0, named = 0;

	for (size_t i = 0; i < c->nnew; i++) {
		for (size_t k = 0; k < c->new[i].nr_sc; k++) {
			const char *scn = c->new[i].sc[k].name;
			bool lo, ln;

			if (named_before(c->new, i, k))
				continue;
			named++;
			lo = side_lacks(c->old, c->nold, scn, metric, w_old, sizeof(w_old));
			ln = side_lacks(c->new, c->nnew, scn, metric, w_new, sizeof(w_new));
			if (lo && ln)
				continue;
			if (lo && !old_why[0])
				snprintf(old_why, sizeof(old_why), "%s", w_old);
			if (ln && !new_why[0])
				snprintf(new_why, sizeof(new_why), "%s", w_new);
			decided += !lo && !ln;
		}
	}
	if (old_why[0]) {
		snprintf(why, len, "%s", old_why);
		return CMP_NO_BASELINE_FIG;
	}
	if (new_why[0]) {
		snprintf(why, len, "%s", new_why);
		return CMP_NO_FIGURE;
	}
	if (!named) {
		snprintf(why, len, "%s names no scenario",
			 c->nnew ? c->new[0].path : "the new side");
		return CMP_NO_FIGURE;
	}
	if (!decided) {
		snprintf(why, len, "no scenario of %s has a figure in the baseline either",
			 c->new[0].path);
		return CMP_NO_BASELINE_FIG;
	}
	return CMP_PASS;
}
