/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_KCLOCK_H
#define PPBENCH_KCLOCK_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The kernel's clock of a live-frames BPF_PROG_RUN: its duration is the
 * loop's time per frame truncated to whole ns. The syscall's wall time, less
 * its fixed cost outside the loop, tells where in [duration, duration + 1)
 * the true figure lies; a wall time outside it (a preemption, a fixed cost
 * misjudged) says nothing: then the middle. The loop's ns for the syscall.
 */
double testrun_clock_loop_ns(uint32_t duration, uint32_t frames, double wall_ns, double fixed_ns);
/* Whether the wall time fell inside the kernel's interval (else: its middle). */
bool testrun_clock_resolved(uint32_t duration, uint32_t frames, double wall_ns, double fixed_ns);

/* The fixed cost of one syscall of few frames: its wall time less the loop's middle. */
double testrun_clock_fixed_ns(uint32_t duration, uint32_t frames, double wall_ns);

#endif
