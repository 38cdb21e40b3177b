/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_TRENDREPORT_H
#define PPBENCH_TRENDREPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "model/noise.h"
#include "trend/series.h"

/* What ppbench trend shows: the fitted series and how it was read. */
struct trend_view {
	const struct series *s;
	const struct trend_opts *opts;
	enum series_order order;
	enum series_figure metric; /* the series table, the SVG and the gate show this one */
	bool gate;
	double fail_pct;
	size_t window;
	size_t stable_after; /* --stable-after: 0, or the passes in a row a figure needs to gate */
	bool machine_slow;   /* KSFT_MACHINE_SLOW=yes with --ktap: a gate on time is an xfail */
	const char *title;   /* SVG title, or NULL */
	const struct noise_profile *noise; /* --noise, or NULL */
};

const char *trend_order_name(enum series_order o); /* "given", "created", "label" */

/*
 * The report, in text or Markdown (MD): summary, each change point
 * (LKP-style rows per level), the series.
 */
void trend_print(FILE *f, const struct trend_view *v, bool md);
/*
 * --fail-on-regression: names every regression in the window on stderr
 * (unstable figures too, marked as not gated). EXIT_REGRESSION when a
 * stable one fired, else EXIT_OK.
 */
int trend_gate(const struct trend_view *v);
/*
 * --stable-after: whether G is held, report-only, having passed fewer than
 * v->stable_after times in a row (series_passes()), which *PASSES says.
 */
bool trend_held(const struct trend_view *v, const struct series_fig *g, size_t *passes);
/* Whether a gated hit is an expected failure: the machine is slow, the series a time's. */
bool trend_xfail(const struct trend_view *v);

/*
 * trend --ktap: one test per scenario of --metric, "not ok" for a regression
 * the gate fires on (series_gate), "# SKIP" for no --fail-on-regression, too
 * few points, or an unstable figure whose change is named but not gated.
 */
void trend_print_ktap(FILE *f, const struct trend_view *v);

/* Writes the series, levels, change points and gate as JSON to PATH ("-": stdout); an exit code. */
int trend_write_json(const struct trend_view *v, const char *path);
/* Draws the --metric figure of every scenario to PATH ("-": stdout); an exit code. */
int trend_write_svg(const struct trend_view *v, const char *path);

#endif
