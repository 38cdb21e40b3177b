// SPDX-License-Identifier: GPL-2.0
/* The one-line verdicts of compare --bisect and of each ppbench-bisect step. */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "compare/bisect_status.h"
#include "compare/compare_report.h"

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
