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
#include "model/stats.h"
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
	int capacity;		       /* room for pools (pool_info's max_entries, or 0) */
	struct bpf_link *release_link; /* ppb_tp_pool_release, attached while open */
	struct obs_snapshot retired;   /* freed pools' counts, a row per kind and device */
	struct obs_snapshot pending;   /* freed pools drained since the last snapshot */
	int peak;		       /* most records read since the last snapshot */
	uint64_t gone_read;	       /* pools_gone before the last read that took them out */
	uint64_t read_ns;	       /* when that read was */
	bool attached;
};

/* fentry attach points: the first function of each list that the kernel has. */
static const char *const alloc_fns[] = { "page_pool_alloc_netmems", "page_pool_alloc_netmem",
					 "page_pool_alloc_pages", NULL };
static const char *const put_fns[] = { "page_pool_put_unrefed_netmem",
				       "page_pool_put_defragged_page", NULL };

/* NAME if the kernel has that function, else NULL. */
static const char *btf_func(const char *name)
{
	struct btf *btf = ppb_vmlinux_btf();

	return btf && btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) > 0 ? name : NULL;
}

static const char *first_func(const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (btf_func(names[i]))
			return names[i];
	return NULL;
}

/* An fentry and fexit program on FN, each loaded only if it can attach there. */
static void set_target(struct bpf_program *fe, struct bpf_program *fx, const char *fn)
{
	bpf_program__set_autoload(fe, fn && !bpf_program__set_attach_target(fe, 0, fn));
	bpf_program__set_autoload(fx, fn && !bpf_program__set_attach_target(fx, 0, fn));
}

/* The handlers' time that timed calls leave out (irq_clock in the BPF
 * object): fentry only, each pair where this kernel has its tracepoints. */
static void setup_irq_clock(struct observer_bpf *s, bool on)
{
	struct {
		struct bpf_program *entry, *exit;
		const char *tp;
	} h[] = {
		{ s->progs.ppb_irq_entry, s->progs.ppb_irq_exit, "irq_handler_entry" },
		{ s->progs.ppb_sirq_entry, s->progs.ppb_sirq_exit, "softirq_entry" },
		{ s->progs.ppb_ltimer_entry, s->progs.ppb_ltimer_exit, "local_timer_entry" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(h); i++) {
		bool ok = on && ppb_tracepoint_present(h[i].tp);

		bpf_program__set_autoload(h[i].entry, ok);
		bpf_program__set_autoload(h[i].exit, ok);
	}
}

/*
 * Choose the fentry targets for this kernel: page_pool's alloc and put
 * functions were renamed and wrapped over the versions (ppbench-watch(8),
 * "What changes between kernel versions").
 */
static void setup_fentry(struct observer_bpf *s, bool on)
{
	const char *alloc = on ? first_func(alloc_fns) : NULL;
	const char *put = on ? first_func(put_fns) : NULL;
	/* The _pages/_page wrappers call the netmem functions: attach to both, the
	 * programs classify at the outermost exit only. */
	const char *alloc2 = alloc && strcmp(alloc, "page_pool_alloc_pages")
				     ? btf_func("page_pool_alloc_pages")
				     : NULL;
	const char *put2 = put && !strcmp(put, "page_pool_put_unrefed_netmem")
				   ? btf_func("page_pool_put_unrefed_page")
				   : NULL;
	const char *bulk = on ? btf_func("page_pool_put_page_bulk") : NULL;
	/* 6.14+ replaced it by a bulk return whose entries mix pools. */
	const char *nbulk = on && !bulk ? btf_func("page_pool_put_netmem_bulk") : NULL;

	set_target(s->progs.ppb_fe_alloc, s->progs.ppb_fx_alloc, alloc);
	set_target(s->progs.ppb_fe_alloc2, s->progs.ppb_fx_alloc2, alloc2);
	set_target(s->progs.ppb_fe_put, s->progs.ppb_fx_put, put);
	set_target(s->progs.ppb_fe_put2, s->progs.ppb_fx_put2, put2);
	set_target(s->progs.ppb_fe_bulk, s->progs.ppb_fx_bulk, bulk);
	set_target(s->progs.ppb_fe_nbulk, s->progs.ppb_fx_nbulk, nbulk);
	bpf_program__set_autoload(s->progs.ppb_fe_cal, on);
	bpf_program__set_autoload(s->progs.ppb_fx_cal, on);
	setup_irq_clock(s, on);
}

static void setup_tracepoints(struct observer *o, bool fentry)
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

		/* fentry reads the hold count instead (ppb_tp_hold) */
		bpf_program__set_autoload(
			tps[i].p, ok && !(fentry && tps[i].p == o->skel->progs.ppb_tp_hold));
		if (!ok)
			n += snprintf(o->not_counted + n, sizeof(o->not_counted) - n, "%s%s",
				      n ? ", " : "no tracepoint ", tps[i].tp);
	}
}

