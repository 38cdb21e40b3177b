/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_ORDER_H
#define PPBENCH_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include "model/bench_types.h"

/*
 * Every published bench_page_pool_simple run orders its paths fast <
 * ptr_ring < slow. When fast, ring and slow all ran here and the figures
 * bench shows for them (the path figure where there is one, else the
 * scenario figure) do not order so, write one line into NOTE saying why and
 * return true; false (NOTE empty) otherwise. UNIT names what the figures
 * count ("cycles", "instr").
 */
bool bench_order_note(const struct sc_result res[NR_SCENARIOS], const char *unit, char *note,
		      size_t len);

#endif
