// SPDX-License-Identifier: GPL-2.0
/* The figures of a result file, named once for every export format. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/by_counter.h"
#include "export/export_figures.h"
#include "model/pathfig.h"

static double largest(const struct result_stat *st)
{
	double m = st->min;

	for (size_t i = 0; i < st->nruns; i++)
		m = fmax(m, st->runs[i]);
	return m;
}

static void from_setups(const struct result_stat *st, struct xfig *f)
{
	f->has = true;
	f->value = st->median;
	f->lo = st->min;
	f->hi = largest(st);
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
	size_t i = 0;

	for (; len && name[i] && i < len - 1; i++) {
		char c = name[i];

		buf[i] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ? c
			 : c >= 'A' && c <= 'Z' ? c - 'A' + 'a'
						: '_';
	}
	if (len)
		buf[i] = 0;
	return buf;
}