/*
 * Room for pools. PPBENCH_TEST_MAX_POOLS makes it small, so that the tests
 * can fill it: the untracked count must then say so. 0 leaves no room at all
 * (fill_room()), so that a recipe with one pool misses it.
 */
static int parse_capacity(struct observer *o)
{
	const char *env = getenv("PPBENCH_TEST_MAX_POOLS");
	unsigned long n = PPB_MAX_POOLS;
	char *end;

	if (env && *env) {
		errno = 0;
		n = strtoul(env, &end, 10);
		if (errno || *end || n > PPB_MAX_POOLS) {
			pr_err("PPBENCH_TEST_MAX_POOLS '%s' is not a number from 0 to %d\n", env,
			       PPB_MAX_POOLS);
			return -EINVAL;
		}
	}
	o->capacity = n;
	return 0;
}

/*
 * Room 0: a map of one entry, taken by a record that no pool has (address 0)
 * and that no reader shows (add_records()). DYING: flushes leave it alone.
 */
static int fill_room(struct observer *o)
{
	struct ppb_pool_counts zero[o->nr_cpus];
	struct ppb_pool_info info = { .flags = PPB_POOL_F_DYING, .cpuid = -1 };
	struct ppb_pool_key key = {};

	if (o->capacity)
		return 0;
	memset(zero, 0, sizeof(zero));
	if (bpf_map_update_elem(obs_pool_info_fd(o), &key, &info, BPF_NOEXIST) ||
	    bpf_map_update_elem(obs_pool_counts_fd(o), &key, zero, BPF_NOEXIST))
		return -errno;
	return 0;
}

static int load(struct observer *o, bool fentry)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo);
	struct ppb_obs_config *c;
	int err;

	ppb_open_opts(&oo);
	o->skel = observer_bpf__open_opts(&oo);
	if (!o->skel)
		return -errno;
	setup_fentry(o->skel, fentry);
	setup_tracepoints(o, fentry);
	c = (void *)&o->skel->rodata->obs_cfg;
	c->fentry = fentry;
	c->nr_cpus = o->nr_cpus;
	ppb_pool_ksyms(c);
	err = bpf_map__set_max_entries(o->skel->maps.pool_info, o->capacity ?: 1)
		      ?: bpf_map__set_max_entries(o->skel->maps.pool_counts, o->capacity ?: 1)
		      ?: observer_bpf__load(o->skel) ?: fill_room(o);
	if (err) {
		observer_bpf__destroy(o->skel);
		o->skel = NULL;
	}
	return err;
}

/* The pool-lifetime program stays attached from open to close (see
 * ppb_tp_pool_release): obs_stop() leaves it, observer_bpf__attach() skips it. */
