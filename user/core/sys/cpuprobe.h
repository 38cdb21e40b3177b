/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_CPUPROBE_H
#define PPBENCH_CPUPROBE_H

/*
 * How fast this CPU runs right now: ns per step of a chain of dependent
 * multiply-adds in user space, the fastest of a few short rounds. Its work
 * never changes, so when it takes longer the machine is slower (in a VM:
 * the host runs the vCPU slower or beside other work).
 */
double cpu_probe_ns(void);

#endif
