/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_GEN_TYPES_H
#define PPBENCH_GEN_TYPES_H

#include <stdint.h>

/* Frames sent, and what the interface did with them (summed over CPUs). */
struct gen_totals {
	uint64_t frames, taken, not_taken, redirect_err;
};

#endif
