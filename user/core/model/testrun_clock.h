/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_KCLOCK_H
#define PPBENCH_KCLOCK_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The kernel's clock of a live-frames BPF_PROG_RUN. Its duration is the
 * batch loop's time divided by the frames in whole ns: truncated, so at
 * 15 ns per frame it is up to 7 % low. The syscall's wall time, less its
 * fixed cost outside the loop (pool setup and teardown, syscall entry),
 * tells where in [duration, duration + 1) the true figure lies. A wall time
 * outside that interval says nothing (a preemption between batches, which
 * the kernel's timer leaves out and the wall time does not; a fixed cost
 * misjudged): then the middle of the interval, at most 0.5 ns per frame
 * off. Returns the loop's ns for the syscall (not per frame).
 */
double testrun_clock_loop_ns(uint32_t duration, uint32_t frames, double wall_ns, double fixed_ns);
/* Whether the wall time fell inside the kernel's interval (else: its middle). */
bool testrun_clock_resolved(uint32_t duration, uint32_t frames, double wall_ns, double fixed_ns);

/*
 * The fixed cost of one syscall, from one of few frames: its wall time
 * less the loop's, taken at the middle of the truncation interval (so the
 * error is at most frames / 2 ns).
 */
double testrun_clock_fixed_ns(uint32_t duration, uint32_t frames, double wall_ns);

#endif
