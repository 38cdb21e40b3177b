// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench plot RESULT.json... -o FILE.svg: one group per scenario, one box
 * per file (quartiles, median line, mean dot, min-max whiskers) on a common
 * linear axis from 0, so sizes compare honestly. Plain SVG 1.1 with no
 * scripts or external fonts, so browsers and rsvg render it alike.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "sys/log.h"
#include "model/result.h"
#include "model/stats.h"
#include "sys/util.h"

#define MAX_FILES 16
#define MAX_SCN 32

/* Geometry, in SVG user units (pixels). */
#define PLOT_TOP 70
#define PLOT_H 300
#define PLOT_LEFT 80
#define BOX_W 34
#define GROUP_GAP 36
#define LEGEND_MIN_W 190

enum { OPT_OUTPUT = 1, OPT_LABEL, OPT_TITLE, OPT_METRIC, OPT_SCENARIO };

struct plot_cfg {
	const char *output, *title;
	const char *files[MAX_FILES];
	const char *labels[MAX_FILES]; /* NULL: the file's base name */
	size_t nfiles;
	const char *next_label; /* --label waiting for its file */
	bool ns;
	char scenarios[256];
};

/* One file's figures for one scenario. */
struct box {
	bool have;
	double min, q1, median, q3, max, mean;
	size_t n;
};

struct plot {
	const struct plot_cfg *cfg;
	struct result res[MAX_FILES];
	const char *label[MAX_FILES];
	size_t nfiles;
	const char *scn[MAX_SCN];
	size_t nscn;
	struct box box[MAX_SCN][MAX_FILES];
	double ymax, ystep;
	int width, height, legend_w;
};

/* Okabe-Ito: distinguishable with the common colour-vision deficiencies. */
static const char *const palette[] = { "#0072b2", "#e69f00", "#009e73", "#d55e00",
				       "#cc79a7", "#56b4e9", "#f0e442", "#000000" };

static const struct cli_opt plot_opts[] = {
	{ "output", 'o', "FILE", "write the SVG to FILE ('-' for stdout); required", OPT_OUTPUT },
	{ "label", 'l', "NAME", "legend name of the file that follows (default: its base name)",
	  OPT_LABEL },
	{ "title", 't', "TEXT", "title (default: page_pool scenario cost per element)",
	  OPT_TITLE },
	{ "metric", 0, "NAME", "cycles (default: TSC cycles per element) or ns", OPT_METRIC },
	{ "scenario", 's', "LIST", "plot only these scenarios, in this order (e.g. fast,ring,slow)",
	  OPT_SCENARIO },
	{ NULL },
};

static int plot_opt(void *c, int key, const char *arg)
{
	struct plot_cfg *cfg = c;

	switch (key) {
	case OPT_OUTPUT:
		cfg->output = arg;
		return check_writable(arg, "--output");
	case CLI_KEY_ARG:
		if (cfg->nfiles == MAX_FILES) {
			pr_err("too many files: at most %d\n", MAX_FILES);
			return -E2BIG;
		}
		cfg->labels[cfg->nfiles] = cfg->next_label;
		cfg->files[cfg->nfiles++] = arg;
		cfg->next_label = NULL;
		return 0;
	case OPT_LABEL:
		if (cfg->next_label) {
			pr_err("--label '%s' and --label '%s' have no file between them\n",
			       cfg->next_label, arg);
			return -EINVAL;
		}
		cfg->next_label = arg;
		return 0;
	case OPT_TITLE:
		cfg->title = arg;
		return 0;
	case OPT_METRIC:
		if (strcmp(arg, "cycles") && strcmp(arg, "ns")) {
			pr_err("--metric '%s' must be 'cycles' or 'ns'\n", arg);
			return -EINVAL;
		}
		cfg->ns = !strcmp(arg, "ns");
		return 0;
	case OPT_SCENARIO:
		snprintf(cfg->scenarios, sizeof(cfg->scenarios), "%s", arg);
		return 0;
	}
	return -EINVAL;
}

/* Text content and attribute values: escape what XML reserves. */
static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/* "dir/base.json" -> "base": the default legend name. */
static const char *default_label(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".json"))
		n -= 5;
	snprintf(buf, len, "%.*s", (int)n, b);
	return buf;
}

