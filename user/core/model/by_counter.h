/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_COUNTERVIEW_H
#define PPBENCH_COUNTERVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include "model/result.h"
#include "sys/pmu.h"

/*
 * A bench --counters file seen through one of its counters: each scenario's
 * figure (cycles_per_elem, and ns_per_elem, which a counter has none of)
 * becomes that counter per element, and host.clock {"kind": "pmu", "unit":
 * NAME}, so that compare, trend, calibrate's profiles and the exports work on
 * it by the rules they apply to the clock's figures, and never set it against
 * a clock's (their clock check refuses). A scenario without the counter is
 * skipped with the file's reason; path figures and per-CPU figures are the
 * clock's and go. NAME: one of PMU_COUNTER_NAMES. -EINVAL with one line in ERR when the file
 * has no such counter anywhere.
 */
int result_view_counter(struct result *r, const char *name, char *err, size_t len);
/* result_load(), then COUNTER's view of it when COUNTER is not NULL. */
int result_load_view(const char *path, struct result *r, const char *counter, char *err,
		     size_t len);
/* NAME is a counter a view can take (its error says which are). */
bool counter_name_ok(const char *name, char *err, size_t len);
/* UNIT (host.clock.unit) is a counter's: a view's. */
bool unit_is_counter(const char *unit);

#endif
