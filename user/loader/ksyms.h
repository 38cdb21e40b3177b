/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_KSYMS_H
#define PPBENCH_KSYMS_H

#include <stdint.h>

/* Address of a kernel text symbol from /proc/kallsyms (modules included), 0 if absent. */
uint64_t ksym_addr(const char *name);

#endif
