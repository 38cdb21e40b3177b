// SPDX-License-Identifier: GPL-2.0
/* ppbench export's figures, named once for every format, and the formats but KCIDB. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/by_counter.h"
#include "export/export_formats.h"
#include "model/pathfig.h"
#include "report/json.h"
#include "sys/log.h"
#include "compare/prof_diff.h"
#include "trend/series.h"

static void from_setups(const struct result_stat *st, struct xfig *f)
{
	f->has = true;
	f->value = st->median;
	f->lo = st->min;
	f->hi = series_stat_max(st);
	f->cv = st->cv;
	f->n = st->nruns;
}

static void one_value(double v, struct xfig *f)
{
	f->has = true;
	f->value = f->lo = f->hi = v;
	f->n = 1;
}

bool xfig_exported(enum xfig_kind kind, const char *unit)
{
	/* (a counter's view has no ns: its ns_per_elem is the counter again) */
	return kind != XFIG_NS || (!unit_counts_instructions(unit) && !unit_is_counter(unit));
}

void xfig_get(const struct result_scenario *sc, enum xfig_kind kind, struct xfig *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = kind;
	if (!sc->ok) {
		out->why = sc->reason ? sc->reason : "skipped";
		return;
	}
	switch (kind) {
	case XFIG_CYCLES:
		from_setups(&sc->cycles, out);
		break;
	case XFIG_NS:
		from_setups(&sc->ns, out);
		break;
	case XFIG_PATH:
		out->method = sc->path_method;
		if (sc->has_path_cost)
			one_value(sc->path_cost, out);
		else
			out->why = sc->path_cost_method ? sc->path_cost_method : "no path figure";
		break;
	case XFIG_PPATH:
		out->method = path_method_name(PATH_TEXT_PROFILE);
		if (sc->prof.has_path)
			one_value(sc->prof.path, out);
		else
			out->why = "no profile's path figure (ppbench vm --profile)";
		break;
	case XFIG_PURITY:
	case NR_XFIGS:
		one_value(sc->purity * 100, out);
		break;
	}
}

const char *xfig_name(enum xfig_kind kind, const char *unit, const char *method, char sep,
		      char *buf, size_t len)
{
	size_t n;

	switch (kind) {
	case XFIG_CYCLES: /* (a counter's unit: kernel_instructions, its '_' as SEP) */
		snprintf(buf, len, "%s%cper%celem", unit, sep, sep);
		for (char *p = buf; *p && p < buf + strlen(unit); p++)
			if (*p == '_')
				*p = sep;
		break;
	case XFIG_NS:
		snprintf(buf, len, "ns%cper%celem", sep, sep);
		break;
	case XFIG_PATH:
	case XFIG_PPATH:
		n = snprintf(buf, len, "path%c", sep);
		if (method && n < len) {
			xfig_key_part(method, buf + n, len - n);
			n = strlen(buf);
			n += snprintf(buf + n, n < len ? len - n : 0, "%c", sep);
		}
		if (n < len)
			snprintf(buf + n, len - n, "%s%cper%celem", unit, sep, sep);
		break;
	default:
		snprintf(buf, len, "purity%cpercent", sep);
		break;
	}
	return buf;
}

const char *xfig_unit(enum xfig_kind kind, const char *unit, char *buf, size_t len)
{
	if (kind == XFIG_CYCLES || kind == XFIG_PATH || kind == XFIG_PPATH)
		snprintf(buf, len, "%s/elem", unit);
	else
		snprintf(buf, len, "%s", kind == XFIG_NS ? "ns/elem" : "%");
	return buf;
}

const char *xfig_key_part(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s", name);
	for (char *p = buf; len && *p; p++)
		*p = isalnum((unsigned char)*p) ? tolower((unsigned char)*p) : '_';
	return buf;
}

/* ppbench export bmf: a result file as Bencher's BMF JSON. */

void bmf_write(FILE *f, const struct result *r)
{
	struct json *j = json_new(f, true);
	char bench[160], measure[64];
	struct xfig x;

	if (!j)
		return;
	json_obj_begin(j, NULL);
	for (size_t i = 0; i < r->nr_sc; i++) {
		const struct result_scenario *sc = &r->sc[i];

		if (!sc->ok)
			continue;
		snprintf(bench, sizeof(bench), "ppbench.%s", sc->name);
		json_obj_begin(j, bench);
		for (int k = 0; k < NR_XFIGS; k++) {
			xfig_get(sc, k, &x);
			if (!x.has || !xfig_exported(k, r->host.clock.unit))
				continue;
			json_obj_begin(j, xfig_name(k, r->host.clock.unit, x.method, '-', measure,
						    sizeof(measure)));
			json_double(j, "value", x.value);
			if (x.n > 1) {
				json_double(j, "lower_value", x.lo);
				json_double(j, "upper_value", x.hi);
			}
			json_obj_end(j);
		}
		json_obj_end(j);
	}
	json_obj_end(j);
	json_flush_line(j);
	json_close(j);
}

/* ppbench export otava: a series of result files as Otava's CSV. */

