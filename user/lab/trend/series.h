/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_SERIES_H
#define PPBENCH_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "model/noise.h"
#include "model/result.h"
#include "trend/trendfit.h"

/*
 * A series of bench results (ppbench trend): the points in series order,
 * each with its label, and per scenario and figure the values with their
 * setup spread and the fit (levels, change points). Each result file is
 * reduced to what the series needs as it is added, so a thousand files
 * never sit in memory at once. Pure: errors come back as one line in ERR.
 */
enum series_order { SERIES_GIVEN, SERIES_CREATED, SERIES_LABEL };
enum series_figure { SFIG_CYCLES, SFIG_NS, SFIG_PATH, NR_SFIGS };
#define NR_RAW 4

struct series_point {
	char *file, *label, *created, *kernel;
	size_t given; /* position on the command line */
};

struct series_fig {
	char *scenario;
	enum series_figure fig;
	/* SFIG_PATH: its method's name (path_method_name()), or NULL */
	char *method;
	/* adding: a point of another method came; the line that sets the figure aside */
	char *aside;
	size_t n;	     /* points that have this figure */
	size_t *pt;	     /* their indices into the series' points */
	double *v, *lo, *hi; /* value (median over the setups), least and largest setup */
	/* cycles and ns: the scenario's level probe at each point (0: none) */
	double *probe;
	double *raw[NR_RAW]; /* v, lo, hi, probe per series point while adding; NAN: none */
	/* from a noise profile: its level ratios and single-pair floor (NAN: none) */
	double level_ratio[TREND_MAX_RATIOS];
	size_t nlevel_ratios;
	double floor_pct;
	struct trend_fit fit;
};

struct series {
	struct series_point *pt;
	size_t npts, cap;
	char *cpu_model;
	char *clock_kind, *clock_unit; /* host.clock of the first file: all must share it */
	double tsc_hz;
	struct series_fig *figs;
	size_t nfigs;
	size_t nforced; /* files from another host taken because of force */
	/*
	 * Figures left out, each a line: a path figure whose method changed in
	 * the series ("ring path: fentry in a.json, profile in b.json: ...").
	 */
	char **aside;
	size_t naside;
	unsigned figmask; /* 1 << SFIG_*: the figures to keep; 0: all */
};

/*
 * Adds result R (already loaded and checked). A file from another host (CPU
 * model, or TSC more than 1 % apart from the first file) is refused with
 * -EINVAL and ERR naming both, unless FORCE: then it is added and counted.
 * A file of another clock (host.clock: cycles or instructions) is refused
 * with -EXDEV, FORCE or not.
 */
int series_add(struct series *s, const struct result *r, bool force, char *err, size_t errlen);
/*
 * Puts the points in ORDER (stable: ties keep the given order) and checks
 * that no two share a label. Then builds every figure's values, and sets
 * aside the figures of two methods (series.aside). 0, -EINVAL with ERR,
 * -ENOMEM.
 */
int series_finish(struct series *s, enum series_order order, char *err, size_t errlen);
/*
 * Whether two hosts' cycles compare: the same CPU model and TSC Hz within
 * 1 %. 0 if so, else -EINVAL and WHY, e.g. "TSC 2096000000 Hz vs 2445000000
 * Hz (14.3% apart)".
 */
int series_host_differs(const char *cpu_a, double tsc_a, const char *cpu_b, double tsc_b, char *why,
			size_t len);
/* Takes each figure's level ratios and floor from profile P (after series_finish). */
void series_use_profile(struct series *s, const struct noise_profile *p);
/*
 * Fits every figure; 0 or -errno. A step of cycles or ns at which the
 * scenario's level probe (the page_pool-free kernel loop bench times beside
 * each setup) steps too, the same way, is the host's: kind TREND_HOST.
 */
int series_fit(struct series *s, const struct trend_opts *o);
void series_free(struct series *s);
/* Frees one figure (series_free does it for all). */
void series_fig_free(struct series_fig *g);

const char *series_figure_name(enum series_figure f); /* "cycles", "ns", "path" */
/* G's figure with its method, as trend's tables name it: "cycles", "path (fentry)". */
const char *series_fig_label(const struct series_fig *g, char *buf, size_t len);
const char *series_figure_unit(enum series_figure f); /* "cycles/elem", ... */

/* A change point the gate looks at: in figure FIG, its change point CP. */
struct series_hit {
	const struct series_fig *fig;
	const struct trend_cp *cp;
	bool unstable; /* not a step (a level may explain it): named, not gated */
};

/*
 * The regressions larger than PCT % among the change points of figure
 * METRIC whose first point after the change is one of the last WINDOW
 * points of the series. Steps only; higher is worse. Fills at most MAX
 * into HITS and returns how many it filled.
 */
#define TREND_MAX_HITS 64
size_t series_gate(const struct series *s, enum series_figure metric, double pct, size_t window,
		   struct series_hit *hits, size_t max);
/*
 * How many times in a row figure G passed that gate, as netdev's CI counts
 * a new test's passes before it trusts it: G's points from its last step up
 * by more than PCT (or from its first point) up to the first one a step the
 * gate fires on leads to (or to its last point, where none does).
 */
size_t series_passes(const struct series *s, const struct series_fig *g, double pct, size_t window);

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
