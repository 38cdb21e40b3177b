/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROBE_REPORT_H
#define PPBENCH_PROBE_REPORT_H

#include <stdint.h>
#include <linux/types.h>
#include "model/features.h"

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
};

/*
 * The text (unless JSON goes to stdout, "-") and, with JSON, the JSON of
 * probe; ii NULL: no interface. 0, or -1 after a one-line error.
 */
int probe_report(const struct ppb_features *f, const struct iface_info *ii, const char *bpffs_path,
		 const char *json);

#endif
