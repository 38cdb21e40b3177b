// SPDX-License-Identifier: GPL-2.0
/* ppbench export lkp: a result file as the stats lines of an LKP parse. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/prof_diff.h"
#include "export/export_figures.h"
#include "export/lkpstats.h"

static void line(FILE *f, bool prefix, const char *scn, const char *key, const char *sub, double v)
{
	if (isfinite(v))
		fprintf(f, "%s%s.%s%s: %.10g\n", prefix ? "ppbench." : "", scn, key, sub, v);
}

/* A perf-profile stat of scenario SCN: LKP's row name, [user]'s brackets left out. */
static void prof_line(FILE *f, bool prefix, const char *scn, enum prow_kind k, const char *name,
		      double v, double floor)
{
	char *key = fabs(v) + 1e-9 >= floor ? prow_lkp_name(k, name) : NULL;
	size_t n = 0;

	for (size_t i = 0; key && key[i]; i++)
		if (isalnum((unsigned char)key[i]) || strchr("_.-", key[i]))
			key[n++] = key[i];
	if (key && isfinite(v))
		fprintf(f, "%s%s.%.*s: %.10g\n", prefix ? "ppbench." : "", scn, (int)n, key, v);
	free(key);
}

/*
 * A profile's rows: the chains the file lists (those of its chain floor
 * or more), the functions of that floor or more; a file without a call
 * graph has the functions' self only, every one.
 */
static void prof_lines(FILE *f, bool prefix, const char *scn, const struct result_profile *p)
{
	double floor = p->has_graph ? p->chain_floor : 0;

	for (size_t i = 0; i < p->nchain; i++)
		prof_line(f, prefix, scn, PROW_CALLTRACE, p->chain[i].chain, p->chain[i].children,
			  floor);
	for (size_t i = 0; i < p->ngfn; i++)
		prof_line(f, prefix, scn, PROW_CHILDREN, p->gfn[i].name, p->gfn[i].children, floor);
	for (size_t i = 0; i < p->nfn; i++)
		prof_line(f, prefix, scn, PROW_SELF, p->fn[i].name, p->fn[i].per_elem, floor);
}

void lkp_write(FILE *f, const struct result *r, bool prefix)
{
	const char *unit = r->host.clock.unit;
	char scn[128], key[64];
	struct xfig x;

	for (size_t i = 0; i < r->nr_sc; i++) {
		const struct result_scenario *sc = &r->sc[i];

		xfig_key_part(sc->name, scn, sizeof(scn));
		for (int k = 0; k < NR_XFIGS; k++) {
			xfig_get(sc, k, &x);
			if (!x.has || !xfig_exported(k, unit))
				continue;
			xfig_name(k, unit, x.method, '_', key, sizeof(key));
			line(f, prefix, scn, key, "", x.value);
			if (k != XFIG_CYCLES)
				continue;
			/* the spread of the setups, as LKP's own parsers name theirs */
			line(f, prefix, scn, key, ".min", x.lo);
			line(f, prefix, scn, key, ".max", x.hi);
			line(f, prefix, scn, key, ".stddev_percent", x.cv * 100);
		}
		if (sc->ok && sc->prof.has)
			prof_lines(f, prefix, scn, &sc->prof);
		/* the elements of its timed runs: LKP's perf-stat instructions over them */
		if (sc->ok)
			fprintf(f, "%s%s.workload: %llu\n", prefix ? "ppbench." : "", scn,
				(unsigned long long)(sc->loops * sc->repeat));
	}
}
