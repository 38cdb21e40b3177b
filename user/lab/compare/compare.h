/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_COMPARE_H
#define PPBENCH_COMPARE_H

#include "cli/cli.h"
#include "compare/bisect_status.h"
#include "compare/hardlimit.h"

/* The comparison as a function, for compare and for vm --against-* and bisect. */

#define CMP_MAX_LIMITS 16

/* The gate's options: what decides a verdict. */
struct cmp_gate {
	bool gate; /* --fail-above given */
	double fail_above;
	enum fig metric;
	const char *noise; /* --noise PROFILE */
	struct hard_limit limits[CMP_MAX_LIMITS];
	size_t nlimits;
	bool bisect; /* exit as git bisect run reads it */
};

extern const struct cli_word cmp_metrics[];

/*
 * The gate's options as compare, vm and bisect take them, into the struct
 * cmp_gate M of TYPE; --limit goes to the command's opt() as LIMIT_KEY.
 */
#define CMP_OPT_FAIL_ABOVE(type, m)                                                                \
	{                                                                                          \
		"fail-above", 0, "PCT",                                                            \
			"the gate fires when the gating rule finds a regression on --metric "      \
			"above PCT % against the old side, the baseline (one file a side: with "   \
			"--noise)",                                                                \
			.kind = CLI_NUMBER, CLI_MEMBER(type, m.fail_above), .dmin = 0,             \
			.dmax = 1e9, CLI_MARK(type, m.gate),                                       \
			.flags = CLI_F_PERCENT | CLI_F_PROSE_RANGE                                 \
	}
#define CMP_OPT_NOISE(type, m)                                                                     \
	{                                                                                          \
		"noise", 0, "PROFILE",                                                             \
			"the noise between invocations (for kernels under vm, between boots of "   \
			"the baseline's kernel), from 'ppbench calibrate -o PROFILE': what "       \
			"--fail-above judges a comparison of one file a side against",             \
			.kind = CLI_STRING, CLI_MEMBER(type, m.noise)                              \
	}
#define CMP_OPT_METRIC(type, m)                                                                    \
	{                                                                                          \
		"metric", 0, NULL,                                                                 \
			"the figure --fail-above gates (default cycles, which counts "             \
			"instructions in files of the instruction clock)",                         \
			.kind = CLI_ENUM, CLI_MEMBER(type, m.metric), .words = cmp_metrics         \
	}
#define CMP_OPT_LIMIT(limit_key)                                                                   \
	{                                                                                          \
		"limit", 0, "SCENARIO[:FIGURE]=MAX",                                               \
			"the gate fires when the figure (cycles, ns or path; default cycles) of "  \
			"SCENARIO in a file of the new side (the kernel under test), or in the "   \
			"one file given, is above MAX, baseline or not; instruction files only; "  \
			"repeat for more",                                                         \
			limit_key                                                                  \
	}
#define CMP_GATE_OPTS(type, m, limit_key)                                                          \
	CMP_OPT_FAIL_ABOVE(type, m), CMP_OPT_NOISE(type, m), CMP_OPT_METRIC(type, m),              \
		CMP_OPT_LIMIT(limit_key)
#define CMP_OPT_BISECT(type, m, help)                                                              \
	{                                                                                          \
		"bisect", 0, NULL, help, .kind = CLI_FLAG, CLI_MEMBER(type, m.bisect)              \
	}

/* G's defaults: the cycles figure, no gate. */
void cmp_gate_init(struct cmp_gate *g);
/* --limit ARG into G: 0, or a negative errno after its one line. */
int cmp_gate_limit(struct cmp_gate *g, const char *arg);

/* What a comparison found: the outcome, and what decided it (the first error wins). */
struct verdict {
	enum cmp_outcome out;
	char why[512];
};

/*
 * What compare refuses of G before it reads a result file (LIKE: one of the
 * files, or NULL): 0, or -EINVAL with V filled and its one line printed.
 */
int cmp_gate_check(const struct cmp_gate *g, const struct result *like, struct verdict *v);

/* Compares NEW with OLD (NULL: NEW alone, for limits) as compare does, into V. */
void compare_judge(const struct cmp_gate *g, const char *old, const char *new, struct verdict *v);

/* 'compare BASE A B...' as data: the files, and a comparison per column in SET. */
struct cmp_files {
	struct result *files; /* the base, then a column each */
	size_t n;
	struct cmp_set set;
};

/*
 * Loads FILES (the base first) and compares each later one with the base
 * under O, which must outlive OUT, as compare does: 0, -EINVAL after its
 * one line, or -ENOMEM.
 */
int compare_load(const char *const *files, size_t n, const struct cmp_opts *o,
		 struct cmp_files *out);
void compare_unload(struct cmp_files *f);

/* The exit status of V: compare's, or with G's bisect git bisect run's, after its line. */
int compare_status(const struct cmp_gate *g, const struct verdict *v);

#endif
