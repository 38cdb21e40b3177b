/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_MAIL_H
#define PPBENCH_MAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "compare/compare.h"
#include "compare/cmpcols.h"

/*
 * What ppbench report's arguments mean: which result files (an A/B's
 * F.json is F.a.json and F.b.json; a bisection's directory, the first bad
 * commit's step and its parent's) and, from a kernel tree's git, the
 * commits they measured and the bisection's steps.
 */
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
	char *log;	    /* the first bad commit's step log (HASH.log), or NULL */
	bool base_baseline; /* the base is the bisection's baseline: its parent has no step */
};

/*
 * ARGS (NARGS) into IN: files; one F.json of an A/B; or a directory of
 * ppbench-bisect's steps, whose first bad commit git bisect log in TREE
 * names (or COMMIT does). COMMIT with files names the first column's
 * commit. 0, or -EINVAL after a one-line error; -ENOMEM.
 */
int mail_in_open(struct mail_in *in, char **args, int nargs, const char *tree, const char *commit);
void mail_in_free(struct mail_in *in);

/* The subsystem a commit's SUBJECT names, LKP's "[AREA]": "page_pool: fix x" -> "page_pool". */
const char *mail_area(const char *subject, char *buf, size_t len);

/*
 * The mail of ppbench report, laid out as the kernel test robot's: the
 * subject and the first sentence naming the figure, its change and the
 * commit; the parameters held fixed, on one line; the commits or kernels;
 * compare's table of columns, each figure named as export lkp names its
 * stat; the profile rows that explain the change; how to reproduce it; the
 * attachments. Prose is wrapped at MAIL_WIDTH, tables and commands never.
 */
#define MAIL_WIDTH 72
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

/*
 * M's table and head from M->cf (whose rows it renames to LKP's stats):
 * 0; -EINVAL after a one-line error when the first column has no figure
 * of M->metric; -ENOMEM.
 */
int mail_build(struct mail *m);
void mail_free(struct mail *m);
void mail_write(FILE *f, const struct mail *m);
/* The mail into PATH (whole or not at all) and on stdout; 0, or -errno after the error. */
int mail_save(const struct mail *m, const char *path);

/* "regression" (real, worse), "improvement" (real, better) or "change" (not real). */
const char *mail_word(const struct row *r);
/*
 * The subject line: "[ppbench] [AREA] ID: STAT CHANGE% WORD", AREA from the
 * commit's SUBJECT (NULL or none: left out), ID the commit's short hash or
 * the column's name.
 */
void mail_subject(char *buf, size_t len, const char *id, const char *subject, const char *stat,
		  double change, const char *word);
/* The stat export lkp names R's figure by: "ppbench.slow.instructions_per_elem". */
const char *mail_stat(const struct row *r, const char *unit, char *buf, size_t len);

/* The profile rows that explain the change (mail_profile.c), in text or Markdown. */
void mail_profile(FILE *f, const struct mail *m);

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
