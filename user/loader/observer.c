// SPDX-License-Identifier: GPL-2.0
/* User-space side of the page_pool observer (see observer.h, bpf/observer.bpf.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "loader/kfeatures.h"
#include "loader/observer.h"
#include "model/counts.h"
#include "sys/cpus.h"
#include "sys/log.h"
#include "sys/log_libbpf.h"
#include "sys/util.h"
#include "observer.skel.h"

struct observer {
	struct observer_bpf *skel;
	enum obs_backend backend;
	char fentry_reason[128];
	char not_counted[256];
	int nr_cpus;
	bool attached;
};

/* fentry attach points: the first function of each list that the kernel has. */
static const char *const alloc_fns[] = { "page_pool_alloc_netmems", "page_pool_alloc_netmem",
					 "page_pool_alloc_pages", NULL };
static const char *const put_fns[] = { "page_pool_put_unrefed_netmem",
				       "page_pool_put_defragged_page", NULL };

static bool btf_has_func(const char *name)
{
	static struct btf *btf;

	if (!btf)
		btf = btf__parse(ppb_btf_path(), NULL);
	return btf && btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) > 0;
}

static const char *first_func(const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (btf_has_func(names[i]))
			return names[i];
	return NULL;
}

static void set_target(struct bpf_program *p, const char *fn)
{
	if (fn && !bpf_program__set_attach_target(p, 0, fn))
		bpf_program__set_autoload(p, true);
	else
		bpf_program__set_autoload(p, false);
}

/*
 * Choose the fentry targets for this kernel: page_pool's alloc and put
 * functions were renamed and wrapped over the versions (README.md, "What
 * changes between kernel versions").
 */
static void setup_fentry(struct observer_bpf *s, bool on)
{
	const char *alloc = on ? first_func(alloc_fns) : NULL;
	const char *put = on ? first_func(put_fns) : NULL;
	/* The _pages/_page wrappers call the netmem functions: attach to both, the
	 * programs classify at the outermost exit only. */
	const char *alloc2 = alloc && strcmp(alloc, "page_pool_alloc_pages") &&
					     btf_has_func("page_pool_alloc_pages")
				     ? "page_pool_alloc_pages"
				     : NULL;
	const char *put2 = put && !strcmp(put, "page_pool_put_unrefed_netmem") &&
					   btf_has_func("page_pool_put_unrefed_page")
				   ? "page_pool_put_unrefed_page"
				   : NULL;
	const char *bulk =
		on && btf_has_func("page_pool_put_page_bulk") ? "page_pool_put_page_bulk" : NULL;
	/* 6.14+ replaced it by a bulk return whose entries mix pools. */
	const char *nbulk = on && !bulk && btf_has_func("page_pool_put_netmem_bulk")
				    ? "page_pool_put_netmem_bulk"
				    : NULL;

	set_target(s->progs.ppb_fe_alloc, alloc);
	set_target(s->progs.ppb_fx_alloc, alloc);
	set_target(s->progs.ppb_fe_alloc2, alloc2);
	set_target(s->progs.ppb_fx_alloc2, alloc2);
	set_target(s->progs.ppb_fe_put, put);
	set_target(s->progs.ppb_fx_put, put);
	set_target(s->progs.ppb_fe_put2, put2);
	set_target(s->progs.ppb_fx_put2, put2);
	set_target(s->progs.ppb_fe_bulk, bulk);
	set_target(s->progs.ppb_fx_bulk, bulk);
	set_target(s->progs.ppb_fe_nbulk, nbulk);
	set_target(s->progs.ppb_fx_nbulk, nbulk);
	bpf_program__set_autoload(s->progs.ppb_fe_cal, on);
	bpf_program__set_autoload(s->progs.ppb_fx_cal, on);
}

static void setup_tracepoints(struct observer *o)
{
	struct {
		struct bpf_program *p;
		const char *tp;
	} tps[] = {
		{ o->skel->progs.ppb_tp_hold, "page_pool_state_hold" },
		{ o->skel->progs.ppb_tp_release, "page_pool_state_release" },
		{ o->skel->progs.ppb_tp_pool_release, "page_pool_release" },
		{ o->skel->progs.ppb_tp_mem_connect, "mem_connect" },
		{ o->skel->progs.ppb_tp_napi_poll, "napi_poll" },
	};
	int n = 0;

	o->not_counted[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(tps); i++) {
		bool ok = ppb_tracepoint_present(tps[i].tp);

		bpf_program__set_autoload(tps[i].p, ok);
		if (!ok)
			n += snprintf(o->not_counted + n, sizeof(o->not_counted) - n, "%s%s",
				      n ? ", " : "no tracepoint ", tps[i].tp);
	}
}

