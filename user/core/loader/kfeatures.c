// SPDX-License-Identifier: GPL-2.0
/*
 * Run-time feature probes. Everything is decided by trying it on the running
 * kernel (never by version number): load the program type, attach it, look
 * the tracepoint up in BTF.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/capability.h>
#include <linux/if_link.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "ppbench.h"
#include "loader/kfeatures.h"
#include "sys/cpus.h"
#include "sys/vethenv.h"
#include "sys/kconfig.h"
#include "sys/log.h"
#include "sys/nl.h"
#include "sys/util.h"
#include "probe.skel.h"

#ifndef ENOTSUPP
#define ENOTSUPP 524 /* kernel-internal, but BPF syscalls return it */
#endif
#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC 0xcafe4a11
#endif

/* BTF to hand to libbpf's open opts (NULL when the default path is used). */
static const char *ppb_btf_custom_path(void)
{
	const char *p = getenv("PPBENCH_BTF");

	return p && *p ? p : NULL;
}

static const char *ppb_btf_path(void)
{
	return ppb_btf_custom_path() ?: "/sys/kernel/btf/vmlinux";
}

struct btf *ppb_vmlinux_btf(void)
{
	static struct btf *btf;
	static bool tried;

	if (!tried) {
		tried = true;
		btf = btf__parse(ppb_btf_path(), NULL);
	}
	return btf;
}

/*
 * The __kconfig values of our BPF objects (bpf/pool_compat.bpf.h) from the
 * config that sys/kconfig.c reads (the one probe and results name), so that
 * libbpf reads no file of its own; NULL if it lacks them.
 * PPBENCH_TEST_KCONFIG replaces it: tests plant a wrong value.
 */
const char *ppb_bpf_kconfig(void)
{
	const char *t = getenv("PPBENCH_TEST_KCONFIG");
	const char *v = kconfig_get("ILLEGAL_POINTER_VALUE");
	static char text[96];

	if (t && *t)
		return t;
	if (!v || !strcmp(v, "n"))
		return NULL;
	snprintf(text, sizeof(text), "CONFIG_ILLEGAL_POINTER_VALUE=%s\n", v);
	return text;
}

void ppb_open_opts(struct bpf_object_open_opts *oo)
{
	oo->btf_custom_path = ppb_btf_custom_path();
	oo->kconfig = ppb_bpf_kconfig();
}

bool ppb_tracepoint_present(const char *name)
{
	char tname[128];
	struct btf *btf = ppb_vmlinux_btf();

	if (!btf)
		return false;
	snprintf(tname, sizeof(tname), "btf_trace_%s", name);
	return btf__find_by_name_kind(btf, tname, BTF_KIND_TYPEDEF) > 0;
}

static int need_privileges(const char *cmd)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = {};
	const int need[] = { CAP_SYS_ADMIN, CAP_NET_ADMIN };
	bool ok = true;

	if (syscall(SYS_capget, &h, d) < 0)
		ok = geteuid() == 0;
	for (size_t i = 0; ok && i < ARRAY_SIZE(need); i++)
		ok = d[need[i] / 32].effective & (1u << (need[i] % 32));
	if (!ok) {
		pr_err("'%s' needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN for BPF, XDP and "
		       "namespaces); run it as root\n",
		       cmd);
		return -EPERM;
	}
	return 0;
}

static int need_btf(void)
{
	const char *p = ppb_btf_path();

	if (access(p, R_OK)) {
		pr_err("no kernel BTF at %s: ppbench needs a kernel with CONFIG_DEBUG_INFO_BTF=y "
		       "(or PPBENCH_BTF=/path/to/vmlinux)\n",
		       p);
		return -ENOENT;
	}
	if (!ppb_vmlinux_btf()) {
		pr_err("cannot parse kernel BTF at %s\n", p);
		return -EINVAL;
	}
	return 0;
}

static int need_kconfig(void)
{
	const char *src = kconfig_source();
	struct utsname u;

	if (ppb_bpf_kconfig())
		return 0;
	if (src) {
		pr_err("the kernel config %s has no CONFIG_ILLEGAL_POINTER_VALUE: every x86-64 "
		       "and arm64 kernel's config sets it\n",
		       src);
		return -EINVAL;
	}
	pr_err("cannot read the kernel config (/proc/config.gz or /boot/config-%s): ppbench "
	       "takes the kernel's poison values from its CONFIG_ILLEGAL_POINTER_VALUE\n",
	       uname(&u) ? "RELEASE" : u.release);
	return -ENOENT;
}

