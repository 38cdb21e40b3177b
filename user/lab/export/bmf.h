/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_BMF_H
#define PPBENCH_BMF_H

#include <stdio.h>
#include "model/result.h"

/*
 * Bencher Metric Format (bencher.dev, "Bencher Metric Format (BMF)"): one
 * object whose keys name benchmarks, each an object whose keys name measures
 * (a measure's name or slug: at most 64 characters), each {"value" (number,
 * required), "lower_value", "upper_value" (numbers)}. Benchmarks are
 * "ppbench.SCENARIO"; measures "cycles-per-elem" (or "instructions-per-elem",
 * per host.clock), "ns-per-elem" with the least and largest setup as lower
 * and upper value, "path-cycles-per-elem" and "purity-percent" with a value
 * only. A skipped scenario and a path figure that is n/a are left out.
 */
void bmf_write(FILE *f, const struct result *r);

#endif
