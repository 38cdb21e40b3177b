/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_NOISE_H
#define PPBENCH_NOISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/jsonparse.h"
#include "model/result.h"
#include "model/spread.h"
#include "model/stats.h"

/*
 * A noise profile (schema "ppbench-noise/1", written by `ppbench calibrate`):
 * how much a figure moves from one bench invocation to the next on one host,
 * the levels it sits on and the floor a change between two single
 * invocations must exceed to be told from that noise. Readers: compare
 * --noise, trend --noise. Pure model: loading, building from results, the
 * floor and the test; printing is report/'s.
 */
#define NOISE_SCHEMA "ppbench-noise/1"

/* One figure's values over the invocations, one value per invocation. */
struct noise_fig {
	size_t n; /* invocations */
	double median, min, max;
	double cv_between;   /* CV of the invocations' values */
	double cv_within;    /* median over the invocations of their setups' CV (0: none) */
	double max_pair_pct; /* the largest change between two invocations, % */
	double floor_pct;    /* noise_floor_pct() of the values */
	size_t nr_levels;    /* clusters of the invocation values, lowest first */
	struct mode levels[MODES_MAX];
};

struct noise_scenario {
	const char *name;
	struct noise_fig cycles; /* cycles/elem: each invocation's median of setups */
	bool has_path;
	struct noise_fig path; /* path_cost_cycles, where every invocation has one of one method */
	const char *path_method; /* its method's name; NULL in older profiles */
	/*
	 * The level probe (bench's page_pool-free kernel loop) as a covariate
	 * of the runs' cycles, where every run has one: its median, its
	 * correlation with cycles, and the CV between runs a linear fit on it
	 * leaves (cv_between / level_cv_resid is how much it would cut).
	 */
	bool has_level;
	double level_median_ns, level_r, level_cv_resid;
};

/* A result's level probe median for scenario NAME (ns), or NAN (older files). */
double result_level_probe(const struct result *r, const char *name);
/* Level probes this far apart, %: the host was on another level (compare, trend). */
#define LEVEL_NOTE_PCT 10.0

struct noise_profile {
	const char *path;	      /* the file it was loaded from, or NULL */
	const char *created;	      /* UTC ISO 8601 */
	const char *first, *last;     /* created times of the first and last invocation */
	double span_s;		      /* first to last invocation */
	uint64_t invocations, repeat; /* bench runs sampled; setups per run */
	/*
	 * The host it describes, which compare refuses to apply it to others:
	 * the first run's host block (HOST_DOC, as read or as the run wrote it),
	 * its clock what the runs counted (a counter's view under --counter).
	 */
	struct result_host host;
	const json_t *host_doc;
	struct noise_scenario *sc;
	size_t nr_sc;
	json_t *doc; /* a loaded profile's strings point into it */
};

/* The false-alarm rate a profile's floors allow a whole gate (all its figures). */
#define NOISE_ALPHA 0.05

/*
 * The floor of a single-invocation comparison, in percent, from one value per
 * invocation: the largest of 1 %, the largest change seen between two of the
 * invocations, and the change two future invocations exceed with probability
 * NOISE_ALPHA / FAMILY if the values are normal:
 * t(1 - NOISE_ALPHA / 2 / FAMILY, n-1) * sqrt(2) * CV. FAMILY is the number of
 * figures one gate tests together (the profile's scenarios): the gate fires
 * when any of them crosses its floor, so each gets its share of the false
 * alarms. A profile of few invocations gives a wide floor. NAN for n < 2.
 */
double noise_floor_pct(const double *v, size_t n, size_t family, double min_pct);

/*
 * The range one more invocation of F's host falls in: what the profile saw,
 * widened to the normal prediction interval of a single run, median x (1 +/-
 * t(1 - NOISE_ALPHA / 2 / FAMILY, n-1) x CV x sqrt(1 + 1/n)), where that is wider.
 */
void noise_fig_range(const struct noise_fig *f, size_t family, double *lo, double *hi);

/* Fills F from V (one value per invocation) and WITHIN (their setups' CVs, or NULL). */
int noise_fig_from(const double *v, const double *within, size_t n, size_t family, double min_pct,
		   struct noise_fig *f);

/*
 * Builds a profile from N bench results of one host (calibrate's
 * invocations, in the order they ran); strings point into FILES. 0,
 * -EINVAL (fewer than 2 files, or no scenario measured twice) or -ENOMEM.
 */
int noise_build(const struct result *files, size_t n, struct noise_profile *p);

/*
 * Loads and checks PATH. On failure returns -EINVAL and writes one line to
 * ERR naming the file and the problem.
 */
int noise_load(const char *path, struct noise_profile *p, char *err, size_t errlen);
void noise_free(struct noise_profile *p);
const struct noise_scenario *noise_find(const struct noise_profile *p, const char *name);

/*
 * Whether the profile describes the host of result R: CPU model, TSC Hz
 * within 1 %, kernel release, kernel build (uname -v, when both record it),
 * mitigations and config. 0 if so; else -EINVAL and WHY, e.g.
 * "kernel 6.18.44 vs 6.19.0".
 */
int noise_host_check(const struct noise_profile *p, const struct result *r, char *why, size_t len);
/*
 * 0 when profile P (the file PATH) and result R count the same unit on the
 * same clock; else -EINVAL and WHY names both files. Unlike another host,
 * nothing lets a profile of one clock judge figures of another.
 */
int noise_clock_check(const struct noise_profile *p, const char *path, const struct result *r,
		      char *why, size_t len);

/*
 * The test of a change of CHANGE_PCT between two single invocations against
 * F's between-invocation spread: t = change / (sqrt(2) * CV), n - 1 degrees
 * of freedom, two-sided. Untestable when F has fewer than 2 invocations.
 */
void noise_test(const struct noise_fig *f, double change_pct, struct ttest *t);

#endif
