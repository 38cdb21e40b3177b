// SPDX-License-Identifier: GPL-2.0
/* Loading and driving bpf/xdp.bpf.c (see xdpobj.h). */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <linux/if_link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>
#include "loader/kfeatures.h"
#include "loader/observer.h"
#include "loader/xdpobj.h"
#include "model/testrun_clock.h"
#include "model/pkt.h"
#include "model/stats.h"
#include "sys/cpus.h"
#include "sys/kconfig.h"
#include "sys/vethenv.h"
#include "sys/log.h"
#include "sys/log_libbpf.h"
#include "sys/util.h"
#include "xdp.skel.h"

struct xdpo {
	struct xdp_bpf *skel;
	struct xdp_bpf *twin; /* libxdp's copy of one program (xdpo_libxdp_prog) */
	int nr_cpus;
	bool calibrated;
	char calib_error[192]; /* why xdpo_calibrate() failed */
	struct bpf_link *links[8];
	int nr_links;
};

static void select_progs(struct xdp_bpf *s, unsigned int want)
{
	const struct {
		struct bpf_program *p;
		unsigned int in;
	} progs[] = {
		{ s->progs.ppb_xdp_act, XDPO_ACT },
		{ s->progs.ppb_xdp_load, XDPO_LOAD },
		{ s->progs.ppb_xdp_paths, XDPO_PATHS },
		{ s->progs.ppb_xdp_bare, XDPO_ACT | XDPO_LOAD },
		{ s->progs.ppb_xdp_fastpass, XDPO_FASTPASS },
		{ s->progs.ppb_xdp_fastpass_bare, XDPO_FASTPASS },
		{ s->progs.ppb_xdp_gen, XDPO_GEN },
		{ s->progs.ppb_xdp_gen_bare, XDPO_GEN | XDPO_GEN_BARE },
		{ s->progs.ppb_xdp_calib, XDPO_CALIB },
	};

	for (size_t i = 0; want && i < ARRAY_SIZE(progs); i++)
		bpf_program__set_autoload(progs[i].p, progs[i].in & want);
}

/* What the XDP program returns for a PPB_ACT_* (ppb_xdp_act, _load, _paths). */
static uint32_t act_verdict(uint32_t action)
{
	switch (action) {
	case PPB_ACT_PASS:
		return XDP_PASS;
	case PPB_ACT_TX:
		return XDP_TX;
	case PPB_ACT_REDIRECT:
	case PPB_ACT_CPU:
		return XDP_REDIRECT;
	default:
		return XDP_DROP;
	}
}

static void configure(struct xdp_bpf *s, const struct xdpo_opts *o)
{
	struct bpf_program *p;

	select_progs(s, o->progs);

	s->rodata->sample_shift = o->sample_shift ? o->sample_shift : 10;
	s->rodata->action = o->action;
	s->rodata->verdict = act_verdict(o->action);
	s->rodata->remote_action = o->remote_action;
	s->rodata->gen_ifindex = o->gen_ifindex;
	s->rodata->count_bytes = o->count_bytes;
	s->rodata->pace_limit = o->pace_limit;
	s->rodata->fp_adjust = o->fp_adjust;
	s->rodata->fp_byte0 = o->fp_byte0;
	s->rodata->page_shift = o->page_shift ? o->page_shift : sys_page_shift();
	if (o->obs) {
		struct ppb_obs_config *c = (void *)&s->rodata->obs_cfg;

		memcpy(c, obs_config(o->obs), sizeof(*c));
		/* a private pair created since the observer loaded brings veth.ko */
		if (!c->ksym_veth_xmit || !c->ksym_veth_poll)
			ppb_pool_ksyms(c);
	}
	bpf_map__set_max_entries(s->maps.tx_cpumap, nr_possible_cpus());
	bpf_program__set_autoload(s->progs.ppb_cpumap_prog, o->second_stage);
	bpf_program__set_autoload(s->progs.ppb_devmap_prog, o->second_stage);
	bpf_program__set_autoload(s->progs.ppb_tp_cpumap_kthread,
				  o->cpumap_timing && ppb_tracepoint_present("xdp_cpumap_kthread"));
	bpf_program__set_autoload(s->progs.ppb_tp_napi_clock,
				  o->napi_clock && ppb_tracepoint_present("napi_poll"));
	bpf_program__set_autoload(s->progs.ppb_tp_exception,
				  o->errors && ppb_tracepoint_present("xdp_exception"));
	bpf_program__set_autoload(s->progs.ppb_tp_redirect_err,
				  o->errors && ppb_tracepoint_present("xdp_redirect_err"));
	bpf_program__set_autoload(s->progs.ppb_tp_devmap_xmit,
				  o->xmits && ppb_tracepoint_present("xdp_devmap_xmit"));
	bpf_program__set_autoload(s->progs.ppb_tp_cpumap_enqueue,
				  o->cpumap_drops && ppb_tracepoint_present("xdp_cpumap_enqueue"));
	/* Second-stage programs must carry the same frags flag as the main one,
	 * or the kernel refuses them in the map entry (xdp-tools 1.6.3's bug). */
	if (o->frags)
		bpf_object__for_each_program(p, s->obj)
			if (bpf_program__type(p) == BPF_PROG_TYPE_XDP)
				bpf_program__set_flags(p,
						       bpf_program__flags(p) | BPF_F_XDP_HAS_FRAGS);
}

