/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_BISECT_RUN_H
#define PPBENCH_BISECT_RUN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compare/compare.h"

/* ppbench-bisect's options (bisect/bisect.c). */
struct bisect_cfg {
	const char *baseline;  /* --baseline FILE: the good kernel's bench result, or NULL */
	const char *scenario;  /* --scenario LIST: what bench runs and compare gates */
	struct cmp_gate g;     /* --fail-above, --noise, --metric, --limit; always bisect's */
	const char *config;    /* --config FILE: the config to merge over, instead of defconfig */
	const char *fragment;  /* --fragment FILE, default ppbench's (scripts/vm/ppbench.config) */
	const char *build_dir; /* --build-dir DIR: make O=DIR */
	const char *out;       /* --out DIR: each step's result and log */
	int arch;	       /* enum vm_arch */
	uint32_t jobs;	       /* make -j, 0: the online CPUs */
	uint32_t repeat;       /* bench --repeat, 0: bench's default */
};

/* One step: what it decided, and why (bisect_print_step prints it). */
struct bisect_outcome {
	char commit[128]; /* "3a1b2c4 subject", "" outside git */
	int status;	  /* BISECT_* (compare/bisect_status.h) */
	char why[640];
	double build_s, boot_s; /* < 0: not reached */
	char log[PATH_MAX];	/* the step's log, "" if none */
};

/*
 * The fragment a kernel for ppbench vm needs: beside vm's scripts, in this
 * source tree or the installation (PPBENCH_LIBDIR). Into BUF.
 */
void bisect_default_fragment(char *buf, size_t len);

/*
 * One step of a bisection, in the kernel tree that is the current directory:
 * merge the config, build, boot the kernel under vm running bench, judge
 * the result against the baseline as compare does. First checks what would
 * make every step fail the same way (the baseline, the gate, the tree):
 * that stops the bisection. Fills OUT; returns OUT->status. What each stage
 * prints goes to the step's log.
 */
int bisect_step(const struct bisect_cfg *cfg, struct bisect_outcome *out);

#endif