static int attach_release(struct observer *o)
{
	struct bpf_program *p = o->skel->progs.ppb_tp_pool_release;

	bpf_program__set_autoattach(p, false);
	if (!bpf_program__autoload(p))
		return 0;
	o->release_link = bpf_program__attach(p);
	if (!o->release_link) {
		int err = -errno; /* pr_err may change errno */

		pr_err("cannot attach the page_pool observer: %s\n", strerror(-err));
		return err;
	}
	return 0;
}

/* The fentry backend if it is wanted and loads, else why not in fentry_reason. */
static void try_fentry(struct observer *o, bool want)
{
	char *why = o->fentry_reason;
	size_t len = sizeof(o->fentry_reason);
	int err;

	if (!want)
		snprintf(why, len, "disabled by option");
	else if (!first_func(alloc_fns))
		snprintf(why, len, "no page_pool alloc function in BTF");
	/* A small fentry program first: loading the whole observer only to be
	 * refused costs the verifier's time twice. */
	else if ((err = ppb_probe_fentry()) || (err = load(o, true)))
		snprintf(why, len, "fentry refused (%s)", errno_name(err));
	else
		o->backend = OBS_FENTRY;
}

int obs_open(struct observer **out, const struct obs_opts *opts)
{
	struct observer *o = calloc(1, sizeof(*o));
	int err;

	if (!o)
		return -ENOMEM;
	o->nr_cpus = nr_possible_cpus();
	o->retired.nr_cpus = o->pending.nr_cpus = o->nr_cpus;
	o->backend = OBS_TRACEPOINT;
	err = o->nr_cpus < 0 ? o->nr_cpus : parse_capacity(o);
	if (err) {
		free(o);
		return err;
	}
	try_fentry(o, !(opts && opts->no_fentry));
	if (o->backend == OBS_TRACEPOINT && (err = load(o, false))) {
		pr_err("cannot load the page_pool observer: %s (%s)\n", strerror(-err),
		       log_last_libbpf_warning());
		free(o);
		return err;
	}
	err = attach_release(o);
	if (err) {
		obs_close(o);
		return err;
	}
	pr_debug("observer: %s backend%s%s\n", obs_backend_name(o), o->fentry_reason[0] ? ", " : "",
		 o->fentry_reason);
	*out = o;
	return 0;
}