static __u32 prog_id(struct bpf_program *p)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_program__fd(p) < 0 || bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len))
		return 0;
	return info.id;
}

static __u32 map_id(struct bpf_map *m)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(bpf_map__fd(m), &info, &len))
		return 0;
	return info.id;
}

/* The observer's maps that pool.bpf.h declares: proof runs fill them. */
static int share_obs_maps(struct xdpo *x, struct observer *obs)
{
	static const char *const names[] = { "pool_info", "pool_counts", "proof_cpu", "obs_ctl",
					     "untracked" };
	int err = 0;

	for (size_t i = 0; i < ARRAY_SIZE(names) && !err; i++)
		err = bpf_map__reuse_fd(bpf_object__find_map_by_name(x->skel->obj, names[i]),
					bpf_object__find_map_fd_by_name(obs_object(obs), names[i]));
	return err;
}

int xdpo_open(struct xdpo **out, const struct xdpo_opts *o)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo);
	struct xdpo *x = calloc(1, sizeof(*x));
	int err;

	if (!x)
		return -ENOMEM;
	ppb_open_opts(&oo);
	x->nr_cpus = nr_possible_cpus();
	if (x->nr_cpus < 0 || x->nr_cpus > PPB_MAX_CPUS) {
		err = x->nr_cpus < 0 ? x->nr_cpus : -E2BIG;
		goto fail;
	}
	x->skel = xdp_bpf__open_opts(&oo);
	if (!x->skel) {
		err = -errno;
		goto fail;
	}
	configure(x->skel, o);
	if (o->obs) {
		err = share_obs_maps(x, o->obs);
		if (err)
			goto fail;
	} else {
		/* no proof without an observer: its preallocated room is unused */
		bpf_map__set_max_entries(x->skel->maps.pool_info, 1);
		bpf_map__set_max_entries(x->skel->maps.pool_counts, 1);
	}
	err = xdp_bpf__load(x->skel);
	if (err)
		goto fail;
	/* The error tracepoints count only our programs. */
	x->skel->bss->prog_id[PPB_ROLE_ACTION] =
		prog_id(x->skel->progs.ppb_xdp_act) ?: prog_id(x->skel->progs.ppb_xdp_load)
			?: prog_id(x->skel->progs.ppb_xdp_paths);
	x->skel->bss->prog_id[PPB_ROLE_GEN] = prog_id(x->skel->progs.ppb_xdp_gen);
	x->skel->bss->prog_id[PPB_ROLE_SECOND] = prog_id(x->skel->progs.ppb_cpumap_prog);
	x->skel->bss->cpumap_id = map_id(x->skel->maps.tx_cpumap);
	*out = x;
	return 0;
