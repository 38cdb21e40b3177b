// SPDX-License-Identifier: GPL-2.0
/* A comparison's rows, one per scenario and figure, and the differences and notes above them. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/by_counter.h"
#include "compare/compare_stats.h"
#include "model/pathfig.h"

const char *fig_name(enum fig f)
{
	static const char *const names[] = {
		"cycles", "ns", "path", "profile_path", "purity", "cpu"
	};

	return names[f];
}

const char *sig_test_name(enum sig_test t)
{
	return t == TEST_WELCH ? "Welch's t-test" : "Mann-Whitney U test";
}

const char *noise_src_name(enum noise_src n)
{
	static const char *const names[] = { "setups", "files", "profile" };

	return names[n];
}

bool fig_higher_is_worse(enum fig f)
{
	return f != FIG_PURITY;
}

struct sample {
	double *v;
	size_t n;
};

static int sample_add(struct sample *s, const double *v, size_t n)
{
	double *nv = realloc(s->v, (s->n + n) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	s->v = nv;
	memcpy(s->v + s->n, v, n * sizeof(*v));
	s->n += n;
	return 0;
}

static const struct result_cpu *find_cpu(const struct result_scenario *sc,
					 const struct result_cpu *want)
{
	for (size_t i = 0; i < sc->nr_per_cpu; i++)
		if (sc->per_cpu[i].cpu == want->cpu && !strcmp(sc->per_cpu[i].role, want->role))
			return &sc->per_cpu[i];
	return NULL;
}

static int sig_test(const struct cmp_opts *o, const struct sample *a, const struct sample *b,
		    struct ttest *t)
{
	return o->test == TEST_WELCH ? welch_t_test(a->v, a->n, b->v, b->n, t)
				     : mann_whitney_u(a->v, a->n, b->v, b->n, t);
}

/* One side's values of a figure: per setup, or per file (BY_FILE: each file's median). */
struct side {
	struct sample v;
	double within2; /* sum of the files' squared CVs between setups */
	size_t nwithin;
	struct modes
		modes; /* the first file whose setups sit on two or more levels, else the first */
	bool have_modes;
	/* Per file: its lowest and its highest level's median (its median on one level). */
	struct sample lo, hi;
};

static int side_setups(struct side *sd, const double *v, size_t n, bool by_file)
{
	struct summary s;
	struct modes m;
	int err;

	if (!n)
		return 0;
	err = summarize(v, n, &s) ?: find_modes(v, n, &m);
	if (err)
		return err;
	if (!sd->have_modes || (m.multi && !sd->modes.multi))
		sd->modes = m;
	sd->have_modes = true;
	sd->within2 += s.cv * s.cv;
	sd->nwithin++;
	err = sample_add(&sd->lo, m.multi ? &m.m[0].median : &s.median, 1);
	err = err ?: sample_add(&sd->hi, m.multi ? &m.m[m.nr_modes - 1].median : &s.median, 1);
	if (err)
		return err;
	return by_file ? sample_add(&sd->v, &s.median, 1) : sample_add(&sd->v, v, n);
}

/* Adds figure KIND of one scenario's result to SD: its setups' values, or the file's one. */
static int sample_figure(struct side *sd, const struct result_scenario *sc, enum fig kind,
			 const struct result_cpu *cpu, bool by_file)
{
	const struct result_cpu *pc = kind == FIG_CPU ? find_cpu(sc, cpu) : NULL;
	double x = sc->purity * 100; /* shown in percent */

	switch (kind) {
	case FIG_CYCLES:
		return side_setups(sd, sc->cycles.runs, sc->cycles.nruns, by_file);
	case FIG_NS:
		return side_setups(sd, sc->ns.runs, sc->ns.nruns, by_file);
	case FIG_CPU:
		return pc ? side_setups(sd, pc->cycles.runs, pc->cycles.nruns, by_file) : 0;
	case FIG_PATH:
		return sc->has_path_cost ? sample_add(&sd->v, &sc->path_cost, 1) : 0;
	case FIG_PPATH:
		return sc->prof.has_path ? sample_add(&sd->v, &sc->prof.path, 1) : 0;
	case FIG_PURITY:
		return sample_add(&sd->v, &x, 1);
	}
	return 0;
}

