/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_VM_JOB_H
#define PPBENCH_VM_JOB_H

#include <limits.h>
#include "vm/vm_run.h"

/* Where scripts/vm/ and the guest's static ppbench are. */
struct vm_paths {
	char dir[PATH_MAX + 32];     /* scripts/vm */
	char tree[PATH_MAX];	     /* the source tree ppbench runs from, or "" */
	char ppbench[PATH_MAX + 32]; /* the installed static ppbench, when no tree */
};

/*
 * The job for scripts/vm/run in WORK: job.conf, cmd, outputs and inputs;
 * *JSON: the host path of the command's --json, or NULL.
 */
int vm_job_write(const char *work, const struct vm_cfg *cfg, const struct vm_paths *p,
		 const char *qplugin, int argc, char **argv, const char **json);

#endif
