/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_LIMIT_REPORT_H
#define PPBENCH_LIMIT_REPORT_H

#include <stdio.h>
#include "compare/hardlimit.h"
#include "report/json.h"

/*
 * compare --limit's output: a line per limit and file after the tables
 * ("limit slow:cycles=1000  r.json  slow instr/elem  999.0  ok"), the same
 * in the JSON ("limits": [...]), and on stderr a line per limit exceeded.
 */
void limit_print_text(FILE *f, const struct limit_check *l, size_t n);
void limit_json(struct json *j, const struct limit_check *l, size_t n);
/* Names each limit exceeded on stderr; EXIT_REGRESSION if one is, else EXIT_OK. */
int limit_gate(const struct limit_check *l, size_t n);
/* "slow instr/elem 999.0, limit 1000" or the gap, for KTAP and one-line verdicts. */
void limit_desc(const struct limit_check *l, char *buf, size_t len);

#endif
