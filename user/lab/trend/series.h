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
 * A series of bench results (ppbench trend): each file reduced to its point
 * as it is added, so a thousand never sit in memory at once. Pure: errors
 * come back as one line in ERR.
 */
enum series_order { SERIES_GIVEN, SERIES_CREATED, SERIES_LABEL };
enum series_figure { SFIG_CYCLES, SFIG_NS, SFIG_PATH, NR_SFIGS };
#define NR_RAW 4

struct series_point {
	char *file, *label, *created, *kernel;
};

struct series_fig {
	char *scenario;
	enum series_figure fig;
	/* SFIG_PATH: its method's name (path_method_name()), or NULL */
	char *method;
	/* adding: a point of another method came; the line that sets the figure aside */
	char *aside;
	size_t n;   /* points that have this figure */
	size_t *pt; /* their indices into the series' points */
	union {
		/* per series point while adding (NAN: none), then of the N points */
		double *raw[NR_RAW];
		struct {
			double *v, *lo, *hi; /* median over the setups, least and largest setup */
			double *probe; /* cycles and ns: the scenario's level probe (0: none) */
		};
	};
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
	char **aside;	/* a line per path figure left out: its method changed */
	size_t naside;
	unsigned figmask; /* 1 << SFIG_*: the figures to keep; 0: all */
};

/*
 * Adds result R. One from another host (series_host_differs()) is -EINVAL,
 * unless FORCE: then it is counted; one of another clock -EXDEV.
 */
int series_add(struct series *s, const struct result *r, bool force, char *err, size_t errlen);
/*
 * Puts the points in ORDER (stable), refuses two of one label (-EINVAL),
 * builds every figure's values and sets aside those of two methods.
 */
int series_finish(struct series *s, enum series_order order, char *err, size_t errlen);
/* 0 when two hosts' cycles compare (one CPU model, TSC within 1 %), else -EINVAL and WHY. */
int series_host_differs(const char *cpu_a, double tsc_a, const char *cpu_b, double tsc_b, char *why,
			size_t len);
/* Takes each figure's level ratios and floor from profile P (after series_finish). */
void series_use_profile(struct series *s, const struct noise_profile *p);
/* Fits every figure; 0 or -errno. A step the level probe takes too is TREND_HOST. */
int series_fit(struct series *s, const struct trend_opts *o);
void series_free(struct series *s);
/* Frees one figure (series_free does it for all). */
void series_fig_free(struct series_fig *g);

const char *series_figure_name(enum series_figure f); /* "cycles", "ns", "path" */
const char *series_figure_unit(enum series_figure f); /* "cycles/elem", ... */
double series_stat_max(const struct result_stat *st); /* its largest setup: min or a run */

/* A change point the gate looks at: in figure FIG, its change point CP. */
struct series_hit {
	const struct series_fig *fig;
	const struct trend_cp *cp;
	bool unstable; /* not a step (a level may explain it): named, not gated */
};

/*
 * The change points of METRIC up by more than PCT % whose first point after
 * is among the last WINDOW: at most MAX into HITS, their number returned.
 */
size_t series_gate(const struct series *s, enum series_figure metric, double pct, size_t window,
		   struct series_hit *hits, size_t max);
#define TREND_MAX_HITS 64 /* the hits a report takes */
/*
 * How many times in a row G passed that gate, as netdev's CI counts a new
 * test's: its points since its last step up by more than PCT, up to the
 * first step the gate fires on.
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

/* The report, in text or Markdown (MD): summary, each change point, the series. */
void trend_print(FILE *f, const struct trend_view *v, bool md);
/* --fail-on-regression: names each regression on stderr; EXIT_REGRESSION if one gated. */
int trend_gate(const struct trend_view *v);
/* --stable-after: whether G is held, having passed *PASSES < v->stable_after times. */
bool trend_held(const struct trend_view *v, const struct series_fig *g, size_t *passes);
/* Whether a gated hit is an expected failure: the machine is slow, the series a time's. */
bool trend_xfail(const struct trend_view *v);

/* trend --ktap: a test per scenario of --metric, "not ok" where the gate fires. */
void trend_print_ktap(FILE *f, const struct trend_view *v);

/* Writes the series, levels, change points and gate as JSON to PATH ("-": stdout); an exit code. */
int trend_write_json(const struct trend_view *v, const char *path);
/* Draws the --metric figure of every scenario to PATH ("-": stdout); an exit code. */
int trend_write_svg(const struct trend_view *v, const char *path);

#endif
