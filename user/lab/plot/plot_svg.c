// SPDX-License-Identifier: GPL-2.0
/*
 * The SVG of ppbench plot: a panel per scenario, each with its own axis from
 * 0 (fast's thousands of cycles would flatten ring and slow on a shared
 * one), a box per file. Plain SVG 1.1 with no scripts or external fonts.
 */
#include <math.h>
#include <string.h>
#include "plot/plot_svg.h"
#include "sys/log.h"
#include "sys/outfile.h"
#include "sys/util.h"

/* Geometry, in SVG user units (pixels). */
#define PLOT_TOP 70
#define PLOT_H 300
#define PLOT_LEFT 44  /* the axis title */
#define PANEL_AXIS 52 /* a panel's tick labels, left of its axis */
#define PANEL_PAD 14  /* between the axis and the first box, and after the last */
#define PANEL_GAP 18  /* between panels */
#define BOX_W 34
#define LEGEND_MIN_W 190

/* Okabe-Ito: distinguishable with the common colour-vision deficiencies. */
const char *const palette[PALETTE_N] = { "#0072b2", "#e69f00", "#009e73", "#d55e00",
					 "#cc79a7", "#56b4e9", "#f0e442", "#000000" };

void xml_text(FILE *f, const char *s)
{
	static const char *const ent[] = {
		['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;"
	};

	for (; *s; s++) {
		if ((unsigned char)*s < ARRAY_SIZE(ent) && ent[(unsigned char)*s])
			fputs(ent[(unsigned char)*s], f);
		else
			fputc(*s, f);
	}
}

void svg_begin(FILE *f, int w, int h, int x, int y_title, int y_sub, const char *title)
{
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, "
		"Helvetica, sans-serif\" font-size=\"12\" fill=\"#222222\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n"
		"<text x=\"%d\" y=\"%d\" font-size=\"17\" font-weight=\"bold\">",
		w, h, w, h, x, y_title);
	xml_text(f, title);
	fprintf(f, "</text>\n<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555555\">", x, y_sub);
}

void svg_ytitle(FILE *f, int y, const char *unit)
{
	fprintf(f,
		"<text transform=\"translate(22,%d) rotate(-90)\" text-anchor=\"middle\" "
		"font-size=\"13\">%s</text>\n",
		y, unit);
}

void svg_yaxis(FILE *f, int ax, int right, int top, int h, double ymax, double ystep)
{
	for (double v = 0; v <= ymax + ystep / 2; v += ystep) {
		double y = top + h - v / ymax * h;

		fprintf(f,
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n",
			ax, y, right, y);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", ax - 6,
			y + 4, v);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333333\"/>\n", ax, top,
		ax, top + h);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333333\"/>\n", ax,
		top + h, right, top + h);
}

static int fill_box(struct box *b, const struct result_stat *st)
{
	int err = summarize(st->runs, st->nruns, &b->s);

	err = err ?: quartiles(st->runs, st->nruns, &b->q1, &b->q3);
	b->have = !err;
	return err;
}

void axis_scale(double top, double *ymax, double *ystep)
{
	double raw, mag, frac;

	if (top <= 0)
		top = 1;
	raw = top / 5;
	mag = pow(10, floor(log10(raw)));
	frac = raw / mag;
	*ystep = (frac <= 1 ? 1 : frac <= 2 ? 2 : frac <= 5 ? 5 : 10) * mag;
	*ymax = ceil(top * 1.08 / *ystep) * *ystep;
}

static int panel_w(const struct plot *p)
{
	return PANEL_AXIS + 2 * PANEL_PAD + (int)p->nfiles * BOX_W;
}

/* Where scenario S's panel starts (its tick labels) and where its axis is. */
static int panel_x(const struct plot *p, size_t s)
{
	return PLOT_LEFT + (int)s * (panel_w(p) + PANEL_GAP);
}

int build_plot(struct plot *p)
{
	int err;

	for (size_t s = 0; s < p->nscn; s++) {
		double top = 0; /* each scenario's axis from its largest value */

		for (size_t f = 0; f < p->nfiles; f++) {
			const struct result_scenario *sc = result_find(&p->res[f], p->scn[s]);

			if (!sc || !sc->ok)
				continue;
			err = fill_box(&p->box[s][f], p->cfg->ns ? &sc->ns : &sc->cycles);
			if (err)
				return err;
			top = fmax(top, p->box[s][f].s.max);
		}
		axis_scale(top, &p->ymax[s], &p->ystep[s]);
	}
	/* Room for the longest label at about 7 px per character of the 12 px font. */
	p->legend_w = LEGEND_MIN_W;
	for (size_t f = 0; f < p->nfiles; f++)
		p->legend_w = fmax(p->legend_w, 40 + 7 * strlen(p->label[f]));
	p->width = panel_x(p, p->nscn) + 10 + p->legend_w;
	if (p->width < 560)
		p->width = 560;
	p->height = fmax(PLOT_TOP + PLOT_H + 70, PLOT_TOP + 22 * p->nfiles + 70);
	return 0;
}

static double y_of(const struct plot *p, size_t s, double v)
{
	return PLOT_TOP + PLOT_H - v / p->ymax[s] * PLOT_H;
}

/* The y axis's unit: each file's clock says what its figures count. */
static const char *axis_unit(const struct plot *p)
{
	const struct result_clock *k = result_clock_of(&p->res[0]);

	if (unit_counts_instructions(k->unit))
		return "instructions per element";
	if (p->cfg->ns)
		return "ns per element";
	if (!strcmp(k->kind, "ktime"))
		return "ns per element (kernel clock)";
	return "TSC cycles per element";
}