/* An interrupt in a block (frequent under emulation) moves that block, not the median. */
int obs_probe_overhead(struct observer *o, double *ns_per_call)
{
	LIBBPF_OPTS(bpf_test_run_opts, t);
	enum { BLOCKS = 20, CALLS = 1000 };
	double mean[BLOCKS];
	int fd, nb = 0;

	*ns_per_call = 0;
	if (o->backend != OBS_FENTRY || !o->attached)
		return -EOPNOTSUPP;
	fd = bpf_program__fd(o->skel->progs.ppb_fe_cal);
	for (int b = 0; b < BLOCKS; b++) {
		o->skel->bss->cal_ns = o->skel->bss->cal_calls = 0;
		/* Running a tracing program calls bpf_fentry_test1() once per syscall. */
		for (int i = 0; i < CALLS; i++)
			if (bpf_prog_test_run_opts(fd, &t))
				return -errno;
		if (o->skel->bss->cal_calls)
			mean[nb++] = (double)o->skel->bss->cal_ns / o->skel->bss->cal_calls;
	}
	if (!nb)
		return -ENODATA;
	*ns_per_call = median_of(mean, nb);
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

/*
 * The fentry programs count how deep the hooked calls nest, per task
 * (scratch). A call that entered before obs_stop() detached its fexit, or
 * between a fentry's attach and its fexit's, leaves the depth raised with no
 * exit to lower it, and every later call of that task passes for a wrapper's
 * inner one, uncounted. So the map starts empty while nothing is attached,
 * and each fentry is attached after every fexit.
 */
static int scratch_reset(struct observer *o)
{
	int fd = bpf_map__fd(o->skel->maps.scratch);
	__u64 key, next;

	/* Deleting the key just read: each round starts from the first again. */
	while (!bpf_map_get_next_key(fd, NULL, &next)) {
		key = next;
		if (bpf_map_delete_elem(fd, &key))
			return -errno;
	}
	return errno == ENOENT ? 0 : -errno;
}

static bool is_fentry(const struct bpf_program *p)
{
	return bpf_program__expected_attach_type(p) == BPF_TRACE_FENTRY;
}

static int attach_fentry_last(struct observer *o)
{
	const struct bpf_object_skeleton *sk = o->skel->skeleton;
	int err;

	for (int i = 0; i < sk->prog_cnt; i++)
		if (is_fentry(*sk->progs[i].prog))
			bpf_program__set_autoattach(*sk->progs[i].prog, false);
	err = observer_bpf__attach(o->skel);
	for (int i = 0; i < sk->prog_cnt; i++) {
		struct bpf_program *p = *sk->progs[i].prog;

		if (!is_fentry(p))
			continue;
		bpf_program__set_autoattach(p, true);
		if (err || !bpf_program__autoload(p))
			continue;
		*sk->progs[i].link = bpf_program__attach(p);
		if (!*sk->progs[i].link)
			err = -errno;
	}
	return err;
}

int obs_start(struct observer *o)
{
	int err;

	if (o->attached)
		return 0;
	/* ppb_obs_flush is run, never attached: attach the rest one by one. */
	bpf_program__set_autoattach(o->skel->progs.ppb_obs_flush, false);
	err = scratch_reset(o) ?: attach_fentry_last(o);
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

struct bpf_object *obs_object(struct observer *o)
{
	return o ? o->skel->obj : NULL;
}

void obs_close(struct observer *o)
{
	if (!o)
		return;
	obs_stop(o);
	bpf_link__destroy(o->release_link);
	snap_free(&o->retired);
	snap_free(&o->pending);
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

void obs_describe(const struct observer *o, struct obs_desc *d)
{
	d->backend = obs_backend(o);
	d->backend_name = obs_backend_name(o);
	d->fentry_reason = obs_fentry_reason(o);
	d->not_counted = o->not_counted[0] ? o->not_counted : NULL;
}

int obs_pool_info_fd(const struct observer *o)
{
	return bpf_map__fd(o->skel->maps.pool_info);
}

int obs_pool_counts_fd(const struct observer *o)
{
	return bpf_map__fd(o->skel->maps.pool_counts);
}

int obs_set_elems_active(struct observer *o, bool on)
{
	__u32 zero = 0;
	struct ppb_obs_ctl v = { .elems_active = on };

	if (bpf_map_update_elem(bpf_map__fd(o->skel->maps.obs_ctl), &zero, &v, 0))
		return -errno;
	/* A common start line: every pool's baseline and every CPU's count now. */
	return obs_flush(o);
}

const struct ppb_obs_config *obs_config(const struct observer *o)
{
	return &o->skel->rodata->obs_cfg;
}

/*
 * A whole hash map in batches (BPF_MAP_LOOKUP_BATCH): a few system calls
 * instead of two per entry. Per-CPU values come as nr_cpus slots of 8-byte
 * aligned size, which our value structs already are.
 */
struct batch_buf {
	void *keys, *vals;
	int n;
};

static int read_batch(int fd, size_t ksz, size_t vsz, struct batch_buf *b)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u64 in[2] = {}, out[2] = {}; /* hash maps: a bucket index */
	__u32 chunk = 256, count;
	int cap = 0, err = 0;
	bool first = true;

	memset(b, 0, sizeof(*b));
	for (;;) {
		if (b->n + (int)chunk > cap) {
			void *k, *v;

			cap = 2 * (b->n + chunk);
			k = realloc(b->keys, cap * ksz);
			v = k ? realloc(b->vals, cap * vsz) : NULL;
			if (k)
				b->keys = k;
			if (!v)
				return -ENOMEM;
			b->vals = v;
		}
		count = chunk;
		err = bpf_map_lookup_batch(fd, first ? NULL : in, out, (char *)b->keys + b->n * ksz,
					   (char *)b->vals + b->n * vsz, &count, &opts);
		if (err && errno == ENOSPC) { /* one bucket holds more than chunk */
			chunk *= 2;
			continue;
		}
		b->n += count;
		if (err)
			return errno == ENOENT ? 0 : -errno;
		memcpy(in, out, sizeof(in));
		first = false;
		chunk = chunk < 8192 ? chunk * 2 : chunk;
	}
}

static void batch_free(struct batch_buf *b)
{
	free(b->keys);
	free(b->vals);
}

/* The keys of sort_base in order: indexes into them, sorted, then searched. */
static const struct batch_buf *sort_base;
static size_t sort_ksz;

static int key_cmp(const void *key, const void *idx)
{
	return memcmp(key, (char *)sort_base->keys + *(const int *)idx * sort_ksz, sort_ksz);
}

static int order_cmp(const void *a, const void *b)
{
	return key_cmp((char *)sort_base->keys + *(const int *)a * sort_ksz, b);
}

static int *sorted_order(const struct batch_buf *b, size_t ksz)
{
	int *order = malloc((b->n ? b->n : 1) * sizeof(*order));

	if (!order)
		return NULL;
	for (int i = 0; i < b->n; i++)
		order[i] = i;
	sort_base = b;
	sort_ksz = ksz;
	qsort(order, b->n, sizeof(*order), order_cmp);
	return order;
}

/* Copy the records (info, then the per-CPU counts found for its key) into s. */
static int add_records(struct obs_snapshot *s, const struct batch_buf *info,
		       const struct batch_buf *counts)
{
	size_t ksz = sizeof(struct ppb_pool_key), csz = s->nr_cpus * sizeof(struct ppb_pool_counts);
	int *order, cap = s->nr_pools + info->n;
	struct pool_snap *np;

	np = realloc(s->pools, (cap ? cap : 1) * sizeof(*np));
	if (!np)
		return -ENOMEM;
	s->pools = np;
	order = sorted_order(counts, ksz);
	if (!order)
		return -ENOMEM;
	for (int i = 0; i < info->n; i++) {
		struct pool_snap *p = &s->pools[s->nr_pools];
		const struct ppb_pool_key *key = (void *)((char *)info->keys + i * ksz);
		const int *c;

		if (!key->ptr) /* fill_room()'s */
			continue;
		c = bsearch(key, order, counts->n, sizeof(*order), key_cmp);
		memset(p, 0, sizeof(*p));
		memcpy(&p->key, key, ksz);
		memcpy(&p->info, (char *)info->vals + i * sizeof(p->info), sizeof(p->info));
		p->percpu = calloc(s->nr_cpus, sizeof(*p->percpu));
		if (!p->percpu) {
			free(order);
			return -ENOMEM;
		}
		/* A pool may have a record but no counts yet. */
		if (c)
			memcpy(p->percpu, (char *)counts->vals + *c * csz, csz);
		for (int cpu = 0; cpu < s->nr_cpus; cpu++)
			counts_add(&p->total, &p->percpu[cpu]);
		snap_settle_unclassified(p, s->fentry);
		s->nr_pools++;
	}
	free(order);
	return 0;
}

static int read_records(struct observer *o, struct obs_snapshot *s)
{
	struct batch_buf info = {}, counts = {};
	int err;

	err = read_batch(obs_pool_info_fd(o), sizeof(struct ppb_pool_key),
			 sizeof(struct ppb_pool_info), &info);
	err = err
		      ?: read_batch(obs_pool_counts_fd(o), sizeof(struct ppb_pool_key),
				    s->nr_cpus * sizeof(struct ppb_pool_counts), &counts);
	err = err ?: add_records(s, &info, &counts);
	batch_free(&info);
	batch_free(&counts);
	return err;
}

static void read_untracked(struct observer *o, struct obs_snapshot *s)
{
	struct ppb_untracked u[o->nr_cpus];
	__u32 zero = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(o->skel->maps.untracked), &zero, u))
		return;
	for (int c = 0; c < o->nr_cpus; c++) {
		s->untracked_pools += u[c].pools;
		s->untracked_events += u[c].events;
	}
}

