/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_VM_REPORT_H
#define PPBENCH_VM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "vm/vm_run.h"

/*
 * vm's output: the guest command's stdout and stderr as they come, its
 * one-line errors, and on a terminal one progress line that the command's
 * output never lands inside.
 */
struct vm_progress {
	bool on;	      /* stderr is a terminal and no --quiet */
	uint64_t t0, phase_t; /* now_ns() at the start, and when the phase began */
	char phase[16], text[160];
	bool at_bol[3]; /* stdout and stderr end with a newline (index 1 and 2) */
	bool shown;
	/* one of two guests side by side (vm --against-*): its name, the other's
	 * progress (one line shows both), and the start of a line of its output
	 * not yet printed (each line goes out whole, after "[NAME] ") */
	const char *tag;
	struct vm_progress *peer;
	char part[3][1024];
	size_t npart[3];
};

void vm_progress_init(struct vm_progress *p, bool quiet);
/* Two guests side by side (vm --against-*), one progress line for both. */
void vm_progress_pair(struct vm_progress *a, struct vm_progress *b, bool quiet, const char *taga,
		      const char *tagb);
/* The sink that prints for vm_run(): output, progress, errors, profiles. */
struct vm_sink vm_report_sink(struct vm_progress *p);

#endif
