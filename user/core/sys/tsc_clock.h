/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_TSC_CLOCK_H
#define PPBENCH_TSC_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct tsc_info {
	double hz;	      /* calibrated TSC frequency; 0 if there is no TSC */
	bool constant;	      /* constant_tsc in /proc/cpuinfo */
	bool nonstop;	      /* nonstop_tsc */
	char clocksource[32]; /* current kernel clocksource */
	char cpu_model[128];
};

static inline uint64_t rdtsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
#else
	return 0;
#endif
}

/* Calibrate rdtsc against CLOCK_MONOTONIC over at least 50 ms. */
int tsc_calibrate(struct tsc_info *t);
/* ns -> TSC cycles with the calibrated ratio. */
double tsc_ns_to_cycles(const struct tsc_info *t, double ns);
/* The CPU model and TSC flags from /proc/cpuinfo's text in F (the first CPU's). */
void tsc_parse_cpuinfo(FILE *f, struct tsc_info *t);

/*
 * The clock this kernel's TSC runs on. Under qemu's instruction clock
 * (-icount shift=0) the guest's TSC and ktime advance one tick per guest
 * instruction: every "cycle" and "ns" ppbench measures there is an
 * instruction. A guest cannot see that by itself, so the host says it on the
 * kernel command line: ppbench.clock=icount:OPTIONS (ppbench vm does).
 */
struct inst_clock {
	bool icount;
	/* plain qemu emulation (ppbench vm --clock tcg, ppbench.clock=tcg): its
	 * TSC and ktime follow the emulator's pace, so its figures mean nothing */
	bool tcg;
	char qemu[96]; /* "-icount shift=0,sleep=off", "-accel tcg"; "" for the TSC */
	/* the qemu release that ran the guest ("10.0.2"; ppbench.qemu=VERSION), or "":
	 * -cpu max differs between releases, and so does the kernel code a guest
	 * runs (its alternatives) */
	char qemu_version[32];
	/*
	 * The CPU's counter. x86-64: the TSC, whose ticks are what ppbench calls
	 * cycles. arm64 has none that user space may read as CPU cycles: its
	 * generic timer (CNTVCT_EL0) ticks at CNTFRQ_EL0, tens of MHz, so there
	 * every figure stays ns of the kernel's clock, and the timer's
	 * frequency is recorded, never its ticks as cycles.
	 */
	bool tsc;
	const char *counter; /* "TSC" or "CNTVCT_EL0" */
	double counter_hz;   /* CNTFRQ_EL0 on arm64; 0 for the TSC (calibrated apart) */
};

/* Why no cross-CPU scenario runs under the instruction clock. */
#define INST_CLOCK_NO_XCPU                                                                         \
	"the instruction clock (qemu -icount) runs the vCPUs in turns in one thread: a "           \
	"cross-CPU figure means nothing there"

/* Read once from /proc/cmdline. */
const struct inst_clock *inst_clock(void);
/* From a kernel command line (the parsing of inst_clock(), for tests). */
void inst_clock_parse(const char *cmdline, struct inst_clock *c);
/*
 * What the figures count: "icount"/"instructions" under qemu's instruction
 * clock; "tcg" under plain emulation, in the emulated TSC's "cycles" (or
 * "ns"); else "tsc"/"cycles" with a TSC, else "ktime"/"ns" (arm64). A
 * different kind never compares with another.
 */
const char *inst_clock_kind(const struct inst_clock *c);
const char *inst_clock_unit(const struct inst_clock *c);
/*
 * What bench's cycles(tsc) and ns are, for its header: TSC_HZ is the TSC's
 * calibrated frequency (0 without one). E.g. "TSC 2.445 GHz", or on arm64
 * "no cycle counter: cycles(tsc) and cycles below are ns of the kernel's
 * clock (CNTVCT_EL0 at 25.000 MHz, a tick per 40.0 ns, not CPU cycles)".
 */
void inst_clock_describe(const struct inst_clock *c, double tsc_hz, char *buf, size_t len);

#endif