static void field(FILE *f, const char *s, bool first)
{
	if (!first)
		fputc(',', f);
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static enum xfig_kind kind_of(enum series_figure g)
{
	return g == SFIG_CYCLES ? XFIG_CYCLES : g == SFIG_NS ? XFIG_NS : XFIG_PATH;
}

/* A column needs a number in every row; the first row without one is named. */
static bool complete(const struct series *s, const struct series_fig *g, const char *col)
{
	size_t k = 0;

	if (g->n == s->npts)
		return true;
	for (size_t p = 0; p < s->npts; p++) {
		if (k < g->n && g->pt[k] == p) {
			k++;
			continue;
		}
		pr_warn("column %s left out: %s has no value of it (the scenario skipped or not "
			"run, or its path figure n/a), and Otava reads a number in every row\n",
			col, s->pt[p].file);
		break;
	}
	return false;
}

size_t otava_write(FILE *f, const struct series *s, const char *unit)
{
	bool *use = calloc(s->nfigs + 1, sizeof(*use));
	char name[64], col[256], num[32];
	size_t ncols = 0;

	if (!use)
		return 0;
	field(f, "time", true);
	field(f, "label", false);
	field(f, "kernel", false);
	field(f, "file", false);
	for (size_t i = 0; i < s->nfigs; i++) {
		const struct series_fig *g = &s->figs[i];

		snprintf(col, sizeof(col), "%s.%s", g->scenario,
			 xfig_name(kind_of(g->fig), unit, g->method, '_', name, sizeof(name)));
		use[i] = xfig_exported(kind_of(g->fig), unit) && complete(s, g, col);
		if (!use[i])
			continue;
		field(f, col, false);
		ncols++;
	}
	fputc('\n', f);
	for (size_t p = 0; p < s->npts; p++) {
		field(f, s->pt[p].created, true);
		field(f, s->pt[p].label, false);
		field(f, s->pt[p].kernel, false);
		field(f, s->pt[p].file, false);
		for (size_t i = 0; i < s->nfigs; i++) {
			if (!use[i])
				continue;
			snprintf(num, sizeof(num), "%.10g", s->figs[i].v[p]);
			field(f, num, false);
		}
		fputc('\n', f);
	}
	free(use);
	return ncols;
}

/* ppbench export lkp: a result file as the stats lines of an LKP parse. */

static void line(FILE *f, bool prefix, const char *scn, const char *key, const char *sub, double v)
{
	if (isfinite(v))
		fprintf(f, "%s%s.%s%s: %.10g\n", prefix ? "ppbench." : "", scn, key, sub, v);
}

/* A perf-profile stat of scenario SCN: LKP's row name, [user]'s brackets left out. */
static void prof_line(FILE *f, bool prefix, const char *scn, enum prow_kind k, const char *name,
		      double v, double floor)
{
	char *key = fabs(v) + 1e-9 >= floor ? prow_lkp_name(k, name) : NULL;
	size_t n = 0;

	for (size_t i = 0; key && key[i]; i++)
		if (isalnum((unsigned char)key[i]) || strchr("_.-", key[i]))
			key[n++] = key[i];
	if (key && isfinite(v))
		fprintf(f, "%s%s.%.*s: %.10g\n", prefix ? "ppbench." : "", scn, (int)n, key, v);
	free(key);
}

/* A profile's rows of its chain floor or more (no call graph: every function's self). */
static void prof_lines(FILE *f, bool prefix, const char *scn, const struct result_profile *p)
{
	double floor = p->has_graph ? p->chain_floor : 0;

	for (size_t i = 0; i < p->nchain; i++)
		prof_line(f, prefix, scn, PROW_CALLTRACE, p->chain[i].chain, p->chain[i].children,
			  floor);
	for (size_t i = 0; i < p->ngfn; i++)
		prof_line(f, prefix, scn, PROW_CHILDREN, p->gfn[i].name, p->gfn[i].children, floor);
	for (size_t i = 0; i < p->nfn; i++)
		prof_line(f, prefix, scn, PROW_SELF, p->fn[i].name, p->fn[i].per_elem, floor);
}

void lkp_write(FILE *f, const struct result *r, bool prefix)
{
	const char *unit = r->host.clock.unit;
	char scn[128], key[64];
	struct xfig x;

	for (size_t i = 0; i < r->nr_sc; i++) {
		const struct result_scenario *sc = &r->sc[i];

		xfig_key_part(sc->name, scn, sizeof(scn));
		for (int k = 0; k < NR_XFIGS; k++) {
			xfig_get(sc, k, &x);
			if (!x.has || !xfig_exported(k, unit))
				continue;
			xfig_name(k, unit, x.method, '_', key, sizeof(key));
			line(f, prefix, scn, key, "", x.value);
			if (k != XFIG_CYCLES)
				continue;
			/* the spread of the setups, as LKP's own parsers name theirs */
			line(f, prefix, scn, key, ".min", x.lo);
			line(f, prefix, scn, key, ".max", x.hi);
			line(f, prefix, scn, key, ".stddev_percent", x.cv * 100);
		}
		if (sc->ok && sc->prof.has)
			prof_lines(f, prefix, scn, &sc->prof);
		/* the elements of its timed runs: LKP's perf-stat instructions over them */
		if (sc->ok)
			fprintf(f, "%s%s.workload: %llu\n", prefix ? "ppbench." : "", scn,
				(unsigned long long)(sc->loops * sc->repeat));
	}
}
