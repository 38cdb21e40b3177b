/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_NL_H
#define PPBENCH_NL_H

#include <stdbool.h>
#include <stdint.h>
#include "sys/util.h"

/*
 * Small rtnetlink / generic-netlink client. A socket stays bound to the
 * network namespace it was opened in, so the private environment opens one
 * per namespace and never needs to switch back to configure it.
 */
struct nl_sock {
	int fd;
	uint32_t seq;
};

int nl_open(struct nl_sock *s, int protocol);
void nl_close(struct nl_sock *s);

struct link_info {
	int ifindex;
	char kind[32]; /* IFLA_INFO_KIND, e.g. "veth"; empty for none */
	uint8_t mac[6];
	int peer_ifindex; /* IFLA_LINK (veth peer), 0 if none */
	int peer_netnsid; /* IFLA_LINK_NETNSID: peer in another namespace, else -1 */
};

/* veth pair: end A in namespace fd ns_a, end B in ns_b. */
int rtnl_veth_create(struct nl_sock *s, const char *a, int ns_a, const char *b, int ns_b);
int rtnl_link_get(struct nl_sock *s, const char *name, int ifindex, struct link_info *out);
/* The same for ifindex in the namespace with id netnsid (as seen from ours). */
int rtnl_link_get_nsid(struct nl_sock *s, int netnsid, int ifindex, struct link_info *out);
int rtnl_link_set_up(struct nl_sock *s, int ifindex);
int rtnl_addr_add(struct nl_sock *s, int ifindex, const struct ip_addr *a, int prefixlen);
int rtnl_neigh_add(struct nl_sock *s, int ifindex, const struct ip_addr *a, const uint8_t mac[6]);
/* First neighbour entry on ifindex with a link-layer address (for defaults). */
int rtnl_neigh_first(struct nl_sock *s, int ifindex, int family, struct ip_addr *a, uint8_t mac[6]);
/* First address of family on ifindex. */
int rtnl_addr_first(struct nl_sock *s, int ifindex, int family, struct ip_addr *a);

/* NETDEV_XDP_ACT_* bits (uapi linux/netdev.h, 6.3+; Debian 12 headers lack it), named in
 * order by xdp_act_names. */
enum { PPB_XDP_ACT_BASIC = 1 << 0, PPB_XDP_ACT_NDO_XMIT = 1 << 2 };
extern const char *const xdp_act_names[7];

/* netdev genl family: XDP features of ifindex (-EOPNOTSUPP before 6.3). */
int genl_xdp_features(int ifindex, uint64_t *features);
/* page-pool-stats-get: 1 if the kernel has CONFIG_PAGE_POOL_STATS, 0 if not, <0 unknown. */
int genl_page_pool_stats_supported(void);
/*
 * A page_pool as the kernel lists it (netdev genl page-pool-get, 6.8+: the
 * pools whose driver named their device), with its CONFIG_PAGE_POOL_STATS
 * counters (page-pool-stats-get) when has_stats.
 */
struct nl_page_pool {
	uint32_t id;
	uint32_t napi_id;
	uint64_t inflight;
	bool has_stats;
	union {
		struct {
			uint64_t alloc_fast, alloc_slow, alloc_slow_high_order, alloc_empty,
				alloc_refill, alloc_waive;
			uint64_t recycle_cached, recycle_cache_full, recycle_ring,
				recycle_ring_full, recycle_released_refcnt;
		};
		uint64_t stats[11]; /* in the order of their netlink attributes */
	};
};
/*
 * The pools of ifindex into out (at most max): their number, or -errno
 * (-EOPNOTSUPP: no page-pool-get in this kernel).
 */
int genl_page_pools(int ifindex, struct nl_page_pool *out, int max);
/* Driver name through the ethtool ioctl. */
int ethtool_driver(const char *ifname, char *driver, size_t len);

#endif
