/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PMU_H
#define PPBENCH_PMU_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The CPU's own counters (perf_event_open), for the calling thread: retired
 * instructions and, on request, CPU cycles, each counted apart in kernel
 * and in user mode (exclude_user / exclude_kernel), as one group that is
 * enabled and disabled together around a window. What a window holds: every
 * instruction the thread retires between the two ioctl()s on its CPU,
 * interrupts that land there included.
 */
enum pmu_counter {
	PMU_INSTR_KERNEL,
	PMU_INSTR_USER,
	PMU_CYCLES_KERNEL,
	PMU_CYCLES_USER,
	NR_PMU_COUNTERS,
};

struct pmu {
	int fd[NR_PMU_COUNTERS]; /* -1: not counted */
	bool cycles;
};

/* The name of counter I in results and exports: "kernel_instructions", ... */
const char *pmu_counter_name(enum pmu_counter i);
/* Its unit in a sentence: "kernel instructions", ... */
const char *pmu_counter_words(enum pmu_counter i);
/* The counter of NAME (pmu_counter_name()), or -1. */
int pmu_counter_by_name(const char *name);

/*
 * Opens the group for the calling thread: instructions, and cycles too if
 * CYCLES. -errno on failure, with one line in WHY saying which and why: no
 * counter at all (ENOENT: no PMU, as in most VMs and x86 under TCG), refused
 * (EACCES/EPERM: perf_event_paranoid), and the like.
 */
int pmu_open(struct pmu *p, bool cycles, char *why, size_t len);
void pmu_close(struct pmu *p);
/* Resets, then counts until pmu_stop(). */
int pmu_start(struct pmu *p);
/* Stops counting and adds the window's counts to acc[NR_PMU_COUNTERS]. */
int pmu_stop(struct pmu *p, uint64_t acc[NR_PMU_COUNTERS]);

#endif
