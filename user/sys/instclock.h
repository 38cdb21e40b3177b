/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_INSTCLOCK_H
#define PPBENCH_INSTCLOCK_H

#include <stdbool.h>

/*
 * The clock this kernel's TSC runs on. Under qemu's instruction clock
 * (-icount shift=0) the guest's TSC and ktime advance one tick per guest
 * instruction: every "cycle" and "ns" ppbench measures there is an
 * instruction. A guest cannot see that by itself, so the host says it on the
 * kernel command line: ppbench.clock=icount:OPTIONS (ppbench vm does).
 */
struct inst_clock {
	bool icount;
	char qemu[96]; /* "-icount shift=0,sleep=off"; "" for the TSC */
};

/* Why no cross-CPU scenario runs under the instruction clock. */
#define INST_CLOCK_NO_XCPU                                                                         \
	"the instruction clock (qemu -icount) runs the vCPUs in turns in one thread: a "           \
	"cross-CPU figure means nothing there"

/* Read once from /proc/cmdline. */
const struct inst_clock *inst_clock(void);
/* From a kernel command line (the parsing of inst_clock(), for tests). */
void inst_clock_parse(const char *cmdline, struct inst_clock *c);
/* "icount" or "tsc"; "instructions" or "cycles". */
const char *inst_clock_kind(const struct inst_clock *c);
const char *inst_clock_unit(const struct inst_clock *c);

#endif
