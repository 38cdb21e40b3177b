// SPDX-License-Identifier: GPL-2.0
/* Timed chunks at SCHED_FIFO under the instruction clock (spanprio.h). */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include "sys/instclock.h"
#include "sys/log.h"
#include "sys/spanprio.h"

/* 5 ms of guest time: the kthreads and workers a chunk's setup woke are done */
#define SPANPRIO_DRAIN_NS (5 * 1000 * 1000)

static bool raised;

void spanprio_enter(void)
{
	struct sched_param sp = { .sched_priority = 1 };
	struct timespec ts = { 0, SPANPRIO_DRAIN_NS };
	static bool warned;

	if (!inst_clock()->icount || raised)
		return;
	nanosleep(&ts, NULL);
	if (!sched_setscheduler(0, SCHED_FIFO, &sp)) {
		raised = true;
	} else if (!warned) {
		warned = true;
		pr_warn("cannot run the timed chunks at SCHED_FIFO (%s): other tasks may run "
			"inside their spans\n",
			strerror(errno));
	}
}

void spanprio_leave(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	if (raised && !sched_setscheduler(0, SCHED_OTHER, &sp))
		raised = false;
}
