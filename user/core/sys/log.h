/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_LOG_H
#define PPBENCH_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * Exit codes: usage errors are 2, runtime errors 1, a regression (compare
 * --fail-above) 3. For `git bisect run`, which reads 1-127 as "bad" (the
 * --bisect options, ppbench-bisect): 125 skip the commit, 128 stop.
 */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2,
	EXIT_REGRESSION = 3,
	EXIT_BISECT_SKIP = 125,
	EXIT_BISECT_STOP = 128,
};

enum log_level {
	LOG_ERR,
	LOG_WARN,
	LOG_INFO,
	LOG_DEBUG,
	LOG_VERBOSE,
};

extern int log_level;
/* "ppbench", then "ppbench CMD" once a command runs: every error and warning
 * is one line "ppbench CMD: error: PROBLEM" (or "warning:"). */
extern const char *prog_name;
void log_set_command(const char *cmd);
/* Appends to the log file PATH (a build's or a step's log, not stderr); silent if it cannot. */
void log_append(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void pr_log(enum log_level lvl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define pr_err(...) pr_log(LOG_ERR, __VA_ARGS__)
#define pr_warn(...) pr_log(LOG_WARN, __VA_ARGS__)
#define pr_debug(...) pr_log(LOG_DEBUG, __VA_ARGS__)

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
