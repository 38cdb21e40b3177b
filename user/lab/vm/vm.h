/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_VM_H
#define PPBENCH_VM_H

#include <stdbool.h>
#include "vm/vm_run.h"

/*
 * One guest of CFG running the ppbench command line ARGV (checked by the
 * caller) as 'ppbench vm' runs it: the files its options name carried in
 * and out, its output printed as vm prints it. How it ended into END, whose
 * status it returns. vm's own one-kernel run, and each step of ppbench-bisect.
 */
int vm_guest(struct vm_cfg *cfg, int argc, char **argv, struct vm_end *end);

/*
 * Two kernels side by side (vm --against-*): guest a, the baseline
 * (compare's old side), and b, the kernel under test (its new side).
 */

/*
 * PATH with ".TAG" before the extension of its last component: r.json ->
 * r.a.json, dir/keep -> dir/keep.a, .hidden -> .hidden.a. A new string
 * (free()), or NULL when out of memory.
 */
char *ab_tagged_path(const char *path, const char *tag);

/* How one guest ended: its exit status, whether its result file came,
 * whether it was stopped because the other guest ended without its own, and
 * whether it failed for this machine (a tool, a file, a write), not for its
 * kernel or the command in it. */
struct ab_end {
	int rc;
	bool have, stopped, host;
};

/*
 * What the two guests' ends make of the run, before compare: -1 when both
 * left their result and compare decides; else the status. A guest without a
 * result leaves nothing to compare, and the one that failed first (not the
 * one stopped for it) decides: its status RC (1 when it exited 0), or with
 * BISECT a skip when it is b (the commit under test cannot be measured) and
 * a stop when it is a or this machine failed (every step would fail alike).
 * A signal's status (128 and above) stays itself: git stops on it too.
 */
int ab_status(bool bisect, const struct ab_end *a, const struct ab_end *b);

#endif