int ppb_check_needs(const char *cmd, unsigned needs)
{
	if ((needs & PPB_NEED_ROOT) && need_privileges(cmd))
		return -EPERM;
	if ((needs & PPB_NEED_BTF) && need_btf())
		return -ENOENT;
	if ((needs & PPB_NEED_KCONFIG) && need_kconfig())
		return -ENOENT;
	return 0;
}

bool bpffs_mounted(const char **path)
{
	const char *p = getenv("PPBENCH_BPFFS");
	struct statfs st;

	if (!p || !*p)
		p = "/sys/fs/bpf";
	if (path)
		*path = p;
	return statfs(p, &st) == 0 && st.f_type == BPF_FS_MAGIC;
}

/* Open the probe skeleton with only program NAME set to load; returns the loaded skeleton. */
static struct probe_bpf *load_one(const char *name, int *err)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo);
	struct bpf_program *p;
	struct probe_bpf *skel;

	ppb_open_opts(&oo);
	skel = probe_bpf__open_opts(&oo);
	if (!skel) {
		*err = -errno;
		return NULL;
	}
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), name));
	*err = probe_bpf__load(skel);
	if (*err) {
		probe_bpf__destroy(skel);
		return NULL;
	}
	return skel;
}

struct probe_bpf *ppb_probe_xdp_load(int *err)
{
	return load_one("ppb_probe_xdp", err);
}

/* The kernel symbols' addresses by name, modules included (0: no such symbol). */
void ppb_pool_ksyms(struct ppb_obs_config *c)
{
	static const char *const names[] = { "xdp_test_run_init_page", "veth_xmit", "veth_poll" };
	LIBBPF_OPTS(bpf_test_run_opts, o);
	__u64 a[ARRAY_SIZE(names)] = {};
	static bool warned;
	int err;
	struct probe_bpf *skel = load_one("ppb_probe_ksym", &err);

	for (size_t i = 0; skel && i < ARRAY_SIZE(names) && !err; i++) {
		/* NUL padded, its last byte left 0 (our names are shorter) */
		strncpy(skel->bss->ksym_name, names[i], sizeof(skel->bss->ksym_name) - 1);
		if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.ppb_probe_ksym), &o))
			err = -errno;
		else if (!skel->bss->ksym_err)
			a[i] = skel->bss->ksym_addr;
		else if (skel->bss->ksym_err != -ENOENT)
			err = (int)skel->bss->ksym_err;
	}
	probe_bpf__destroy(skel);

	/* each object's load asks: say it once */
	if (err && !warned) {
		warned = true;
		pr_warn("cannot look up kernel symbols (%s): test-run and veth pools are counted "
			"as other pools\n",
			strerror(-err));
	}
	c->ksym_test_run_init_page = a[0];
	c->ksym_veth_xmit = a[1];
	c->ksym_veth_poll = a[2];
}

/*
 * PPBENCH_DISABLE=feature[,feature]: pretend the kernel lacks a feature
 * (live_frames, fentry), so that the degraded paths can be tested on a
 * kernel that has it - like PPBENCH_BTF for a kernel without BTF.
 */
static bool ppb_disabled(const char *feature)
{
	const char *v = getenv("PPBENCH_DISABLE");
	size_t n = strlen(feature);

	for (const char *p = v; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		if (!strncmp(p, feature, n) && (p[n] == ',' || !p[n]))
			return true;
	}
	return false;
}

int ppb_probe_live_frames(void)
{
	unsigned char pkt[64] = { [12] = 0x08, [13] = 0x00, [14] = 0x45 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .flags = BPF_F_TEST_XDP_LIVE_FRAMES, .repeat = 1,
		    .data_in = pkt, .data_size_in = sizeof(pkt));
	struct probe_bpf *skel;
	int err;

	if (ppb_disabled("live_frames"))
		return -EOPNOTSUPP;
	skel = load_one("ppb_probe_xdp", &err);
	if (!skel)
		return err;
	err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.ppb_probe_xdp), &o) ? -errno : 0;
	probe_bpf__destroy(skel);
	return err;
}

