// SPDX-License-Identifier: GPL-2.0
/*
 * The SVG of ppbench trend: a panel per scenario, stacked on the series' x
 * axis, each y axis from 0 so that sizes compare honestly. Plain SVG 1.1.
 */
#include <math.h>
#include <string.h>
#include "plot/plot_svg.h"
#include "trend/series.h"

#define TOP 64	     /* title and subtitle above the first panel */
#define LEFT 96	     /* axis title and tick labels */
#define PANEL_H 210  /* plotting height of a panel */
#define PANEL_GAP 78 /* panel title above, tick labels below */
#define LEGEND_W 380
#define CP_COLOUR "#d62728"
#define DRIFT_COLOUR "#7f7f7f"

struct geom {
	double x0, w, y0; /* plotting area of the current panel: left, width, top */
	double ymax, ystep;
	size_t n; /* points of the series */
};

static double x_of(const struct geom *g, double i)
{
	return g->x0 + (i + 0.5) * g->w / g->n;
}

static double y_of(const struct geom *g, double v)
{
	return g->y0 + PANEL_H - v / g->ymax * PANEL_H;
}

static const char *level_colour(int level)
{
	return level < 0 ? "#999999" : palette[level % PALETTE_N];
}

static void svg_axes(FILE *f, const struct geom *g, const struct trend_view *v)
{
	size_t every = (size_t)ceil(g->n / fmax(1, g->w / 48));

	for (double y = 0; y <= g->ymax + g->ystep / 2; y += g->ystep) {
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#e4e4e4\"/>\n",
			g->x0, y_of(g, y), g->x0 + g->w, y_of(g, y));
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", g->x0 - 6,
			y_of(g, y) + 4, y);
	}
	fprintf(f, "<path d=\"M%.1f %.1f V%.1f H%.1f\" fill=\"none\" stroke=\"#333333\"/>\n", g->x0,
		g->y0, g->y0 + PANEL_H, g->x0 + g->w);
	for (size_t i = 0; i < g->n; i += every ? every : 1) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">",
			x_of(g, i), g->y0 + PANEL_H + 14);
		xml_text(f, v->s->pt[i].label);
		fprintf(f, "</text>\n");
	}
}

static void svg_levels(FILE *f, const struct geom *g, const struct series_fig *fig)
{
	const struct level_set *l = &fig->fit.levels;

	for (size_t k = 0; k < l->nlevels; k++) {
		const struct level *lv = &l->lv[k];
		double top = y_of(g, lv->hi), bot = y_of(g, lv->lo);

		fprintf(f,
			"<g class=\"level\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.10\"/>\n",
			g->x0, top, g->w, fmax(1, bot - top), level_colour((int)k));
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"%s\">L%zu ~%.4g "
			"(%zu)</text></g>\n",
			g->x0 + g->w + 6, y_of(g, lv->median) + 3, level_colour((int)k), k + 1,
			lv->median, lv->count);
	}
}

static void svg_point(FILE *f, const struct geom *g, const struct trend_view *v,
		      const struct series_fig *fig, size_t i)
{
	int lv = fig->fit.level ? fig->fit.level[i] : -1;
	double x = x_of(g, fig->pt[i]);

	fprintf(f, "<g class=\"point\" stroke=\"%s\"><title>", level_colour(lv));
	xml_text(f, v->s->pt[fig->pt[i]].label);
	fprintf(f, ": %.2f (setups %.2f-%.2f), %s%d</title>\n", fig->v[i], fig->lo[i], fig->hi[i],
		lv < 0 ? "outlier" : "level ", lv < 0 ? 0 : lv + 1);
	if (fig->hi[i] > fig->lo[i])
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x,
			y_of(g, fig->lo[i]), x, y_of(g, fig->hi[i]));
	fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.8\" fill=\"%s\"/></g>\n", x,
		y_of(g, fig->v[i]), lv < 0 ? "#ffffff" : level_colour(lv));
}

/* Each level's mean between two change points: a bar over that stretch. */
static void svg_segments(FILE *f, const struct geom *g, const struct series_fig *fig)
{
	for (size_t c = 0; c <= fig->fit.ncps; c++) {
		size_t a = c ? fig->fit.cps[c - 1].at : 0;
		size_t b = c < fig->fit.ncps ? fig->fit.cps[c].at : fig->n;

		for (size_t k = 0; k < fig->fit.levels.nlevels; k++) {
			double sum = 0;
			size_t m = 0;

			for (size_t i = a; i < b; i++)
				if (fig->fit.level[i] == (int)k) {
					sum += fig->v[i];
					m++;
				}
			if (!m)
				continue;
			fprintf(f,
				"<line class=\"segment\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\" "
				"stroke-opacity=\"0.7\"/>\n",
				x_of(g, fig->pt[a]) - 3, y_of(g, sum / m),
				x_of(g, fig->pt[b - 1]) + 3, y_of(g, sum / m),
				level_colour((int)k));
		}
	}
}

