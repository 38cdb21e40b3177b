// SPDX-License-Identifier: GPL-2.0
/*
 * E-divisive means with a permutation test, one-dimensional, distance
 * exponent 1. A Fenwick tree over the values' ranks gives the within-side
 * sums of |x - y| of every prefix (and suffix) in O(n log n); the sum across
 * a split is the total minus both, so a permutation costs no O(n^2).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "trend/trendfit.h"

/* Running counts and sums of the values inserted so far, indexed by rank. */
struct fenwick {
	size_t n;
	double *cnt, *sum;
};

static void fw_add(struct fenwick *f, size_t rank, double x)
{
	for (size_t i = rank + 1; i <= f->n; i += i & -i) {
		f->cnt[i] += 1;
		f->sum[i] += x;
	}
}

/* Sum of |x - y| over the inserted y; TOTC/TOTS are all inserted so far. */
static double fw_dist(const struct fenwick *f, size_t rank, double x, double totc, double tots)
{
	double c = 0, s = 0;

	for (size_t i = rank; i > 0; i -= i & -i) {
		c += f->cnt[i];
		s += f->sum[i];
	}
	return (x * c - s) + ((tots - s) - x * (totc - c));
}

/* Prefix (fwd) or suffix sums of within-side distances into W[0..n]. */
static void side_sums(const double *x, const size_t *rank, size_t n, struct fenwick *f, double *w,
		      bool fwd)
{
	double c = 0, s = 0;

	f->n = n;
	memset(f->cnt, 0, (n + 1) * sizeof(*f->cnt));
	memset(f->sum, 0, (n + 1) * sizeof(*f->sum));
	w[fwd ? 0 : n] = 0;
	for (size_t k = 0; k < n; k++) {
		size_t i = fwd ? k : n - 1 - k;
		double d = fw_dist(f, rank[i], x[i], c, s);

		w[fwd ? i + 1 : i] = w[fwd ? i : i + 1] + d;
		fw_add(f, rank[i], x[i]);
		c += 1;
		s += x[i];
	}
}

static double pairs(double m)
{
	return m * (m - 1) / 2;
}

/* Q[0..n] from the prefix sums PRE and suffix sums SUF of within-side distances. */
static void q_from_sums(const double *pre, const double *suf, size_t n, double *q)
{
	double total = pre[n];

	q[0] = q[n] = 0;
	for (size_t j = 1; j < n; j++) {
		double a = j, b = n - j, across = total - pre[j] - suf[j];
		double e = 2 * across / (a * b);

		if (a >= 2)
			e -= pre[j] / pairs(a);
		if (b >= 2)
			e -= suf[j] / pairs(b);
		q[j] = a * b / (a + b) * e;
	}
}

static int cmp_by_value(const void *pa, const void *pb, void *ctx)
{
	const double *x = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	return x[a] < x[b] ? -1 : x[a] > x[b] ? 1 : (a > b) - (a < b);
}

void trend_sort_idx(const double *x, size_t n, size_t *idx)
{
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_by_value, (void *)x);
}

/* RANK[i]: position of x[i] in sorted order (ties by index). IDX is scratch. */
static void ranks_of(const double *x, size_t n, size_t *idx, size_t *rank)
{
	trend_sort_idx(x, n, idx);
	for (size_t i = 0; i < n; i++)
		rank[idx[i]] = i;
}

/* Scratch of one segment, every array as long as the segment (plus one). */
struct work {
	size_t len, nstrata;
	double *val;   /* the segment's values grouped by stratum, time order inside */
	size_t *rank;  /* each value's rank inside its stratum */
	size_t *start; /* stratum k: val[start[k] .. start[k + 1]) */
	int *step;     /* stratum of the point at each position, -1: none */
	double *q;     /* stratum k: Q over its splits at q[start[k] + k ..] */
	double *pre, *suf;
	size_t *scratch_i;
	struct fenwick fw;
};

static void work_free(struct work *w)
{
	free(w->val);
	free(w->rank);
	free(w->step);
}

/* Three blocks: the doubles, the indices, the strata. */
static int work_alloc(struct work *w, size_t n)
{
	memset(w, 0, sizeof(*w));
	w->val = calloc(7 * n + 9, sizeof(*w->val));
	w->rank = calloc(3 * n + 4, sizeof(*w->rank));
	w->step = calloc(n + 1, sizeof(*w->step));
	if (!w->val || !w->rank || !w->step) {
		work_free(w);
		return -ENOMEM;
	}
	w->q = w->val + n + 1;
	w->pre = w->q + 2 * n + 2;
	w->suf = w->pre + n + 1;
	w->fw.cnt = w->suf + n + 1;
	w->fw.sum = w->fw.cnt + n + 2;
	w->start = w->rank + n + 1;
	w->scratch_i = w->start + n + 2;
	return 0;
}