static void setup_config(struct observer *o, bool fentry)
{
	struct ppb_obs_config *c = (void *)&o->skel->rodata->obs_cfg;

	c->fentry = fentry;
	c->nr_cpus = o->nr_cpus;
}

static int load(struct observer *o, bool fentry)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = ppb_btf_custom_path());
	int err;

	o->skel = observer_bpf__open_opts(&oo);
	if (!o->skel)
		return -errno;
	setup_fentry(o->skel, fentry);
	setup_tracepoints(o);
	setup_config(o, fentry);
	err = observer_bpf__load(o->skel);
	if (err) {
		observer_bpf__destroy(o->skel);
		o->skel = NULL;
	}
	return err;
}

int obs_open(struct observer **out, const struct obs_opts *opts)
{
	struct observer *o = calloc(1, sizeof(*o));
	bool want_fentry = !(opts && opts->no_fentry);
	int err;

	if (!o)
		return -ENOMEM;
	o->nr_cpus = nr_possible_cpus();
	if (o->nr_cpus < 0) {
		err = o->nr_cpus;
		free(o);
		return err;
	}
	if (want_fentry && !first_func(alloc_fns))
		snprintf(o->fentry_reason, sizeof(o->fentry_reason),
			 "no page_pool alloc function in BTF");
	else if (!want_fentry)
		snprintf(o->fentry_reason, sizeof(o->fentry_reason), "disabled by option");
	/* A small fentry program first: loading the whole observer only to be
	 * refused costs the verifier's time twice. */
	if (want_fentry && !o->fentry_reason[0] && (err = ppb_probe_fentry()))
		snprintf(o->fentry_reason, sizeof(o->fentry_reason), "fentry refused (%s)",
			 errno_name(err));
	if (want_fentry && !o->fentry_reason[0]) {
		err = load(o, true);
		if (!err) {
			o->backend = OBS_FENTRY;
			goto done;
		}
		snprintf(o->fentry_reason, sizeof(o->fentry_reason), "fentry refused (%s)",
			 errno_name(err));
	}
	err = load(o, false);
	if (err) {
		pr_err("cannot load the page_pool observer: %s (%s)\n", strerror(-err),
		       log_last_libbpf_warning());
		free(o);
		return err;
	}
	o->backend = OBS_TRACEPOINT;
done:
	pr_debug("observer: %s backend%s%s\n", obs_backend_name(o), o->fentry_reason[0] ? ", " : "",
		 o->fentry_reason);
	*out = o;
	return 0;
}

int obs_probe_overhead(struct observer *o, double *ns_per_call)
{
	LIBBPF_OPTS(bpf_test_run_opts, t);
	int fd, n = 20000;

	*ns_per_call = 0;
	if (o->backend != OBS_FENTRY || !o->attached)
		return -EOPNOTSUPP;
	o->skel->bss->cal_ns = o->skel->bss->cal_calls = 0;
	fd = bpf_program__fd(o->skel->progs.ppb_fe_cal);
	/* Running a tracing program calls bpf_fentry_test1() once per syscall. */
	for (int i = 0; i < n; i++)
		if (bpf_prog_test_run_opts(fd, &t))
			return -errno;
	if (!o->skel->bss->cal_calls)
		return -ENODATA;
	*ns_per_call = (double)o->skel->bss->cal_ns / o->skel->bss->cal_calls;
	return 0;
}

int obs_flush(struct observer *o)
{
	unsigned char pkt[64] = { [12] = 0x08 };
	LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = pkt, .data_size_in = sizeof(pkt), .repeat = 1);

	if (bpf_prog_test_run_opts(bpf_program__fd(o->skel->progs.ppb_obs_flush), &t))
		return -errno;
	return 0;
}

int obs_start(struct observer *o)
{
	int err;

	if (o->attached)
		return 0;
	/* ppb_obs_flush is run, never attached: attach the rest one by one. */
	bpf_program__set_autoattach(o->skel->progs.ppb_obs_flush, false);
	err = observer_bpf__attach(o->skel);
	if (err) {
		pr_err("cannot attach the page_pool observer: %s\n", strerror(-err));
		return err;
	}
	o->attached = true;
	return 0;
}

void obs_stop(struct observer *o)
{
	if (o && o->attached) {
		observer_bpf__detach(o->skel);
		o->attached = false;
	}
}

void obs_close(struct observer *o)
{
	if (!o)
		return;
	obs_stop(o);
	observer_bpf__destroy(o->skel);
	free(o);
}

enum obs_backend obs_backend(const struct observer *o)
{
	return o->backend;
}

const char *obs_backend_name(const struct observer *o)
{
	return o->backend == OBS_FENTRY ? "fentry" : "tracepoint";
}

