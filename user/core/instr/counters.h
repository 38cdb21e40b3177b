/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_COUNTERS_H
#define PPBENCH_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "instr/instrument.h"
#include "sys/pmu.h"

/*
 * bench --counters: the CPU's counters (sys/pmu.h) as an instrument of
 * timed syscalls, each window from the syscall's entry to its exit, summed
 * until they are taken.
 */
struct counters {
	struct instrument in; /* first: the hook hands it back */
	struct pmu pmu;
	uint64_t sum[NR_PMU_COUNTERS], elems; /* the windows counted whole ... */
	uint32_t missed;		      /* ... and those that were not */
};

/* pmu_open() for the calling thread, the one that makes the timed syscalls. */
int counters_open(struct counters *c, bool cycles, char *why, size_t len);
void counters_close(struct counters *c);
/*
 * Each counter per element of the windows counted whole since the last
 * take (NAN without any) into PER_ELEM; returns how many windows were not
 * counted whole, and starts over (take after every run, failed ones too).
 */
uint32_t counters_take(struct counters *c, double per_elem[NR_PMU_COUNTERS]);

#endif