int ediv_splits(const double *x, size_t n, double *q)
{
	struct work w;
	size_t *idx;

	if (!x || !q || !n)
		return -EINVAL;
	if (work_alloc(&w, n))
		return -ENOMEM;
	idx = w.scratch_i;
	ranks_of(x, n, idx, w.rank);
	side_sums(x, w.rank, n, &w.fw, w.pre, true);
	side_sums(x, w.rank, n, &w.fw, w.suf, false);
	q_from_sums(w.pre, w.suf, n, q);
	work_free(&w);
	return 0;
}

struct run {
	const double *x;
	const int *stratum;
	size_t n, maxid;
	int *map;
	struct work w;
	struct seg *segs;
	size_t nsegs;
};

/*
 * Loads segment [A, B) into R->w: the strata present (renumbered 0..K-1 in
 * order of first appearance), their values in time order and their ranks.
 */
static void load_segment(struct run *r, size_t a, size_t b)
{
	struct work *w = &r->w;
	const int *stratum = r->stratum;
	int *map = r->map;
	size_t k, fill;

	w->len = b - a;
	w->nstrata = 0;
	for (size_t i = 0; i <= r->maxid; i++)
		map[i] = -1;
	for (size_t i = a; i < b; i++) {
		w->step[i - a] = stratum[i] < 0 ? -1 : stratum[i];
		if (stratum[i] >= 0 && map[stratum[i]] < 0)
			map[stratum[i]] = (int)w->nstrata++;
	}
	/* counting sort of the positions by stratum, stable in time */
	memset(w->start, 0, (w->nstrata + 2) * sizeof(*w->start));
	for (size_t i = 0; i < w->len; i++)
		if (w->step[i] >= 0)
			w->start[map[w->step[i]] + 1]++;
	for (k = 0; k < w->nstrata; k++)
		w->start[k + 1] += w->start[k];
	for (size_t i = 0; i < w->len; i++) {
		if (w->step[i] < 0)
			continue;
		w->step[i] = map[w->step[i]];
		fill = w->start[w->step[i]]++;
		w->val[fill] = r->x[a + i];
	}
	for (k = w->nstrata; k > 0; k--)
		w->start[k] = w->start[k - 1];
	w->start[0] = 0;
	for (k = 0; k < w->nstrata; k++) {
		size_t s = w->start[k], m = w->start[k + 1] - s;
		double origin = w->val[s];

		/*
		 * Distances do not move with the origin; sums of differences
		 * near 0 keep their precision (a constant stratum gives 0).
		 */
		for (size_t i = s; i < s + m; i++)
			w->val[i] -= origin;
		ranks_of(w->val + s, m, w->scratch_i, w->rank + s);
	}
}

/* Every stratum's Q over its own splits, from the values as they stand in W. */
static void strata_q(struct work *w)
{
	for (size_t k = 0; k < w->nstrata; k++) {
		size_t s = w->start[k], m = w->start[k + 1] - s;

		side_sums(w->val + s, w->rank + s, m, &w->fw, w->pre, true);
		side_sums(w->val + s, w->rank + s, m, &w->fw, w->suf, false);
		q_from_sums(w->pre, w->suf, m, w->q + s + k);
	}
}

/* The best split of W with MIN_RUN points a side: its offset, or 0 if none. */
static size_t best_split(struct work *w, size_t min_run, double *best)
{
	size_t *cnt = w->scratch_i, at = 0;
	double total = 0;

	*best = -INFINITY;
	memset(cnt, 0, w->nstrata * sizeof(*cnt));
	for (size_t t = 1; t + min_run <= w->len; t++) {
		int k = w->step[t - 1];

		if (k >= 0) {
			const double *qk = w->q + w->start[k] + k;

			total += qk[cnt[k] + 1] - qk[cnt[k]];
			cnt[k]++;
		}
		if (t >= min_run && total > *best) {
			*best = total;
			at = t;
		}
	}
	return at;
}

/* splitmix64: a small generator whose every seed gives a good sequence. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static size_t rng_below(uint64_t *s, size_t n)
{
	return (size_t)(((unsigned __int128)rng_next(s) * n) >> 64);
}

/* Shuffles every stratum's values (with their ranks) among its positions. */
static void shuffle_strata(struct work *w, uint64_t *rng)
{
	for (size_t k = 0; k < w->nstrata; k++) {
		size_t s = w->start[k], m = w->start[k + 1] - s;

		for (size_t i = m; i > 1; i--) {
			size_t j = rng_below(rng, i), r;
			double v;

			v = w->val[s + i - 1];
			w->val[s + i - 1] = w->val[s + j];
			w->val[s + j] = v;
			r = w->rank[s + i - 1];
			w->rank[s + i - 1] = w->rank[s + j];
			w->rank[s + j] = r;
		}
	}
}