static int probe_load(const char *name)
{
	int err;

	probe_bpf__destroy(load_one(name, &err));
	return err;
}

/* Needs a device: attach in SKB mode to 'lo' of a throwaway namespace. */
static int probe_generic_frags(void)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = XDP_FLAGS_SKB_MODE);
	struct probe_bpf *skel;
	int orig, err, fd;

	skel = load_one("ppb_probe_frags", &err);
	if (!skel)
		return err;
	err = netns_private_enter(&orig);
	if (!err) {
		fd = bpf_link_create(bpf_program__fd(skel->progs.ppb_probe_frags),
				     if_nametoindex("lo"), BPF_XDP, &lo);
		err = fd < 0 ? -errno : 0;
		if (fd >= 0)
			close(fd);
	}
	if (orig >= 0)
		netns_private_leave(orig);
	probe_bpf__destroy(skel);
	return err;
}

static void probe_pp_stats(struct ppb_features *f)
{
	const char *v = kconfig_get("PAGE_POOL_STATS");
	int nl;

	if (v) {
		f->pp_stats = !strcmp(v, "y");
		f->pp_stats_source = "kernel config";
		return;
	}
	nl = genl_page_pool_stats_supported();
	f->pp_stats = nl >= 0 ? nl : -1;
	f->pp_stats_source = nl >= 0 ? "netlink page-pool-stats-get"
				     : "unknown (no config, "
				       "no netlink-visible pool)";
}

int ppb_probe_cpumap_prog(void)
{
	return probe_load("ppb_probe_cpumap");
}

/*
 * fentry needs a trampoline attached to a kernel function, not only a program
 * that loads: arm64's 6.1 loads fentry programs and refuses to attach them
 * to kernel functions (ENOTSUPP, 524), which bench met only at its observer.
 */
static int probe_fentry_attach(void)
{
	struct probe_bpf *skel;
	struct bpf_link *link;
	int err;

	skel = load_one("ppb_probe_fentry", &err);
	if (!skel)
		return err;
	link = bpf_program__attach(skel->progs.ppb_probe_fentry);
	err = link ? 0 : -errno;
	bpf_link__destroy(link);
	probe_bpf__destroy(skel);
	return err;
}

int ppb_probe_fentry(void)
{
	static int cached = 1;

	if (cached == 1)
		cached = ppb_disabled("fentry") ? -EPERM : probe_fentry_attach();
	return cached;
}

int features_probe(struct ppb_features *f)
{
	struct utsname u;

	memset(f, 0, sizeof(*f));
	uname(&u);
	snprintf(f->kernel, sizeof(f->kernel), "%s", u.release);
	snprintf(f->btf_path, sizeof(f->btf_path), "%s", ppb_btf_path());
	f->btf = ppb_vmlinux_btf() != NULL;
	f->nr_cpus = nr_online_cpus();
	f->tsc_ok = tsc_calibrate(&f->tsc) == 0;
	f->live_frames = ppb_probe_live_frames();
	f->fentry = ppb_probe_fentry();
	f->cpumap_prog = probe_load("ppb_probe_cpumap");
	f->devmap_prog = probe_load("ppb_probe_devmap");
	f->generic_frags = probe_generic_frags();
	probe_pp_stats(f);
	for (int i = 0; i < ppb_nr_tracepoints; i++)
		f->tp_present[i] = ppb_tracepoint_present(ppb_tracepoints[i].name);
	f->bpffs = bpffs_mounted(NULL);
	f->page_size = sys_page_size();
	f->pp_cache_size = ppb_pool_cache_size();
	f->pp_refill = ppb_pool_refill();
	return 0;
}

/* A tracing link's target name, from the kernel BTF (fentry/fexit). */
static const char *tracing_target(__u32 btf_id)
{
	struct btf *btf = ppb_vmlinux_btf();
	const struct btf_type *t = btf ? btf__type_by_id(btf, btf_id) : NULL;

	return t ? btf__name_by_offset(btf, t->name_off) : "";
}

static bool pp_hook(const char *name)
{
	return !strncmp(name, "page_pool", 9) || !strcmp(name, "napi_poll") ||
	       !strcmp(name, "mem_connect");
}

