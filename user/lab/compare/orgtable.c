// SPDX-License-Identifier: GPL-2.0
/* compare --org: the page_pool maintainers' Org table, with its #+TBLFM. */
#include <ctype.h>
#include <stdlib.h>
#include "compare/compare_report.h"

/* Scenario SCN's figures as printed, and diffs computed from those strings, as TBLFM does. */
static void org_row(FILE *f, const struct cmp_set *set, const char *scn)
{
	const struct row *cy0 = find_row(&set->cmps[0], scn, FIG_CYCLES);
	const struct row *ns0 = find_row(&set->cmps[0], scn, FIG_NS);
	char cb[32], ca[32], nb[32], na[32], nd[32];
	double before_ns, diff_ns;

	snprintf(cb, sizeof(cb), "%.0f", cy0->ofig);
	snprintf(nb, sizeof(nb), "%.3f", ns0->ofig);
	before_ns = strtod(nb, NULL);
	fprintf(f, "| %-10s | %8s |", scn, cb);
	for (size_t i = 0; i < set->n; i++) {
		snprintf(ca, sizeof(ca), "%.0f", find_row(&set->cmps[i], scn, FIG_CYCLES)->nfig);
		fprintf(f, " %8s | %6lld |", ca, strtoll(ca, NULL, 10) - strtoll(cb, NULL, 10));
	}
	fprintf(f, " %9s |", nb);
	for (size_t i = 0; i < set->n; i++) {
		snprintf(na, sizeof(na), "%.3f", find_row(&set->cmps[i], scn, FIG_NS)->nfig);
		snprintf(nd, sizeof(nd), "%.3f", strtod(na, NULL) - before_ns);
		diff_ns = strtod(nd, NULL);
		fprintf(f, " %9s | %8s |", na, nd);
		if (before_ns != 0)
			fprintf(f, " %6.1f |", diff_ns / before_ns * 100);
		else
			fprintf(f, " %6s |", "n/a");
	}
	fprintf(f, "\n");
}

/* Whether every column has scenario SCN's cycles and ns. */
static bool in_every_column(const struct cmp_set *set, const char *scn)
{
	for (size_t i = 0; i < set->n; i++)
		if (!find_row(&set->cmps[i], scn, FIG_CYCLES) ||
		    !find_row(&set->cmps[i], scn, FIG_NS))
			return false;
	return true;
}

static bool counts_instructions(const struct comparison *c)
{
	return c->nold && unit_counts_instructions(c->old[0].host.clock.unit);
}

/* The unit's name with a capital, as the header's first cell over the cycles
 * (8 columns: "Instructions" is cut to "Instr."). */
static void unit_title(const struct comparison *c, char *buf, size_t len)
{
	if (counts_instructions(c)) {
		snprintf(buf, len, "Instr.");
		return;
	}
	snprintf(buf, len, "%s", c->nold ? c->old[0].host.clock.unit : "cycles");
	buf[0] = toupper((unsigned char)buf[0]);
}

/* "$4=$3-$2::$7=$6-$5;%.3f::$8=(($7/$5)*100);%.1f" for one column; more for more. */
static void org_tblfm(FILE *f, size_t n)
{
	size_t nb = 2 * n + 3; /* the base's ns */

	fprintf(f, "#+TBLFM:");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s$%zu=$%zu-$2", i ? "::" : " ", 4 + 2 * i, 3 + 2 * i);
	for (size_t i = 0, a = nb + 1; i < n; i++, a += 3)
		fprintf(f, "::$%zu=$%zu-$%zu;%%.3f::$%zu=(($%zu/$%zu)*100);%%.1f", a + 1, a, nb,
			a + 2, a + 1, nb);
	fprintf(f, "\n");
}

/* The header: the unit's titles, then Before and After (with columns, their names). */
static void org_head(FILE *f, const struct cmp_set *set, const char (*names)[COL_NAME_LEN])
{
	const struct comparison *c = &set->cmps[0];
	char unit[32];

	unit_title(c, unit, sizeof(unit));
	fprintf(f, "| %-10s | %8s |", "Test name", unit);
	for (size_t i = 0; i < set->n; i++)
		fprintf(f, " %8s | %6s |", "", "");
	fprintf(f, " %9s |", counts_instructions(c) ? "Guest ns" : "Nanosec");
	for (size_t i = 0; i < set->n; i++)
		fprintf(f, " %9s | %8s | %6s |", "", "", i ? "" : "%");
	fprintf(f, "\n| %-10s | %8.8s |", "(ppbench)", names ? names[0] : "Before");
	for (size_t i = 0; i < set->n; i++)
		fprintf(f, " %8.8s | %6s |", names ? names[i + 1] : "After", "diff");
	fprintf(f, " %9.9s |", names ? names[0] : "Before");
	for (size_t i = 0; i < set->n; i++)
		fprintf(f, " %9.9s | %8s | %6s |", names ? names[i + 1] : "After", "diff",
			"change");
	fprintf(f, "\n|------------+----------");
	for (size_t i = 0; i < set->n; i++)
		fprintf(f, "+----------+--------");
	fprintf(f, "+-----------");
	for (size_t i = 0; i < set->n; i++)
		fprintf(f, "+-----------+----------+--------");
	fprintf(f, "|\n");
}

static void org_files(FILE *f, const char *side, const struct result *files, size_t n)
{
	fprintf(f, "%s", side);
	for (size_t i = 0; i < n; i++)
		fprintf(f, " %s", files[i].path);
}

void compare_print_org(FILE *f, const struct cmp_set *set, const char (*names)[COL_NAME_LEN])
{
	const struct comparison *c = &set->cmps[0];

	org_files(f, "# ppbench compare: old", c->old, c->nold);
	for (size_t i = 0; i < set->n; i++)
		org_files(f, i ? ", then" : ", new", set->cmps[i].new, set->cmps[i].nnew);
	fprintf(f, "\n# before, after: %s per element, %s; diff and %% change: #+TBLFM below\n",
		c->noise == NOISE_PROFILE ? "medians" : "means",
		c->noise == NOISE_FILES ? "of the files' medians" : "of the setups");
	/* Under qemu's instruction clock the guest's ns advance one per instruction. */
	if (counts_instructions(c))
		fprintf(f, "# instruction clock: instructions per element; guest ns are "
			   "instructions too (one ns per instruction), not time\n");
	org_head(f, set, names);
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].kind == FIG_CYCLES && in_every_column(set, c->rows[i].scenario))
			org_row(f, set, c->rows[i].scenario);
	org_tblfm(f, set->n);
	for (size_t i = 0; i < set->n; i++)
		for (size_t k = 0; k < set->cmps[i].nnotes; k++)
			fprintf(f, "# %s%s%s\n", names ? names[i + 1] : "", names ? ": " : "",
				set->cmps[i].notes[k]);
}
