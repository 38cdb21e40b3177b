/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_VETHENV_H
#define PPBENCH_VETHENV_H

#include <net/if.h>
#include <stdint.h>
#include "sys/util.h"

/*
 * The embedded default: two network namespaces joined by a veth pair.
 *
 *   +-- netns A (fd ns[0]) --+          +-- netns B (fd ns[1]) --+
 *   |  ppbN-a  10.77.0.1/24  |==veth==|  ppbN-b  10.77.0.2/24  |
 *   +------------------------+          +------------------------+
 *
 * The namespaces are unnamed and held only by file descriptors of this
 * process (no bind mounts under /run/netns), so when the process ends - also
 * by SIGKILL - the kernel frees both namespaces and the veth pair with them.
 * IPv6 is disabled in both so no ND/MLD packet pollutes exact counts.
 */
struct ppb_env {
	int orig_ns;
	int ns[2];
	char ifname[2][IF_NAMESIZE];
	int ifindex[2];
	uint8_t mac[2][6];
	struct ip_addr ip4[2];
};

int env_create(struct ppb_env *e);
void env_destroy(struct ppb_env *e);
/* Switch the calling thread into side 0/1, or back to the original netns. */
int env_enter(const struct ppb_env *e, int side);
int env_leave(const struct ppb_env *e);

/* A new namespace held only by the returned fd (its lo is up); -errno on error. */
int netns_new_fd(void);
/* Run in namespace fd (the calling thread only), and back. */
int netns_enter_fd(int fd, int *orig);
void netns_leave_fd(int orig);

/* A throwaway namespace with only 'lo' (probes that must attach somewhere). */
int netns_private_enter(int *orig_ns);
int netns_private_leave(int orig_ns);

#endif
