/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_TSC_H
#define PPBENCH_TSC_H

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

#endif
