/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_MAIL_H
#define PPBENCH_MAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "compare/compare.h"
#include "compare/cmpcols.h"

/* ppbench report (ppbench-report(8) lays the mail out): its inputs, and the mail. */
#define MAIL_MAX_FILES 16
#define MAIL_HASH_SHORT 12 /* the kernel's abbreviation of a commit (Fixes: tags) */

enum mail_kind {
	MAIL_FILES,  /* result files, the base first */
	MAIL_AB,     /* vm --against-*'s F.a.json (the base) and F.b.json */
	MAIL_BISECT, /* a bisection's directory: the first bad commit against its parent */
};

struct mail_commit {
	char hash[48]; /* full; "" where no git names the file's commit */
	char subject[256];
};

struct mail_in {
	enum mail_kind kind;
	char *file[MAIL_MAX_FILES]; /* the base, then a column each */
	size_t n;
	char ab[4096]; /* MAIL_AB: F.json, as vm --against-* took it */
	/* per file; a bisection's base: its parent's, even where the base is the baseline */
	struct mail_commit commit[MAIL_MAX_FILES];
	/* MAIL_BISECT */
	char *steps;	    /* git bisect log's commands, or NULL (not bisecting) */
	char *log;	    /* the first bad commit's step log's text (HASH.log), or NULL */
	bool base_baseline; /* the base is the bisection's baseline: its parent has no step */
};

/* ARGS into IN, commits from TREE's git: 0, or -EINVAL after a one-line error; -ENOMEM. */
int mail_in_open(struct mail_in *in, char **args, int nargs, const char *tree, const char *commit);
void mail_in_free(struct mail_in *in);

/* The subsystem a commit's SUBJECT names, LKP's "[AREA]": "page_pool: fix x" -> "page_pool". */
const char *mail_area(const char *subject, char *buf, size_t len);

#define MAIL_WIDTH 72	  /* prose; tables and commands are never wrapped */
#define MAIL_PROF_ROWS 10 /* rows shown of a kind in a scenario; the others are counted */

struct mail {
	const struct mail_in *in;
	struct cmp_files *cf;	/* compare's comparisons of IN's files */
	struct col_table t;	/* their table, its lines named by LKP's stats */
	const struct row *head; /* the figure the subject names: the first column's */
	enum fig metric;	/* of the head */
	double floor;		/* of the profile rows' change, instructions per element */
	bool md;
	char **att; /* the attachments' names, NATT of them */
	size_t natt;
	const char *outdir; /* where they are */
};

/* M's table and head from M->cf: 0, -EINVAL after a one-line error, -ENOMEM. */
int mail_build(struct mail *m);
void mail_write(FILE *f, const struct mail *m);

/* "regression" (real, worse), "improvement" (real, better) or "change" (not real). */
const char *mail_word(const struct row *r);
/* "[ppbench] [AREA] ID: STAT CHANGE% WORD", AREA from the commit's SUBJECT (NULL: none). */
void mail_subject(char *buf, size_t len, const char *id, const char *subject, const char *stat,
		  double change, const char *word);
/* The stat export lkp names R's figure by: "ppbench.slow.instructions_per_elem". */
const char *mail_stat(const struct row *r, const char *unit, char *buf, size_t len);
/* The mail's profile rows (mail_profile.c) and "To reproduce" (mail_reproduce.c). */
void mail_profile(FILE *f, const struct mail *m);
void mail_reproduce(FILE *f, const struct mail *m);
/* A result's COMMAND (NULL: none) without "ppbench" and its --json: "bench --scenario ring". */
const char *mail_bench_args(const char *command, char *buf, size_t len);

#endif
