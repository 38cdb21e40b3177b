// SPDX-License-Identifier: GPL-2.0
/* compare --org: the page_pool maintainers' Org table, with its #+TBLFM. */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "judge/report/orgtable.h"

#define ORG_TBLFM "#+TBLFM: $4=$3-$2::$7=$6-$5;%.3f::$8=(($7/$5)*100);%.1f"

static const struct row *find(const struct comparison *c, const char *scn, enum fig kind)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].kind == kind && !strcmp(c->rows[i].scenario, scn))
			return &c->rows[i];
	return NULL;
}

/*
 * One row: the cycles and ns as printed, then the diffs and the change
 * computed from those printed strings, as the TBLFM line computes them.
 */
static void org_row(FILE *f, const struct row *cy, const struct row *ns)
{
	char cb[32], ca[32], nb[32], na[32], nd[32], pc[32];
	double before_ns, diff_ns;
	long long diff_cy;

	snprintf(cb, sizeof(cb), "%.0f", cy->ofig);
	snprintf(ca, sizeof(ca), "%.0f", cy->nfig);
	snprintf(nb, sizeof(nb), "%.3f", ns->ofig);
	snprintf(na, sizeof(na), "%.3f", ns->nfig);
	diff_cy = strtoll(ca, NULL, 10) - strtoll(cb, NULL, 10);
	before_ns = strtod(nb, NULL);
	snprintf(nd, sizeof(nd), "%.3f", strtod(na, NULL) - before_ns);
	diff_ns = strtod(nd, NULL);
	if (before_ns != 0)
		snprintf(pc, sizeof(pc), "%.1f", diff_ns / before_ns * 100);
	else
		snprintf(pc, sizeof(pc), "n/a");
	fprintf(f, "| %-10s | %8s | %8s | %6lld | %9s | %9s | %8s | %6s |\n", cy->scenario, cb, ca,
		diff_cy, nb, na, nd, pc);
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

void compare_print_org(FILE *f, const struct cmp_set *set, const struct comparison *c)
{
	char unit[32];

	(void)set;
	unit_title(c, unit, sizeof(unit));
	fprintf(f, "# ppbench compare: old");
	for (size_t i = 0; i < c->nold; i++)
		fprintf(f, " %s", c->old[i].path);
	fprintf(f, ", new");
	for (size_t i = 0; i < c->nnew; i++)
		fprintf(f, " %s", c->new[i].path);
	fprintf(f, "\n# before, after: %s per element, %s; diff and %% change: #+TBLFM below\n",
		c->noise == NOISE_PROFILE ? "medians" : "means",
		c->noise == NOISE_FILES ? "of the files' medians" : "of the setups");
	/* Under qemu's instruction clock the guest's ns advance one per instruction. */
	if (counts_instructions(c))
		fprintf(f, "# instruction clock: instructions per element; guest ns are "
			   "instructions too (one ns per instruction), not time\n");
	fprintf(f, "| %-10s | %8s | %8s | %6s | %9s | %9s | %8s | %6s |\n", "Test name", unit, "",
		"", counts_instructions(c) ? "Guest ns" : "Nanosec", "", "", "%");
	fprintf(f, "| %-10s | %8s | %8s | %6s | %9s | %9s | %8s | %6s |\n", "(ppbench)", "Before",
		"After", "diff", "Before", "After", "diff", "change");
	fprintf(f, "|------------+----------+----------+--------+-----------+-----------+----------"
		   "+--------|\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct row *cy = &c->rows[i], *ns;

		if (cy->kind != FIG_CYCLES)
			continue;
		ns = find(c, cy->scenario, FIG_NS);
		if (ns)
			org_row(f, cy, ns);
	}
	fprintf(f, "%s\n", ORG_TBLFM);
	for (size_t i = 0; i < c->nnotes; i++)
		fprintf(f, "# %s\n", c->notes[i]);
}