fail:
	pr_err("cannot load the XDP programs: %s (%s)\n", strerror(-err),
	       log_last_libbpf_warning());
	xdp_bpf__destroy(x->skel);
	free(x);
	return err;
}

void xdpo_close(struct xdpo *x)
{
	if (!x)
		return;
	for (int i = 0; i < x->nr_links; i++)
		bpf_link__destroy(x->links[i]);
	xdp_bpf__destroy(x->twin);
	xdp_bpf__destroy(x->skel);
	free(x);
}

static struct bpf_program *xdpo_prog(struct xdpo *x, const char *name)
{
	return bpf_object__find_program_by_name(x->skel->obj, name);
}

int xdpo_prog_fd(struct xdpo *x, const char *name)
{
	struct bpf_program *p = xdpo_prog(x, name);

	return p ? bpf_program__fd(p) : -ENOENT;
}

int xdpo_nr_cpus(const struct xdpo *x)
{
	return x->nr_cpus;
}

int xdpo_live_run(struct xdpo *x, const char *prog, uint32_t batch, uint32_t repeat,
		  const void *pkt, uint32_t len, uint32_t *duration)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .flags = BPF_F_TEST_XDP_LIVE_FRAMES, .repeat = repeat,
		    .batch_size = batch, .data_in = pkt, .data_size_in = len);
	int fd = xdpo_prog_fd(x, prog);

	if (bpf_prog_test_run_opts(fd, &o))
		return -errno;
	if (duration)
		*duration = o.duration;
	return 0;
}

int xdpo_live_run_wall(struct xdpo *x, const char *prog, uint32_t batch, uint32_t repeat,
		       const void *pkt, uint32_t len, uint32_t *duration, double *wall_ns)
{
	uint64_t t0 = now_ns();
	int err = xdpo_live_run(x, prog, batch, repeat, pkt, len, duration);

	*wall_ns = (double)(now_ns() - t0);
	return err;
}

#define FIXED_RUNS 5

int xdpo_live_fixed_ns(struct xdpo *x, const char *prog, uint32_t batch, uint32_t repeat,
		       const void *pkt, uint32_t len, double *fixed_ns)
{
	uint32_t n = batch > 64 ? batch : 64, dur;
	double f[FIXED_RUNS], wall;
	struct summary s;
	int err;

	if (n > repeat)
		n = repeat;
	for (int i = 0; i < FIXED_RUNS; i++) {
		err = xdpo_live_run_wall(x, prog, batch, n, pkt, len, &dur, &wall);
		if (err)
			return err;
		f[i] = testrun_clock_fixed_ns(dur, n, wall);
	}
	err = summarize(f, FIXED_RUNS, &s);
	*fixed_ns = err ? 0 : s.median;
	return err;
}

/*
 * The calibration's page lacks the signature (the config is not this
 * kernel's), or the kernel's pages are not of the size the object was given.
 */
static int calib_mismatch(struct xdpo *x)
{
	const struct ppb_frame_map *m = &x->skel->bss->frame_map;
	uint64_t kpage = x->skel->bss->calib_psize;
	uint32_t shift = x->skel->rodata->page_shift;

	if (kpage && kpage != 1ULL << shift) {
		snprintf(x->calib_error, sizeof(x->calib_error),
			 "the kernel's test-run frames sit in pages of %llu bytes, not the %llu "
			 "(page shift %u) the BPF object was given",
			 (unsigned long long)kpage, 1ULL << shift, shift);
		return -EBADMSG;
	}
	snprintf(x->calib_error, sizeof(x->calib_error),
		 "a page_pool page has pp_magic 0x%llx, not the signature 0x%llx (in bits 0x%llx) "
		 "of CONFIG_ILLEGAL_POINTER_VALUE=0x%llx in %s",
		 (unsigned long long)x->skel->bss->calib_magic, (unsigned long long)m->pp_sig,
		 (unsigned long long)m->pp_mask, (unsigned long long)(m->pp_sig - 0x40),
		 kconfig_source() ?: "no config");
	return -EBADMSG;
}

