// SPDX-License-Identifier: GPL-2.0
/* What loader/kfeatures.c probes for, as data: the tracepoints and errno names. */
#include <errno.h>
#include <string.h>
#include "model/features.h"
#include "sys/util.h"

#ifndef ENOTSUPP
#define ENOTSUPP 524 /* kernel-internal, but BPF syscalls return it */
#endif

const struct tp_desc ppb_tracepoints[] = {
	{ "page_pool", "page_pool_state_hold", "slow-path allocations (exact)" },
	{ "page_pool", "page_pool_state_release", "releases to the page allocator (exact)" },
	{ "page_pool", "page_pool_release", "pool teardown totals" },
	{ "page_pool", "page_pool_update_nid", NULL },
	{ "xdp", "xdp_exception", "XDP errors (load)" },
	{ "xdp", "xdp_bulk_tx", "XDP_TX bulks (load)" },
	{ "xdp", "xdp_redirect", "redirects (load)" },
	{ "xdp", "xdp_redirect_err", "redirect failures (load)" },
	{ "xdp", "xdp_redirect_map", NULL },
	{ "xdp", "xdp_redirect_map_err", NULL },
	{ "xdp", "xdp_cpumap_enqueue", "cpumap queue drops (load, ring-xcpu)" },
	{ "xdp", "xdp_cpumap_kthread", "cpumap remote-CPU batches (ring-xcpu timing)" },
	{ "xdp", "xdp_devmap_xmit", "devmap transmit counts (load)" },
	{ "xdp", "mem_connect", "NIC pools registered as XDP memory model" },
	{ "xdp", "mem_disconnect", "XDP memory-model removal" },
	{ "xdp", "bpf_xdp_link_attach_failed", NULL },
	{ "napi", "napi_poll", "pool-state samples per NAPI poll (veth, NIC)" },
};
const int ppb_nr_tracepoints = ARRAY_SIZE(ppb_tracepoints);

const char *errno_name(int err)
{
	const char *name;

	err = err < 0 ? -err : err;
	if (!err)
		return "ok";
	if (err == ENOTSUPP)
		return "ENOTSUPP";
	name = strerrorname_np(err);
	return name ? name : strerror(err);
}

bool features_tp_present(const struct ppb_features *f, const char *name)
{
	for (int i = 0; i < ppb_nr_tracepoints; i++)
		if (!strcmp(ppb_tracepoints[i].name, name))
			return f->tp_present[i];
	return false;
}
