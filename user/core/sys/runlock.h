/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_RUNLOCK_H
#define PPBENCH_RUNLOCK_H

#include <stdbool.h>

/*
 * One measuring run (bench, recipe) per machine: two at once put each
 * other's probes on the timed path. An exclusive flock() on a file in /run
 * (or /tmp), held until the process exits: the kernel releases it when the
 * holder dies, whatever killed it, so a lock is never stale. The holder
 * writes its PID and command into the file for the one who finds it taken.
 *
 * A child of the holder goes ahead (calibrate holds the lock for the bench
 * runs it starts).
 *
 * what: the command taking it ("bench"). wait: queue behind the holder
 * instead of failing. Returns 0, or -EBUSY after one error line naming the
 * holder's PID, or another -errno after an error line.
 */
int run_lock_take(const char *what, bool wait);

#endif