static bool has_scn(const struct plot *p, const char *name)
{
	for (size_t i = 0; i < p->nscn; i++)
		if (!strcmp(p->scn[i], name))
			return true;
	return false;
}

/* Scenarios measured in any file, in the order the files list them. */
static void all_scenarios(struct plot *p)
{
	for (size_t f = 0; f < p->nfiles; f++)
		for (size_t k = 0; k < p->res[f].nr_sc && p->nscn < MAX_SCN; k++)
			if (p->res[f].sc[k].ok && !has_scn(p, p->res[f].sc[k].name))
				p->scn[p->nscn++] = p->res[f].sc[k].name;
}

/* --scenario a,b,c: each must be measured in at least one file. */
static int chosen_scenarios(struct plot *p, char *list)
{
	for (char *save, *s = strtok_r(list, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		const struct result_scenario *sc = NULL;

		for (size_t f = 0; f < p->nfiles && !(sc && sc->ok); f++)
			sc = result_find(&p->res[f], s);
		if (!sc || !sc->ok) {
			pr_err("--scenario: '%s' is not measured in any of the files\n", s);
			return -ENOENT;
		}
		if (p->nscn < MAX_SCN && !has_scn(p, s))
			p->scn[p->nscn++] = sc->name;
	}
	return 0;
}

static int fill_box(struct box *b, const struct result_stat *st)
{
	struct summary s;
	int err = summarize(st->runs, st->nruns, &s);

	err = err ?: quartiles(st->runs, st->nruns, &b->q1, &b->q3);
	if (err)
		return err;
	b->have = true;
	b->min = s.min;
	b->max = s.max;
	b->median = s.median;
	b->mean = s.mean;
	b->n = s.n;
	return 0;
}

/* Largest value on the axis and a 1-2-5 tick step giving 4 to 10 ticks. */
static void y_scale(struct plot *p)
{
	double top = 0, raw, mag, frac;

	for (size_t s = 0; s < p->nscn; s++)
		for (size_t f = 0; f < p->nfiles; f++)
			if (p->box[s][f].have)
				top = fmax(top, p->box[s][f].max);
	if (top <= 0)
		top = 1;
	raw = top / 5;
	mag = pow(10, floor(log10(raw)));
	frac = raw / mag;
	p->ystep = (frac <= 1 ? 1 : frac <= 2 ? 2 : frac <= 5 ? 5 : 10) * mag;
	p->ymax = ceil(top * 1.08 / p->ystep) * p->ystep;
}

static int build_plot(struct plot *p)
{
	int err;

	for (size_t s = 0; s < p->nscn; s++) {
		for (size_t f = 0; f < p->nfiles; f++) {
			const struct result_scenario *sc = result_find(&p->res[f], p->scn[s]);

			if (!sc || !sc->ok)
				continue;
			err = fill_box(&p->box[s][f], p->cfg->ns ? &sc->ns : &sc->cycles);
			if (err)
				return err;
		}
	}
	y_scale(p);
	/* Room for the longest label at about 7 px per character of the 12 px font. */
	p->legend_w = LEGEND_MIN_W;
	for (size_t f = 0; f < p->nfiles; f++)
		p->legend_w = fmax(p->legend_w, 40 + 7 * strlen(p->label[f]));
	p->width = PLOT_LEFT + p->nscn * (p->nfiles * BOX_W + GROUP_GAP) + 20 + p->legend_w;
	if (p->width < 560)
		p->width = 560;
	p->height = fmax(PLOT_TOP + PLOT_H + 70, PLOT_TOP + 22 * p->nfiles + 70);
	return 0;
}

static double y_of(const struct plot *p, double v)
{
	return PLOT_TOP + PLOT_H - v / p->ymax * PLOT_H;
}

static void svg_axes(FILE *f, const struct plot *p)
{
	int right = p->width - p->legend_w - 10;
	char num[32];

	for (double v = 0; v <= p->ymax + p->ystep / 2; v += p->ystep) {
		double y = y_of(p, v);

		snprintf(num, sizeof(num), "%g", v);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			   "stroke=\"#dddddd\"/>\n", PLOT_LEFT, y, right, y);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			PLOT_LEFT - 6, y + 4, num);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333333\"/>\n",
		PLOT_LEFT, PLOT_TOP, PLOT_LEFT, PLOT_TOP + PLOT_H);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333333\"/>\n",
		PLOT_LEFT, PLOT_TOP + PLOT_H, right, PLOT_TOP + PLOT_H);
	fprintf(f, "<text transform=\"translate(22,%d) rotate(-90)\" text-anchor=\"middle\" "
		   "font-size=\"13\">%s</text>\n", PLOT_TOP + PLOT_H / 2,
		p->cfg->ns ? "ns per element" : "TSC cycles per element");
}

