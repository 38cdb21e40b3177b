/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_FIFO_CHUNKS_H
#define PPBENCH_FIFO_CHUNKS_H

#include "instr/instrument.h"

/*
 * Under qemu's instruction clock, a timed chunk of a recipe the kernel clocks
 * (BPF_PROG_RUN's loop, which waits for no other task) runs at SCHED_FIFO 1, so that
 * no other task of the guest runs inside its timed spans: the clock counts
 * every instruction of the guest, and a task that a timer woke would run
 * there as the tick happens to fall (7.x preempts lazily, at the tick),
 * moving the figures from boot to boot. A chunk's window first lets the
 * tasks already woken run (a sleep: idle guest time costs nothing under
 * sleep=off); its end returns to SCHED_OTHER, so that deferred work (RCU
 * callbacks, the page_pools' release) runs between chunks. Elsewhere it does
 * nothing: on real hardware a task's priority is the user's business. It
 * measures nothing, but wraps the same windows, so it goes through the same
 * hook.
 */
extern struct instrument fifo_chunks;

#endif
