// SPDX-License-Identifier: GPL-2.0
/* ppbench compare: before/after tables of bench results, a significance test and a CI gate. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
#include "model/by_counter.h"
#include "compare/compare_report.h"
#include "compare/ktap.h"

#define MAX_FILES 64

enum { SIDE_POS, SIDE_OLD, SIDE_NEW };

enum { OPT_OLD = 1, OPT_NEW, OPT_LIMIT };

struct cmp_cfg {
	const char *files[3][MAX_FILES];
	size_t nfiles[3];
	int side; /* where the next bare file goes */
	/* each --new starts a column: where its files start among the new side's */
	size_t col_start[MAX_FILES];
	size_t ncols;
	bool force, markdown, bpp, org, ktap, gate_unstable, qemu_change;
	double alpha, prof_floor;
	enum sig_test test;
	const char *json;
	const char *counter; /* --counter NAME: the files' view (model/by_counter.h) */
	struct cmp_gate g;
};

const struct cli_word cmp_metrics[] = {
	{ "cycles", FIG_CYCLES }, { "ns", FIG_NS }, { "path", FIG_PATH },
	{ "purity", FIG_PURITY }, { NULL },
};

static const struct cli_word tests[] = {
	{ "welch", TEST_WELCH },
	{ "mann-whitney", TEST_MANN_WHITNEY },
	{ NULL },
};

#define C(m) CLI_MEMBER(struct cmp_cfg, m)

static const struct cli_opt compare_opts[] = {
	{ "old", 0, "FILE", "a baseline file; the files after it, up to --new, join the old side",
	  OPT_OLD },
	{ "new", 0, "FILE",
	  "a file of the new side; the files after it join it too. Each --new starts a column "
	  "of its own, compared with the old side",
	  OPT_NEW },
	{ "force", 'f', NULL, "compare even when TSC Hz or CPU model say the hosts differ",
	  .kind = CLI_FLAG, C(force) },
	{ "allow-qemu-change", 0, NULL,
	  "gate instruction files counted by two qemu releases or on guest CPUs of other "
	  "features: the difference is intended (refused otherwise)",
	  .kind = CLI_FLAG, C(qemu_change) },
	{ "counter", 0, "NAME",
	  "compare the hardware counter NAME of bench --counters files instead of the clock's "
	  "figure: " PMU_COUNTER_NAMES
	  ", per element (a --noise profile must be of that counter: calibrate --counter)",
	  .kind = CLI_STRING, C(counter) },
	{ "gate-unstable", 0, NULL,
	  "gate figures whose setups sit on two or more levels on their medians' change, "
	  "even where the levels explain it",
	  .kind = CLI_FLAG, C(gate_unstable) },
	{ "test", 0, NULL, "significance test (default welch)", .kind = CLI_ENUM, C(test),
	  .words = tests },
	{ "alpha", 0, "P", "significance level, 0 < P < 0.5 (default 0.05)", .kind = CLI_NUMBER,
	  C(alpha), .dmin = 1e-9, .dmax = 0.5, .flags = CLI_F_PROSE_RANGE },
	{ "profile-floor", 0, "N",
	  "files of 'vm --profile': list the perf-profile rows (calltrace, children, self) "
	  "whose instructions per element changed by N or more (default 0.1)",
	  .kind = CLI_NUMBER, C(prof_floor), .dmin = 1e-9, .dmax = 1e9,
	  .flags = CLI_F_PROSE_RANGE },
	{ "markdown", 'm', NULL, "print Markdown tables (for mail or an issue) instead of text",
	  .kind = CLI_FLAG, C(markdown) },
	{ "bpp", 0, NULL, "print bench_page_pool_simple-style fast/ptr_ring/slow tables",
	  .kind = CLI_FLAG, C(bpp) },
	{ "org", 0, NULL,
	  "print the page_pool maintainers' Org table: cycles and ns before, after, diff, and "
	  "% change, with a #+TBLFM line that recomputes them",
	  .kind = CLI_FLAG, C(org) },
	{ "ktap", 0, NULL,
	  "print the verdicts as KTAP version 1 (kselftest, netdev CI): one test per scenario "
	  "of --metric",
	  .kind = CLI_FLAG, C(ktap) },
	CLI_OPT_JSON(struct cmp_cfg, json,
		     "also write the comparison as JSON to FILE ('-': stdout only)"),
	CMP_GATE_OPTS(struct cmp_cfg, g, OPT_LIMIT),
	CMP_OPT_BISECT(
		struct cmp_cfg, g,
		"exit as 'git bisect run' reads it: 0 no gate fired, 1 one did, 125 no "
		"verdict on the new file (missing, invalid, or without the gated figure), 128 a "
		"mistake in the command line or the baseline (the bisection stops)"),
	{ NULL },
};

