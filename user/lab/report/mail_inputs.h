/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_MAIL_INPUTS_H
#define PPBENCH_MAIL_INPUTS_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
