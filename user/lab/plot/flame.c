// SPDX-License-Identifier: GPL-2.0
/* ppbench plot --flame: a flame graph's frames from folded stacks, drawn as SVG. */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plot/plot_svg.h"
#include "sys/log.h"
#include "sys/util.h"

static size_t add_frame(struct flame *fl, const char *name, size_t len, size_t parent)
{
	struct fframe *f;

	if (fl->n == fl->cap) {
		f = realloc(fl->f, (fl->cap = fl->cap ? 2 * fl->cap : 256) * sizeof(*f));
		if (!f)
			return FLAME_NONE;
		fl->f = f;
	}
	f = &fl->f[fl->n];
	*f = (struct fframe){ .parent = parent, .child = FLAME_NONE, .next = FLAME_NONE };
	f->name = strndup(name, len);
	if (!f->name)
		return FLAME_NONE;
	if (parent != FLAME_NONE) {
		f->depth = fl->f[parent].depth + 1;
		f->next = fl->f[parent].child;
		fl->f[parent].child = fl->n;
		if (f->depth > fl->depth)
			fl->depth = f->depth;
	}
	return fl->n++;
}

int flame_init(struct flame *fl)
{
	*fl = (struct flame){ .scale = { 1, 1 } };
	return add_frame(fl, "all", 3, FLAME_NONE) == FLAME_NONE ? -ENOMEM : 0;
}

void flame_free(struct flame *fl)
{
	for (size_t i = 0; i < fl->n; i++)
		free(fl->f[i].name);
	free(fl->f);
	*fl = (struct flame){ 0 };
}

/* PARENT's child NAME (LEN bytes), made if new. */
static size_t child_of(struct flame *fl, size_t parent, const char *name, size_t len)
{
	for (size_t c = fl->f[parent].child; c != FLAME_NONE; c = fl->f[c].next)
		if (!strncmp(fl->f[c].name, name, len) && !fl->f[c].name[len])
			return c;
	return add_frame(fl, name, len, parent);
}

int flame_add_line(struct flame *fl, char *line, int side)
{
	char *sp = strrchr(line, ' '), *end;
	size_t at = 0;
	double n;

	if (!line[strspn(line, " \t\r")])
		return 0;
	if (!sp || sp == line)
		return -EINVAL;
	n = strtod(sp + 1, &end);
	if (end == sp + 1 || *end || !isfinite(n) || n < 0)
		return -EINVAL;
	fl->f[0].total[side] += n;
	for (char *p = line; p < sp;) {
		size_t len = strcspn(p, ";");

		if (p + len > sp)
			len = sp - p;
		if (!len)
			return -EINVAL;
		at = child_of(fl, at, p, len);
		if (at == FLAME_NONE)
			return -ENOMEM;
		fl->f[at].total[side] += n;
		p += len + 1;
	}
	fl->f[at].self[side] += n;
	return 0;
}

/* PATH's lines into FL as SIDE: 0, or -errno with one line in ERR naming PATH and the line. */
static int flame_add_file(struct flame *fl, const char *path, int side, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, no = 0;
	ssize_t n;
	int ret = 0;

	if (!f) {
		ret = -errno;
		snprintf(err, len, "%s: %s", path, strerror(-ret));
		return ret;
	}
	while (!ret && (n = getline(&line, &cap, f)) >= 0) {
		no++;
		if (n && line[n - 1] == '\n')
			line[n - 1] = '\0';
		ret = flame_add_line(fl, line, side);
	}
	if (ret == -EINVAL)
		snprintf(err, len,
			 "%s:%zu: expected 'frame;frame;... count' (a count of 0 or more)", path,
			 no);
	else if (ret)
		snprintf(err, len, "%s: out of memory", path);
	else if (!no)
		snprintf(err, len, "%s: no stacks in it", path);
	free(line);
	fclose(f);
	return ret ?: no ? 0 : -EINVAL;
}

static int by_name(const void *a, const void *b, void *ctx)
{
	const struct fframe *f = ctx;

	return strcmp(f[*(const size_t *)a].name, f[*(const size_t *)b].name);
}

