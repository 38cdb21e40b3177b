/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PMU_H
#define PPBENCH_PMU_H

#include <stdbool.h>
#include <stddef.h>
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
	int fd[NR_PMU_COUNTERS];   /* -1: not counted */
	uint64_t enabled, running; /* the last window's times, ns (pmu_stop) */
};

/*
 * How much of a window the group counted, from the kernel's times: enabled
 * (the window) and running (while the group held the PMU's counters). A
 * group that shares them with other events (multiplexed) counts part of the
 * window, one that never gets them counts nothing: either would read low.
 */
enum pmu_window {
	PMU_WHOLE,
	PMU_MULTIPLEXED,
	PMU_UNSCHEDULED,
};

/*
 * One read of the group V (nr, time enabled, time running, then the counts
 * in group order; pure): a window counted whole adds its counts to ACC and
 * returns PMU_WHOLE; any other adds nothing and returns its pmu_window.
 */
enum pmu_window pmu_window_add(const uint64_t *v, uint64_t acc[NR_PMU_COUNTERS]);

/* The name of counter I in results and exports: "kernel_instructions", ... */
const char *pmu_counter_name(enum pmu_counter i);
/* The counter named NAME, or -1. */
int pmu_counter_by_name(const char *name);
/* Whether counter I counts instructions (not cycles). */
bool pmu_counter_instructions(enum pmu_counter i);
/* The names as an option's help lists them (a unit test holds them to pmu_counter_name()). */
#define PMU_COUNTER_NAMES "kernel_instructions, user_instructions, kernel_cycles or user_cycles"

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
/*
 * Stops counting. A window counted whole adds its counts to
 * acc[NR_PMU_COUNTERS] and returns PMU_WHOLE (0); any other adds nothing and
 * returns its pmu_window; -errno on failure.
 */
int pmu_stop(struct pmu *p, uint64_t acc[NR_PMU_COUNTERS]);
/*
 * A window around a system call, as bench's checks make before a run: 0, or
 * -EBUSY with one line in WHY when the group is not counted whole (the PMU
 * has fewer free counters than the group needs), -errno on failure.
 */
int pmu_trial(struct pmu *p, char *why, size_t len);

#endif