static int collect(const struct result *files, size_t n, const char *name, enum fig kind,
		   const struct result_cpu *cpu, bool by_file, struct side *sd)
{
	for (size_t i = 0; i < n; i++) {
		const struct result_scenario *sc = result_find(&files[i], name);
		int err = sc && sc->ok ? sample_figure(sd, sc, kind, cpu, by_file) : 0;

		if (err)
			return err;
	}
	return 0;
}

const char *fig_words(enum fig f, bool instructions, char *buf, size_t len)
{
	const char *u = instructions ? "instr" : "cycles";

	if (f == FIG_NS)
		snprintf(buf, len, "%sns/elem", instructions ? "guest " : "");
	else if (f == FIG_PURITY)
		snprintf(buf, len, "purity %%");
	else
		snprintf(buf, len, "%s%s/elem", f == FIG_PATH || f == FIG_PPATH ? "path " : "", u);
	return buf;
}

/* "ring cpu0 run cycles/elem"; a counter's view names its mode, a path figure its method. */
static void row_label(struct row *r, const struct result *file)
{
	const char *unit = result_clock_of(file)->unit;
	bool ic = unit_counts_instructions(unit);
	char words[32];

	if (r->method && !r->other_method) {
		snprintf(r->label, sizeof(r->label), "%s %s (%s)", r->scenario,
			 fig_words(r->kind, ic, words, sizeof(words)), r->method);
		return;
	}
	if (unit_is_counter(unit) && r->kind == FIG_CYCLES)
		snprintf(r->label, sizeof(r->label), "%s %.*s %s", r->scenario,
			 (int)strcspn(unit, "_"), unit,
			 fig_words(r->kind, ic, words, sizeof(words)));
	else if (r->kind != FIG_CPU)
		snprintf(r->label, sizeof(r->label), "%s %s", r->scenario,
			 fig_words(r->kind, ic, words, sizeof(words)));
	else
		snprintf(r->label, sizeof(r->label), "%s cpu%u%s%s %s", r->scenario, r->cpu->cpu,
			 *r->cpu->role ? " " : "", r->cpu->role,
			 fig_words(FIG_CYCLES, ic, words, sizeof(words)));
}

/* The floor from the two sides' own spread (setups or files): max(1 %, their MDE). */
static void spread_verdict(struct row *r, const struct cmp_opts *o)
{
	r->floor_pct = r->unit_floor_pct;
	if (r->t.testable) {
		double mde = mde2_pct(r->o.cv, r->o.n, r->n.cv, r->n.n, o->alpha, MDE_POWER);

		if (isfinite(mde))
			r->floor_pct = fmax(r->floor_pct, mde);
	}
}

/* The profile's figure for row R: cycles (ns is cycles over a fixed TSC), path. */
static const struct noise_fig *profile_fig(const struct noise_profile *p, const struct row *r)
{
	const struct noise_scenario *ns = noise_find(p, r->scenario);

	if (!ns)
		return NULL;
	if (r->kind == FIG_CYCLES || r->kind == FIG_NS)
		return &ns->cycles;
	/* (a path figure of another method has other noise) */
	return r->kind == FIG_PATH && ns->has_path &&
			       (!ns->path_method || path_methods_agree(ns->path_method, r->method))
		       ? &ns->path
		       : NULL;
}

static void profile_verdict(struct row *r, const struct noise_profile *p)
{
	r->nf = profile_fig(p, r);
	if (!r->nf) {
		memset(&r->t, 0, sizeof(r->t));
		r->t.p = 1;
		r->t.why = "the noise profile has no such figure";
		r->floor_pct = NAN;
		return;
	}
	noise_test(r->nf, r->change, &r->t);
	r->floor_pct = r->nf->floor_pct;
}

