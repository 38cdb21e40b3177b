// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/counts.h"
#include "model/snapshot.h"

void pool_flags_str(const struct ppb_pool_info *pi, enum obs_backend b, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
#define ADD(cond, word)                                                                            \
	do {                                                                                       \
		if ((cond) && n < len)                                                             \
			n += snprintf(buf + n, len - n, "%s%s", n ? "," : "", word);               \
	} while (0)
	ADD(b == OBS_TRACEPOINT && !(pi->flags & PPB_POOL_F_ELEMS), "no-elems");
	ADD(b == OBS_TRACEPOINT && (pi->flags & PPB_POOL_F_COARSE), "coarse");
	ADD(b == OBS_TRACEPOINT && (pi->flags & PPB_POOL_F_WRAP_RISK), "wrap-risk");
	ADD(b == OBS_TRACEPOINT && !(pi->flags & PPB_POOL_F_DENSE), "sparse");
	ADD(b == OBS_TRACEPOINT && (pi->flags & PPB_POOL_F_TINY_RING), "tiny-ring");
	ADD(b == OBS_TRACEPOINT && (pi->flags & PPB_POOL_F_INCONSISTENT), "inconsistent");
	ADD(b == OBS_TRACEPOINT && (pi->flags & PPB_POOL_F_MULTI_CPU), "multi-cpu");
	ADD(pi->flags & PPB_POOL_F_FRAG, "frag");
	ADD(pi->flags & PPB_POOL_F_DYING, "destroyed");
#undef ADD
}

void snap_free(struct obs_snapshot *s)
{
	for (int i = 0; i < s->nr_pools; i++)
		free(s->pools[i].percpu);
	free(s->pools);
	memset(s, 0, sizeof(*s));
}

bool snap_gone(const struct pool_snap *p)
{
	return !p->retired && (p->info.flags & PPB_POOL_F_GONE);
}

int snap_live_pools(const struct obs_snapshot *s)
{
	int n = 0;

	for (int i = 0; i < s->nr_pools; i++)
		n += !s->pools[i].retired && !s->pools[i].folded && !snap_gone(&s->pools[i]);
	return n;
}

/*
 * Tracepoint backend: returns after destroy began are not classified. For a
 * pool that is gone and whose allocations we counted, every allocation was
 * returned, so what is missing was returned late: say how many, in total.
 */
void snap_settle_unclassified(struct pool_snap *p, bool fentry)
{
	uint64_t rets = counts_returns(&p->total);

	if (fentry || p->retired || p->folded || !(p->info.flags & PPB_POOL_F_DYING) ||
	    p->info.final_inflight > 0 || !(p->info.flags & PPB_POOL_F_ELEMS) ||
	    (p->info.flags & PPB_POOL_F_TINY_RING))
		return;
	if (p->total.elems > rets)
		p->total.unclassified = p->total.elems - rets;
}

int snap_append(struct obs_snapshot *s, const struct pool_snap *p)
{
	struct pool_snap *np = realloc(s->pools, (s->nr_pools + 1) * sizeof(*np)), *q;

	if (!np)
		return -ENOMEM;
	s->pools = np;
	q = &np[s->nr_pools];
	*q = *p;
	q->percpu = calloc(s->nr_cpus ? s->nr_cpus : 1, sizeof(*q->percpu));
	if (!q->percpu)
		return -ENOMEM;
	if (p->percpu)
		memcpy(q->percpu, p->percpu, s->nr_cpus * sizeof(*q->percpu));
	s->nr_pools++;
	return 0;
}

static struct pool_snap *find_key(const struct obs_snapshot *s, const struct ppb_pool_key *k)
{
	for (int i = 0; i < s->nr_pools; i++)
		if (!memcmp(&s->pools[i].key, k, sizeof(*k)))
			return &s->pools[i];
	return NULL;
}

/* The retired (else folded: a retired row is one too) row of a kind, device and namespace. */
static struct pool_snap *row_find(const struct obs_snapshot *s, uint32_t kind, int32_t ifindex,
				  uint32_t netns, bool retired)
{
	for (int i = 0; i < s->nr_pools; i++) {
		struct pool_snap *r = &s->pools[i];

		if ((retired ? r->retired : r->folded) && r->info.kind == kind &&
		    r->info.ifindex == ifindex && r->info.netns_ino == netns)
			return r;
	}
	return NULL;
}

/* The row a pool went to: its device's, or its kind's when those were full. */
static struct pool_snap *retired_row_of(const struct obs_snapshot *s,
					const struct ppb_pool_info *pi)
{
	return row_find(s, pi->kind, pi->ifindex, pi->netns_ino, true)
		       ?: row_find(s, pi->kind, 0, 0, true);
}

static int retired_row_new(struct obs_snapshot *acc, uint32_t kind, int32_t ifindex, uint32_t netns)
{
	struct pool_snap r = {
		.key = { .ptr = (uint64_t)netns << 32 | (uint32_t)ifindex, .id = kind, .pad = 1 },
		.info = { .kind = kind, .ifindex = ifindex, .netns_ino = netns, .cpuid = -1 },
		.retired = true,
	};

	return snap_append(acc, &r);
}

int snap_retire(struct obs_snapshot *acc, const struct pool_snap *p, int max_rows)
{
	const struct ppb_pool_info *pi = &p->info;
	struct pool_snap *r = retired_row_of(acc, pi);
	bool dev = acc->nr_pools < max_rows; /* else a row of its kind */
	int err;

	if (!r) {
		err = retired_row_new(acc, pi->kind, dev ? pi->ifindex : 0,
				      dev ? pi->netns_ino : 0);
		if (err)
			return err;
		r = retired_row_of(acc, pi);
	}
	r->folded++;
	r->info.flags |= pi->flags;
	counts_add(&r->total, &p->total);
	for (int c = 0; c < acc->nr_cpus; c++)
		counts_add(&r->percpu[c], &p->percpu[c]);
	return 0;
}

