/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_KFEATURES_H
#define PPBENCH_KFEATURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "model/features.h"

/* The kernel BTF ($PPBENCH_BTF or /sys/kernel/btf/vmlinux), parsed once (NULL: none). */
struct btf;
struct btf *ppb_vmlinux_btf(void);
/* The kernel config values our objects' __kconfig externs read (NULL: none). */
const char *ppb_bpf_kconfig(void);
/* Open options of every object of ours: CO-RE BTF and those config values. */
struct bpf_object_open_opts;
void ppb_open_opts(struct bpf_object_open_opts *oo);
bool ppb_tracepoint_present(const char *name);
/* The trivial XDP program of bpf/probe.bpf.c (returns XDP_DROP), loaded alone. */
struct probe_bpf;
struct probe_bpf *ppb_probe_xdp_load(int *err);
/*
 * The functions that tell test-run and veth pools apart, into an object's
 * config just before it loads (veth's appear once veth.ko is loaded).
 */
struct ppb_obs_config;
void ppb_pool_ksyms(struct ppb_obs_config *c);

/*
 * What a command needs of this system (struct cli_cmd's needs): privileges,
 * then kernel BTF, then (commands that load the page_pool programs) the
 * kernel config's values they need. ppb_check_needs() checks them in that
 * order, each failure a one-line error; 0, or a negative errno.
 */
enum {
	PPB_NEED_ROOT = 1 << 0,
	PPB_NEED_BTF = 1 << 1,
	PPB_NEED_KCONFIG = 1 << 2,
};

int ppb_check_needs(const char *cmd, unsigned needs);
/* bpffs mounted at $PPBENCH_BPFFS or /sys/fs/bpf. */
bool bpffs_mounted(const char **path);

int features_probe(struct ppb_features *f);
/* Single probes: 0 if supported, else -errno. */
int ppb_probe_live_frames(void);
int ppb_probe_cpumap_prog(void);
int ppb_probe_fentry(void);
/* BPF links of other processes on page_pool tracepoints/functions, napi_poll
 * and mem_connect. */
int ppb_count_pp_probes(void);

/*
 * page_pool's PP_ALLOC_CACHE_SIZE (the length of struct pp_alloc_cache's
 * cache[] in the kernel BTF: kernels such as 7.3 scale it with the page size)
 * and PP_ALLOC_CACHE_REFILL, half of it; 128 and 64 where the BTF lacks it.
 */
uint32_t ppb_pool_cache_size(void);
uint32_t ppb_pool_refill(void);

/*
 * Whether a driver module keeps its RX buffers in page_pools: a struct in its
 * BTF (/sys/kernel/btf/DRIVER) has a member that points to a struct page_pool.
 * 1 with "struct.member" in member, 0 if none has, -ENOENT with no module BTF.
 */
int ppb_driver_page_pool(const char *driver, char *member, size_t len);

#endif
