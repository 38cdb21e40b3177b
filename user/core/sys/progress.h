/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROGRESS_H
#define PPBENCH_PROGRESS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * Progress of long work on stderr, one line updated in place, prefixed with
 * the seconds since T0 (now_ns()). Shown only on a terminal and without
 * --quiet, so logs and pipes never get it.
 */
bool progress_wanted(bool quiet);
void progress_vshow(uint64_t t0, const char *fmt, va_list ap);
__attribute__((format(printf, 2, 3))) void progress_show(uint64_t t0, const char *fmt, ...);
/* Clears the line, so what is printed next starts clean. */
void progress_clear(void);

#endif
