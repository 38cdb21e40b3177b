// SPDX-License-Identifier: GPL-2.0
/* The text of bench --overhead. */
#include <stdio.h>
#include "report/overhead_report.h"

void overhead_report(const struct overhead_figs *f)
{
	printf("instrumentation overhead, ring recipe (live-frames XDP_DROP, batch 64, %u frames "
	       "x %u runs, CPU %u):\n",
	       f->frames, f->runs, f->cpu);
	printf("  bench's timed run: bare program, kernel test_run clock  %8.3f ns/frame "
	       "(median, CV %.1f%%)\n",
	       f->timed.median, 100 * f->timed.cv);
	printf("  bare program, wall time of the syscall                 %8.3f ns/frame "
	       "(median, CV %.1f%%)\n",
	       f->bare.median, 100 * f->bare.cv);
	printf("  overhead                               %+8.2f %% (median of %u pairs, %+.2f .. "
	       "%+.2f %%;\n    target <= 3 %%; reported, not asserted): bench's timed runs carry "
	       "no per-packet work,\n    so this compares only the clocks (the kernel's loop "
	       "time against the whole syscall)\n",
	       f->timed_pct.median, f->runs, f->timed_pct.min, f->timed_pct.max);
	printf("  per-packet counting of proof runs and load (stats, sampled clock), wall time: "
	       "%.3f ns/frame,\n    %+.2f %% against the bare program (median of %u pairs, "
	       "%+.2f .. %+.2f %%)\n",
	       f->counted.median, f->counted_pct.median, f->runs, f->counted_pct.min,
	       f->counted_pct.max);
}