int xdpo_calibrate(struct xdpo *x)
{
	struct udp_spec s = { .size = 64, .sport = 9, .dport = 9 };
	struct ppb_frame_map *m = &x->skel->bss->frame_map;
	uint8_t pkt[64];
	int err;

	parse_ip("10.77.0.1", "src", &s.src);
	parse_ip("10.77.0.2", "dst", &s.dst);
	pkt_build_udp(&s, pkt, sizeof(pkt));
	memset(m, 0, sizeof(*m));
	snprintf(x->calib_error, sizeof(x->calib_error), "no live-frames BPF_PROG_RUN");
	if (ppb_probe_live_frames())
		return -EOPNOTSUPP; /* the calibration needs one live frame */
	err = xdpo_live_run(x, "ppb_xdp_calib", 1, 1, pkt, sizeof(pkt), NULL);
	snprintf(x->calib_error, sizeof(x->calib_error), "its live frame did not run (%s)",
		 strerror(-err));
	if (err)
		return err;
	/* The program derived k from one (page, address) pair; it must be page aligned
	 * to struct page units and the pair must be real. */
	snprintf(x->calib_error, sizeof(x->calib_error), "no page of the test-run pool found");
	if (!x->skel->bss->calib_page || !x->skel->bss->calib_pool)
		return -EINVAL;
	if (!m->vmemmap_k)
		return calib_mismatch(x);
	x->calibrated = true;
	x->calib_error[0] = '\0';
	pr_debug("virt_to_page offset 0x%llx (pool 0x%llx page 0x%llx), PP_SIGNATURE 0x%llx\n",
		 (unsigned long long)m->vmemmap_k, (unsigned long long)x->skel->bss->calib_pool,
		 (unsigned long long)x->skel->bss->calib_page, (unsigned long long)m->pp_sig);
	return 0;
}

const char *xdpo_calib_error(const struct xdpo *x)
{
	return x->calib_error;
}

bool xdpo_calibrated(const struct xdpo *x)
{
	return x->calibrated;
}

void xdpo_begin_run(struct xdpo *x, bool proof, enum ppb_role elems_role)
{
	x->skel->bss->proof = proof && x->calibrated;
	x->skel->bss->elems_role = elems_role;
	x->skel->bss->run_gen++;
}

void xdpo_set_pace_offset(struct xdpo *x, uint64_t offset)
{
	x->skel->bss->pace_offset = offset;
}

int xdpo_stats(struct xdpo *x, enum ppb_role role, struct ppb_xdp_stats *percpu)
{
	for (int c = 0; c < x->nr_cpus; c++)
		percpu[c] = x->skel->bss->xdp_stats[c].role[role];
	return 0;
}

int xdpo_attach(struct xdpo *x, const char *prog, int ifindex, bool skb_mode)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = skb_mode ? XDP_FLAGS_SKB_MODE : 0);
	int fd;

	/* A bpf_link, not a netlink attach: closing the fd (or dying) detaches. */
	fd = bpf_link_create(xdpo_prog_fd(x, prog), ifindex, BPF_XDP, &lo);
	return fd < 0 ? -errno : fd;
}

int xdpo_set_cpumap(struct xdpo *x, int cpu, uint32_t qsize)
{
	struct bpf_cpumap_val v = { .qsize = qsize };
	__u32 key = cpu;

	v.bpf_prog.fd = xdpo_prog_fd(x, "ppb_cpumap_prog");
	/* Deleting an entry waits for its kthread; a re-used key gets a fresh one. */
	bpf_map_delete_elem(bpf_map__fd(x->skel->maps.tx_cpumap), &key);
	if (bpf_map_update_elem(bpf_map__fd(x->skel->maps.tx_cpumap), &key, &v, 0))
		return -errno;
	x->skel->bss->cpu_target = cpu;
	return 0;
}

