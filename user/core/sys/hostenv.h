/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_HOSTENV_H
#define PPBENCH_HOSTENV_H

#include <stdbool.h>
#include <stdint.h>

/*
 * What the guest can see of a host that may run it on levels: whether
 * virtio_balloon reports free pages to the host (feature bit 5), the
 * reporting order, the steal time the hypervisor reports, and whether a
 * DAMON kdamond runs. Each fact is absent (has_* false) where this machine
 * does not expose it.
 */
struct hostenv {
	bool has_balloon, free_page_reporting;
	bool has_reporting_order;
	uint64_t reporting_order;
	bool has_steal;
	uint64_t steal_ticks; /* since boot, USER_HZ ticks, all CPUs (/proc/stat) */
	bool damon_kdamond;   /* a kdamond thread runs */
};

void hostenv_read(struct hostenv *h);

#endif
