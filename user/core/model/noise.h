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
 * A noise profile (written by `ppbench calibrate`): how much a figure moves
 * from one bench invocation to the next on one host, the levels it sits on
 * and the floor a change between two invocations must exceed to be told
 * from that noise.
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
	 * The level probe (bench's page_pool-free kernel loop) as a covariate of
	 * the runs' cycles: its median, its correlation with them, and the CV
	 * between runs a linear fit on it leaves.
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
	uint64_t invocations, repeat; /* bench runs; setups per run */
	/* the first run's host block (HOST_DOC), its clock what the runs counted */
	struct result_host host;
	const json_t *host_doc;
	struct noise_scenario *sc;
	size_t nr_sc;
	json_t *doc; /* a loaded profile's strings point into it */
};

/* The false-alarm rate a profile's floors allow a whole gate (all its figures). */
#define NOISE_ALPHA 0.05

/*
 * The floor of a single-invocation comparison, in percent, from one value
 * per invocation: the largest of MIN_PCT, the largest change seen between
 * two invocations, and the change two future ones exceed with probability
 * NOISE_ALPHA / FAMILY if the values are normal:
 * t(1 - NOISE_ALPHA / 2 / FAMILY, n-1) * sqrt(2) * CV. FAMILY: the figures
 * one gate tests together, each with its share of the false alarms. NAN for n < 2.
 */
double noise_floor_pct(const double *v, size_t n, size_t family, double min_pct);

/*
 * The range one more invocation falls in: what the profile saw, widened to
 * median x (1 +/- t(1 - NOISE_ALPHA / 2 / FAMILY, n-1) x CV x sqrt(1 + 1/n)).
 */
void noise_fig_range(const struct noise_fig *f, size_t family, double *lo, double *hi);

/* Fills F from V (one value per invocation) and WITHIN (their setups' CVs, or NULL). */
int noise_fig_from(const double *v, const double *within, size_t n, size_t family, double min_pct,
		   struct noise_fig *f);

/*
 * A profile from N bench results of one host, in the order they ran;
 * strings point into FILES. 0, -EINVAL (no scenario measured twice) or -ENOMEM.
 */
int noise_build(const struct result *files, size_t n, struct noise_profile *p);

/* Loads and checks PATH; -EINVAL and one line in ERR on failure. */
int noise_load(const char *path, struct noise_profile *p, char *err, size_t errlen);
void noise_free(struct noise_profile *p);
const struct noise_scenario *noise_find(const struct noise_profile *p, const char *name);

/*
 * 0 when the profile describes the host of R: CPU model, TSC Hz within 1 %,
 * kernel release and build, mitigations and config; else -EINVAL and WHY.
 */
int noise_host_check(const struct noise_profile *p, const struct result *r, char *why, size_t len);
/* result_clock_same() of profile P (the file PATH) and R. */
int noise_clock_check(const struct noise_profile *p, const char *path, const struct result *r,
		      char *why, size_t len);

/*
 * A change of CHANGE_PCT between two invocations tested against F's spread:
 * t = change / (sqrt(2) * CV), n - 1 degrees of freedom, two-sided.
 */
void noise_test(const struct noise_fig *f, double change_pct, struct ttest *t);

#endif