/* Keys from one map, one call (BPF_MAP_DELETE_BATCH); one by one if it fails. */
static void delete_keys(int fd, const struct ppb_pool_key *keys, __u32 n)
{
	__u32 count = n;

	if (!bpf_map_delete_batch(fd, keys, &count, NULL))
		return;
	for (__u32 i = count; i < n; i++)
		bpf_map_delete_elem(fd, &keys[i]);
}

/* Take the records of the freed pools among s's first nr out of the maps
 * (not those pending: out already); they are in a snapshot or pending. */
static void forget(struct observer *o, const struct obs_snapshot *s, int nr)
{
	struct ppb_pool_key *keys = malloc((nr > 0 ? nr : 1) * sizeof(*keys));
	__u32 n = 0;

	for (int i = 0; i < nr; i++) {
		const struct pool_snap *p = &s->pools[i];

		if (!snap_gone(p) || p->pending)
			continue;
		if (keys) {
			keys[n++] = p->key;
			continue;
		}
		delete_keys(obs_pool_info_fd(o), &p->key, 1);
		delete_keys(obs_pool_counts_fd(o), &p->key, 1);
	}
	if (n) {
		delete_keys(obs_pool_info_fd(o), keys, n);
		delete_keys(obs_pool_counts_fd(o), keys, n);
	}
	free(keys);
}

