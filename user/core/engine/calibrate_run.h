/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_CALIBRATE_RUN_H
#define PPBENCH_CALIBRATE_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include "model/noise.h"

/* --runs and --duration's defaults (--repeat's is bench's, BENCH_REPEAT). */
#define CALIBRATE_RUNS 12
#define CALIBRATE_DURATION_S 240

struct calibrate_cfg {
	const char *output;   /* -o: the profile */
	const char *keep;     /* --keep DIR: leave the bench results there */
	const char *scenario; /* --scenario, passed to bench */
	uint32_t runs;	      /* bench invocations */
	uint32_t repeat;      /* setups per invocation (bench --repeat) */
	uint64_t loops;	      /* bench --loops, 0: bench's default */
	int cpu;
	double duration; /* seconds the runs are spread over */
	bool quiet;
	const char *counter; /* --counter NAME: the profile of that hardware counter */
};

/*
 * Runs cfg->runs bench invocations, each its own process as a CI job's
 * would be, started evenly over cfg->duration seconds so that they sample
 * the host's levels; builds the noise profile from their results into CAL
 * (calibrate_free() frees it). Returns 0, or a negative errno after the
 * one-line error.
 */
struct calibration {
	struct noise_profile p;
	/* the runs' results, which the profile's strings point into */
	struct result *res;
	char **paths;
	size_t nres;
};
int calibrate_main(const struct calibrate_cfg *cfg, struct calibration *cal);
void calibrate_free(struct calibration *cal);

#endif
