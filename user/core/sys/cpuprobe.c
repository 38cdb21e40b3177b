// SPDX-License-Identifier: GPL-2.0
/* A fixed CPU-bound loop as a gauge of the machine's speed (sys/cpuprobe.h). */
#include <stdint.h>
#include "sys/cpuprobe.h"
#include "sys/util.h"

#define PROBE_STEPS 200000 /* a round */
#define PROBE_ROUNDS 5

double cpu_probe_ns(void)
{
	double best = 0;

	for (int r = 0; r < PROBE_ROUNDS; r++) {
		uint64_t t0 = now_ns(), acc = r;
		double ns;

		for (int i = 0; i < PROBE_STEPS; i++) {
			acc = acc * 0x9E3779B97F4A7C15ull + i;
			__asm__ volatile("" : "+r"(acc)); /* keeps every step */
		}
		ns = (double)(now_ns() - t0) / PROBE_STEPS;
		if (!r || ns < best)
			best = ns; /* an interrupt only makes a round slower */
	}
	return best;
}
