// SPDX-License-Identifier: GPL-2.0
/*
 * JSON of ppbench trend (schema "ppbench-trend/1", ppbench-trend(8)): the points,
 * then per scenario and figure its values with level, its levels and its
 * change points; the gate's verdict when one was asked for.
 */
#include "report/json.h"
#include "trend/series.h"
#include "sys/log.h"

static void json_method(struct json *j, const struct trend_view *v)
{
	json_obj_begin(j, "method");
	json_str(j, "name", "e-divisive means inside host levels");
	json_str(j, "reference",
		 "Matteson and James, A Nonparametric Approach for Multiple Change Point "
		 "Analysis of Multivariate Data, JASA 109(505), 2014");
	json_u64(j, "min_run", v->opts->min_run);
	json_double(j, "alpha", v->opts->alpha);
	json_u64(j, "permutations", v->opts->permutations);
	json_str(j, "order", trend_order_name(v->order));
	if (v->noise) {
		json_obj_begin(j, "noise_profile");
		json_str(j, "file", v->noise->path);
		json_str(j, "created", v->noise->created);
		json_u64(j, "invocations", v->noise->invocations);
		json_obj_end(j);
	} else {
		json_none(j, "noise_profile");
	}
	json_obj_end(j);
}

static void json_points(struct json *j, const struct series *s)
{
	json_arr_begin(j, "points");
	for (size_t i = 0; i < s->npts; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "label", s->pt[i].label);
		json_str(j, "file", s->pt[i].file);
		json_str(j, "created", s->pt[i].created);
		json_str(j, "kernel", s->pt[i].kernel);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_side(struct json *j, const char *key, const struct trend_side *sd)
{
	json_obj_begin(j, key);
	json_u64(j, "points", sd->n);
	json_double(j, "mean", sd->mean);
	json_double(j, "median", sd->median);
	json_double(j, "stddev_pct", sd->sd_pct);
	json_obj_end(j);
}

static void json_cp(struct json *j, const struct series *s, const struct series_fig *g,
		    const struct trend_cp *cp)
{
	json_obj_begin(j, NULL);
	json_u64(j, "index", g->pt[cp->at]);
	json_str(j, "before_label", s->pt[g->pt[cp->at - 1]].label);
	json_str(j, "after_label", s->pt[g->pt[cp->at]].label);
	json_str(j, "kind", trend_kind_name(cp->kind));
	json_double(j, "p", cp->p);
	json_double(j, "change_pct", cp->change_pct);
	json_arr_begin(j, "interval_pct");
	json_double(j, NULL, cp->lo_pct);
	json_double(j, NULL, cp->hi_pct);
	json_arr_end(j);
	json_double(j, "change", cp->change_abs);
	if (cp->kind == TREND_HOST)
		json_double(j, "level_probe_change_pct", cp->alt_pct);
	json_arr_begin(j, "levels");
	for (size_t k = 0; k < cp->nlv; k++) {
		json_obj_begin(j, NULL);
		json_u64(j, "level", cp->lv[k].level + 1);
		json_side(j, "before", &cp->lv[k].before);
		json_side(j, "after", &cp->lv[k].after);
		json_double(j, "change_pct", cp->lv[k].change_pct);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void json_values(struct json *j, const struct series_fig *g)
{
	json_arr_begin(j, "values");
	for (size_t i = 0; i < g->n; i++) {
		json_obj_begin(j, NULL);
		json_u64(j, "index", g->pt[i]);
		json_double(j, "value", g->v[i]);
		json_double(j, "min", g->lo[i]);
		json_double(j, "max", g->hi[i]);
		if (g->fit.level && g->fit.level[i] >= 0)
			json_u64(j, "level", g->fit.level[i] + 1);
		else
			json_none(j, "level");
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_fig(struct json *j, const struct series *s, const struct series_fig *g)
{
	const struct level_set *l = &g->fit.levels;

	json_obj_begin(j, NULL);
	json_str(j, "scenario", g->scenario);
	json_str(j, "figure", series_figure_name(g->fig));
	if (g->method)
		json_str(j, "method", g->method);
	json_str(j, "unit", series_figure_unit(g->fig));
	json_str(j, "status", trend_status_name(g->fit.status));
	json_str(j, "reason", g->fit.reason[0] ? g->fit.reason : NULL);
	json_arr_begin(j, "levels");
	for (size_t k = 0; k < l->nlevels; k++) {
		json_obj_begin(j, NULL);
		json_u64(j, "level", k + 1);
		json_double(j, "median", l->lv[k].median);
		json_double(j, "min", l->lv[k].lo);
		json_double(j, "max", l->lv[k].hi);
		json_u64(j, "points", l->lv[k].count);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_u64(j, "outliers", l->noutliers);
	json_double(j, "profile_floor_pct", g->floor_pct);
	json_arr_begin(j, "profile_level_ratios");
	for (size_t k = 0; k < g->nlevel_ratios; k++)
		json_double(j, NULL, g->level_ratio[k]);
	json_arr_end(j);
	json_values(j, g);
	json_arr_begin(j, "change_points");
	for (size_t k = 0; k < g->fit.ncps; k++)
		json_cp(j, s, g, &g->fit.cps[k]);
	json_arr_end(j);
	json_obj_end(j);
}

/* --stable-after: N, and the figures of the metric it holds, with their passes. */
static void json_held(struct json *j, const struct trend_view *v)
{
	size_t passes;

	if (!v->stable_after)
		return;
	json_u64(j, "stable_after", v->stable_after);
	json_arr_begin(j, "held");
	for (size_t i = 0; i < v->s->nfigs; i++) {
		const struct series_fig *g = &v->s->figs[i];

		if (g->fig != v->metric || !trend_held(v, g, &passes))
			continue;
		json_obj_begin(j, NULL);
		json_str(j, "scenario", g->scenario);
		json_str(j, "figure", series_figure_name(g->fig));
		json_u64(j, "passes", passes);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_gate(struct json *j, const struct trend_view *v)
{
	struct series_hit hits[TREND_MAX_HITS];
	size_t n = series_gate(v->s, v->metric, v->fail_pct, v->window, hits, TREND_MAX_HITS);
	size_t passes;
	bool fired = false;

	json_obj_begin(j, "gate");
	json_str(j, "metric", series_figure_name(v->metric));
	json_double(j, "fail_on_regression_pct", v->fail_pct);
	json_u64(j, "window", v->window);
	json_arr_begin(j, "regressions");
	for (size_t i = 0; i < n; i++) {
		bool held = trend_held(v, hits[i].fig, &passes);
		bool gated = !hits[i].unstable && !held && !trend_xfail(v);

		json_obj_begin(j, NULL);
		json_str(j, "scenario", hits[i].fig->scenario);
		json_str(j, "after_label", v->s->pt[hits[i].fig->pt[hits[i].cp->at]].label);
		json_double(j, "change_pct", hits[i].cp->change_pct);
		json_bool(j, "gated", gated);
		json_bool(j, "held", held);
		json_obj_end(j);
		fired |= gated;
	}
	json_arr_end(j);
	json_held(j, v);
	json_bool(j, "fired", fired);
	json_obj_end(j);
}

int trend_write_json(const struct trend_view *v, const char *path)
{
	struct json *j = json_open(path, true);

	if (!j)
		return EXIT_FAIL;
	json_doc_begin(j, "ppbench-trend/1");
	json_obj_begin(j, "host");
	json_str(j, "cpu_model", v->s->cpu_model);
	json_double(j, "tsc_hz", v->s->tsc_hz);
	json_u64(j, "forced", v->s->nforced);
	json_obj_end(j);
	json_method(j, v);
	json_points(j, v->s);
	json_arr_begin(j, "series");
	for (size_t i = 0; i < v->s->nfigs; i++)
		json_fig(j, v->s, &v->s->figs[i]);
	json_arr_end(j);
	if (v->gate)
		json_gate(j, v);
	if (json_doc_end(j)) /* its error line names the file */
		return EXIT_FAIL;
	return EXIT_OK;
}
