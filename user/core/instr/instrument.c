// SPDX-License-Identifier: GPL-2.0
/* The hook around timed runs, and bench's two instruments (instrument.h). */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include "instr/instrument.h"
#include "sys/tsc_clock.h"
#include "sys/log.h"

static struct instrument *instruments;

void instr_add(struct instrument *in)
{
	struct instrument **p = &instruments;

	while (*p && *p != in)
		p = &(*p)->next;
	if (*p)
		return;
	in->next = NULL;
	*p = in;
}

void instr_remove(struct instrument *in)
{
	for (struct instrument **p = &instruments; *p; p = &(*p)->next)
		if (*p == in) {
			*p = in->next;
			return;
		}
}

int instr_begin(struct instr_window *w)
{
	int err = 0;

	w->n = 0;
	for (struct instrument *in = instruments; in && !err; in = in->next) {
		if (!(in->spans & (1u << w->span)))
			continue;
		err = w->n == INSTR_MAX ? -E2BIG : in->begin ? in->begin(in, w->span) : 0;
		if (!err)
			w->begun[w->n++] = in;
	}
	if (err)
		instr_end(w, 0, err);
	return err;
}

int instr_end(struct instr_window *w, uint64_t elems, int err)
{
	int first = 0;

	while (w->n > 0) {
		struct instrument *in = w->begun[--w->n];
		int ret = in->end ? in->end(in, w->span, err ? 0 : elems, err) : 0;

		first = first ?: ret;
	}
	return err ?: first;
}

static int counters_begin(struct instrument *in, enum instr_span span)
{
	(void)span;
	return pmu_start(&((struct counters *)in)->pmu);
}

static int counters_end(struct instrument *in, enum instr_span span, uint64_t elems, int err)
{
	struct counters *c = (struct counters *)in;
	/* (adds to the sums a window counted whole only: part of one would read low) */
	int ret = pmu_stop(&c->pmu, c->sum);

	(void)span;
	(void)err;
	c->missed += ret > 0;
	c->elems += ret ? 0 : elems;
	return ret < 0 ? ret : 0;
}

int counters_open(struct counters *c, bool cycles, char *why, size_t len)
{
	memset(c, 0, sizeof(*c));
	c->in = (struct instrument){ .spans = 1u << INSTR_TIMED,
				     .begin = counters_begin,
				     .end = counters_end };
	return pmu_open(&c->pmu, cycles, why, len);
}

void counters_close(struct counters *c)
{
	instr_remove(&c->in);
	pmu_close(&c->pmu);
}

uint32_t counters_take(struct counters *c, double per_elem[NR_PMU_COUNTERS])
{
	uint32_t missed = c->missed;

	for (int k = 0; k < NR_PMU_COUNTERS; k++)
		per_elem[k] = c->elems ? (double)c->sum[k] / c->elems : NAN;
	memset(c->sum, 0, sizeof(c->sum));
	c->elems = 0;
	c->missed = 0;
	return missed;
}

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
