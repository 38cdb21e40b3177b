/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_INSTRUMENT_H
#define PPBENCH_INSTRUMENT_H

#include <stdint.h>

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

#endif
