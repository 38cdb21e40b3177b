/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_MAIL_REPRODUCE_H
#define PPBENCH_MAIL_REPRODUCE_H

#include <stddef.h>
#include <stdio.h>

struct mail;

/*
 * "To reproduce": the commands that give the mail's figures again, from what
 * the files record (kernel, clock, profile, bench's command line) and, for a
 * bisection, git bisect log and the first bad commit's step log.
 */
void mail_reproduce(FILE *f, const struct mail *m);

/*
 * The bench command of COMMAND (a result's "command"; NULL: none recorded)
 * without "ppbench" and its --json: "bench --scenario ring,slow", into BUF.
 */
const char *mail_bench_args(const char *command, char *buf, size_t len);

#endif
