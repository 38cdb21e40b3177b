// SPDX-License-Identifier: GPL-2.0
/* The CPU's counters around each timed syscall (counters.h). */
#include <math.h>
#include <string.h>
#include "instr/counters.h"

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
