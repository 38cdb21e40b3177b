// SPDX-License-Identifier: GPL-2.0
/* The kernel's test-run clock, its truncation resolved (see testrun_clock.h). */
#include <math.h>
#include "model/testrun_clock.h"

bool testrun_clock_resolved(uint32_t duration, uint32_t frames, double wall_ns, double fixed_ns)
{
	double lo = (double)duration * frames, t = wall_ns - fixed_ns;

	return frames && t >= lo && t < lo + frames;
}

double testrun_clock_loop_ns(uint32_t duration, uint32_t frames, double wall_ns, double fixed_ns)
{
	if (testrun_clock_resolved(duration, frames, wall_ns, fixed_ns))
		return wall_ns - fixed_ns;
	return ((double)duration + 0.5) * frames;
}

double testrun_clock_fixed_ns(uint32_t duration, uint32_t frames, double wall_ns)
{
	return fmax(wall_ns - ((double)duration + 0.5) * frames, 0);
}