static void compare_init(void *c)
{
	struct cmp_cfg *cfg = c;

	cmp_gate_init(&cfg->g);
	cfg->alpha = 0.05;
	cfg->test = TEST_WELCH;
}

static int add_file(struct cmp_cfg *cfg, int side, const char *path)
{
	if (cfg->nfiles[side] == MAX_FILES) {
		pr_err("too many files on one side (at most %d)\n", MAX_FILES);
		return -E2BIG;
	}
	cfg->files[side][cfg->nfiles[side]++] = path;
	return 0;
}

void cmp_gate_init(struct cmp_gate *g)
{
	memset(g, 0, sizeof(*g));
	g->metric = FIG_CYCLES;
}

int cmp_gate_limit(struct cmp_gate *g, const char *arg)
{
	char err[256];

	if (g->nlimits == CMP_MAX_LIMITS) {
		pr_err("too many --limit options (at most %d)\n", CMP_MAX_LIMITS);
		return -E2BIG;
	}
	if (hard_limit_parse(arg, &g->limits[g->nlimits], err, sizeof(err))) {
		pr_err("%s\n", err);
		return -EINVAL;
	}
	g->nlimits++;
	return 0;
}

/* Files, and --old/--new that decide where the files after them go. */
static int compare_opt(void *c, int key, const char *arg)
{
	struct cmp_cfg *cfg = c;

	if (key == OPT_LIMIT)
		return cmp_gate_limit(&cfg->g, arg);
	if (key == CLI_KEY_ARG)
		return add_file(cfg, cfg->side, arg);
	if (cfg->nfiles[SIDE_POS]) {
		pr_err("'%s' comes before %s: put every file after --old or --new, or use "
		       "neither\n",
		       cfg->files[SIDE_POS][0], key == OPT_OLD ? "--old" : "--new");
		return -EINVAL;
	}
	cfg->side = key == OPT_OLD ? SIDE_OLD : SIDE_NEW;
	if (add_file(cfg, cfg->side, arg))
		return -E2BIG;
	if (key == OPT_NEW)
		cfg->col_start[cfg->ncols++] = cfg->nfiles[SIDE_NEW] - 1;
	return 0;
}

static void free_results(struct result *r, size_t n)
{
	for (size_t i = 0; r && i < n; i++)
		result_free(&r[i]);
	free(r);
}

__attribute__((format(printf, 3, 4))) static int fail(struct verdict *v, enum cmp_outcome out,
						      const char *fmt, ...)
{
	va_list ap;

	v->out = out;
	va_start(ap, fmt);
	vsnprintf(v->why, sizeof(v->why), fmt, ap);
	va_end(ap);
	if (out != CMP_NO_FIGURE && out != CMP_NO_BASELINE_FIG)
		pr_err("%s\n", v->why);
	return -EINVAL;
}

/*
 * TSC Hz and CPU model must match: otherwise cycles measure different clocks.
 * A refusal is the new file's: it is what differs from the baseline.
 */
static int check_host(const struct cmp_cfg *cfg, const struct result *base, const struct result *r,
		      struct verdict *v)
{
	const struct result_host *a = &base->host, *b = &r->host;
	double hi = fmax(a->tsc_hz, b->tsc_hz);
	double apart = hi > 0 ? fabs(a->tsc_hz - b->tsc_hz) / hi : 0;
	char why[512];

	/* not even with --force: an instruction is no cycle */
	if (result_same_clock(base, r, why, sizeof(why)))
		return fail(v, CMP_BAD_NEW, "%s: figures of two clocks never compare", why);
	/* (a mistake that fails every step of a bisection alike: 128) */
	if (cfg->g.gate && !cfg->qemu_change && result_same_qemu(base, r, why, sizeof(why)))
		return fail(v, CMP_BAD_USAGE,
			    "%s: their instructions do not gate against each other "
			    "(--allow-qemu-change if the difference is intended)",
			    why);
	if (strcmp(a->cpu_model, b->cpu_model))
		snprintf(why, sizeof(why), "CPU model \"%s\" vs \"%s\"", a->cpu_model,
			 b->cpu_model);
	else if (apart > 0.01)
		snprintf(why, sizeof(why), "TSC %.0f Hz vs %.0f Hz (%.1f%% apart, more than 1%%)",
			 a->tsc_hz, b->tsc_hz, apart * 100);
	else
		return 0;
	if (!cfg->force)
		return fail(v, CMP_BAD_NEW,
			    "%s and %s come from different hosts: %s; use --force to compare "
			    "anyway",
			    base->path, r->path, why);
	pr_warn("%s and %s come from different hosts: %s; comparing anyway (--force)\n", base->path,
		r->path, why);
	return 0;
}