static void svg_box(FILE *f, const struct plot *p, size_t s, size_t i, double x)
{
	const struct box *b = &p->box[s][i];
	const char *col = palette[i % ARRAY_SIZE(palette)];
	double cx = x + BOX_W / 2.0, w = BOX_W - 8;

	if (!b->have) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\">"
			   "n/a</text>\n", cx, PLOT_TOP + PLOT_H - 4);
		return;
	}
	fprintf(f, "<g stroke=\"%s\" stroke-width=\"2\"><title>", col);
	xml_text(f, p->scn[s]);
	fprintf(f, ", ");
	xml_text(f, p->label[i]);
	fprintf(f, ": median %.2f, mean %.2f, min %.2f, max %.2f, n %zu</title>\n", b->median,
		b->mean, b->min, b->max, b->n);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cx,
		y_of(p, b->min), cx, y_of(p, b->max));
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cx - w / 4,
		y_of(p, b->min), cx + w / 4, y_of(p, b->min));
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cx - w / 4,
		y_of(p, b->max), cx + w / 4, y_of(p, b->max));
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
		   "fill-opacity=\"0.35\"/>\n", cx - w / 2, y_of(p, b->q3), w,
		fmax(1, y_of(p, b->q1) - y_of(p, b->q3)), col);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke-width=\"3\"/>\n",
		cx - w / 2, y_of(p, b->median), cx + w / 2, y_of(p, b->median));
	fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#ffffff\"/>\n</g>\n", cx,
		y_of(p, b->mean));
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">"
		   "%.*f</text>\n", cx, y_of(p, b->max) - 6, b->median < 100 ? 1 : 0, b->median);
}

static void svg_groups(FILE *f, const struct plot *p)
{
	int gw = p->nfiles * BOX_W + GROUP_GAP;

	for (size_t s = 0; s < p->nscn; s++) {
		double x0 = PLOT_LEFT + s * gw + GROUP_GAP / 2.0;

		fprintf(f, "<g class=\"scenario\">\n");
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
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#555555\">"
		   "<tspan x=\"%d\" dy=\"0\">box: quartiles, bar: median,</tspan>"
		   "<tspan x=\"%d\" dy=\"13\">dot: mean, whiskers: min-max</tspan>"
		   "<tspan x=\"%d\" dy=\"13\">over the repetitions</tspan></text>\n",
		x, y + 14, x, x, x);
}

static int write_svg(const struct plot *p, FILE *f)
{
	const struct result_host *h = &p->res[0].host;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
		   "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, "
		   "Helvetica, sans-serif\" font-size=\"12\" fill=\"#222222\">\n",
		p->width, p->height, p->width, p->height);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
	fprintf(f, "<text x=\"%d\" y=\"28\" font-size=\"17\" font-weight=\"bold\">", PLOT_LEFT);
	xml_text(f, p->cfg->title ? p->cfg->title : "page_pool scenario cost per element");
	fprintf(f, "</text>\n<text x=\"%d\" y=\"48\" font-size=\"11\" fill=\"#555555\">",
		PLOT_LEFT);
	xml_text(f, h->cpu_model);
	fprintf(f, ", TSC %.3f GHz, kernel ", h->tsc_hz / 1e9);
	xml_text(f, h->kernel);
	fprintf(f, p->nfiles > 1 ? " (first file)</text>\n" : "</text>\n");
	svg_axes(f, p);
	svg_groups(f, p);
	svg_legend(f, p);
	fprintf(f, "</svg>\n");
	return fflush(f) || ferror(f) ? -EIO : 0;
}

