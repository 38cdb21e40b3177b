// SPDX-License-Identifier: GPL-2.0
/* ppbench export bmf: a result file as Bencher's BMF JSON. */
#include <stdio.h>
#include "export/export_figures.h"
#include "export/bmf.h"
#include "report/json.h"

void bmf_write(FILE *f, const struct result *r)
{
	struct json *j = json_new(f, true);
	char bench[160], measure[64];
	struct xfig x;

	if (!j)
		return;
	json_obj_begin(j, NULL);
	for (size_t i = 0; i < r->nr_sc; i++) {
		const struct result_scenario *sc = &r->sc[i];

		if (!sc->ok)
			continue;
		snprintf(bench, sizeof(bench), "ppbench.%s", sc->name);
		json_obj_begin(j, bench);
		for (int k = 0; k < NR_XFIGS; k++) {
			xfig_get(sc, k, &x);
			if (!x.has || !xfig_exported(k, r->host.clock.unit))
				continue;
			json_obj_begin(j, xfig_name(k, r->host.clock.unit, x.method, '-', measure,
						    sizeof(measure)));
			json_double(j, "value", x.value);
			if (x.n > 1) {
				json_double(j, "lower_value", x.lo);
				json_double(j, "upper_value", x.hi);
			}
			json_obj_end(j);
		}
		json_obj_end(j);
	}
	json_obj_end(j);
	json_flush_line(j);
	json_close(j);
}
