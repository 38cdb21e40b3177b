// SPDX-License-Identifier: GPL-2.0
/* ppbench export lkp: a result file as the stats lines of an LKP parse. */
#include <math.h>
#include "export/exportfig.h"
#include "export/lkpstats.h"

static void line(FILE *f, bool prefix, const char *scn, const char *key, const char *sub, double v)
{
	if (isfinite(v))
		fprintf(f, "%s%s.%s%s: %.10g\n", prefix ? "ppbench." : "", scn, key, sub, v);
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
		/* the elements of its timed runs: LKP's perf-stat instructions over them */
		if (sc->ok)
			fprintf(f, "%s%s.workload: %llu\n", prefix ? "ppbench." : "", scn,
				(unsigned long long)(sc->loops * sc->repeat));
	}
}
