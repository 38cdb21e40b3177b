/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_VM_REPORT_H
#define PPBENCH_VM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * ppbench vm's output: the guest command's stdout and stderr as they come,
 * its one-line errors, and on a terminal one progress line (fetching,
 * building, booting, running, copying back) that the command's output
 * never lands inside.
 */
struct vm_progress {
	bool on;	  /* stderr is a terminal and no --quiet */
	uint64_t t0;	  /* now_ns() at the start */
	uint64_t phase_t; /* when the phase began */
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
/* Two guests' progress, A and B, named TAGA and TAGB, shown on one line. */
void vm_progress_pair(struct vm_progress *a, struct vm_progress *b, bool quiet, const char *taga,
		      const char *tagb);
/* The script's phase (fetch, build, pack, boot, run, files) and what it does. */
void vm_report_phase(struct vm_progress *p, const char *phase, const char *text);
/* Redraws the progress line with the time so far. */
void vm_report_tick(struct vm_progress *p);
/* LEN bytes the command wrote to FD (1 or 2) in the guest. */
void vm_report_output(struct vm_progress *p, int fd, const char *buf, size_t len);
void vm_report_info(struct vm_progress *p, const char *text);
void vm_report_error(struct vm_progress *p, const char *text);
void vm_report_done(struct vm_progress *p);

#endif