/* Frame I's children relinked in the order of their names, and placed from its x. */
static void place_children(struct flame *fl, size_t i, size_t *ix)
{
	size_t k = 0;
	double x = fl->f[i].x;

	for (size_t c = fl->f[i].child; c != FLAME_NONE; c = fl->f[c].next)
		ix[k++] = c;
	qsort_r(ix, k, sizeof(*ix), by_name, fl->f);
	fl->f[i].child = k ? ix[0] : FLAME_NONE;
	for (size_t j = 0; j < k; j++) {
		fl->f[ix[j]].next = j + 1 < k ? ix[j + 1] : FLAME_NONE;
		fl->f[ix[j]].x = x;
		x += fl->f[ix[j]].total[FLAME_NEW];
	}
}

int flame_layout(struct flame *fl)
{
	size_t *ix = malloc(fl->n * sizeof(*ix));

	if (!ix)
		return -ENOMEM;
	/* (a frame comes after its parent: each is placed before its children) */
	for (size_t i = 0; i < fl->n; i++)
		place_children(fl, i, ix);
	free(ix);
	return 0;
}

double flame_total(const struct flame *fl, size_t i, int side)
{
	return fl->f[i].total[side] * fl->scale[side];
}

double flame_self(const struct flame *fl, size_t i, int side)
{
	return fl->f[i].self[side] * fl->scale[side];
}

/* Geometry, in SVG user units (pixels); the script (flame_js) knows W, PAD and CHAR_W too. */
#define W 1200
#define PAD 10
#define TOP 70	  /* the title, the subtitle and the controls above the frames */
#define BOTTOM 28 /* the details line below them */
#define FRAME_H 16
#define CHAR_W 6.6 /* of the 11 px monospace font: 0.6 em */

/* One input: the folded stacks, their elements (0: unknown) and the name shown. */
struct fsrc {
	char folded[PATH_MAX];
	double elems;
	char label[160];
};

struct fgraph {
	struct flame fl;
	bool diff, per_elem;
	const char *title;
	struct fsrc src[2]; /* [FLAME_NEW] alone for one file */
	double maxdelta;    /* the largest change of a frame's own, per the graph's unit */
};

const char *flame_label(const char *name, double width, char *buf, size_t len)
{
	long fit = (long)floor((width - 6) / CHAR_W);

	if (fit < 3)
		fit = 0;
	if ((long)strlen(name) <= fit)
		snprintf(buf, len, "%s", name);
	else if (fit)
		snprintf(buf, len, "%.*s..", (int)(fit - 2), name);
	else
		snprintf(buf, len, "%s", "");
	return buf;
}

/* The one scenario of R to draw: --scenario's, or the only one with a call graph. */
static const struct result_scenario *pick_scenario(const struct result *r, const char *want)
{
	const struct result_scenario *sc = NULL;

	for (size_t i = 0; i < r->nr_sc; i++) {
		const struct result_scenario *s = &r->sc[i];

		if (!s->ok || !s->prof.has_graph || (want && strcmp(want, s->name)))
			continue;
		if (sc) {
			pr_err("%s: %s and %s have call graphs: choose one with --scenario\n",
			       r->path, sc->name, s->name);
			return NULL;
		}
		sc = s;
	}
	if (!sc && want)
		pr_err("%s: scenario %s has no call graph (ppbench vm --profile on x86-64 makes "
		       "them)\n",
		       r->path, want);
	else if (!sc)
		pr_err("%s: no scenario has a call graph (ppbench vm --profile on x86-64 makes "
		       "them)\n",
		       r->path);
	return sc;
}

/* A result file: its scenario's folded stacks beside it, F.SCENARIO.folded. */
static int src_of_result(const char *path, const char *label, const char *want, struct fsrc *s)
{
	const struct result_scenario *sc;
	struct result r;
	char err[512], stem[128];
	int ret = -EINVAL;

	if (result_load(path, &r, err, sizeof(err))) {
		pr_err("%s\n", err);
		return -EINVAL;
	}
	sc = pick_scenario(&r, want);
	if (sc && sc->prof.elems > 0) {
		snprintf(s->folded, sizeof(s->folded), "%.*s.%s.folded", (int)(strlen(path) - 5),
			 path, sc->name);
		s->elems = sc->prof.elems;
		snprintf(s->label, sizeof(s->label), "%s", label ?: "");
		if (!label)
			snprintf(s->label, sizeof(s->label), "%s %s",
				 path_stem(path, stem, sizeof(stem)), sc->name);
		ret = 0;
	} else if (sc) {
		pr_err("%s: %s's profile does not say its elements\n", path, sc->name);
	}
	result_free(&r);
	return ret;
}

static bool is_json(const char *path)
{
	return !fnmatch("?*.json", path, 0);
}

