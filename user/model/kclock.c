// SPDX-License-Identifier: GPL-2.0
/* The kernel's test-run clock, its truncation resolved (see kclock.h). */
#include <math.h>
#include "model/kclock.h"

double kclock_loop_ns(uint32_t duration, uint32_t frames, double wall_ns, double fixed_ns)
{
	double lo = (double)duration * frames, hi = lo + frames, t = wall_ns - fixed_ns;

	return t >= lo && t < hi ? t : lo + frames / 2.0;
}

double kclock_fixed_ns(uint32_t duration, uint32_t frames, double wall_ns)
{
	return fmax(wall_ns - ((double)duration + 0.5) * frames, 0);
}