/* Whether V lies where one more run of the profile's host falls (ns: as its cycles). */
static bool new_within_profile(const struct row *r, const struct noise_profile *p, double v,
			       double change)
{
	double lo, hi;

	if (r->kind == FIG_NS) {
		if (!(p->host.tsc_hz > 0))
			return false;
		v = v * p->host.tsc_hz / 1e9;
	}
	noise_fig_range(r->nf, p->nr_sc, &lo, &hi);
	return change > 0 ? v <= hi : v >= lo;
}

/*
 * The change no level explains, since one more run may land on another
 * level: between the sides' nearest levels (where higher is worse, old's
 * highest against new's lowest), tested as the row was.
 */
static int level_verdict(struct row *r, const struct side *a, const struct side *b,
			 const struct cmp_opts *o)
{
	bool up = fig_higher_is_worse(r->kind);
	const struct sample *so = up ? &a->hi : &a->lo, *sn = up ? &b->lo : &b->hi;
	struct summary x, y;
	struct ttest t;
	double floor_pct;
	int err;

	err = summarize(so->v, so->n, &x) ?: summarize(sn->v, sn->n, &y);
	if (err)
		return err;
	if (r->noise == NOISE_PROFILE) {
		r->level_change = pct_change(x.median, y.median);
		if (!r->nf)
			return 0;
		noise_test(r->nf, r->level_change, &t);
		floor_pct = r->nf->floor_pct;
	} else if (r->noise == NOISE_FILES) {
		r->level_change = pct_change(x.mean, y.mean);
		err = sig_test(o, so, sn, &t);
		if (err)
			return err;
		floor_pct = fmax(r->unit_floor_pct,
				 mde2_pct(x.cv, x.n, y.cv, y.n, o->alpha, MDE_POWER));
	} else {
		return 0; /* setups only: no verdict to hold */
	}
	r->level_real = t.testable && t.p < o->alpha && fabs(r->level_change) >= floor_pct &&
			(up ? r->level_change > 0 : r->level_change < 0);
	if (r->level_real && r->noise == NOISE_PROFILE)
		r->level_real = !new_within_profile(r, o->profile, y.median, r->level_change);
	return 0;
}

static int row_stats(struct row *r, const struct side *a, const struct side *b,
		     const struct cmp_opts *o)
{
	bool worse;
	int err;

	err = summarize(a->v.v, a->v.n, &r->o) ?: summarize(b->v.v, b->v.n, &r->n);
	err = err ?: sig_test(o, &a->v, &b->v, &r->t);
	if (err)
		return err;
	/* a profile measured files' medians: a mean would carry in an outlying setup */
	r->ofig = r->noise == NOISE_PROFILE ? r->o.median : r->o.mean;
	r->nfig = r->noise == NOISE_PROFILE ? r->n.median : r->n.mean;
	r->change = pct_change(r->ofig, r->nfig);
	if (r->noise == NOISE_PROFILE)
		profile_verdict(r, o->profile);
	else
		spread_verdict(r, o);
	r->significant = r->t.testable && r->t.p < o->alpha;
	r->real = r->significant && fabs(r->change) >= r->floor_pct;
	/*
	 * New still where one more run of this host falls: old sat on a level the
	 * profile never saw, whose noise can neither explain the change nor confirm it.
	 */
	if (r->real && r->nf && new_within_profile(r, o->profile, r->nfig, r->change)) {
		r->real = false;
		r->known = true;
	}
	r->within_o = a->nwithin ? sqrt(a->within2 / a->nwithin) : 0;
	r->within_n = b->nwithin ? sqrt(b->within2 / b->nwithin) : 0;
	/* Levels inside a file: its setups; path and purity have none. */
	r->mo = a->modes;
	r->mn = b->modes;
	r->unstable = r->mo.multi || r->mn.multi;
	worse = fig_higher_is_worse(r->kind) ? r->change > 0 : r->change < 0;
	r->regression = r->real && worse;
	return r->unstable ? level_verdict(r, a, b, o) : 0;
}

