// SPDX-License-Identifier: GPL-2.0
/* Stacked bars of instruction profiles, by group and function. */
#include <math.h>
#include <string.h>
#include "vm/prof_build.h"
#include "vm/prof_report.h"
#include "plot/plot_svg.h"

#define TOP 70
#define H 340
#define LEFT 44
#define AXIS 52
#define PAD 12
#define BAR_W 84
#define BAR_GAP 14
#define PANEL_GAP 18
#define LEGEND_W 210
#define LABEL_MIN_H 11 /* a piece shows its name when at least this tall */

/* One colour per group, Okabe-Ito's first (the path's own code in blues and green). */
static const char *const group_colour[PG_NR] = {
	[PG_PAGE_POOL] = "#0072b2", [PG_PTR_RING] = "#56b4e9", [PG_PAGE_ALLOC] = "#009e73",
	[PG_XDP] = "#e69f00",	    [PG_TEST_RUN] = "#f0e442", [PG_SKB] = "#cc79a7",
	[PG_BPF] = "#d55e00",	    [PG_OTHER] = "#999999",    [PG_USER] = "#555555",
	[PG_UNMAPPED] = "#000000",
};

static const struct result_profile *prof_of(const struct plot *p, size_t s, size_t f)
{
	const struct result_scenario *sc = result_find(&p->res[f], p->scn[s]);

	return sc && sc->ok && sc->prof.has ? &sc->prof : NULL;
}

static int panel_w(const struct plot *p)
{
	return AXIS + 2 * PAD + (int)p->nfiles * (BAR_W + BAR_GAP) - BAR_GAP;
}

static int panel_x(const struct plot *p, size_t s)
{
	return LEFT + (int)s * (panel_w(p) + PANEL_GAP);
}

static double y_of(double ymax, double v)
{
	return TOP + H - v / ymax * H;
}

static void scale(const struct plot *p, size_t s, double *ymax, double *ystep)
{
	double top = 0;

	for (size_t f = 0; f < p->nfiles; f++)
		if (prof_of(p, s, f))
			top = fmax(top, prof_of(p, s, f)->per_elem);
	axis_scale(top, ymax, ystep);
}

/* One piece of a bar: [LO, HI) instructions per element, a function or a group's rest. */
static void piece(FILE *f, double x, double ymax, double lo, double hi, enum prof_group g,
		  const char *name, const char *tip, bool odd)
{
	double y0 = y_of(ymax, hi), h = y_of(ymax, lo) - y0;
	int room = (BAR_W - 6) / 6; /* characters of the 9 px font */

	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"%s\" "
		"fill-opacity=\"%s\" stroke=\"#ffffff\" stroke-width=\"0.5\"><title>",
		x, y0, BAR_W, fmax(h, 0.3), group_colour[g], odd ? "0.7" : "0.95");
	xml_text(f, tip);
	fprintf(f, "</title></rect>\n");
	if (h < LABEL_MIN_H)
		return;
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" fill=\"%s\">", x + 3, y0 + 9.5,
		g == PG_TEST_RUN || g == PG_PTR_RING || g == PG_OTHER ? "#000000" : "#ffffff");
	if ((int)strlen(name) > room) {
		char cut[64];

		snprintf(cut, sizeof(cut), "%.*s~", room - 1, name);
		xml_text(f, cut);
	} else {
		xml_text(f, name);
	}
	fprintf(f, "</text>\n");
}