const char *obs_fentry_reason(const struct observer *o)
{
	return o->fentry_reason[0] ? o->fentry_reason : NULL;
}

const char *obs_not_counted(const struct observer *o)
{
	return o->not_counted[0] ? o->not_counted : NULL;
}

int obs_pool_info_fd(const struct observer *o)
{
	return bpf_map__fd(o->skel->maps.pool_info);
}

int obs_pool_counts_fd(const struct observer *o)
{
	return bpf_map__fd(o->skel->maps.pool_counts);
}

int obs_proof_cpu_fd(const struct observer *o)
{
	return bpf_map__fd(o->skel->maps.proof_cpu);
}

int obs_ctl_fd(const struct observer *o)
{
	return bpf_map__fd(o->skel->maps.obs_ctl);
}

int obs_set_elems_active(struct observer *o, bool on)
{
	__u32 zero = 0;
	struct ppb_obs_ctl v = { .elems_active = on };

	if (bpf_map_update_elem(obs_ctl_fd(o), &zero, &v, 0))
		return -errno;
	/* A common start line: every pool's baseline and every CPU's count now. */
	return obs_flush(o);
}

const struct ppb_obs_config *obs_config(const struct observer *o)
{
	return &o->skel->rodata->obs_cfg;
}

uint64_t obs_fentry_missed(const struct observer *o)
{
	return o->skel->bss->fentry_missed;
}

/*
 * Tracepoint backend: returns after destroy began are not classified. For a
 * pool that is gone and whose allocations we counted, every allocation was
 * returned, so what is missing was returned late: say how many, in total.
 */
static void settle_unclassified(struct pool_snap *p, bool fentry)
{
	uint64_t rets = counts_returns(&p->total);

	if (fentry || !(p->info.flags & PPB_POOL_F_DYING) || p->info.final_inflight > 0 ||
	    !(p->info.flags & PPB_POOL_F_ELEMS) || (p->info.flags & PPB_POOL_F_TINY_RING))
		return;
	if (p->total.elems > rets)
		p->total.unclassified = p->total.elems - rets;
}

static int snap_one(struct observer *o, struct pool_snap *p, const struct ppb_pool_key *key)
{
	int ifd = obs_pool_info_fd(o), cfd = obs_pool_counts_fd(o);

	p->key = *key;
	if (bpf_map_lookup_elem(ifd, key, &p->info))
		return -ENOENT;
	p->percpu = calloc(o->nr_cpus, sizeof(*p->percpu));
	if (!p->percpu)
		return -ENOMEM;
	/* A pool may have a record but no counts yet. */
	if (!bpf_map_lookup_elem(cfd, key, p->percpu))
		for (int c = 0; c < o->nr_cpus; c++)
			counts_add(&p->total, &p->percpu[c]);
	settle_unclassified(p, o->backend == OBS_FENTRY);
	return 0;
}

int obs_snapshot(struct observer *o, struct obs_snapshot *s)
{
	struct ppb_pool_key key, next, *prev = NULL;
	int ifd = obs_pool_info_fd(o), cap = 64, err;

	memset(s, 0, sizeof(*s));
	s->nr_cpus = o->nr_cpus;
	s->fentry = o->backend == OBS_FENTRY;
	s->ts_ns = now_ns();
	s->pools = calloc(cap, sizeof(*s->pools));
	if (!s->pools)
		return -ENOMEM;
	while (!bpf_map_get_next_key(ifd, prev, &next)) {
		key = next;
		prev = &key;
		if (s->nr_pools == cap) {
			struct pool_snap *np = realloc(s->pools, 2 * cap * sizeof(*np));

			if (!np)
				return -ENOMEM;
			memset(np + cap, 0, cap * sizeof(*np));
			s->pools = np;
			cap *= 2;
		}
		err = snap_one(o, &s->pools[s->nr_pools], &key);
		if (err == -ENOMEM)
			return err;
		if (!err)
			s->nr_pools++;
	}
	return 0;
}

void obs_snapshot_free(struct obs_snapshot *s)
{
	for (int i = 0; i < s->nr_pools; i++)
		free(s->pools[i].percpu);
	free(s->pools);
	memset(s, 0, sizeof(*s));
}

void obs_wait_test_run_settled(struct observer *o)
{
	struct obs_snapshot s;
	bool busy = true;

	for (int i = 0; i < 300 && busy; i++) {
		if (obs_snapshot(o, &s))
			return;
		busy = false;
		for (int p = 0; p < s.nr_pools; p++) {
			const struct ppb_pool_info *pi = &s.pools[p].info;

			if (pi->kind == PPB_POOL_TEST_RUN &&
			    (!(pi->flags & PPB_POOL_F_DYING) || pi->final_inflight > 0))
				busy = true;
		}
		obs_snapshot_free(&s);
		if (busy)
			usleep(10000);
	}
}