/*
 * Loads FILES, through CFG's --counter view, each checked against the first's
 * host; the first bad one's error is blamed on the new side from index NOLD on.
 */
static struct result *load_files(const struct cmp_cfg *cfg, const char *const *files, size_t n,
				 size_t nold, struct verdict *v)
{
	struct result *r = calloc(n, sizeof(*r));
	char err[512];

	if (!r) {
		fail(v, CMP_FAILED, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (result_load_view(files[i], &r[i], cfg->counter, err, sizeof(err))) {
			fail(v, i < nold ? CMP_BAD_USAGE : CMP_BAD_NEW, "%s", err);
			free_results(r, i);
			return NULL;
		}
	}
	for (size_t i = 1; nold && i < n; i++)
		if (check_host(cfg, &r[0], &r[i], v)) {
			free_results(r, n);
			return NULL;
		}
	return r;
}

/* A profile P (the file PATH) of another clock than LIKE's: refused, whatever --force says. */
static int check_clock(const struct noise_profile *p, const char *path, const struct result *like,
		       struct verdict *v)
{
	char why[2 * PATH_MAX]; /* two file names and their clocks */

	if (!noise_clock_check(p, path, like, why, sizeof(why)))
		return 0;
	return fail(v, CMP_BAD_USAGE, "%s: a profile of one clock cannot judge figures of another",
		    why);
}

/*
 * The profile must describe the host and kernel of the baseline (the new
 * side may run another kernel); P is the caller's to free, loaded or not.
 */
static int load_profile(const struct cmp_cfg *cfg, const struct result *base,
			struct noise_profile *p, struct verdict *v)
{
	char err[512], why[512];

	if (noise_load(cfg->g.noise, p, err, sizeof(err)))
		return fail(v, CMP_BAD_USAGE, "%s", err);
	if (check_clock(p, cfg->g.noise, base, v))
		return -EINVAL;
	if (!noise_host_check(p, base, why, sizeof(why)))
		return 0;
	if (cfg->force) {
		pr_warn("noise profile %s is of another host than %s: %s; using it anyway "
			"(--force)\n",
			cfg->g.noise, base->path, why);
		return 0;
	}
	return fail(v, CMP_BAD_USAGE,
		    "noise profile %s is of another host or kernel than %s: %s; run 'ppbench "
		    "calibrate' there (--force uses it anyway)",
		    cfg->g.noise, base->path, why);
}

/* A gate on path figures of two methods: refused, whatever the figures say. */
static int check_gate_methods(const struct cmp_cfg *cfg, const struct comparison *c,
			      struct verdict *v)
{
	for (size_t k = 0; cfg->g.gate && cfg->g.metric == FIG_PATH && k < c->nrows; k++) {
		const struct row *r = &c->rows[k];

		if (r->kind == FIG_PATH && r->other_method)
			return fail(v, CMP_BAD_NEW,
				    "--fail-above on path: %s's path figures are of two methods, "
				    "%s and %s, which never compare: gate files of one method",
				    r->scenario, r->method, r->other_method);
	}
	return 0;
}

/*
 * --fail-above with one file on a side needs the noise between invocations
 * from a profile (comparison_build(): files are the unit from two a side).
 */
static int check_gate(const struct cmp_cfg *cfg, struct verdict *v)
{
	bool pos = cfg->nfiles[SIDE_POS];

	if (!cfg->g.gate || cfg->g.noise ||
	    (!pos && cfg->nfiles[SIDE_OLD] >= 2 && cfg->nfiles[SIDE_NEW] >= 2))
		return 0;
	return fail(v, CMP_BAD_USAGE,
		    "--fail-above cannot decide with %s: one invocation does not show "
		    "how much the next one differs; give --noise PROFILE (from 'ppbench "
		    "calibrate -o PROFILE') or two or more files a side (--old A1 A2 A3 "
		    "--new B1 B2 B3)",
		    pos || (cfg->nfiles[SIDE_OLD] == 1 && cfg->nfiles[SIDE_NEW] == 1)
			    ? "one file a side"
			    : "one file on a side");
}

/*
 * A limit on a path figure holds for one method: files whose path figures
 * of its scenario are of two methods are refused.
 */
static int check_limit_methods(const struct cmp_cfg *cfg, const struct result *files, size_t n,
			       struct verdict *v)
{
	struct comparison c = { .old = files, .nold = n };
	const char *a = NULL, *b = NULL;
	char name[64];

	for (size_t k = 0; k < cfg->g.nlimits; k++) {
		if (cfg->g.limits[k].fig != FIG_PATH ||
		    comparison_one_method(&c, cfg->g.limits[k].scenario, &a, &b))
			continue;
		hard_limit_name(&cfg->g.limits[k], name, sizeof(name));
		return fail(v, CMP_BAD_NEW,
			    "--limit %s: %s's path figures are of two methods, %s and %s: a "
			    "limit holds for one; give files of one method",
			    name, cfg->g.limits[k].scenario, a ? a : "unnamed", b);
	}
	return 0;
}

/*
 * Each limit against each file of the new side: refused (the file's) where
 * the file's figures are not exact, a gap where a file has no such figure.
 */
static struct limit_check *check_limits(const struct cmp_cfg *cfg, const struct result *files,
					size_t n, struct verdict *v)
{
	struct limit_check *l = calloc(cfg->g.nlimits * n + 1, sizeof(*l));
	char why[512];

	if (!l) {
		fail(v, CMP_FAILED, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (hard_limit_exact(&files[i], why, sizeof(why))) {
			fail(v, CMP_BAD_NEW, "--limit: %s", why);
			free(l);
			return NULL;
		}
		for (size_t k = 0; k < cfg->g.nlimits; k++) {
			struct limit_check *c = &l[i * cfg->g.nlimits + k];

			hard_limit_check(&cfg->g.limits[k], &files[i], c);
			if (!c->has_value && v->out == CMP_PASS)
				fail(v, CMP_NO_FIGURE, "%s", c->gap);
		}
	}
	return l;
}

/* The gated scenarios' figures on both sides (--bisect: no figure, no verdict). */
static void check_figures(const struct cmp_cfg *cfg, const struct cmp_set *set, struct verdict *v)
{
	char why[256];

	for (size_t i = 0; cfg->g.bisect && cfg->g.gate && i < set->n; i++) {
		enum cmp_outcome o = bisect_figures(&set->cmps[i], cfg->g.metric, why, sizeof(why));

		if (o == CMP_FAILED || o == CMP_NO_BASELINE_FIG ||
		    (o == CMP_NO_FIGURE && v->out == CMP_PASS))
			fail(v, o, "%s", why);
	}
}

static int build_comparisons(const struct cmp_cfg *cfg, struct result *all, size_t nall,
			     struct cmp_set *set, struct verdict *v)
{
	bool pos = cfg->nfiles[SIDE_POS];
	size_t nold = pos ? 1 : cfg->nfiles[SIDE_OLD];
	size_t ncmp = pos ? nall - 1 : cfg->ncols;

	set->cmps = calloc(ncmp ? ncmp : 1, sizeof(*set->cmps));
	if (!set->cmps)
		return fail(v, CMP_FAILED, "out of memory");
	for (size_t i = 0; i < ncmp; i++, set->n++) {
		struct comparison *c = &set->cmps[i];

		c->old = all;
		c->nold = nold;
		/* (positional: each later file is a column of one) */
		c->new = &all[pos ? 1 + i : nold + cfg->col_start[i]];
		c->nnew = pos		 ? 1
			  : i + 1 < ncmp ? cfg->col_start[i + 1] - cfg->col_start[i]
					 : nall - nold - cfg->col_start[i];
		if (comparison_build(c, set->opts))
			return fail(v, CMP_FAILED, "comparing failed: out of memory");
	}
	return 0;
}

static void run_comparisons(const struct cmp_cfg *cfg, struct result *all, size_t nall, size_t nold,
			    const struct noise_profile *profile, struct verdict *v)
{
	struct cmp_opts o = { .test = cfg->test,
			      .alpha = cfg->alpha,
			      .profile = profile,
			      .prof_floor = cfg->prof_floor };
	struct cmp_set set = {
		.opts = &o,
		.gate = cfg->g.gate,
		.gate_unstable = cfg->gate_unstable,
		.metric = cfg->g.metric,
		.fail_above = cfg->g.fail_above,
		/* kselftest's convention on slow VMs and hardware: its format, its env */
		.machine_slow = cfg->ktap && ksft_machine_slow(),
	};
	struct limit_check *limits = NULL;
	int gated = EXIT_OK;

	if (nall > nold && build_comparisons(cfg, all, nall, &set, v))
		goto out;
	for (size_t i = 0; i < set.n; i++)
		if (check_gate_methods(cfg, &set.cmps[i], v))
			goto out;
	if (check_limit_methods(cfg, all, nall, v))
		goto out;
	limits = cfg->g.nlimits ? check_limits(cfg, &all[nold], nall - nold, v) : NULL;
	if (cfg->g.nlimits && !limits)
		goto out;
	set.limits = limits;
	set.nlimits = cfg->g.nlimits * (nall - nold);
	check_figures(cfg, &set, v);
	if (compare_output(&set,
			   (cfg->markdown ? CMP_OUT_MARKDOWN : 0) | (cfg->bpp ? CMP_OUT_BPP : 0) |
				   (cfg->org ? CMP_OUT_ORG : 0) | (cfg->ktap ? CMP_OUT_KTAP : 0),
			   cfg->json)) {
		/* (the writer said why, in its one line) */
		v->out = CMP_FAILED;
		snprintf(v->why, sizeof(v->why), "no comparison written");
		goto out;
	}
	if (cfg->g.gate)
		gated |= compare_gate(&set);
	gated |= limit_gate(set.limits, set.nlimits);
	if (v->out == CMP_NO_BASELINE_FIG)
		goto out;
	if (gated)
		v->out = CMP_GATED;
	if (cfg->g.bisect && (v->out == CMP_PASS || v->out == CMP_GATED))
		bisect_gates_why(&set, v->why, sizeof(v->why));
out:
	for (size_t i = 0; i < set.n; i++)
		comparison_free(&set.cmps[i]);
	free(set.cmps);
	free(limits);
}

static int check_args(const struct cmp_cfg *cfg)
{
	if (cfg->nfiles[SIDE_POS] == 1 && !cfg->g.nlimits) {
		pr_err("needs at least two result files: OLD.json NEW.json (one file takes only "
		       "--limit)\n");
		return -EINVAL;
	}
	if (!cfg->nfiles[SIDE_POS] && (!cfg->nfiles[SIDE_OLD] || !cfg->nfiles[SIDE_NEW])) {
		pr_err("needs %s\n", cfg->nfiles[SIDE_OLD]   ? "--new FILE too"
				     : cfg->nfiles[SIDE_NEW] ? "--old FILE too"
							     : "result files: OLD.json NEW.json");
		return -EINVAL;
	}
	if (cfg->nfiles[SIDE_POS] == 1 && cfg->g.gate) {
		pr_err("--fail-above compares two sides: give OLD.json NEW.json (one file takes "
		       "only --limit)\n");
		return -EINVAL;
	}
	if (cfg->g.bisect && !cfg->g.gate && !cfg->g.nlimits) {
		pr_err("--bisect needs a gate to decide with: --fail-above PCT or --limit\n");
		return -EINVAL;
	}
	if (cfg->json && !strcmp(cfg->json, "-") && (cfg->markdown || cfg->bpp || cfg->org)) {
		pr_err("--json - prints only JSON: it cannot go with --markdown, --bpp or --org\n");
		return -EINVAL;
	}
	if (cfg->ktap &&
	    (cfg->markdown || cfg->bpp || cfg->org || (cfg->json && !strcmp(cfg->json, "-")))) {
		pr_err("--ktap prints only KTAP: it cannot go with --markdown, --bpp, --org or "
		       "--json -\n");
		return -EINVAL;
	}
	return 0;
}

int compare_status(const struct cmp_gate *g, const struct verdict *v)
{
	static const int plain[] = {
		[CMP_PASS] = EXIT_OK,	    [CMP_GATED] = EXIT_REGRESSION,
		[CMP_NO_FIGURE] = EXIT_OK,  [CMP_NO_BASELINE_FIG] = EXIT_OK,
		[CMP_BAD_NEW] = EXIT_USAGE, [CMP_BAD_USAGE] = EXIT_USAGE,
		[CMP_FAILED] = EXIT_FAIL,
	};
	int status;

	if (!g->bisect)
		return plain[v->out];
	status = bisect_compare_status(v->out);
	bisect_print_verdict(status, v->why);
	return status;
}

/* What compare refuses before it reads a result file (LIKE: one of the files, or NULL). */
static int gate_check(const struct cmp_cfg *cfg, const struct result *like, struct verdict *v)
{
	struct noise_profile p;
	char err[512];
	int ret;

	if (check_gate(cfg, v))
		return -EINVAL;
	if (!cfg->g.noise)
		return 0;
	if (noise_load(cfg->g.noise, &p, err, sizeof(err)))
		return fail(v, CMP_BAD_USAGE, "%s", err);
	ret = like ? check_clock(&p, cfg->g.noise, like, v) : 0;
	noise_free(&p);
	return ret;
}

/* Loads CFG's files, compares them and prints the comparison; what it found into V. */
static void judge(const struct cmp_cfg *cfg, struct verdict *v)
{
	const char *files[2 * MAX_FILES];
	struct noise_profile profile = { 0 };
	struct result *all;
	size_t n = 0, nold;

	for (int s = SIDE_POS; s <= SIDE_NEW; s++)
		for (size_t i = 0; i < cfg->nfiles[s]; i++)
			files[n++] = cfg->files[s][i];
	/* one file alone is the new side: the limits' */
	nold = cfg->nfiles[SIDE_POS] ? (n > 1) : cfg->nfiles[SIDE_OLD];
	all = load_files(cfg, files, n, nold, v);
	if (!all)
		return;
	if (!cfg->g.noise || !nold || !load_profile(cfg, &all[0], &profile, v))
		run_comparisons(cfg, all, n, nold, cfg->g.noise && nold ? &profile : NULL, v);
	noise_free(&profile);
	free_results(all, n);
}

/* One file a side (or NEW alone) of G's gate, and V passed so far. */
static void one_a_side(struct cmp_cfg *cfg, const struct cmp_gate *g, const char *old,
		       const char *new, struct verdict *v)
{
	*v = (struct verdict){ CMP_PASS, "" };
	memset(cfg, 0, sizeof(*cfg));
	compare_init(cfg);
	cfg->g = *g;
	if (old)
		cfg->files[SIDE_POS][cfg->nfiles[SIDE_POS]++] = old;
	cfg->files[SIDE_POS][cfg->nfiles[SIDE_POS]++] = new;
}

int cmp_gate_check(const struct cmp_gate *g, const struct result *like, struct verdict *v)
{
	struct cmp_cfg cfg;

	one_a_side(&cfg, g, "old", "new", v);
	return gate_check(&cfg, like, v);
}

void compare_judge(const struct cmp_gate *g, const char *old, const char *new, struct verdict *v)
{
	struct cmp_cfg cfg;

	one_a_side(&cfg, g, old, new, v);
	if (!gate_check(&cfg, NULL, v))
		judge(&cfg, v);
}

int compare_load(const char *const *files, size_t n, const struct cmp_opts *o,
		 struct cmp_files *out)
{
	struct verdict v = { CMP_PASS, "" };
	struct cmp_cfg cfg = { 0 };

	memset(out, 0, sizeof(*out));
	out->set.opts = o;
	for (size_t i = 0; i < n; i++)
		if (add_file(&cfg, SIDE_POS, files[i]))
			return -EINVAL;
	out->files = load_files(&cfg, files, n, 1, &v);
	if (!out->files)
		return v.out == CMP_FAILED ? -ENOMEM : -EINVAL;
	out->n = n;
	if (!build_comparisons(&cfg, out->files, n, &out->set, &v))
		return 0;
	compare_unload(out);
	return v.out == CMP_FAILED ? -ENOMEM : -EINVAL;
}

void compare_unload(struct cmp_files *f)
{
	for (size_t i = 0; i < f->set.n; i++)
		comparison_free(&f->set.cmps[i]);
	free(f->set.cmps);
	free_results(f->files, f->n);
	memset(f, 0, sizeof(*f));
}

static int compare_run(void *c, int argc, char **argv)
{
	struct verdict v = { CMP_PASS, "" };

	(void)argc;
	(void)argv;
	judge(c, &v);
	return compare_status(&((struct cmp_cfg *)c)->g, &v);
}

/* The command line, then what compare refuses before it reads a result file. */
static int compare_check(void *c, int argc, char **argv)
{
	struct cmp_cfg *cfg = c;
	struct verdict v = { CMP_PASS, "" };

	(void)argc;
	(void)argv;
	if (check_args(cfg))
		return EXIT_USAGE;
	return gate_check(cfg, NULL, &v) ? compare_status(&cfg->g, &v) : EXIT_OK;
}

/* With --bisect, a mistake on the command line stops the bisection instead of marking a commit. */
static bool compare_for_bisect(int argc, char **argv)
{
	return cli_names_opt(argc, argv, "bisect");
}

/* The figures ppbench-compare(8) states (@{NAME}), from the constants compare uses. */
static int compare_figures(struct cli_fig *f)
{
	const struct cli_fig v[] = {
		{ "floor_min", unit_floor_pct("cycles") },
		{ "floor_min_instr", unit_floor_pct("instructions") },
		{ "power", MDE_POWER * 100 },
		{ "power_q", MDE_POWER },
		{ "mode_gap_pct", MODE_GAP_REL * 100 },
		{ "mode_gap_k", MODE_GAP_K },
		{ "machine_note", MACHINE_NOTE_PCT },
		{ "level_note", LEVEL_NOTE_PCT },
	};

	return CLI_FIGURES(f, v);
}

const struct cli_cmd cmd_compare = {
	.name = "compare",
	.args = "OLD.json NEW.json... | --old FILE... --new FILE... [--new FILE...]...",
	.summary = "before/after table of bench results, with significance and a CI gate",
	.description =
		"Compare 'ppbench bench --json' result files the way kernel regression\n"
		"reports do: one row per scenario and figure - cycles/elem, ns/elem, the\n"
		"derived path figures (path_cost_cycles; a profile's, path_cost_profile),\n"
		"path purity, and per-CPU cycles/elem where a file has them - with the mean\n"
		"over the setups (with --noise their median, which is what the profile\n"
		"measured of each run; with two or more files a side the mean of the files'\n"
		"medians), its relative standard deviation and the change:\n"
		"\n"
		"           old  ±%stddev    %change          new  ±%stddev  figure\n"
		"\n"
		"Files. With plain file arguments the first is the baseline and every later\n"
		"file is compared with it. With --old and --new, the files after --old (up\n"
		"to --new) form the old side and those after --new the new side; each\n"
		"further --new starts another group. Every file is checked against the\n"
		"ppbench/1 schema first.\n"
		"\n"
		"Columns. With several later files (or --new groups) the output is one\n"
		"table of columns, as the kernel test robot's reports have it: the base's\n"
		"figure, then per column its %change against the base (never against the\n"
		"column before it), mark and figure, each column tested and gated as\n"
		"'compare BASE COLUMN' would.\n"
		"\n"
		"Noise. Before and after are different invocations, so a verdict needs the\n"
		"noise between invocations; the output says which noise it used:\n"
		"  files    two or more files a side: each file's median of setups is one\n"
		"           value, tested between the files; the setups' spread inside the\n"
		"           files is shown as the within part\n"
		"  profile  one file a side with --noise PROFILE (ppbench calibrate): the\n"
		"           change is tested against the profile's spread between\n"
		"           invocations and must reach its floor for that scenario\n"
		"  setups   one file a side, no profile: only the setups inside each file\n"
		"           are known; the marks say how the setups differ, and --fail-above\n"
		"           refuses to decide (exit 2)\n"
		"A profile from another CPU, TSC, kernel, kernel build, mitigation or config\n"
		"than the baseline's is refused (exit 2) unless --force.\n"
		"\n"
		"Significance. With files or setups, each row is tested with a two-sided\n"
		"Welch's t-test (unequal variances), or a Mann-Whitney U test with --test\n"
		"mann-whitney, at level --alpha (0.05). A change is real when it is\n"
		"significant and at least the floor: the larger of 1% and the smallest change\n"
		"the two sides' own spread lets the test detect with 90% power (for setups\n"
		"the 'mde_pct' bench prints); with a profile, the profile's floor. Real\n"
		"changes are marked '*', significant ones below the floor '~'. A figure\n"
		"whose setups sit on two or more levels inside a file (gaps wider than 3% and\n"
		"five times the usual gap) is unstable, 'u': its median may sit on either\n"
		"level. Rows with fewer than 2 values on a side are marked '?' and never\n"
		"count: path and purity have one value per file, so put several files on each\n"
		"side to test them. Files from an older ppbench, whose runs shared one setup,\n"
		"are named in a note: their spread is too small.\n"
		"\n"
		"Path figures. A path row compares figures of one method and names it:\n"
		"'ring path cycles/elem (fentry)'. Where the files' path figures differ in\n"
		"method the row says 'method differs (fentry, profile)', with no change and\n"
		"no test, and a gate on them (--fail-above with --metric path, a :path\n"
		"--limit) exits 2 with one line naming both methods.\n"
		"\n"
		"Hosts. Cycles from machines whose TSC frequencies differ by more than 1%, or\n"
		"whose CPU models differ, do not compare: such files are refused (exit 2)\n"
		"unless --force. Differences in kernel release, kernel config, mitigations,\n"
		"clock source, CPU count, fentry/live-frames support and in scenario recipes\n"
		"are listed above the table - they are usually the point of the comparison.\n"
		"\n"
		"CI gate. --fail-above PCT (with files or a profile, see Noise) exits 3 when\n"
		"the gating rule (ppbench-compare(8), 'The gating rule') fires on --metric\n"
		"(higher cycles, ns or path cycles is worse; lower purity is worse), and names\n"
		"each row on stderr; otherwise the status is 0. Calibrate the CI machine once\n"
		"per kernel, keep a baseline result from the reference kernel (or several),\n"
		"and let the job fail on exit 3.\n"
		"\n"
		"Formats. The text table fits 100 columns. --markdown prints the same as\n"
		"Markdown (real changes in bold, p-values in a column) for a\n"
		"mailing-list reply or an issue. --bpp prints the bench_page_pool_simple view:\n"
		"fast, ptr_ring (scenario ring) and slow, with cycles and ns before, after and\n"
		"the change; its rule line makes it a valid org-mode table as well. --org\n"
		"prints the page_pool maintainers' Org table (cycles and ns before, after,\n"
		"diff, % change) with a #+TBLFM line that recomputes its diff and % columns.\n"
		"--ktap prints the verdicts as KTAP version 1 for kselftest and netdev's CI:\n"
		"a test per scenario of --metric, 'not ok' where the gate fired, '# SKIP'\n"
		"where nothing decides. --json writes every row with both summaries, the\n"
		"change, p, significance, floor, levels and the gate verdict (schema\n"
		"ppbench-compare/1).\n"
		"\n"
		"Profiles. Files of 'ppbench vm --profile' hold instruction profiles: the\n"
		"output then ends, per scenario, with the functions that carry its change\n"
		"(old %change new function) and how much of it they carry.\n"
		"\n"
		"Limits. --limit SCENARIO[:FIGURE]=MAX gates a file of the instruction clock\n"
		"(ppbench vm) on an absolute figure, with no baseline: one file takes only\n"
		"limits. A file of host cycles is refused (exit 2): no single figure of it is\n"
		"exact.\n"
		"\n"
		"Bisecting. --bisect exits as 'git bisect run' reads it: 0 no gate fired, 1\n"
		"one did, 125 no verdict on the kernel under test (its file missing, invalid,\n"
		"or without the gated figure), 128 a mistake in the command line, the\n"
		"baseline or the noise profile, which stops the bisection.\n"
		"\n"
		"Exit status 2 also covers unreadable, malformed or invalid result files and\n"
		"refused host combinations; each is reported as one line on stderr.",
	.examples =
		"  ppbench compare before.json after.json\n"
		"  ppbench compare --old a1.json a2.json a3.json --new b1.json b2.json\n"
		"  ppbench compare base.json culprit.json fix.json   # LKP's columns\n"
		"  ppbench compare --old a1.json a2.json --new b1.json b2.json --new c1.json "
		"c2.json\n"
		"  ppbench compare --markdown base.json patch-v1.json patch-v2.json\n"
		"  ppbench compare --bpp before.json after.json\n"
		"  ppbench compare --org before.json after.json   # for a mail to the maintainers\n"
		"  ppbench compare --ktap --noise noise.json --fail-above 5 base.json new.json\n"
		"  ppbench compare --json cmp.json --test mann-whitney before.json after.json\n"
		"  # CI: fail the job when a scenario got more than 5% slower, for real\n"
		"  ppbench calibrate -o noise.json      # once per host and kernel\n"
		"  ppbench compare --noise noise.json --fail-above 5 base.json new.json || exit "
		"$?\n"
		"  ppbench compare --fail-above 5 --old b1.json b2.json b3.json --new n1.json "
		"n2.json n3.json\n"
		"  ppbench compare --fail-above 2 --metric purity --old a.json b.json --new c.json "
		"d.json\n"
		"  # a hard limit on one file of the instruction clock, no baseline\n"
		"  ppbench compare --limit fast:path=70 --limit slow=1000 icount.json\n"
		"  # in git bisect run: 0 good, 1 bad, 125 skip, 128 stop\n"
		"  ppbench compare --bisect --noise noise.json --fail-above 0.5 base.json "
		"new.json\n",
	.figures = compare_figures,
	.opts = compare_opts,
	.cfg_size = sizeof(struct cmp_cfg),
	.cfg_init = compare_init,
	.opt = compare_opt,
	.check = compare_check,
	.run = compare_run,
	.ordered_args = true,
	.for_bisect = compare_for_bisect,
};