/* A pool of a that b no longer has was retired in between: its row in b's
 * retired counts includes what a had counted already. Take that out. */
static void delta_vanished(const struct obs_snapshot *a, const struct obs_snapshot *b,
			   struct obs_snapshot *d)
{
	for (int i = 0; i < a->nr_pools; i++) {
		const struct pool_snap *pa = &a->pools[i];
		struct pool_snap *r;
		struct ppb_pool_counts x;

		if (pa->retired || pa->folded || find_key(b, &pa->key))
			continue;
		r = retired_row_of(d, &pa->info);
		if (!r)
			continue;
		if (snap_gone(pa)) /* a showed it as itself already */
			r->folded--;
		x = r->total;
		counts_sub(&r->total, &x, &pa->total);
		for (int c = 0; c < d->nr_cpus && c < a->nr_cpus; c++) {
			x = r->percpu[c];
			counts_sub(&r->percpu[c], &x, &pa->percpu[c]);
		}
	}
}

static void delta_row(const struct pool_snap *pa, const struct pool_snap *pb, struct pool_snap *pd,
		      int nr_cpus, bool fentry)
{
	for (int c = 0; c < nr_cpus; c++) {
		if (pa)
			counts_sub(&pd->percpu[c], &pb->percpu[c], &pa->percpu[c]);
		else
			pd->percpu[c] = pb->percpu[c];
	}
	if (pb->retired) { /* its total holds what settling added, pool by pool */
		pd->folded = pb->folded - (pa ? pa->folded : 0);
		if (pa)
			counts_sub(&pd->total, &pb->total, &pa->total);
		return;
	}
	memset(&pd->total, 0, sizeof(pd->total));
	for (int c = 0; c < nr_cpus; c++)
		counts_add(&pd->total, &pd->percpu[c]);
	snap_settle_unclassified(pd, fentry);
}

int snap_delta(const struct obs_snapshot *a, const struct obs_snapshot *b, struct obs_snapshot *d)
{
	memset(d, 0, sizeof(*d));
	d->ts_ns = b->ts_ns;
	d->fentry = b->fentry;
	d->nr_cpus = b->nr_cpus;
	d->capacity = b->capacity;
	d->untracked_pools = b->untracked_pools - a->untracked_pools;
	d->untracked_events = b->untracked_events - a->untracked_events;
	d->prog_misses = b->prog_misses - a->prog_misses;
	d->pools = calloc(b->nr_pools ? b->nr_pools : 1, sizeof(*d->pools));
	if (!d->pools)
		return -ENOMEM;
	for (int i = 0; i < b->nr_pools; i++) {
		const struct pool_snap *pb = &b->pools[i];
		struct pool_snap *pd = &d->pools[d->nr_pools++];

		*pd = *pb;
		pd->percpu = calloc(b->nr_cpus ? b->nr_cpus : 1, sizeof(*pd->percpu));
		if (!pd->percpu)
			return -ENOMEM;
		delta_row(find_key(a, &pb->key), pb, pd, b->nr_cpus, b->fentry);
	}
	delta_vanished(a, b, d);
	return 0;
}

/*
 * Add pool p (its counts) into the folded row of its kind and device in s:
 * watch IFACE still finds the folded pools of its device (destroyed at
 * every XDP attach of a NIC).
 */
static int snap_fold_into(struct obs_snapshot *s, const struct pool_snap *p)
{
	const struct ppb_pool_info *pi = &p->info;
	struct pool_snap *f = row_find(s, pi->kind, pi->ifindex, pi->netns_ino, false);
	struct pool_snap row = { .info = { .kind = pi->kind,
					   .ifindex = pi->ifindex,
					   .netns_ino = pi->netns_ino,
					   .cpuid = -1 } };

	if (!f) {
		if (snap_append(s, &row))
			return -ENOMEM;
		f = &s->pools[s->nr_pools - 1];
	}
	f->folded += p->folded ? p->folded : 1;
	f->info.flags |= p->info.flags;
	f->info.last.hold += p->info.last.hold; /* in flight adds up */
	f->info.last.release += p->info.last.release;
	counts_add(&f->total, &p->total);
	for (int c = 0; c < s->nr_cpus; c++)
		counts_add(&f->percpu[c], &p->percpu[c]);
	return 0;
}

static bool foldable(const struct pool_snap *p, uint32_t kind)
{
	return p->info.kind == kind && !p->info.ifindex && !p->folded && !p->retired;
}

int snap_fold_kind(struct obs_snapshot *s, uint32_t kind, int max)
{
	struct obs_snapshot keep = *s;
	int n = 0, err = 0;

	for (int i = 0; i < s->nr_pools; i++)
		n += foldable(&s->pools[i], kind);
	if (n <= max)
		return 0;
	keep.pools = calloc(s->nr_pools, sizeof(*keep.pools));
	keep.nr_pools = 0;
	if (!keep.pools)
		return -ENOMEM;
	/* the rows kept first: snap_fold_into() grows the array by one row */
	for (int i = 0; i < s->nr_pools; i++)
		if (!foldable(&s->pools[i], kind))
			keep.pools[keep.nr_pools++] = s->pools[i];
	for (int i = 0; i < s->nr_pools; i++) {
		if (!foldable(&s->pools[i], kind))
			continue;
		err = err ?: snap_fold_into(&keep, &s->pools[i]);
		free(s->pools[i].percpu);
	}
	free(s->pools);
	*s = keep;
	return err;
}
