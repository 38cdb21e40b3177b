/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_INSTRUMENT_H
#define PPBENCH_INSTRUMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sys/pmu.h"

/*
 * One hook around what ppbench times: whatever watches or conditions a
 * timed run (counters, vm --profile's windows, scheduling) registers as an
 * instrument, and the code that times calls the hook once before and once after.
 */
enum instr_span {
	INSTR_CHUNK, /* a timed chunk of bench: the syscalls of one measured run */
	INSTR_TIMED, /* one timed BPF_PROG_RUN: what its test-run timer times is the figure */
	INSTR_WHOLE, /* everything the system runs (load's attached run, a module's load) */
};

struct instrument {
	unsigned spans; /* the spans it takes: 1 << INSTR_TIMED | ... */
	/* 0, or -errno: then the window does not run */
	int (*begin)(struct instrument *in, enum instr_span span);
	/* ELEMS: what the window processed (0 when ERR, its outcome, is not 0); 0 or -errno */
	int (*end)(struct instrument *in, enum instr_span span, uint64_t elems, int err);
	struct instrument *next; /* (the hook's list) */
};

#define INSTR_MAX 8

/* One window: its span, and the instruments that began it. */
struct instr_window {
	enum instr_span span;
	int n;
	struct instrument *begun[INSTR_MAX];
};

/* IN, after those registered before it; once. */
void instr_add(struct instrument *in);
void instr_remove(struct instrument *in);
/*
 * Begins W in each instrument of its span, in the order added: 0, or the
 * first -errno (-E2BIG past INSTR_MAX), those begun ended again, and the
 * window must not run.
 */
int instr_begin(struct instr_window *w);
/*
 * Ends W in reverse order (the nearest the timed work first) with ERR, the
 * window's outcome, and ELEMS: ERR, or else the first -errno of an end.
 */
int instr_end(struct instr_window *w, uint64_t elems, int err);

/* bench --counters: the CPU's counters around each timed syscall, summed until taken. */
struct counters {
	struct instrument in; /* first: the hook hands it back */
	struct pmu pmu;
	uint64_t sum[NR_PMU_COUNTERS], elems; /* the windows counted whole ... */
	uint32_t missed;		      /* ... and those that were not */
};

/* pmu_open() for the calling thread, the one that makes the timed syscalls. */
int counters_open(struct counters *c, bool cycles, char *why, size_t len);
void counters_close(struct counters *c);
/*
 * Each counter per element of the windows counted whole since the last take
 * (NAN without any); returns how many were not counted whole, and starts over.
 */
uint32_t counters_take(struct counters *c, double per_elem[NR_PMU_COUNTERS]);

/*
 * Under qemu's instruction clock, a timed chunk of a recipe the kernel
 * clocks (which waits for no other task) runs at SCHED_FIFO 1: the
 * clock counts every instruction of the guest, and a task a timer woke
 * would run inside it as the tick falls. Its window first lets woken tasks
 * run, its end returns to SCHED_OTHER so that deferred work runs between
 * chunks. Elsewhere it does nothing.
 */
extern struct instrument fifo_chunks;

#endif