/* Ids that name this instance: a fresh setup has fresh ones. */
int xdpo_ids(struct xdpo *x, const char *prog, int cpu, struct xdpo_ids *ids)
{
	struct bpf_program *p = xdpo_prog(x, prog);
	struct bpf_cpumap_val v = {};
	__u32 key = cpu;

	memset(ids, 0, sizeof(*ids));
	ids->prog = p ? prog_id(p) : 0;
	if (cpu < 0)
		return 0;
	ids->cpumap = map_id(x->skel->maps.tx_cpumap);
	if (!ids->cpumap)
		return -EIO;
	if (!bpf_map_lookup_elem(bpf_map__fd(x->skel->maps.tx_cpumap), &key, &v))
		ids->cpumap_prog = v.bpf_prog.id;
	return 0;
}

/*
 * The cpumap entry's kthread ("cpumap/CPU/map:ID") is the consumer of a
 * cross-CPU recipe. Any runnable task on its CPU delays it, and while it is
 * delayed the producer finds the pool's ring empty and takes pages from the
 * page allocator: the run stops measuring the ring. At SCHED_FIFO it preempts
 * normal tasks; it sleeps whenever its queue is empty, and the kernel deletes
 * it with the entry.
 */
int xdpo_cpumap_kthread_fifo(struct xdpo *x, int cpu)
{
	struct sched_param sp = { .sched_priority = 1 };
	uint32_t id = map_id(x->skel->maps.tx_cpumap);
	char want[64], comm[64], path[64];
	struct dirent *d;
	int pid = -ESRCH;
	DIR *dir;

	if (!id)
		return -errno;
	snprintf(want, sizeof(want), "cpumap/%d/map:%u", cpu, id);
	dir = opendir("/proc");
	if (!dir)
		return -errno;
	while ((d = readdir(dir)) && pid == -ESRCH) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", atoi(d->d_name));
		if (read_file_str(path, comm, sizeof(comm)) < 0 || strcmp(comm, want))
			continue;
		pid = atoi(d->d_name);
		if (sched_setscheduler(pid, SCHED_FIFO, &sp))
			pid = -errno;
	}
	closedir(dir);
	return pid;
}

/* Every map of the twin is the first instance's: globals, stats, maps. */
static int twin_share_maps(struct xdpo *x)
{
	struct bpf_map *m, *orig;
	int err;

	bpf_object__for_each_map(m, x->twin->obj) {
		orig = bpf_object__find_map_by_name(x->skel->obj, bpf_map__name(m));
		if (!orig || bpf_map__fd(orig) < 0)
			continue;
		err = bpf_map__reuse_fd(m, bpf_map__fd(orig));
		if (err)
			return err;
	}
	return 0;
}

/*
 * libxdp can put a program into its dispatcher only if it loads the program
 * itself, as an freplace (BPF_PROG_TYPE_EXT): one already loaded as XDP
 * cannot become one. So open the object a second time with only PROG to
 * load and every map taken from the first instance, and hand that to
 * libxdp: its program sees and fills the same maps.
 */
struct xdp_program *xdpo_libxdp_prog(struct xdpo *x, const char *prog)
{
	DECLARE_LIBXDP_OPTS(xdp_program_opts, xo, .prog_name = prog);
	LIBBPF_OPTS(bpf_object_open_opts, oo);
	struct bpf_program *p, *orig = xdpo_prog(x, prog);
	int err;

	errno = EINVAL;
	if (!orig || x->twin)
		return NULL;
	ppb_open_opts(&oo);
	x->twin = xdp_bpf__open_opts(&oo);
	if (!x->twin)
		return NULL;
	bpf_object__for_each_program(p, x->twin->obj) {
		bool ours = !strcmp(bpf_program__name(p), prog);

		bpf_program__set_autoload(p, ours);
		if (ours)
			bpf_program__set_flags(p, bpf_program__flags(orig));
	}
	err = twin_share_maps(x);
	if (err) {
		errno = -err;
		return NULL;
	}
	xo.obj = x->twin->obj;
	return xdp_program__create(&xo);
}

void xdpo_set_action_prog_id(struct xdpo *x, uint32_t id)
{
	x->skel->bss->prog_id[PPB_ROLE_ACTION] = id;
}