const struct pool_snap *obs_find(const struct obs_snapshot *s, uint64_t ptr, uint32_t id)
{
	for (int i = 0; i < s->nr_pools; i++)
		if (s->pools[i].key.ptr == ptr && s->pools[i].key.id == id)
			return &s->pools[i];
	return NULL;
}

int obs_delta(const struct obs_snapshot *a, const struct obs_snapshot *b, struct obs_snapshot *d)
{
	memset(d, 0, sizeof(*d));
	d->ts_ns = b->ts_ns;
	d->fentry = b->fentry;
	d->nr_cpus = b->nr_cpus;
	d->pools = calloc(b->nr_pools ? b->nr_pools : 1, sizeof(*d->pools));
	if (!d->pools)
		return -ENOMEM;
	for (int i = 0; i < b->nr_pools; i++) {
		const struct pool_snap *pb = &b->pools[i];
		const struct pool_snap *pa = obs_find(a, pb->key.ptr, pb->key.id);
		struct pool_snap *pd = &d->pools[d->nr_pools++];

		*pd = *pb;
		pd->percpu = calloc(b->nr_cpus, sizeof(*pd->percpu));
		if (!pd->percpu)
			return -ENOMEM;
		memset(&pd->total, 0, sizeof(pd->total));
		for (int c = 0; c < b->nr_cpus; c++) {
			if (pa)
				counts_sub(&pd->percpu[c], &pb->percpu[c], &pa->percpu[c]);
			else
				pd->percpu[c] = pb->percpu[c];
			counts_add(&pd->total, &pd->percpu[c]);
		}
		settle_unclassified(pd, b->fentry);
	}
	return 0;
}

int obs_reset(struct observer *o)
{
	int fds[2] = { obs_pool_info_fd(o), obs_pool_counts_fd(o) };
	struct ppb_pool_key key;

	for (int i = 0; i < 2; i++)
		while (!bpf_map_get_next_key(fds[i], NULL, &key))
			if (bpf_map_delete_elem(fds[i], &key))
				return -errno;
	return 0;
}

void obs_forget_dead(struct observer *o, const struct obs_snapshot *s)
{
	for (int i = 0; i < s->nr_pools; i++) {
		const struct pool_snap *p = &s->pools[i];

		if ((p->info.flags & PPB_POOL_F_DYING) && p->info.final_inflight <= 0) {
			bpf_map_delete_elem(obs_pool_info_fd(o), &p->key);
			bpf_map_delete_elem(obs_pool_counts_fd(o), &p->key);
		}
	}
}

/* One folded row per kind and device: watch IFACE still finds the folded
 * pools of its device (destroyed at every XDP attach of a NIC). */
static struct pool_snap *folded_row(struct obs_snapshot *s, const struct ppb_pool_info *pi)
{
	for (int i = 0; i < s->nr_pools; i++) {
		const struct ppb_pool_info *f = &s->pools[i].info;

		if (s->pools[i].folded && f->kind == pi->kind && f->ifindex == pi->ifindex &&
		    f->netns_ino == pi->netns_ino)
			return &s->pools[i];
	}
	return NULL;
}

int obs_fold_into(struct obs_snapshot *s, const struct pool_snap *p)
{
	struct pool_snap *f = folded_row(s, &p->info), *np;

	if (!f) {
		np = realloc(s->pools, (s->nr_pools + 1) * sizeof(*np));
		if (!np)
			return -ENOMEM;
		s->pools = np;
		f = &s->pools[s->nr_pools++];
		memset(f, 0, sizeof(*f));
		f->info.kind = p->info.kind;
		f->info.ifindex = p->info.ifindex;
		f->info.netns_ino = p->info.netns_ino;
		f->info.cpuid = -1;
		f->percpu = calloc(s->nr_cpus, sizeof(*f->percpu));
		if (!f->percpu)
			return -ENOMEM;
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
	return p->info.kind == kind && !p->info.ifindex && !p->folded;
}

int obs_fold_kind(struct obs_snapshot *s, uint32_t kind, int max)
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
	/* the rows kept first: obs_fold_into() grows the array by one row */
	for (int i = 0; i < s->nr_pools; i++)
		if (!foldable(&s->pools[i], kind))
			keep.pools[keep.nr_pools++] = s->pools[i];
	for (int i = 0; i < s->nr_pools; i++) {
		if (!foldable(&s->pools[i], kind))
			continue;
		err = err ?: obs_fold_into(&keep, &s->pools[i]);
		free(s->pools[i].percpu);
	}
	free(s->pools);
	*s = keep;
	return err;
}
