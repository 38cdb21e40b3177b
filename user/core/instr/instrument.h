/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_INSTRUMENT_H
#define PPBENCH_INSTRUMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sys/pmu.h"

/*
 * One hook around what ppbench times. Whatever watches or conditions a
 * timed run (the CPU's counters, vm --profile's windows, the timed chunks'
 * scheduling) is an instrument: it registers, and each window calls every
 * registered instrument that takes its span, so the code that times calls
 * the hook once before and once after, whatever instruments there are.
 */
enum instr_span {
	INSTR_CHUNK, /* a timed chunk of bench: the syscalls of one measured run */
	INSTR_TIMED, /* one timed BPF_PROG_RUN: what its test-run timer times is the figure */
	INSTR_WHOLE, /* everything the system runs (load's attached run, a module's load) */
	NR_INSTR_SPANS,
};

struct instrument {
	unsigned spans; /* the spans it takes: 1 << INSTR_TIMED | ... */
	/* 0, or -errno: then the window does not run */
	int (*begin)(struct instrument *in, enum instr_span span);
	/* ELEMS: what the window processed (0 when ERR, its outcome, is not 0); 0 or -errno */
	int (*end)(struct instrument *in, enum instr_span span, uint64_t elems, int err);
	struct instrument *next; /* (the hook's list) */
};

/* At most this many instruments begin one window. */
#define INSTR_MAX 8

/* One window: its span, and the instruments that began it. */
struct instr_window {
	enum instr_span span;
	int n;
	struct instrument *begun[INSTR_MAX];
};

/* IN, after those registered before it; once (a second add does nothing). */
void instr_add(struct instrument *in);
/* IN out of the hook, if it is in. */
void instr_remove(struct instrument *in);
/*
 * Begins W in each instrument that takes its span, in the order they were
 * added: 0, or the first one's -errno (-E2BIG past INSTR_MAX), when those
 * begun are ended again (with that error) and the window must not run.
 */
int instr_begin(struct instr_window *w);
/*
 * Ends W in each instrument it began, in reverse order (the last begun,
 * nearest the timed work, first), with ERR, the window's outcome, and ELEMS
 * (0 when ERR): ERR, or else the first -errno of an instrument's end.
 */
int instr_end(struct instr_window *w, uint64_t elems, int err);

/*
 * bench --counters: the CPU's counters (sys/pmu.h) as an instrument of
 * timed syscalls, each window from the syscall's entry to its exit, summed
 * until they are taken.
 */
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
 * Each counter per element of the windows counted whole since the last
 * take (NAN without any) into PER_ELEM; returns how many windows were not
 * counted whole, and starts over (take after every run, failed ones too).
 */
uint32_t counters_take(struct counters *c, double per_elem[NR_PMU_COUNTERS]);

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