/* The inputs: both folded stacks, or both result files (per element). */
static int resolve(const struct plot_cfg *cfg, struct fgraph *g)
{
	char stem[160];

	if (cfg->nfiles > 2 || cfg->ns || cfg->profile) {
		pr_err(cfg->nfiles > 2
			       ? "--flame draws one file, or two for a differential graph (old, "
				 "new)\n"
			       : "--flame draws folded stacks: no --metric or --profile with it\n");
		return -EINVAL;
	}
	if (cfg->scenarios && strchr(cfg->scenarios, ',')) {
		pr_err("--flame draws one scenario: --scenario NAME\n");
		return -EINVAL;
	}
	g->diff = cfg->nfiles == 2;
	g->per_elem = is_json(cfg->files[0]);
	if (g->diff && is_json(cfg->files[1]) != g->per_elem) {
		pr_err("%s and %s: give two result files (per element) or two folded stacks\n",
		       cfg->files[0], cfg->files[1]);
		return -EINVAL;
	}
	for (size_t i = 0; i < cfg->nfiles; i++) {
		struct fsrc *s = &g->src[g->diff ? i : FLAME_NEW];

		if (g->per_elem) {
			if (src_of_result(cfg->files[i], cfg->labels[i], cfg->scenarios, s))
				return -EINVAL;
			continue;
		}
		snprintf(s->folded, sizeof(s->folded), "%s", cfg->files[i]);
		path_stem(cfg->files[i], stem, sizeof(stem));
		if (strlen(stem) > 7 && !strcmp(stem + strlen(stem) - 7, ".folded"))
			stem[strlen(stem) - 7] = '\0';
		snprintf(s->label, sizeof(s->label), "%s", cfg->labels[i] ?: stem);
	}
	return 0;
}

static int build(struct fgraph *g)
{
	char err[PATH_MAX + 128];
	int ret = flame_init(&g->fl);

	for (int side = g->diff ? FLAME_OLD : FLAME_NEW; !ret && side <= FLAME_NEW; side++) {
		ret = flame_add_file(&g->fl, g->src[side].folded, side, err, sizeof(err));
		if (ret)
			pr_err("%s\n", err);
		else if (g->per_elem)
			g->fl.scale[side] = 1 / g->src[side].elems;
	}
	if (!ret && !(g->fl.f[0].total[FLAME_NEW] > 0)) {
		pr_err("%s: no instructions in it: nothing to draw\n", g->src[FLAME_NEW].folded);
		ret = -EINVAL;
	}
	if (ret)
		return ret == -ENOMEM ? -ENOMEM : -EINVAL;
	for (size_t i = 0; i < g->fl.n; i++)
		if (g->fl.f[i].total[FLAME_NEW] > 0)
			g->maxdelta = fmax(g->maxdelta, fabs(flame_self(&g->fl, i, FLAME_NEW) -
							     flame_self(&g->fl, i, FLAME_OLD)));
	return flame_layout(&g->fl);
}