bool comparison_one_method(const struct comparison *c, const char *name, const char **a,
			   const char **b)
{
	const struct result *sides[2] = { c->old, c->new };
	size_t n[2] = { c->nold, c->nnew };
	bool first = true;

	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < n[s]; i++) {
			const struct result_scenario *sc = result_find(&sides[s][i], name);

			if (!sc || !sc->ok || !sc->has_path_cost)
				continue;
			if (first)
				*a = sc->path_method;
			first = false;
			if (path_methods_agree(*a, sc->path_method))
				continue;
			*b = sc->path_method ? sc->path_method : "unnamed";
			return false;
		}
	return true;
}

/* Path figures of two methods: each side summed up, and no change, no test, no verdict. */
static int methods_differ(struct row *r, const struct side *a, const struct side *b)
{
	memset(&r->t, 0, sizeof(r->t));
	r->t.p = 1;
	r->t.why = "the path figures' methods differ";
	r->change = r->floor_pct = NAN;
	r->ofig = r->nfig = NAN;
	return summarize(a->v.v, a->v.n, &r->o) ?: summarize(b->v.v, b->v.n, &r->n);
}

/* One row, if both sides have values of the figure (a null path figure has none). */
static int add_row(struct comparison *c, const struct cmp_opts *o, const char *name, enum fig kind,
		   const struct result_cpu *cpu)
{
	struct side a = { 0 }, b = { 0 };
	bool by_file = c->noise == NOISE_FILES;
	struct row *rows, *r;
	int err;

	err = collect(c->old, c->nold, name, kind, cpu, by_file, &a)
		      ?: collect(c->new, c->nnew, name, kind, cpu, by_file, &b);
	if (err || !a.v.n || !b.v.n)
		goto out;
	rows = realloc(c->rows, (c->nrows + 1) * sizeof(*rows));
	if (!rows) {
		err = -ENOMEM;
		goto out;
	}
	c->rows = rows;
	r = memset(&rows[c->nrows++], 0, sizeof(*r));
	r->scenario = name;
	r->kind = kind;
	r->cpu = cpu;
	r->noise = c->noise;
	if (kind == FIG_PATH && !comparison_one_method(c, name, &r->method, &r->other_method))
		r->method = r->method ?: "unnamed";
	else if (kind == FIG_PPATH)
		r->method = path_method_name(PATH_TEXT_PROFILE);
	row_label(r, c->old);
	r->unit_floor_pct = unit_floor_pct(result_clock_of(c->old)->unit);
	err = r->other_method ? methods_differ(r, &a, &b) : row_stats(r, &a, &b, o);
out:
	free(a.v.v);
	free(b.v.v);
	free(a.lo.v);
	free(a.hi.v);
	free(b.lo.v);
	free(b.hi.v);
	return err;
}

