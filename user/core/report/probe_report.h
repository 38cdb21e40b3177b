/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROBE_REPORT_H
#define PPBENCH_PROBE_REPORT_H

#include <stdint.h>
#include <linux/types.h>
#include "model/features.h"
#include "sys/nl.h"

/* The interface `ppbench probe IFACE` looked at. */
struct iface_info {
	const char *name;
	int ifindex;
	char driver[64];
	char kind[32];
	uint64_t xdp_features;
	int xdp_features_err;
	__u32 prog_id;
	const char *attach_mode;
	/* page_pool: the driver's BTF (ppb_driver_page_pool(): 1, 0, -ENOENT) and the
	 * kernel's list of the device's pools (nr_pools < 0: -errno, no list) */
	int drv_pool;
	char drv_pool_member[128];
	int nr_pools;
	struct nl_page_pool pools[16];
};

/*
 * The text (unless JSON goes to stdout, "-") and, with JSON, the JSON of
 * probe; ii NULL: no interface. 0, or -1 after a one-line error.
 */
int probe_report(const struct ppb_features *f, const struct iface_info *ii, const char *bpffs_path,
		 const char *json);

#endif
