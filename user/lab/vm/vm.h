/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_VM_H
#define PPBENCH_VM_H

#include "vm/vm_run.h"

/*
 * One guest of CFG running the ppbench command line ARGV (checked by the
 * caller) as 'ppbench vm' runs it: the files its options name carried in
 * and out, its output printed as vm prints it. How it ended into END, whose
 * status it returns. vm's own one-kernel run, and each step of ppbench-bisect.
 */
int vm_guest(struct vm_cfg *cfg, int argc, char **argv, struct vm_end *end);

#endif