__attribute__((format(printf, 2, 3))) static int add_note(struct comparison *c, const char *fmt,
							  ...)
{
	char **notes = realloc(c->notes, (c->nnotes + 1) * sizeof(*notes));
	va_list ap;
	int n;

	if (!notes)
		return -ENOMEM;
	c->notes = notes;
	va_start(ap, fmt);
	n = vasprintf(&notes[c->nnotes], fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	c->nnotes++;
	return 0;
}

/* Records WHAT when OLD and NEW differ; NULL stands for "absent". */
static int add_diff(struct comparison *c, const char *what, const char *old, const char *new)
{
	struct diff *d;

	old = old ? old : "(absent)";
	new = new ? new : "(absent)";
	if (!strcmp(old, new))
		return 0;
	d = realloc(c->diffs, (c->ndiffs + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	c->diffs = d;
	d = &d[c->ndiffs];
	snprintf(d->what, sizeof(d->what), "%s", what);
	d->old = strdup(old);
	d->new = strdup(new);
	c->ndiffs++;
	return d->old && d->new ? 0 : -ENOMEM;
}

/* Differences of two name -> string maps (config, mitigations), old keys first. */
static int map_diffs(struct comparison *c, const char *prefix, const json_t *a, const json_t *b)
{
	const json_t *v;
	const char *k;
	char what[96];
	int err = 0;

	json_object_foreach((json_t *)a, k, v) {
		snprintf(what, sizeof(what), "%s %s", prefix, k);
		err = err
			      ?: add_diff(c, what, json_string_value(v),
					  json_string_value(json_object_get(b, k)));
	}
	json_object_foreach((json_t *)b, k, v) {
		if (json_object_get(a, k))
			continue;
		snprintf(what, sizeof(what), "%s %s", prefix, k);
		err = err ?: add_diff(c, what, NULL, json_string_value(v));
	}
	return err;
}

static int host_diffs(struct comparison *c)
{
	const struct result_host *a = &c->old[0].host, *b = &c->new[0].host;
	char na[32], nb[32], ta[32], tb[32];
	int err;

	snprintf(na, sizeof(na), "%llu", (unsigned long long)a->nr_cpus);
	snprintf(nb, sizeof(nb), "%llu", (unsigned long long)b->nr_cpus);
	/* Calibration wobbles by a few ppm from run to run: show only real changes. */
	snprintf(ta, sizeof(ta), "%.4f GHz", a->tsc_hz / 1e9);
	snprintf(tb, sizeof(tb), "%.4f GHz", b->tsc_hz / 1e9);
	if (fabs(a->tsc_hz - b->tsc_hz) <= 0.001 * fmax(a->tsc_hz, b->tsc_hz))
		snprintf(tb, sizeof(tb), "%s", ta);
	err = add_diff(c, "kernel", a->kernel, b->kernel);
	err = err ?: add_diff(c, "cpu_model", a->cpu_model, b->cpu_model);
	err = err ?: add_diff(c, "tsc", ta, tb);
	err = err ?: add_diff(c, "nr_cpus", na, nb);
	err = err ?: add_diff(c, "clocksource", a->clocksource, b->clocksource);
	err = err ?: add_diff(c, "fentry", a->fentry ? "yes" : "no", b->fentry ? "yes" : "no");
	err = err
		      ?: add_diff(c, "live_frames", a->live_frames ? "yes" : "no",
				  b->live_frames ? "yes" : "no");
	err = err ?: add_diff(c, "qemu", a->clock.qemu_version, b->clock.qemu_version);
	err = err ?: add_diff(c, "cpu_features", a->clock.cpu_features, b->clock.cpu_features);
	err = err ?: map_diffs(c, "config", a->config, b->config);
	return err ?: map_diffs(c, "mitigation", a->mitigations, b->mitigations);
}

/* Files written before each run was its own setup: their spread is too small. */
static int replication_note(struct comparison *c, const struct result *files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < files[i].nr_sc; k++) {
			const struct result_scenario *sc = &files[i].sc[k];

			if (sc->ok && !sc->replication)
				return add_note(c,
						"runs of one setup (an older ppbench), too small a "
						"spread: %s",
						files[i].path);
		}
	return 0;
}

/* The machine-speed probe of every setup on one side (bench's cpu_probe_ns). */
static int side_probes(const struct result *files, size_t n, struct sample *s)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < files[i].nr_sc; k++)
			for (size_t j = 0; j < json_array_size(files[i].sc[k].setups); j++) {
				const json_t *e = json_array_get(files[i].sc[k].setups, j);
				double v = json_number_value(json_object_get(e, "cpu_probe_ns"));

				if (!(v > 0))
					continue;
				if (sample_add(s, &v, 1))
					return -ENOMEM;
			}
	return 0;
}

/*
 * A fixed CPU loop that ran slower on one side says the machine was slower
 * there: part of any change is the machine's, not the code's.
 */
