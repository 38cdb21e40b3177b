// SPDX-License-Identifier: GPL-2.0
/* Timed chunks at SCHED_FIFO under the instruction clock (fifo_chunks.h). */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include "instr/fifo_chunks.h"
#include "sys/tsc_clock.h"
#include "sys/log.h"

/* 5 ms of guest time: the kthreads and workers a chunk's setup woke are done */
#define FIFO_CHUNK_DRAIN_NS (5 * 1000 * 1000)

static bool raised;

static int fifo_chunk_enter(struct instrument *in, enum instr_span span)
{
	struct sched_param sp = { .sched_priority = 1 };
	struct timespec ts = { 0, FIFO_CHUNK_DRAIN_NS };
	static bool warned;

	(void)in;
	(void)span;
	if (!inst_clock()->icount || raised)
		return 0;
	nanosleep(&ts, NULL);
	if (!sched_setscheduler(0, SCHED_FIFO, &sp)) {
		raised = true;
	} else if (!warned) {
		warned = true;
		pr_warn("cannot run the timed chunks at SCHED_FIFO (%s): other tasks may run "
			"inside their spans\n",
			strerror(errno));
	}
	return 0;
}

static int fifo_chunk_leave(struct instrument *in, enum instr_span span, uint64_t elems, int err)
{
	struct sched_param sp = { .sched_priority = 0 };

	(void)in;
	(void)span;
	(void)elems;
	(void)err;
	if (raised && !sched_setscheduler(0, SCHED_OTHER, &sp))
		raised = false;
	return 0;
}

struct instrument fifo_chunks = { .spans = 1u << INSTR_CHUNK,
				  .begin = fifo_chunk_enter,
				  .end = fifo_chunk_leave };
