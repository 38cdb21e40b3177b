/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_FEATURES_H
#define PPBENCH_FEATURES_H

#include <stdbool.h>
#include "sys/tsc_clock.h"

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
	long page_size;		/* the kernel's PAGE_SIZE */
	uint32_t pp_cache_size; /* PP_ALLOC_CACHE_SIZE (from BTF) */
	uint32_t pp_refill;	/* PP_ALLOC_CACHE_REFILL: pages per slow allocation */
};

/* True if the probe found tracepoint NAME (one of ppb_tracepoints). */
bool features_tp_present(const struct ppb_features *f, const char *name);
const char *errno_name(int err); /* "EPERM" for -EPERM */

#endif