/*
 * p-value of the best split's statistic OBS against the best splits of
 * shuffled segments. Stops as soon as p can no longer reach alpha: the
 * decision is the full test's, only the p of a rejected split is a bound.
 */
static double perm_p(struct work *w, double obs, const struct ediv_opts *o, uint64_t seed)
{
	double limit = o->alpha * (o->permutations + 1.0) - 1, best, tol = 0;
	unsigned over = 0, r;

	/* rounding in the running sums: a shuffle this close to OBS ties with it */
	for (size_t i = 0; i < w->start[w->nstrata]; i++)
		tol += fabs(w->val[i]);
	tol = 1e-9 * (tol + fabs(obs));
	if (obs <= tol)
		return 1; /* nothing to tell apart: every shuffle ties */
	for (r = 0; r < o->permutations; r++) {
		shuffle_strata(w, &seed);
		strata_q(w);
		best_split(w, o->min_run, &best);
		if (best >= obs - tol)
			over++;
		if (over > limit)
			break;
	}
	return (over + 1.0) / (o->permutations + 1.0);
}

struct seg {
	size_t a, b, at; /* [a, b); at: its best split (absolute), 0 if none */
	double q;
	bool known;
};

static int cmp_cp(const void *pa, const void *pb)
{
	const struct ediv_cp *a = pa, *b = pb;

	return (a->at > b->at) - (a->at < b->at);
}

/* Best split of segment S (once), from the unshuffled values. */
static void seg_best(struct run *r, struct seg *s, size_t min_run)
{
	size_t off;

	if (s->known)
		return;
	s->known = true;
	s->at = 0;
	s->q = -INFINITY;
	if (s->b - s->a < 2 * min_run)
		return;
	load_segment(r, s->a, s->b);
	strata_q(&r->w);
	off = best_split(&r->w, min_run, &s->q);
	s->at = off ? s->a + off : 0;
}

static uint64_t seg_seed(const struct ediv_opts *o, const struct seg *s)
{
	uint64_t z = o->seed ^ (s->a * 0x632be59bd9b4e019ULL) ^ (s->b * 0xd1342543de82ef95ULL);

	return rng_next(&z);
}

/* The segment with the largest best split, or -1 when none can be split. */
static int pick_segment(struct run *r, const struct ediv_opts *o)
{
	int pick = -1;

	for (size_t i = 0; i < r->nsegs; i++) {
		seg_best(r, &r->segs[i], o->min_run);
		if (r->segs[i].at && (pick < 0 || r->segs[i].q > r->segs[pick].q))
			pick = (int)i;
	}
	return pick;
}

static int divide(struct run *r, const struct ediv_opts *o, struct ediv_cp *cps, size_t max)
{
	size_t ncp = 0;

	r->segs[0] = (struct seg){ .a = 0, .b = r->n };
	r->nsegs = 1;
	while (ncp < max) {
		int i = pick_segment(r, o);
		struct seg *s;
		double p;

		if (i < 0)
			break;
		s = &r->segs[i];
		load_segment(r, s->a, s->b);
		p = perm_p(&r->w, s->q, o, seg_seed(o, s));
		if (p > o->alpha)
			break;
		cps[ncp++] = (struct ediv_cp){ .at = s->at, .p = p };
		r->segs[r->nsegs++] = (struct seg){ .a = s->at, .b = s->b };
		s->b = s->at;
		s->known = false;
	}
	qsort(cps, ncp, sizeof(*cps), cmp_cp);
	return (int)ncp;
}

int ediv_find(const double *x, const int *stratum, size_t n, const struct ediv_opts *o,
	      struct ediv_cp *cps, size_t max)
{
	struct run r = { .x = x, .stratum = stratum, .n = n };
	int ret;

	if (!x || !stratum || !o || (!cps && max) || !o->min_run || !(o->alpha > 0))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return -EINVAL;
		if (stratum[i] >= 0 && (size_t)stratum[i] > r.maxid)
			r.maxid = stratum[i];
	}
	if (n < 2 * o->min_run || !max)
		return 0;
	r.map = calloc(r.maxid + 1, sizeof(*r.map));
	r.segs = calloc(max + 1, sizeof(*r.segs));
	if (!r.map || !r.segs || work_alloc(&r.w, n)) {
		free(r.map);
		free(r.segs);
		return -ENOMEM;
	}
	ret = divide(&r, o, cps, max);
	work_free(&r.w);
	free(r.map);
	free(r.segs);
	return ret;
}