/* The next read takes out the pools freed so far: note when, and how many. */
static void note_read(struct observer *o)
{
	o->gone_read = *(volatile __u64 *)&o->skel->bss->pools_gone;
	o->read_ns = now_ns();
}

/* Freed pools wait for a read: a quarter of the room, or any for OBS_DRAIN_S. */
static bool drain_due(struct observer *o)
{
	uint64_t wait = *(volatile __u64 *)&o->skel->bss->pools_gone - o->gone_read;

	return wait &&
	       (wait * 4 >= (uint64_t)o->capacity || now_ns() - o->read_ns >= OBS_DRAIN_S * 1e9);
}

/*
 * Pools freed since the last read leave the maps, so the maps hold the live
 * pools and what was freed since. Only this process deletes records, after
 * reading them: no pool is counted twice or lost. The next snapshot shows
 * them as themselves (pending, at most OBS_MAX_PENDING; beyond that their
 * counts go to the retired rows now).
 */
int obs_drain(struct observer *o)
{
	struct obs_snapshot r = { .nr_cpus = o->nr_cpus, .fentry = o->backend == OBS_FENTRY };
	int err, i;

	if (!drain_due(o))
		return 0;
	note_read(o);
	err = read_records(o, &r);

	if (r.nr_pools > o->peak)
		o->peak = r.nr_pools;
	for (i = 0; i < r.nr_pools && !err; i++) {
		const struct pool_snap *p = &r.pools[i];

		if (!snap_gone(p))
			continue;
		err = o->pending.nr_pools < OBS_MAX_PENDING
			      ? snap_append(&o->pending, p)
			      : snap_retire(&o->retired, p, OBS_MAX_RETIRED_ROWS);
	}
	forget(o, &r, err ? i - 1 : i);
	snap_free(&r);
	return err;
}

/* After a snapshot: the freed pools it showed join the retired rows. */
static int retire_shown(struct observer *o, const struct obs_snapshot *s)
{
	int err = 0, i;

	for (i = 0; i < s->nr_pools && !err; i++)
		if (snap_gone(&s->pools[i]))
			err = snap_retire(&o->retired, &s->pools[i], OBS_MAX_RETIRED_ROWS);
	forget(o, s, err ? i - 1 : i);
	snap_free(&o->pending);
	o->pending.nr_cpus = o->nr_cpus;
	return err;
}

