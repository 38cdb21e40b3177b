/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_KFEATURES_H
#define PPBENCH_KFEATURES_H

#include <stdbool.h>
#include "sys/tsc.h"

/* Tracepoints ppbench knows about; present = a btf_trace_<name> type in BTF. */
struct tp_desc {
	const char *group;
	const char *name;
	const char *use; /* what ppbench uses it for, or NULL if only reported */
};
extern const struct tp_desc ppb_tracepoints[];
extern const int ppb_nr_tracepoints;

struct ppb_features {
	char kernel[65];
	char btf_path[256];
	bool btf;
	int nr_cpus;
	struct tsc_info tsc;
	bool tsc_ok;
	int live_frames;   /* 0 ok, else -errno */
	int fentry;	   /* 0 ok, else -errno (EPERM where refused) */
	int cpumap_prog;   /* 0 ok, else -errno */
	int devmap_prog;   /* 0 ok, else -errno */
	int generic_frags; /* 0 ok, else -errno */
	int pp_stats;	   /* 1 on, 0 off, -1 unknown */
	const char *pp_stats_source;
	bool tp_present[32];
	bool bpffs;
};

/* Path of the kernel BTF: $PPBENCH_BTF or /sys/kernel/btf/vmlinux. */
const char *ppb_btf_path(void);
/* BTF to hand to libbpf's open opts (NULL when the default path is used). */
const char *ppb_btf_custom_path(void);
bool ppb_tracepoint_present(const char *name);
/* The trivial XDP program of bpf/probe.bpf.c (returns XDP_DROP), loaded alone. */
struct probe_bpf;
struct probe_bpf *ppb_probe_xdp_load(int *err);

/*
 * Checks every command that loads BPF makes first, each printing the
 * one-line error itself: privileges, then kernel BTF.
 */
int need_privileges(const char *cmd);
int need_btf(void);
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
/* PPBENCH_DISABLE=live_frames,fentry: test the degraded paths. */
bool ppb_disabled(const char *feature);
const char *errno_name(int err); /* "EPERM" for -EPERM */

#endif