static int load_all(struct plot *p, char (*names)[64])
{
	const struct plot_cfg *cfg = p->cfg;
	char err[512];

	for (size_t i = 0; i < cfg->nfiles; i++) {
		if (result_load(cfg->files[i], &p->res[i], err, sizeof(err))) {
			pr_err("%s\n", err);
			return -EINVAL;
		}
		p->nfiles = i + 1;
		p->label[i] = cfg->labels[i] ?: default_label(cfg->files[i], names[i], 64);
	}
	return 0;
}

static int output_svg(const struct plot *p, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int err;

	if (!f) {
		pr_err("cannot write '%s': %s\n", path, strerror(errno));
		return EXIT_FAIL;
	}
	err = write_svg(p, f);
	if (f != stdout && fclose(f))
		err = -EIO;
	if (err) {
		pr_err("writing '%s' failed\n", path);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int plot_checks(const struct plot_cfg *cfg)
{
	if (cfg->next_label) {
		pr_err("--label '%s' has no file after it\n", cfg->next_label);
		return -EINVAL;
	}
	if (!cfg->nfiles) {
		pr_err("no result files to plot (see 'ppbench plot --help')\n");
		return -EINVAL;
	}
	if (!cfg->output) {
		pr_err("no output file: give -o FILE.svg (see 'ppbench plot --help')\n");
		return -EINVAL;
	}
	return 0;
}

static int plot_run(void *c, int argc, char **argv)
{
	struct plot_cfg *cfg = c;
	struct plot *p = calloc(1, sizeof(*p));
	char names[MAX_FILES][64];
	int ret = EXIT_USAGE;

	(void)argc; /* files come through plot_opt(), in order with their labels */
	(void)argv;
	if (!p)
		return EXIT_FAIL;
	p->cfg = cfg;
	if (plot_checks(cfg) || load_all(p, names))
		goto out;
	if (!cfg->scenarios[0])
		all_scenarios(p);
	else if (chosen_scenarios(p, cfg->scenarios))
		goto out;
	if (!p->nscn) {
		pr_err("no scenario with status \"ok\" in the files: nothing to plot\n");
		goto out;
	}
	ret = EXIT_FAIL;
	if (build_plot(p))
		goto out;
	ret = output_svg(p, cfg->output);
out:
	for (size_t i = 0; i < p->nfiles; i++)
		result_free(&p->res[i]);
	free(p);
	return ret;
}

const struct cli_cmd cmd_plot = {
	.name = "plot",
	.args = "RESULT.json... -o FILE.svg",
	.summary = "draw bench results as an SVG: per-scenario cost with spread",
	.description =
		"Draw 'ppbench bench --json' result files as an SVG picture: one group per\n"
		"scenario (x axis, scenario names), one box per file inside each group, on a\n"
		"common y axis of TSC cycles per element (or ns per element with --metric ns)\n"
		"that starts at 0. Each box shows the repetitions ('runs') of that scenario in\n"
		"that file: the box spans the quartiles, the thick bar is the median (also\n"
		"printed above the box), the white dot the mean, and the whiskers reach the\n"
		"minimum and maximum. Scenarios that a file skipped show 'n/a'. The legend\n"
		"names the files by their base names without .json, or by a --label NAME given\n"
		"just before the file. The subtitle gives CPU model, TSC frequency and kernel\n"
		"of the first file. Hovering a box in a browser shows its numbers.\n"
		"\n"
		"The SVG is self-contained (SVG 1.1, no scripts, generic fonts) and renders in\n"
		"browsers and with rsvg-convert. Every file is checked against the ppbench/1\n"
		"schema first; a bad file is one line on stderr and exit status 2.",
	.examples = "  ppbench plot before.json after.json -o cmp.svg\n"
		    "  ppbench plot -l 6.12 a.json -l 6.18 b.json -t '6.12 vs 6.18' -o p.svg\n"
		    "  ppbench plot --scenario fast,ring,slow --metric ns run.json -o ns.svg\n"
		    "  rsvg-convert -o p.png p.svg   # a PNG for mail\n",
	.opts = plot_opts,
	.cfg_size = sizeof(struct plot_cfg),
	.opt = plot_opt,
	.run = plot_run,
	.ordered_args = true,
};