/* Runs the kernel skipped, summed over the observer's loaded programs. */
static uint64_t prog_misses(struct observer *o)
{
	struct bpf_program *p;
	uint64_t n = 0;

	bpf_object__for_each_program(p, o->skel->obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);

		if (bpf_program__fd(p) >= 0 &&
		    !bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len))
			n += info.recursion_misses;
	}
	return n;
}

int obs_snapshot(struct observer *o, struct obs_snapshot *s)
{
	int err = 0;

	memset(s, 0, sizeof(*s));
	s->nr_cpus = o->nr_cpus;
	s->fentry = o->backend == OBS_FENTRY;
	s->capacity = o->capacity;
	s->ts_ns = now_ns();
	read_untracked(o, s);
	s->prog_misses = prog_misses(o);
	note_read(o);
	err = read_records(o, s);
	s->map_peak = s->nr_pools > o->peak ? s->nr_pools : o->peak;
	o->peak = 0;
	for (int i = 0; i < o->pending.nr_pools && !err; i++) {
		err = snap_append(s, &o->pending.pools[i]);
		if (!err)
			s->pools[s->nr_pools - 1].pending = true;
	}
	for (int i = 0; i < o->retired.nr_pools && !err; i++)
		err = snap_append(s, &o->retired.pools[i]);
	err = err ?: retire_shown(o, s);
	if (err)
		snap_free(s);
	return err;
}

/* Test-run pools of our own recipe (our XDP programs counted their
 * allocations) that are not gone yet; the first of them in *first. */
static int test_run_busy(const struct obs_snapshot *s, const struct pool_snap **first)
{
	int n = 0;

	for (int p = 0; p < s->nr_pools; p++) {
		const struct pool_snap *ps = &s->pools[p];
		const struct ppb_pool_info *pi = &ps->info;

		if (ps->retired || pi->kind != PPB_POOL_TEST_RUN ||
		    !(pi->flags & PPB_POOL_F_ELEMS) || snap_gone(ps))
			continue;
		if (!n++)
			*first = ps;
	}
	return n;
}

int obs_wait_test_run_settled(struct observer *o, double max_s)
{
	uint64_t deadline = now_ns() + (uint64_t)(max_s * 1e9);
	const struct pool_snap *p = NULL;
	struct obs_snapshot s;
	int n;

	for (;;) {
		/* a read that retires nothing: the pools stay themselves for the
		 * snapshot that ends the run */
		memset(&s, 0, sizeof(s));
		s.nr_cpus = o->nr_cpus;
		if (read_records(o, &s))
			return -ENOMEM;
		n = test_run_busy(&s, &p);
		if (!n) {
			snap_free(&s);
			return 0;
		}
		if (now_ns() >= deadline)
			break;
		snap_free(&s);
		usleep(10000);
	}
	if (p->info.flags & PPB_POOL_F_DYING)
		pr_warn("waited %.1f s for test-run pool %u to be freed: %d of its pages are still "
			"in flight%s; its late returns are not counted\n",
			max_s, p->info.id, p->info.final_inflight,
			n > 1 ? " (and more pools)" : "");
	else
		pr_warn("waited %.1f s for test-run pool %u to be destroyed: it still holds %u "
			"pages "
			"(%u in its cache, %u in its ring)%s; its returns may be missing\n",
			max_s, p->info.id, p->info.last.hold - p->info.last.release,
			p->info.last.cache, p->info.last.occ, n > 1 ? " (and more pools)" : "");
	snap_free(&s);
	return -ETIMEDOUT;
}

void obs_clear_retired(struct observer *o)
{
	int nr_cpus = o->retired.nr_cpus;

	snap_free(&o->retired);
	o->retired.nr_cpus = nr_cpus;
}
