/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_MAIL_H
#define PPBENCH_MAIL_H

#include <stdbool.h>
#include <stdio.h>
#include "compare/compare.h"
#include "compare/cmpcols.h"
#include "report/mail_inputs.h"

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
/* Whether any comparison of M has profiles on both sides. */
bool mail_has_profiles(const struct mail *m);

#endif
