/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_COUNTERVIEW_H
#define PPBENCH_COUNTERVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include "model/result.h"
#include "sys/pmu.h"

/*
 * result_load(), then, when COUNTER is not NULL, the file seen through that
 * counter (bench --counters): each scenario's cycles_per_elem and
 * ns_per_elem become the counter per element, host.clock {"kind": "pmu",
 * "unit": NAME}, so that the readers apply the clock's rules to it and never
 * set it against a clock's. A scenario without the counter is skipped;
 * path and per-CPU figures go. -EINVAL and one line in ERR.
 */
int result_load_view(const char *path, struct result *r, const char *counter, char *err,
		     size_t len);
/* NAME is a counter a view can take (its error says which are). */
bool counter_name_ok(const char *name, char *err, size_t len);
/* UNIT (host.clock.unit) is a counter's: a view's. */
bool unit_is_counter(const char *unit);

#endif