static int machine_note(struct comparison *c)
{
	struct sample a = { 0 }, b = { 0 };
	struct summary sa, sb;
	double ch;
	int err;

	err = side_probes(c->old, c->nold, &a) ?: side_probes(c->new, c->nnew, &b);
	if (!err && a.n >= 3 && b.n >= 3 && !summarize(a.v, a.n, &sa) &&
	    !summarize(b.v, b.n, &sb)) {
		ch = pct_change(sa.median, sb.median);
		if (fabs(ch) >= MACHINE_NOTE_PCT)
			err = add_note(c,
				       "machine: a fixed CPU loop ran %.1f%% %s in new (medians of "
				       "%zu and %zu setups): part of any change is the machine's",
				       fabs(ch), ch > 0 ? "slower" : "faster", a.n, b.n);
	}
	free(a.v);
	free(b.v);
	return err;
}

#define PAIR_MAX 64

/* Per file of a side: level probe and median cycles of NAME; 0 if a file lacks the probe. */
static size_t level_values(const struct result *files, size_t n, const char *name, double *lv,
			   double *cy)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k < PAIR_MAX; i++) {
		const struct result_scenario *sc = result_find(&files[i], name);

		if (!sc || !sc->ok)
			continue;
		lv[k] = result_level_probe(&files[i], name);
		cy[k] = median_of(sc->cycles.runs, sc->cycles.nruns);
		if (!isfinite(lv[k]) || !isfinite(cy[k]))
			return 0;
		k++;
	}
	return k;
}

/* The median level probe of scenario NAME over a side's files; NAN if one lacks it. */
static double side_level(const struct result *files, size_t n, const char *name)
{
	double lv[PAIR_MAX], cy[PAIR_MAX];
	size_t k = level_values(files, n, name, lv, cy);

	return k ? median_of(lv, k) : NAN;
}

/* The page_pool-free loop bench runs beside each setup follows the host's levels: a note. */
static int level_note(struct comparison *c, const char *name)
{
	double a = side_level(c->old, c->nold, name), b = side_level(c->new, c->nnew, name);
	double ch = pct_change(a, b);

	if (!isfinite(ch) || fabs(ch) < LEVEL_NOTE_PCT)
		return 0;
	c->level_noted = true;
	return add_note(c,
			"level: the page_pool-free kernel loop ran %.0f%% %s in new next to %s "
			"(%.2f -> %.2f ns): the host was on another level; part of any change is "
			"the host's",
			fabs(ch), ch > 0 ? "slower" : "faster", name, a, b);
}

/* Pooling files from different kernels is most likely a mistake: say so. */
static int side_notes(struct comparison *c, const struct result *files, size_t n, const char *side)
{
	int err = replication_note(c, files, n);

	if (err)
		return err;
	for (size_t i = 1; i < n; i++)
		if (strcmp(files[0].host.kernel, files[i].host.kernel))
			return add_note(c, "%s side pools different kernels: %s (%s) and %s (%s)",
					side, files[0].path, files[0].host.kernel, files[i].path,
					files[i].host.kernel);
	return 0;
}

static const struct result_scenario *first_with(const struct result *files, size_t n,
						const char *name, bool want_ok)
{
	for (size_t i = 0; i < n; i++) {
		const struct result_scenario *sc = result_find(&files[i], name);

		if (sc && (sc->ok || !want_ok))
			return sc;
	}
	return NULL;
}

/* Why a scenario has no rows: absent or skipped on a side. */
static int missing_note(struct comparison *c, const char *name)
{
	const struct result_scenario *o = first_with(c->old, c->nold, name, false);
	const struct result_scenario *n = first_with(c->new, c->nnew, name, false);

	if (!o || !n)
		return add_note(c, "%s: only in %s", name, o ? "old" : "new");
	if (!o->ok && !n->ok)
		return add_note(c, "%s: skipped in old (%s) and new (%s)", name, o->reason,
				n->reason);
	return add_note(c, "%s: skipped in %s: %s", name, o->ok ? "new" : "old",
			o->ok ? n->reason : o->reason);
}

/*
 * Each old file paired with the unused new file of the nearest level probe:
 * a note to weigh; the verdict stays the files' test.
 */
