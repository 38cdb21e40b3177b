/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_CPUS_H
#define PPBENCH_CPUS_H

#include <stdbool.h>

/*
 * Possible CPUs: the entries of a per-CPU map, as libbpf counts them
 * (/sys/devices/system/cpu/possible). If that cannot be read, prints the
 * one-line error once and returns the negative errno (every call).
 */
int nr_possible_cpus(void);
bool cpu_is_online(int cpu);
int nr_online_cpus(void);
/* S must name an online CPU ("WHAT 4096 is out of range", "WHAT 1 is offline"). */
int parse_online_cpu(const char *s, const char *what, int *out);

#endif
