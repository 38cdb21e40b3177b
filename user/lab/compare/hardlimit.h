/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_HARDLIMIT_H
#define PPBENCH_HARDLIMIT_H

#include <stdio.h>
#include "compare/compare_stats.h"
#include "report/json.h"

/*
 * compare --limit SCENARIO[:FIGURE]=MAX: a ceiling on one figure of one file,
 * no baseline; of the instruction clock only, whose figures are exact.
 */
struct hard_limit {
	char scenario[32];
	enum fig fig; /* FIG_CYCLES (the scenario figure), FIG_NS or FIG_PATH */
	double max;
};

/* Parses "fast:path=70" or "slow=5000": 0, or -EINVAL with one line in ERR. */
int hard_limit_parse(const char *arg, struct hard_limit *l, char *err, size_t len);

/* One limit against one file. */
struct limit_check {
	const struct hard_limit *limit;
	const struct result *file;
	bool has_value;
	double value;	    /* the file's figure: the median of its setups, or its path figure */
	const char *method; /* a path figure's method's name (path_method_name()), or NULL */
	bool exceeded;	    /* value > max */
	char gap[256];	    /* !has_value: why, e.g. "slow: skipped in r.json: no frames" */
};

/* Why R has no figure F of scenario SCN ("slow: not in r.json") into BUF; false if it has. */
bool figure_gap(const struct result *r, const char *scn, enum fig f, char *buf, size_t len);
void hard_limit_check(const struct hard_limit *l, const struct result *r, struct limit_check *out);

/* 0 when R's figures are exact enough for a limit, else -EXDEV with the reason in WHY. */
int hard_limit_exact(const struct result *r, char *why, size_t len);

/* "fast:path=70" back, for messages. */
void hard_limit_name(const struct hard_limit *l, char *buf, size_t len);

/* compare --limit's output: a line per limit and file, and "limits" in the JSON. */
void limit_print_text(FILE *f, const struct limit_check *l, size_t n);
void limit_json(struct json *j, const struct limit_check *l, size_t n);
/* Names each limit exceeded on stderr; EXIT_REGRESSION if one is, else EXIT_OK. */
int limit_gate(const struct limit_check *l, size_t n);
/* "slow instr/elem 999.0, limit 1000" or the gap, for KTAP and one-line verdicts. */
void limit_desc(const struct limit_check *l, char *buf, size_t len);

#endif