static int pair_note(struct comparison *c, const char *name)
{
	double lo[PAIR_MAX], ln[PAIR_MAX], co[PAIR_MAX], cn[PAIR_MAX], ch[PAIR_MAX];
	size_t no, nn, k = 0;
	bool used[PAIR_MAX] = { false };
	struct summary s;

	if (c->noise != NOISE_FILES)
		return 0;
	no = level_values(c->old, c->nold, name, lo, co);
	nn = level_values(c->new, c->nnew, name, ln, cn);
	for (size_t i = 0; no >= 2 && nn >= 2 && i < no && k < nn; i++) {
		size_t best = 0;
		double d = INFINITY;

		for (size_t j = 0; j < nn; j++)
			if (!used[j] && fabs(log(lo[i] / ln[j])) < d) {
				d = fabs(log(lo[i] / ln[j]));
				best = j;
			}
		used[best] = true;
		ch[k++] = pct_change(co[i], cn[best]);
	}
	if (k < 2 || summarize(ch, k, &s))
		return 0;
	return add_note(c,
			"%s: old and new files paired by level probe (%zu pairs): cycles %+.1f%% "
			"(median; %+.1f .. %+.1f%%)",
			name, k, s.median, s.min, s.max);
}

/* A CPU's figure that is the scenario's (its only CPU's), setup by setup. */
static bool same_runs(const struct result_stat *a, const struct result_stat *b)
{
	if (a->nruns != b->nruns)
		return false;
	for (size_t i = 0; i < a->nruns; i++)
		if (a->runs[i] != b->runs[i])
			return false;
	return true;
}

static int add_scenario(struct comparison *c, const struct cmp_opts *o, const char *name)
{
	const struct result_scenario *so = first_with(c->old, c->nold, name, true);
	const struct result_scenario *sn = first_with(c->new, c->nnew, name, true);
	bool ic = unit_counts_instructions(result_clock_of(c->old)->unit);
	char what[96];
	int err;

	if (!so || !sn)
		return missing_note(c, name);
	snprintf(what, sizeof(what), "%s recipe", name);
	err = add_diff(c, what, so->recipe, sn->recipe);
	snprintf(what, sizeof(what), "%s method", name);
	err = err ?: add_diff(c, what, so->method, sn->method);
	/* (a counter's view has no ns: its ns_per_elem is the counter again) */
	for (enum fig f = FIG_CYCLES; !err && f <= FIG_PURITY; f++) {
		size_t n = c->nrows;

		if (f == FIG_NS && unit_is_counter(result_clock_of(c->old)->unit))
			continue;
		err = add_row(c, o, name, f, NULL);
		if (!err && c->nrows > n && f == FIG_NS && ic)
			c->rows[n].repeats = true;
	}
	for (size_t i = 0; !err && i < so->nr_per_cpu; i++) {
		size_t n = c->nrows;
		err = add_row(c, o, name, FIG_CPU, &so->per_cpu[i]);
		if (!err && c->nrows > n && same_runs(&so->per_cpu[i].cycles, &so->cycles))
			c->rows[n].repeats = true;
	}
	return err ?: pair_note(c, name);
}

static bool listed(const char **names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

const char **scenario_names(const struct result *a, size_t na, const struct result *b, size_t nb,
			    size_t *n)
{
	const struct result *sides[2] = { a, b };
	size_t nfiles[2] = { na, nb }, cap = 1;
	const char **names;

	for (int s = 0; s < 2; s++)
		for (size_t f = 0; f < nfiles[s]; f++)
			cap += sides[s][f].nr_sc;
	names = calloc(cap, sizeof(*names));
	*n = 0;
	for (int s = 0; names && s < 2; s++)
		for (size_t f = 0; f < nfiles[s]; f++)
			for (size_t k = 0; k < sides[s][f].nr_sc; k++)
				if (!listed(names, *n, sides[s][f].sc[k].name))
					names[(*n)++] = sides[s][f].sc[k].name;
	return names;
}

const struct row *find_row(const struct comparison *c, const char *scn, enum fig kind)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].kind == kind && !strcmp(c->rows[i].scenario, scn))
			return &c->rows[i];
	return NULL;
}