/* A file's bar: each group from the bottom, its listed functions, then its rest. */
static void bar(FILE *f, const struct plot *p, size_t s, size_t fi, double x, double ymax)
{
	const struct result_profile *pr = prof_of(p, s, fi);
	double at = 0, floor, path = 0;
	char tip[400], name[200];
	bool odd = false;

	if (!pr) {
		fprintf(f,
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\">no "
			"profile</text>\n",
			x + BAR_W / 2.0, TOP + H - 4);
		return;
	}
	floor = pr->per_elem * PROF_LIST_PCT / 100;
	for (int g = 0; g < PG_NR; g++) {
		double rest = 0;
		size_t nrest = 0;

		for (size_t i = 0; i < pr->nfn; i++) {
			const struct result_pfn *fn = &pr->fn[i];
			enum prof_group fg = prof_group_named(fn->group);

			if ((fg == PG_NR ? PG_OTHER : fg) != (enum prof_group)g)
				continue;
			if (fn->per_elem < floor) {
				rest += fn->per_elem;
				nrest++;
				continue;
			}
			snprintf(name, sizeof(name), "%s%s%s%s", fn->name, fn->module ? " [" : "",
				 fn->module ?: "", fn->module ? "]" : "");
			snprintf(tip, sizeof(tip), "%s, %s: %s %.2f instr/elem (%s)", p->scn[s],
				 p->label[fi], name, fn->per_elem, prof_groups[g].name);
			piece(f, x, ymax, at, at + fn->per_elem, g, name, tip, odd = !odd);
			at += fn->per_elem;
		}
		if (nrest) {
			snprintf(name, sizeof(name), "%s: %zu more", prof_groups[g].name, nrest);
			snprintf(tip, sizeof(tip),
				 "%s, %s: %zu more functions of %s, %.2f instr/elem", p->scn[s],
				 p->label[fi], nrest, prof_groups[g].name, rest);
			piece(f, x, ymax, at, at + rest, g, name, tip, odd = !odd);
			at += rest;
		}
		if (prof_groups[g].cls == PCLS_PATH)
			path = at;
	}
	/* the path figure: where the path's own groups end */
	fprintf(f,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\" "
		"stroke-dasharray=\"3,2\"/>\n",
		x - 3, y_of(ymax, path), x + BAR_W + 3, y_of(ymax, path));
	fprintf(f,
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">%.1f</text>\n"
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\" "
		"fill=\"#555555\">path %.1f</text>\n",
		x + BAR_W / 2.0, y_of(ymax, pr->per_elem) - 15, pr->per_elem, x + BAR_W / 2.0,
		y_of(ymax, pr->per_elem) - 4, path);
}

static void panels(FILE *f, const struct plot *p)
{
	for (size_t s = 0; s < p->nscn; s++) {
		double x0 = panel_x(p, s) + AXIS + PAD, ymax, ystep;

		scale(p, s, &ymax, &ystep);
		fprintf(f, "<g class=\"scenario\">\n");
		svg_yaxis(f, panel_x(p, s) + AXIS, panel_x(p, s) + panel_w(p), TOP, H, ymax, ystep);
		for (size_t i = 0; i < p->nfiles; i++) {
			double x = x0 + i * (BAR_W + BAR_GAP);

			bar(f, p, s, i, x, ymax);
			fprintf(f,
				"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
				"font-size=\"10\">",
				x + BAR_W / 2.0, TOP + H + 14);
			xml_text(f, p->label[i]);
			fprintf(f, "</text>\n");
		}
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">",
			x0 + (panel_w(p) - AXIS - 2 * PAD) / 2.0, TOP + H + 32);
		xml_text(f, p->scn[s]);
		fprintf(f, "</text>\n</g>\n");
	}
}

static void legend(FILE *f, int x)
{
	int y = TOP + 6;

	for (int g = 0; g < PG_NR; g++, y += 20) {
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>\n", x,
			y, group_colour[g]);
		fprintf(f, "<text x=\"%d\" y=\"%d\">%s (%s)</text>\n", x + 20, y + 12,
			prof_groups[g].name, prof_class_name(prof_groups[g].cls));
	}
	fprintf(f,
		"<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#555555\">"
		"<tspan x=\"%d\" dy=\"0\">a piece per function of %g %% or</tspan>"
		"<tspan x=\"%d\" dy=\"13\">more, a group's rest as one;</tspan>"
		"<tspan x=\"%d\" dy=\"13\">dashed: the path's own code ends</tspan>"
		"<tspan x=\"%d\" dy=\"13\">(the path figure)</tspan></text>\n",
		x, y + 10, x, PROF_LIST_PCT, x, x, x);
}

void write_prof_svg(FILE *f, const void *ctx)
{
	const struct plot *p = ctx;
	int width = panel_x(p, p->nscn) + 10 + LEGEND_W, height = TOP + H + 60;

	if (width < 800) /* (room for the subtitle) */
		width = 800;
	plot_head(f, p, width, height, "where the instructions go, per element");
	svg_ytitle(f, TOP + H / 2, "instructions per element");
	panels(f, p);
	legend(f, width - LEGEND_W + 4);
	fprintf(f, "</svg>\n");
}
