/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_COMPARE_STATS_H
#define PPBENCH_COMPARE_STATS_H

#include "model/noise.h"
#include "compare/prof_diff.h"
#include "model/spread.h"
#include "model/stats.h"

/* compare's model: two sides of result files as rows, one per scenario and figure. */

/* FIG_PATH: bench's path figure, of its method; FIG_PPATH: vm --profile's beside it. */
enum fig { FIG_CYCLES, FIG_NS, FIG_PATH, FIG_PPATH, FIG_PURITY, FIG_CPU };

/* A label's words into BUF: "cycles/elem", "path instr/elem", "guest ns/elem", "purity %". */
const char *fig_words(enum fig f, bool instructions, char *buf, size_t len);
enum sig_test { TEST_WELCH, TEST_MANN_WHITNEY };

struct cmp_opts {
	enum sig_test test;
	double alpha;
	const struct noise_profile *profile; /* --noise, or NULL */
	double prof_floor; /* the profile rows' floor, instructions per element; 0: PDIFF_FLOOR */
};

/*
 * The noise a verdict is measured against: between invocations, from two or
 * more files a side, else a profile; with only setups there is no verdict.
 */
enum noise_src { NOISE_SETUPS, NOISE_FILES, NOISE_PROFILE };

struct row {
	char label[64]; /* "ring cpu1 consumer cycles/elem", "ring path cycles/elem (fentry)" */
	const char *scenario;
	enum fig kind;
	/* path figures: the method; OTHER_METHOD, a file's that differs: no change, no test */
	const char *method, *other_method;
	const struct result_cpu *cpu; /* FIG_CPU: the old side's entry */
	struct summary o, n;	      /* of the pooled values of each side */
	double ofig, nfig;	      /* each side's figure: medians with a profile, else means */
	double change;		      /* % change from ofig to nfig; +/-inf when old is 0 */
	struct ttest t;
	bool significant;      /* testable and p < alpha */
	double floor_pct;      /* max(unit_floor_pct, the MDE of the two sides' spread) */
	double unit_floor_pct; /* 1 % of cycles, 0.1 % of instructions (unit_floor_pct()) */
	bool real;	       /* significant and |change| >= floor_pct */
	bool unstable;	       /* a side's values sit on two or more levels (modes) */
	struct modes mo, mn;
	bool regression; /* real, in the worse direction */
	enum noise_src noise;
	double within_o, within_n;  /* NOISE_FILES: the setups' CV inside the files (RMS) */
	const struct noise_fig *nf; /* NOISE_PROFILE: the profile's figure, or NULL */
	bool known; /* NOISE_PROFILE: beyond the floor, yet new is within the profile's range */
	/* unstable: the change between the sides' nearest levels, and whether it is real */
	double level_change;
	bool level_real;
	bool repeats; /* the scenario's figure again (guest ns, a lone CPU's): text skips it */
};

/* Sides whose machine-speed probes differ this much get a note. */
#define MACHINE_NOTE_PCT 2.0

/* A difference in host metadata or scenario recipe, shown above the table. */
struct diff {
	char what[96];
	char *old, *new;
};

struct comparison {
	const struct result *old, *new; /* arrays: the files of each side */
	size_t nold, nnew;
	struct row *rows;
	size_t nrows;
	struct diff *diffs;
	size_t ndiffs;
	char **notes; /* e.g. "ring-xcpu: skipped in new: needs 2 online CPUs" */
	size_t nnotes;
	enum noise_src noise;
	const struct noise_profile *profile; /* NOISE_PROFILE */
	bool level_noted;		     /* the level-probe note is there */
	struct pdiff *pd; /* the scenarios with instruction profiles on both sides */
	size_t npd;
};

struct limit_check;

struct cmp_set {
	const struct cmp_opts *opts;
	struct comparison *cmps;
	size_t n;
	bool gate;	    /* --fail-above given */
	bool gate_unstable; /* --gate-unstable: unstable rows gate on their medians' change */
	enum fig metric;
	double fail_above; /* percent */
	bool machine_slow; /* KSFT_MACHINE_SLOW=yes: a timing gate that fires is expected */
	const struct limit_check *limits; /* each --limit against each file of the new side */
	size_t nlimits;
};

/* Whether C's path figures of NAME are of one method; else the first two in *A and *B. */
bool comparison_one_method(const struct comparison *c, const char *name, const char **a,
			   const char **b);

/* The scenarios files A then B name, in their order, each once; NULL without memory. */
const char **scenario_names(const struct result *a, size_t na, const struct result *b, size_t nb,
			    size_t *n);
/* C's row of figure KIND of scenario SCN, or NULL. */
const struct row *find_row(const struct comparison *c, const char *scn, enum fig kind);

/* Fills rows, diffs and notes of C from its files; 0 or -ENOMEM. */
int comparison_build(struct comparison *c, const struct cmp_opts *o);
void comparison_free(struct comparison *c);

const char *noise_src_name(enum noise_src n); /* "files", "profile", "setups" */

/* "cycles", "ns", "path", "profile_path", "purity", "cpu" */
const char *fig_name(enum fig f);
const char *sig_test_name(enum sig_test t); /* "Welch's t-test", ... */
bool fig_higher_is_worse(enum fig f);

/*
 * Whether R trips the gate: a real regression on the metric above the limit,
 * against the noise between invocations, that no level explains (unstable
 * rows: their nearest levels' change, unless gate_unstable).
 */
bool row_gated(const struct cmp_set *set, const struct row *r);
/* Whether R's medians would trip it, but levels explain the change: named, not gated. */
bool row_unstable_not_gated(const struct cmp_set *set, const struct row *r);
/* Whether R, gated, is an expected failure: a slow machine and a figure of time. */
bool row_xfail(const struct cmp_set *set, const struct comparison *c, const struct row *r);

#endif