int xdpo_set_devmap(struct xdpo *x, int ifindex, bool egress_prog)
{
	struct bpf_devmap_val v = { .ifindex = ifindex };
	__u32 key = 0;

	v.bpf_prog.fd = egress_prog ? xdpo_prog_fd(x, "ppb_devmap_prog") : 0;
	return bpf_map_update_elem(bpf_map__fd(x->skel->maps.tx_devmap), &key, &v, 0) ? -errno : 0;
}

/*
 * BPF_PROG_RUN with repeat > 1 swaps the program into the XDP dispatcher with
 * a synchronize_rcu() per syscall, unless the program is attached somewhere:
 * keep it on the lo of a namespace of our own, where no packet flows. The
 * namespaces live as long as the process (a teardown is deferred kernel work
 * that would run into the next timed run); each lo takes one program.
 */
#define PIN_SLOTS 4
static struct {
	int ns, link;
} pin_slot[PIN_SLOTS] = { [0 ... PIN_SLOTS - 1] = { -1, -1 } };

int xdpo_pin_dispatcher(struct xdpo *x, const char *prog)
{
	int orig, err, i;

	for (i = 0; i < PIN_SLOTS && pin_slot[i].link >= 0; i++)
		;
	if (i == PIN_SLOTS)
		return -EBUSY;
	if (pin_slot[i].ns < 0)
		pin_slot[i].ns = netns_new_fd();
	if (pin_slot[i].ns < 0)
		return pin_slot[i].ns;
	err = netns_enter_fd(pin_slot[i].ns, &orig);
	if (err)
		return err;
	pin_slot[i].link = xdpo_attach(x, prog, 1 /* lo */, true);
	netns_leave_fd(orig);
	return pin_slot[i].link;
}

int xdpo_pin_netns(int link)
{
	for (int i = 0; i < PIN_SLOTS; i++)
		if (link >= 0 && pin_slot[i].link == link)
			return pin_slot[i].ns;
	return -ENOENT;
}

void xdpo_unpin_dispatcher(int link)
{
	if (link < 0)
		return;
	for (int i = 0; i < PIN_SLOTS; i++)
		if (pin_slot[i].link == link)
			pin_slot[i].link = -1;
	close(link);
}

int xdpo_attach_tracing(struct xdpo *x)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, x->skel->obj) {
		if (bpf_program__type(p) != BPF_PROG_TYPE_RAW_TRACEPOINT ||
		    bpf_program__fd(p) < 0 || x->nr_links >= (int)ARRAY_SIZE(x->links))
			continue;
		x->links[x->nr_links] = bpf_program__attach(p);
		if (!x->links[x->nr_links]) {
			int err = -errno;

			pr_err("cannot attach %s: %s\n", bpf_program__name(p), strerror(-err));
			return err;
		}
		x->nr_links++;
	}
	return 0;
}

void xdpo_set_proof(struct xdpo *x, bool on, uint32_t shift, enum ppb_role elems_role)
{
	x->skel->bss->proof_shift = shift;
	x->skel->bss->elems_role = elems_role;
	x->skel->bss->proof = on && x->calibrated;
}

void xdpo_set_err_filter(struct xdpo *x, int xmit_ifindex)
{
	struct stat st;

	x->skel->bss->xmit_ifindex = xmit_ifindex;
	x->skel->bss->xmit_netns = stat("/proc/thread-self/ns/net", &st) ? 0 : (uint32_t)st.st_ino;
}

int xdpo_errs(struct xdpo *x, struct ppb_xdp_errs *percpu)
{
	__u32 key = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(x->skel->maps.xdp_errs), &key, percpu))
		return -errno;
	return 0;
}

struct bpf_object *xdpo_object(struct xdpo *x, int i)
{
	if (!x)
		return NULL;
	return i == 0 ? x->skel->obj : x->twin ? x->twin->obj : NULL;
}

void xdpo_track_prog(struct xdpo *x, enum ppb_role role, const char *name)
{
	struct bpf_program *p = xdpo_prog(x, name);

	if (p)
		x->skel->bss->prog_id[role] = prog_id(p);
}
