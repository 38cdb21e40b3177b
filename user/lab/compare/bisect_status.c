// SPDX-License-Identifier: GPL-2.0
/* git bisect run's statuses, and the one-line verdicts of compare --bisect and ppbench-bisect. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "compare/bisect_status.h"
#include "compare/hardlimit.h"

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
	for (size_t i = 0; i < n; i++)
		if (figure_gap(&files[i], scn, metric, why, len))
			return true;
	return false;
}

/*
 * A scenario neither side has a figure of (ring-xcpu under the instruction
 * clock) is no gate, unless that leaves nothing to decide on.
 */
enum cmp_outcome bisect_figures(const struct comparison *c, enum fig metric, char *why, size_t len)
{
	char old_why[256] = "", new_why[256] = "", w_old[256], w_new[256];
	size_t decided = 0, named;
	const char **names = scenario_names(c->new, c->nnew, NULL, 0, &named);

	if (!names) {
		snprintf(why, len, "out of memory");
		return CMP_FAILED;
	}
	for (size_t i = 0; i < named; i++) {
		bool lo = side_lacks(c->old, c->nold, names[i], metric, w_old, sizeof(w_old));
		bool ln = side_lacks(c->new, c->nnew, names[i], metric, w_new, sizeof(w_new));

		if (lo && ln)
			continue;
		if (lo && !old_why[0])
			snprintf(old_why, sizeof(old_why), "%s", w_old);
		if (ln && !new_why[0])
			snprintf(new_why, sizeof(new_why), "%s", w_new);
		decided += !lo && !ln;
	}
	free(names);
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

__attribute__((format(printf, 3, 4))) static void append(char *buf, size_t len, const char *fmt,
							 ...)
{
	size_t at = strlen(buf);
	va_list ap;

	if (at + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
}

/* The first gate that fired, into BUF; false if none did. */
static bool fired(const struct cmp_set *set, char *buf, size_t len)
{
	for (size_t i = 0; i < set->n; i++)
		for (size_t k = 0; k < set->cmps[i].nrows; k++) {
			const struct row *r = &set->cmps[i].rows[k];

			if (!row_gated(set, r))
				continue;
			snprintf(buf, len, "%s %+.2f%%%s, limit %g%%", r->label,
				 r->unstable && !set->gate_unstable ? r->level_change : r->change,
				 r->unstable && !set->gate_unstable ? " between levels" : "",
				 set->fail_above);
			return true;
		}
	for (size_t i = 0; i < set->nlimits; i++)
		if (set->limits[i].has_value && set->limits[i].exceeded) {
			limit_desc(&set->limits[i], buf, len);
			append(buf, len, ": exceeded");
			return true;
		}
	return false;
}

void bisect_gates_why(const struct cmp_set *set, char *buf, size_t len)
{
	buf[0] = 0;
	if (fired(set, buf, len))
		return;
	/* nothing fired: each gated figure, as far as the line allows */
	for (size_t i = 0; set->gate && i < set->n; i++)
		for (size_t k = 0; k < set->cmps[i].nrows; k++) {
			const struct row *r = &set->cmps[i].rows[k];

			if (r->kind == set->metric && isfinite(r->change))
				append(buf, len, "%s%s %+.2f%%", *buf ? "; " : "", r->label,
				       r->change);
		}
	if (*buf)
		append(buf, len, ", limit %g%%", set->fail_above);
	for (size_t i = 0; i < set->nlimits; i++) {
		char d[320];

		limit_desc(&set->limits[i], d, sizeof(d));
		append(buf, len, "%s%s", *buf ? "; " : "", d);
	}
}

void bisect_print_verdict(int status, const char *why)
{
	fprintf(stderr, "ppbench compare: bisect: %s (%d): %s\n", bisect_status_name(status),
		status, why);
}

void bisect_print_step(FILE *f, const struct bisect_line *s)
{
	char t[96] = "";

	if (s->build_s >= 0 && s->boot_s >= 0)
		snprintf(t, sizeof(t), " [build %.0f s, boot and bench %.0f s]", s->build_s,
			 s->boot_s);
	else if (s->build_s >= 0)
		snprintf(t, sizeof(t), " [build %.0f s]", s->build_s);
	fprintf(f, "ppbench-bisect: %s%s%s (%d): %s%s%s%s\n", s->commit, *s->commit ? ": " : "",
		bisect_status_name(s->status), s->status, s->why, t, s->log ? "; log " : "",
		s->log ? s->log : "");
	fflush(f);
}