/*
 * A profile knows the levels of its hour: a file far outside all of them was
 * taken on a level the profile never saw, and its floor may not hold.
 */
static int profile_level_note(struct comparison *c, const struct result *f, const char *side)
{
	for (size_t k = 0; k < f->nr_sc; k++) {
		const struct result_scenario *sc = &f->sc[k];
		const struct noise_scenario *ns = noise_find(c->profile, sc->name);
		double v = sc->cycles.median;

		if (!sc->ok || !ns || (v >= ns->cycles.min / 1.1 && v <= ns->cycles.max * 1.1))
			continue;
		return add_note(
			c,
			"%s: %s's %.1f cycles/elem is more than 10%% outside what the noise "
			"profile saw (%.1f .. %.1f): a level it does not know, so its floor "
			"may not hold: %s",
			sc->name, side, v, ns->cycles.min, ns->cycles.max, f->path);
	}
	return 0;
}

int comparison_build(struct comparison *c, const struct cmp_opts *o)
{
	double floor = o->prof_floor > 0 ? o->prof_floor : PDIFF_FLOOR;
	const char **names;
	size_t n;
	int err;

	c->noise = c->nold >= 2 && c->nnew >= 2 ? NOISE_FILES
		   : o->profile			? NOISE_PROFILE
						: NOISE_SETUPS;
	c->profile = c->noise == NOISE_PROFILE ? o->profile : NULL;
	err = host_diffs(c);
	if (!err && c->profile)
		err = profile_level_note(c, &c->old[0], "old")
			      ?: profile_level_note(c, &c->new[0], "new");
	err = err ?: side_notes(c, c->old, c->nold, "old");
	err = err ?: side_notes(c, c->new, c->nnew, "new");
	err = err ?: machine_note(c);
	names = err ? NULL : scenario_names(c->old, c->nold, c->new, c->nnew, &n);
	if (!names)
		return -ENOMEM;
	for (size_t i = 0; !err && i < n; i++)
		err = add_scenario(c, o, names[i]) ?: c->level_noted ? 0 : level_note(c, names[i]);
	free(names);
	return err ?: pdiff_build(c->old, c->nold, c->new, c->nnew, floor, &c->pd, &c->npd);
}

void comparison_free(struct comparison *c)
{
	for (size_t i = 0; i < c->ndiffs; i++) {
		free(c->diffs[i].old);
		free(c->diffs[i].new);
	}
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->diffs);
	free(c->notes);
	free(c->rows);
	pdiff_free(c->pd, c->npd);
}

/* Worse by more than the limit: CHANGE in the direction that is worse for R. */
static bool over_limit(const struct cmp_set *set, const struct row *r, double change)
{
	return (fig_higher_is_worse(r->kind) ? change : -change) > set->fail_above;
}

/* A gate on R's figure, with the noise between invocations to judge it. */
static bool row_judged(const struct cmp_set *set, const struct row *r)
{
	return set->gate && r->kind == set->metric && r->noise != NOISE_SETUPS;
}

bool row_gated(const struct cmp_set *set, const struct row *r)
{
	if (!row_judged(set, r))
		return false;
	/* Levels inside a file: only the change between their nearest levels. */
	if (r->unstable && !set->gate_unstable)
		return r->level_real && over_limit(set, r, r->level_change);
	return r->regression && over_limit(set, r, r->change);
}

bool row_unstable_not_gated(const struct cmp_set *set, const struct row *r)
{
	return row_judged(set, r) && r->unstable && r->regression &&
	       over_limit(set, r, r->change) && !row_gated(set, r);
}

bool row_xfail(const struct cmp_set *set, const struct comparison *c, const struct row *r)
{
	return set->machine_slow && row_gated(set, r) && r->kind != FIG_PURITY &&
	       !unit_counts_instructions(result_clock_of(c->old)->unit);
}
