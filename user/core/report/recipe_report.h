/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_RECIPE_REPORT_H
#define PPBENCH_RECIPE_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include "ppbench.h"
#include "model/counts.h"
#include "model/snapshot.h"

/* Pool kinds PPB_POOL_UNKNOWN (0) .. PPB_POOL_NIC, the ones recipe reports. */
#define RECIPE_NR_KINDS (PPB_POOL_NIC + 1)

/* One run of `ppbench recipe NAME`: what drove how many elements, and the counts per kind. */
struct recipe_facts {
	const char *name, *text;
	enum obs_backend backend;
	const char *backend_name;
	uint64_t elems;
	uint64_t untracked_pools, untracked_events; /* pools that found the observer's table full */
	int capacity;				    /* the table's room */
	uint64_t packets_action, packets_gen, packets_second, cpumap_drops;
	int nr_cpus;
	double probe_ns; /* fentry probe overhead per call (JSON timing), NAN if unknown */
	struct kind_counts kinds[RECIPE_NR_KINDS]; /* indexed by PPB_POOL_* */
};

/*
 * The text (unless kv, or JSON goes to stdout, "-"), KIND.FIELD=VALUE lines
 * (kv), and the JSON (json: a path, "-" or NULL). 0, or -1 after a one-line
 * error.
 */
int recipe_report(const struct recipe_facts *r, const char *json, bool kv);

#endif