static void svg_cps(FILE *f, const struct geom *g, const struct trend_view *v,
		    const struct series_fig *fig)
{
	for (size_t c = 0; c < fig->fit.ncps; c++) {
		const struct trend_cp *cp = &fig->fit.cps[c];
		const char *col = cp->kind == TREND_STEP ? CP_COLOUR : DRIFT_COLOUR;
		double x = (x_of(g, fig->pt[cp->at - 1]) + x_of(g, fig->pt[cp->at])) / 2;

		fprintf(f, "<g class=\"change-point\"><title>%s between ",
			trend_kind_name(cp->kind));
		xml_text(f, v->s->pt[fig->pt[cp->at - 1]].label);
		fprintf(f, " and ");
		xml_text(f, v->s->pt[fig->pt[cp->at]].label);
		fprintf(f, ": %+.1f%% [%+.1f%%, %+.1f%%], p %.3g</title>\n", cp->change_pct,
			cp->lo_pct, cp->hi_pct, cp->p);
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"2\" stroke-dasharray=\"6 3\"/>\n",
			x, g->y0, x, g->y0 + PANEL_H, col);
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"%s\">%+.1f%% %s</text>"
			"</g>\n",
			x + 4, g->y0 + 12, col, cp->change_pct, trend_kind_name(cp->kind));
	}
}

static void svg_panel(FILE *f, struct geom *g, const struct trend_view *v,
		      const struct series_fig *fig)
{
	double top = 0;

	for (size_t i = 0; i < fig->n; i++)
		top = fmax(top, fig->hi[i]);
	axis_scale(top, &g->ymax, &g->ystep);
	fprintf(f,
		"<g class=\"scenario\">\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" "
		"font-weight=\"bold\">",
		g->x0, g->y0 - 10);
	xml_text(f, fig->scenario);
	fprintf(f,
		"</text>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#555555\">%s, "
		"%zu point%s, %s, %zu change point%s</text>\n",
		g->x0 + 8 + 9 * strlen(fig->scenario), g->y0 - 10, series_figure_unit(fig->fig),
		fig->n, fig->n == 1 ? "" : "s", trend_status_name(fig->fit.status), fig->fit.ncps,
		fig->fit.ncps == 1 ? "" : "s");
	svg_axes(f, g, v);
	svg_levels(f, g, fig);
	if (fig->fit.level)
		svg_segments(f, g, fig);
	for (size_t i = 0; i < fig->n; i++)
		svg_point(f, g, v, fig, i);
	svg_cps(f, g, v, fig);
	fprintf(f, "</g>\n");
}

static void svg_legend(FILE *f, double x, double y)
{
	static const char *const lines[] = {
		"dot: median over a result's setups",	     "line through it: the setups' range",
		"bands: host levels (L1 lowest),",	     "compared only within themselves",
		"hollow: an outlier (in no level)",	     "bars: a level's mean between changes",
		"dashed: a change point (grey: not a step)",
	};

	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#555555\">", x, y);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		fprintf(f, "<tspan x=\"%.1f\" dy=\"%d\">%s</tspan>", x, i ? 13 : 0, lines[i]);
	fprintf(f, "</text>\n");
}

static void write_svg(FILE *f, const void *ctx)
{
	const struct trend_view *v = ctx;
	struct geom g = { .x0 = LEFT, .n = v->s->npts };
	int width, height = TOP + 20;

	for (size_t i = 0; i < v->s->nfigs; i++)
		height +=
			v->s->figs[i].fig == v->metric && v->s->figs[i].n ? PANEL_H + PANEL_GAP : 0;
	g.w = fmin(1100, fmax(360, 14.0 * g.n));
	width = LEFT + (int)g.w + LEGEND_W;
	svg_begin(f, width, height, LEFT, 26, 44,
		  v->title ? v->title : "page_pool cost over a series of results");
	xml_text(f, v->s->cpu_model);
	fprintf(f,
		", TSC %.3f GHz, %zu results (order %s), e-divisive means inside host levels"
		"</text>\n",
		v->s->tsc_hz / 1e9, v->s->npts, trend_order_name(v->order));
	svg_ytitle(f, TOP + PANEL_GAP / 2 + PANEL_H / 2, series_figure_unit(v->metric));
	g.y0 = TOP + PANEL_GAP / 2;
	for (size_t i = 0; i < v->s->nfigs; i++) {
		if (v->s->figs[i].fig != v->metric || !v->s->figs[i].n)
			continue;
		svg_panel(f, &g, v, &v->s->figs[i]);
		g.y0 += PANEL_H + PANEL_GAP;
	}
	svg_legend(f, LEFT + g.w + 130, TOP + PANEL_GAP / 2 + PANEL_H * 0.45);
	fprintf(f, "</svg>\n");
}

int trend_write_svg(const struct trend_view *v, const char *path)
{
	return svg_output(path, write_svg, v);
}
