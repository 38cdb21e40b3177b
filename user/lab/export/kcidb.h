/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_KCIDB_H
#define PPBENCH_KCIDB_H

#include <stddef.h>
#include <stdio.h>
#include "compare/compare_readback.h"
#include "model/result.h"

/*
 * KernelCI's KCIDB I/O data, schema version 5.0 (kernelci/kcidb-io,
 * kcidb_io/schema/v05_00.py; a 5.x reader takes any 5.y with y <= x).
 * What it asks of what we write: "version" {major, minor} at the top;
 * checkouts need id and origin, builds id, origin and checkout_id, tests id,
 * origin and build_id; an origin matches ^[a-z0-9_]+$ and every id starts
 * with "ORIGIN:"; a test path matches ^([a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*)?$;
 * status is one of FAIL ERROR MISS PASS DONE SKIP (DONE: a measurement
 * without a verdict); number is {"value" (number, required), "unit"
 * (string)}; no property is null. ppbench-export(8) lists what goes where.
 */
#define KCIDB_MAJOR 5
#define KCIDB_MINOR 0

struct kcidb_opts {
	const char *origin;   /* the submitting CI system, [a-z0-9_]+ (checked by the caller) */
	const char *build_id; /* "ORIGIN:..." of the CI's own build; NULL: a checkout and a build
				 per kernel release, named after it */
};

/* The tests of N result files: per scenario ppbench.SCENARIO, DONE or SKIP, and its path figure. */
void kcidb_write_results(FILE *f, const struct result *r, size_t n, const struct kcidb_opts *o);
/* The rows of compare's verdicts: ppbench.compare.SCENARIO[.path], PASS or FAIL where gated. */
void kcidb_write_compare(FILE *f, const struct compare_readback *d, const struct kcidb_opts *o);

#endif