void plot_head(FILE *f, const struct plot *p, int w, int h, const char *title)
{
	const struct result_host *host = &p->res[0].host;
	const struct result_clock *k = result_clock_of(&p->res[0]);

	svg_begin(f, w, h, PLOT_LEFT, 28, 48, p->cfg->title ? p->cfg->title : title);
	xml_text(f, host->cpu_model);
	if (unit_counts_instructions(k->unit))
		fprintf(f, ", qemu's instruction clock (%s)", k->qemu ? k->qemu : "-icount");
	else if (!strcmp(k->kind, "ktime"))
		fprintf(f, ", kernel clock");
	else
		fprintf(f, ", TSC %.3f GHz", host->tsc_hz / 1e9);
	fprintf(f, ", kernel ");
	xml_text(f, host->kernel);
	fprintf(f, p->nfiles > 1 ? " (first file)</text>\n" : "</text>\n");
}

static void svg_box(FILE *f, const struct plot *p, size_t s, size_t i, double x)
{
	const struct box *bx = &p->box[s][i];
	const struct summary *b = &bx->s;
	const char *col = palette[i % ARRAY_SIZE(palette)];
	double cx = x + BOX_W / 2.0, w = BOX_W - 8;

	if (!bx->have) {
		fprintf(f,
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\">"
			"n/a</text>\n",
			cx, PLOT_TOP + PLOT_H - 4);
		return;
	}
	fprintf(f, "<g stroke=\"%s\" stroke-width=\"2\"><title>", col);
	xml_text(f, p->scn[s]);
	fprintf(f, ", ");
	xml_text(f, p->label[i]);
	fprintf(f, ": median %.2f, mean %.2f, min %.2f, max %.2f, n %zu</title>\n", b->median,
		b->mean, b->min, b->max, b->n);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cx,
		y_of(p, s, b->min), cx, y_of(p, s, b->max));
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cx - w / 4,
		y_of(p, s, b->min), cx + w / 4, y_of(p, s, b->min));
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cx - w / 4,
		y_of(p, s, b->max), cx + w / 4, y_of(p, s, b->max));
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
		"fill-opacity=\"0.35\"/>\n",
		cx - w / 2, y_of(p, s, bx->q3), w, fmax(1, y_of(p, s, bx->q1) - y_of(p, s, bx->q3)),
		col);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke-width=\"3\"/>\n",
		cx - w / 2, y_of(p, s, b->median), cx + w / 2, y_of(p, s, b->median));
	fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#ffffff\"/>\n</g>\n", cx,
		y_of(p, s, b->mean));
	fprintf(f,
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">"
		"%.*f</text>\n",
		cx, y_of(p, s, b->max) - 6, b->median < 100 ? 1 : 0, b->median);
}

static void svg_panels(FILE *f, const struct plot *p)
{
	for (size_t s = 0; s < p->nscn; s++) {
		double x0 = panel_x(p, s) + PANEL_AXIS + PANEL_PAD;

		fprintf(f, "<g class=\"scenario\">\n");
		svg_yaxis(f, panel_x(p, s) + PANEL_AXIS, panel_x(p, s) + panel_w(p), PLOT_TOP,
			  PLOT_H, p->ymax[s], p->ystep[s]);
		for (size_t i = 0; i < p->nfiles; i++)
			svg_box(f, p, s, i, x0 + i * BOX_W);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">",
			x0 + p->nfiles * BOX_W / 2.0, PLOT_TOP + PLOT_H + 20);
		xml_text(f, p->scn[s]);
		fprintf(f, "</text>\n</g>\n");
	}
}

static void svg_legend(FILE *f, const struct plot *p)
{
	int x = p->width - p->legend_w + 4, y = PLOT_TOP + 6;

	for (size_t i = 0; i < p->nfiles; i++, y += 22) {
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>\n", x,
			y, palette[i % ARRAY_SIZE(palette)]);
		fprintf(f, "<text x=\"%d\" y=\"%d\">", x + 20, y + 12);
		xml_text(f, p->label[i]);
		fprintf(f, "</text>\n");
	}
	fprintf(f,
		"<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#555555\">"
		"<tspan x=\"%d\" dy=\"0\">box: quartiles, bar: median,</tspan>"
		"<tspan x=\"%d\" dy=\"13\">dot: mean, whiskers: min-max</tspan>"
		"<tspan x=\"%d\" dy=\"13\">over the setups; each</tspan>"
		"<tspan x=\"%d\" dy=\"13\">scenario has its own axis</tspan></text>\n",
		x, y + 14, x, x, x, x);
}

void write_plot_svg(FILE *f, const void *ctx)
{
	const struct plot *p = ctx;

	plot_head(f, p, p->width, p->height, "page_pool scenario cost per element");
	svg_ytitle(f, PLOT_TOP + PLOT_H / 2, axis_unit(p));
	svg_panels(f, p);
	svg_legend(f, p);
	fprintf(f, "</svg>\n");
}

int svg_output(const char *path, void (*write)(FILE *f, const void *ctx), const void *ctx)
{
	struct outfile out;

	if (outfile_open(&out, path, OUTFILE_WHOLE))
		return EXIT_FAIL;
	write(out.f, ctx); /* the commit finds a failed write and names it */
	return outfile_commit(&out) ? EXIT_FAIL : EXIT_OK;
}
