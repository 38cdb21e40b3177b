/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_OVERHEAD_REPORT_H
#define PPBENCH_OVERHEAD_REPORT_H

#include "model/bench_types.h"

void overhead_report(const struct overhead_figs *f);

#endif