/* A warm colour of NAME's own, the same in every graph. */
static void warm(const char *name, int rgb[3])
{
	uint32_t h = 2166136261u;

	for (const char *p = name; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	rgb[0] = 205 + h % 50;
	rgb[1] = 90 + (h >> 8) % 130;
	rgb[2] = 40 + (h >> 16) % 50;
}

/* Frame I's fill: its own colour, or of two files its own instructions' change. */
static void fill(const struct fgraph *g, size_t i, int rgb[3])
{
	double d = flame_self(&g->fl, i, FLAME_NEW) - flame_self(&g->fl, i, FLAME_OLD);
	int c = (int)lround(235 - 195 * (g->maxdelta > 0 ? fabs(d) / g->maxdelta : 0));

	if (!g->diff)
		return warm(g->fl.f[i].name, rgb);
	rgb[0] = d > 0 ? 255 : c;
	rgb[1] = c;
	rgb[2] = d < 0 ? 255 : c;
}

static const char *unit(const struct fgraph *g)
{
	return g->per_elem ? "instr/elem" : "instructions";
}

/* The tooltip: "NAME: 112.03 instr/elem (35.2 %), self 93.03" or of two files the changes. */
static void tooltip(FILE *f, const struct fgraph *g, size_t i)
{
	const struct flame *fl = &g->fl;
	double t = flame_total(fl, i, FLAME_NEW), s = flame_self(fl, i, FLAME_NEW);
	double to = flame_total(fl, i, FLAME_OLD), so = flame_self(fl, i, FLAME_OLD);
	int p = g->per_elem ? 2 : 0;

	xml_text(f, fl->f[i].name);
	if (g->diff)
		fprintf(f, ": %.*f %s (%+.*f, was %.*f), self %.*f (%+.*f)", p, t, unit(g), p,
			t - to, p, to, p, s, p, s - so);
	else
		fprintf(f, ": %.*f %s (%.2f %%), self %.*f", p, t, unit(g),
			100 * t / flame_total(fl, 0, FLAME_NEW), p, s);
}

static void frame(FILE *f, const struct fgraph *g, size_t i)
{
	const struct fframe *fr = &g->fl.f[i];
	double k = (W - 2 * PAD) / g->fl.f[0].total[FLAME_NEW];
	double x = PAD + fr->x * k, w = fr->total[FLAME_NEW] * k;
	int y = TOP + (int)(g->fl.depth - fr->depth) * FRAME_H, rgb[3];
	char label[256];

	fill(g, i, rgb);
	fprintf(f, "<g class=\"f\" data-n=\"");
	xml_text(f, fr->name);
	fprintf(f, "\"><title>");
	tooltip(f, g, i);
	fprintf(f,
		"</title><rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" rx=\"2\" "
		"fill=\"rgb(%d,%d,%d)\"/><text x=\"%.2f\" y=\"%d\">",
		x, y, w, FRAME_H - 1, rgb[0], rgb[1], rgb[2], x + 3, y + FRAME_H - 4);
	xml_text(f, flame_label(fr->name, w, label, sizeof(label)));
	fprintf(f, "</text></g>\n");
}

/*
 * The script: a click zooms on a frame, one on "all" or "Reset zoom" undoes
 * it; "Search" (Ctrl-F) paints the frames a regular expression matches. It
 * shows "Search" itself: a plain picture offers no control that does nothing.
 */
static const char flame_js[] =
	"var W=1200,P=10,CW=6.6,fr=[],last='';\n"
	"function $(i){return document.getElementById(i);}\n"
	"function init(){var gs=document.getElementsByClassName('f');\n"
	" for(var i=0;i<gs.length;i++){var g=gs[i],r=g.getElementsByTagName('rect')[0];\n"
	"  var f={g:g,r:r,t:g.getElementsByTagName('text')[0],n:g.getAttribute('data-n'),\n"
	"   x:+r.getAttribute('x'),w:+r.getAttribute('width'),y:+r.getAttribute('y'),\n"
	"   fill:r.getAttribute('fill')};\n"
	"  fr.push(f);g.onclick=zoomer(f);g.onmouseover=shower(g);g.onmouseout=shower(null);}\n"
	" $('reset').onclick=reset;$('search').onclick=ask;$('search').style.visibility='';\n"
	" window.addEventListener('keydown',function(e){if(((e.ctrlKey||e.metaKey)&&"
	"e.key=='f')||e.key=='F3'){e.preventDefault();ask();}});}\n"
	"function shower(g){return function(){$('details').textContent=g?"
	"g.getElementsByTagName('title')[0].textContent:' ';};}\n"
	"function label(f,x,w){var n=Math.floor((w-6)/CW),s=f.n;if(n<3)s='';\n"
	" else if(s.length>n)s=s.substring(0,n-2)+'..';f.t.textContent=s;\n"
	" f.t.setAttribute('x',(x+3).toFixed(2));}\n"
	"function place(f,x,w){f.g.style.display=x<0?'none':'';if(x<0)return;\n"
	" f.r.setAttribute('x',x.toFixed(2));f.r.setAttribute('width',w.toFixed(2));label(f,x,w);}"
	"\n"
	"function zoomer(z){return function(){if(z.y==fr[0].y)return reset();zoom(z);};}\n"
	"function zoom(z){var s=(W-2*P)/z.w,e=0.015;\n"
	" for(var i=0;i<fr.length;i++){var f=fr[i];\n"
	"  if(f.y>z.y&&f.x<=z.x+e&&f.x+f.w>=z.x+z.w-e)place(f,P,W-2*P);\n"
	"  else if(f.y<=z.y&&f.x>=z.x-e&&f.x+f.w<=z.x+z.w+e)place(f,P+(f.x-z.x)*s,f.w*s);\n"
	"  else place(f,-1,0);}\n"
	" $('reset').style.visibility='visible';}\n"
	"function reset(){for(var i=0;i<fr.length;i++)place(fr[i],fr[i].x,fr[i].w);\n"
	" $('reset').style.visibility='hidden';}\n"
	"function ask(){var s=prompt('Search: a regular expression (empty: clear)',last);\n"
	" if(s!==null)search(s);}\n"
	"function search(s){var re,iv=[],sum=0,end=-1;last=s;\n"
	" try{re=new RegExp(s);}catch(x){$('matched').textContent='Bad expression';return;}\n"
	" for(var i=0;i<fr.length;i++){var f=fr[i],hit=s!==''&&re.test(f.n);\n"
	"  f.r.setAttribute('fill',hit?'rgb(230,0,230)':f.fill);if(hit)iv.push([f.x,f.x+f.w]);}\n"
	" iv.sort(function(a,b){return a[0]-b[0];});\n"
	" for(var i=0;i<iv.length;i++){var a=Math.max(iv[i][0],end);\n"
	"  if(iv[i][1]>a)sum+=iv[i][1]-a;end=Math.max(end,iv[i][1]);}\n"
	" $('matched').textContent=s===''?' ':'Matched: '+(100*sum/fr[0].w).toFixed(1)+' %';}\n";

static void head(FILE *f, const struct fgraph *g, int h)
{
	const struct flame *fl = &g->fl;
	double tn = flame_total(fl, 0, FLAME_NEW), to = flame_total(fl, 0, FLAME_OLD);
	int p = g->per_elem ? 2 : 0;

	fprintf(f,
		"<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" onload=\"init()\" font-family=\"monospace\" "
		"font-size=\"11\">\n<style>g.f{cursor:pointer} .b{cursor:pointer;fill:#0044aa}"
		"</style>\n<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n"
		"<rect width=\"%d\" height=\"%d\" fill=\"#f6f6f0\"/>\n"
		"<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"16\">",
		W, h, W, h, flame_js, W, h, W / 2);
	if (g->title) {
		xml_text(f, g->title);
	} else {
		fprintf(f, g->diff ? "Differential flame graph: " : "Flame graph: ");
		if (g->diff) {
			xml_text(f, g->src[FLAME_OLD].label);
			fprintf(f, " to ");
		}
		xml_text(f, g->src[FLAME_NEW].label);
	}
	fprintf(f, "</text>\n<text x=\"%d\" y=\"42\" text-anchor=\"middle\" font-size=\"12\">",
		W / 2);
	if (g->diff)
		fprintf(f,
			"%.*f to %.*f %s (%+.*f); width: the new side's, with all a frame calls; "
			"colour: the change of its own, red more, blue fewer (at most %.*f)",
			p, to, p, tn, unit(g), p, tn - to, p, g->maxdelta);
	else
		fprintf(f, "%.*f %s; width: a frame's instructions with all it calls", p, tn,
			unit(g));
	fprintf(f,
		"</text>\n<text id=\"reset\" class=\"b\" x=\"%d\" y=\"60\" "
		"style=\"visibility:hidden\">Reset zoom</text>\n<text id=\"search\" class=\"b\" "
		"x=\"%d\" y=\"60\" text-anchor=\"end\" style=\"visibility:hidden\">Search "
		"(Ctrl-F)</text>\n",
		PAD, W - PAD);
}

static void write_flame(FILE *f, const void *ctx)
{
	const struct fgraph *g = ctx;
	int h = TOP + (int)(g->fl.depth + 1) * FRAME_H + BOTTOM;

	head(f, g, h);
	/* (a frame of the old side only has no width in the new) */
	for (size_t i = 0; i < g->fl.n; i++)
		if (g->fl.f[i].total[FLAME_NEW] > 0)
			frame(f, g, i);
	fprintf(f,
		"<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"%d\" text-anchor=\"end\"> </text>\n</svg>\n",
		PAD, h - 10, W - PAD, h - 10);
}

int plot_flame(const struct plot_cfg *cfg)
{
	struct fgraph g = { .title = cfg->title };
	int ret = resolve(cfg, &g) ? EXIT_USAGE : EXIT_OK;

	if (ret == EXIT_OK) {
		int err = build(&g);

		ret = err == -ENOMEM ? EXIT_FAIL : err ? EXIT_USAGE : EXIT_OK;
	}
	if (ret == EXIT_OK)
		ret = svg_output(cfg->output, write_flame, &g);
	flame_free(&g.fl);
	return ret;
}