/* The links this process holds (our own programs): their fdinfo says
 * "link_id:". Returns how many of up to 'max' were found. */
static int own_links(__u32 *ids, int max)
{
	char path[300], line[128];
	struct dirent *d;
	unsigned int v;
	int n = 0;
	DIR *dir;
	FILE *f;

	dir = opendir("/proc/self/fdinfo");
	while (dir && n < max && (d = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%s", d->d_name);
		f = d->d_name[0] != '.' ? fopen(path, "r") : NULL;
		while (f && n < max && fgets(line, sizeof(line), f))
			if (sscanf(line, "link_id: %u", &v) == 1)
				ids[n++] = v;
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
	return n;
}

int ppb_count_pp_probes(void)
{
	struct bpf_link_info info;
	char tp[64];
	__u32 id = 0, len, own[64];
	int n = 0, fd, i, nr_own = own_links(own, 64);

	while (!bpf_link_get_next_id(id, &id)) {
		for (i = 0; i < nr_own && own[i] != id; i++)
			;
		if (i < nr_own)
			continue;
		fd = bpf_link_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		tp[0] = '\0';
		info.raw_tracepoint.tp_name = (__u64)(unsigned long)tp;
		info.raw_tracepoint.tp_name_len = sizeof(tp);
		len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len)) {
			if (info.type == BPF_LINK_TYPE_RAW_TRACEPOINT && pp_hook(tp))
				n++;
			if (info.type == BPF_LINK_TYPE_TRACING &&
			    pp_hook(tracing_target(info.tracing.target_btf_id)))
				n++;
		}
		close(fd);
	}
	return n;
}

/* page_pool's page-size dependent constants from the kernel's BTF. */
/* Elements of the array member NAME of struct STRUCT (0: not found). */
static uint32_t array_len(const char *strct, const char *name)
{
	const struct btf *btf = ppb_vmlinux_btf();
	const struct btf_member *m;
	const struct btf_type *t;
	int id;

	id = btf ? btf__find_by_name_kind(btf, strct, BTF_KIND_STRUCT) : -1;
	if (id <= 0)
		return 0;
	t = btf__type_by_id(btf, id);
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const struct btf_type *a;

		if (strcmp(btf__name_by_offset(btf, m->name_off), name))
			continue;
		a = btf__type_by_id(btf, m->type);
		return a && btf_is_array(a) ? btf_array(a)->nelems : 0;
	}
	return 0;
}

uint32_t ppb_pool_cache_size(void)
{
	static uint32_t n;

	if (!n)
		n = array_len("pp_alloc_cache", "cache") ?: 128;
	return n;
}

uint32_t ppb_pool_refill(void)
{
	return ppb_pool_cache_size() / 2;
}

/* Does a driver module hold page_pools? Its BTF says. */
/* Through typedefs and qualifiers to the type id a member's type names. */
static const struct btf_type *skip_mods(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, t->type);
	return t;
}

static bool points_to_page_pool(const struct btf *btf, __u32 type)
{
	const struct btf_type *t = skip_mods(btf, type);

	if (!t || !btf_is_ptr(t))
		return false;
	t = skip_mods(btf, t->type);
	return t && btf_is_struct(t) && !strcmp(btf__name_by_offset(btf, t->name_off), "page_pool");
}

int ppb_driver_page_pool(const char *driver, char *member, size_t len)
{
	struct btf *base = ppb_vmlinux_btf(), *mod;
	char path[256];
	int found = 0;

	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", driver);
	mod = base ? btf__parse_split(path, base) : NULL;
	if (!mod)
		return -ENOENT;
	/* the module's own types follow the kernel's in a split BTF */
	for (__u32 id = btf__type_cnt(base); id < btf__type_cnt(mod) && !found; id++) {
		const struct btf_type *t = btf__type_by_id(mod, id);
		const struct btf_member *m;

		if (!btf_is_struct(t))
			continue;
		m = btf_members(t);
		for (int i = 0; i < btf_vlen(t); i++, m++) {
			if (!points_to_page_pool(mod, m->type))
				continue;
			snprintf(member, len, "%s.%s", btf__name_by_offset(mod, t->name_off),
				 btf__name_by_offset(mod, m->name_off));
			found = 1;
			break;
		}
	}
	btf__free(mod);
	return found;
}
