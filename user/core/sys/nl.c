// SPDX-License-Identifier: GPL-2.0
/* Minimal netlink: just the requests ppbench makes, built by hand. */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <linux/veth.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include "sys/nl.h"

#define NL_BUF 8192

const char *const xdp_act_names[7] = { "basic",	     "redirect", "ndo-xmit",   "xsk-zerocopy",
				       "hw-offload", "rx-sg",	 "ndo-xmit-sg" };

struct nl_msg {
	union {
		struct nlmsghdr nh;
		char buf[NL_BUF];
	};
};

/* netdev genl family constants (uapi linux/netdev.h). */
enum {
	PPB_NETDEV_CMD_DEV_GET = 1,
	PPB_NETDEV_CMD_PAGE_POOL_GET = 5,
	PPB_NETDEV_CMD_PAGE_POOL_STATS_GET = 9,
	PPB_NETDEV_A_DEV_IFINDEX = 1,
	PPB_NETDEV_A_DEV_XDP_FEATURES = 3,
	PPB_NETDEV_A_PAGE_POOL_ID = 1,
	PPB_NETDEV_A_PAGE_POOL_IFINDEX = 2,
	PPB_NETDEV_A_PAGE_POOL_NAPI_ID = 3,
	PPB_NETDEV_A_PAGE_POOL_INFLIGHT = 4,
	PPB_NETDEV_A_PAGE_POOL_MAX = 8,
	PPB_NETDEV_A_PAGE_POOL_STATS_INFO = 1,
	PPB_NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST = 8, /* ... RECYCLE_RELEASED_REFCNT = 18 */
	PPB_NETDEV_A_PAGE_POOL_STATS_MAX = 18,
};

int nl_open(struct nl_sock *s, int protocol)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1;

	s->seq = 1;
	s->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, protocol);
	if (s->fd < 0)
		return -errno;
	setsockopt(s->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	if (bind(s->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = -errno;

		close(s->fd);
		s->fd = -1;
		return err;
	}
	return 0;
}

void nl_close(struct nl_sock *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

static void msg_init(struct nl_msg *m, int type, int flags, const void *hdr, size_t hdrlen)
{
	memset(m, 0, sizeof(struct nlmsghdr) + NLMSG_ALIGN(hdrlen));
	m->nh.nlmsg_len = NLMSG_LENGTH(hdrlen);
	m->nh.nlmsg_type = type;
	m->nh.nlmsg_flags = NLM_F_REQUEST | flags;
	memcpy(NLMSG_DATA(&m->nh), hdr, hdrlen);
}

static struct nlattr *attr_put(struct nl_msg *m, int type, const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)(m->buf + NLMSG_ALIGN(m->nh.nlmsg_len));

	if (NLMSG_ALIGN(m->nh.nlmsg_len) + NLA_HDRLEN + NLA_ALIGN(len) > NL_BUF)
		return NULL;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	m->nh.nlmsg_len = NLMSG_ALIGN(m->nh.nlmsg_len) + NLA_ALIGN(a->nla_len);
	return a;
}

static void nest_end(struct nl_msg *m, struct nlattr *a)
{
	a->nla_len = (char *)m->buf + m->nh.nlmsg_len - (char *)a;
}

static void attr_put_str(struct nl_msg *m, int type, const char *s)
{
	attr_put(m, type, s, strlen(s) + 1);
}

static void attr_put_u32(struct nl_msg *m, int type, uint32_t v)
{
	attr_put(m, type, &v, sizeof(v));
}

typedef int (*nl_cb)(struct nlmsghdr *nh, void *arg);

/* Send a request and read replies until ACK/DONE; cb sees each data message. */
static int nl_talk(struct nl_sock *s, struct nl_msg *m, nl_cb cb, void *arg)
{
	static char buf[32768];
	bool done = false;
	int err = 0;

	m->nh.nlmsg_seq = ++s->seq;
	if (send(s->fd, m, m->nh.nlmsg_len, 0) < 0)
		return -errno;
	while (!done) {
		ssize_t n = recv(s->fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nh;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, (size_t)n); nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_seq != s->seq)
				continue;
			if (nh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(nh);

				if (e->error)
					err = e->error;
				done = true;
				break;
			}
			if (nh->nlmsg_type == NLMSG_DONE) {
				done = true;
				break;
			}
			if (cb && !err)
				err = cb(nh, arg);
			if (!(nh->nlmsg_flags & NLM_F_MULTI))
				done = !(m->nh.nlmsg_flags & NLM_F_ACK);
		}
	}
	return err;
}

/* Walk attributes: tb[type] = attr for type <= max. */
static void attr_parse(struct nlattr **tb, int max, void *data, int len)
{
	struct nlattr *a = data;

	memset(tb, 0, sizeof(*tb) * (max + 1));
	while (len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= len) {
		int type = a->nla_type & NLA_TYPE_MASK;

		if (type <= max)
			tb[type] = a;
		len -= NLA_ALIGN(a->nla_len);
		a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len));
	}
}

#define ATTR_DATA(a) ((void *)((char *)(a) + NLA_HDRLEN))
#define ATTR_LEN(a) ((a)->nla_len - NLA_HDRLEN)

/* The attributes after a message's HDRLEN-byte family header. */
static void msg_parse(struct nlattr **tb, int max, struct nlmsghdr *nh, size_t hdrlen)
{
	attr_parse(tb, max, (char *)NLMSG_DATA(nh) + NLMSG_ALIGN(hdrlen),
		   nh->nlmsg_len - NLMSG_LENGTH(hdrlen));
}

int rtnl_veth_create(struct nl_sock *s, const char *a, int ns_a, const char *b, int ns_b)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nlattr *li, *data, *peer;
	struct nl_msg m;

	msg_init(&m, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK, &ifi, sizeof(ifi));
	attr_put_str(&m, IFLA_IFNAME, a);
	attr_put_u32(&m, IFLA_NET_NS_FD, ns_a);
	li = attr_put(&m, IFLA_LINKINFO | NLA_F_NESTED, NULL, 0);
	attr_put_str(&m, IFLA_INFO_KIND, "veth");
	data = attr_put(&m, IFLA_INFO_DATA | NLA_F_NESTED, NULL, 0);
	/* VETH_INFO_PEER carries an ifinfomsg followed by the peer's attributes. */
	peer = attr_put(&m, VETH_INFO_PEER, &ifi, sizeof(ifi));
	attr_put_str(&m, IFLA_IFNAME, b);
	attr_put_u32(&m, IFLA_NET_NS_FD, ns_b);
	nest_end(&m, peer);
	nest_end(&m, data);
	nest_end(&m, li);
	return nl_talk(s, &m, NULL, NULL);
}

static int link_cb(struct nlmsghdr *nh, void *arg)
{
	struct ifinfomsg *ifi = NLMSG_DATA(nh);
	struct nlattr *tb[IFLA_MAX + 1], *li[IFLA_INFO_MAX + 1];
	struct link_info *out = arg;

	if (nh->nlmsg_type != RTM_NEWLINK)
		return 0;
	msg_parse(tb, IFLA_MAX, nh, sizeof(*ifi));
	out->ifindex = ifi->ifi_index;
	if (tb[IFLA_ADDRESS] && ATTR_LEN(tb[IFLA_ADDRESS]) == 6)
		memcpy(out->mac, ATTR_DATA(tb[IFLA_ADDRESS]), 6);
	if (tb[IFLA_LINK])
		out->peer_ifindex = *(uint32_t *)ATTR_DATA(tb[IFLA_LINK]);
	out->peer_netnsid = -1;
	if (tb[IFLA_LINK_NETNSID])
		out->peer_netnsid = *(int32_t *)ATTR_DATA(tb[IFLA_LINK_NETNSID]);
	if (tb[IFLA_LINKINFO]) {
		attr_parse(li, IFLA_INFO_MAX, ATTR_DATA(tb[IFLA_LINKINFO]),
			   ATTR_LEN(tb[IFLA_LINKINFO]));
		if (li[IFLA_INFO_KIND])
			snprintf(out->kind, sizeof(out->kind), "%s",
				 (char *)ATTR_DATA(li[IFLA_INFO_KIND]));
	}
	return 0;
}

int rtnl_link_get(struct nl_sock *s, const char *name, int ifindex, struct link_info *out)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex };
	struct nl_msg m;

	memset(out, 0, sizeof(*out));
	msg_init(&m, RTM_GETLINK, 0, &ifi, sizeof(ifi));
	if (name)
		attr_put_str(&m, IFLA_IFNAME, name);
	attr_put_u32(&m, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS);
	return nl_talk(s, &m, link_cb, out);
}

int rtnl_link_get_nsid(struct nl_sock *s, int netnsid, int ifindex, struct link_info *out)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex };
	struct nl_msg m;

	memset(out, 0, sizeof(*out));
	msg_init(&m, RTM_GETLINK, 0, &ifi, sizeof(ifi));
	attr_put_u32(&m, IFLA_TARGET_NETNSID, netnsid);
	attr_put_u32(&m, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS);
	return nl_talk(s, &m, link_cb, out);
}

int rtnl_link_set_up(struct nl_sock *s, int ifindex)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC,
				 .ifi_index = ifindex,
				 .ifi_flags = IFF_UP,
				 .ifi_change = IFF_UP };
	struct nl_msg m;

	msg_init(&m, RTM_NEWLINK, NLM_F_ACK, &ifi, sizeof(ifi));
	return nl_talk(s, &m, NULL, NULL);
}

static size_t ip_len(const struct ip_addr *a)
{
	return a->family == AF_INET ? sizeof(a->v4) : sizeof(a->v6);
}

int rtnl_addr_add(struct nl_sock *s, int ifindex, const struct ip_addr *a, int prefixlen)
{
	struct ifaddrmsg ifa = { .ifa_family = a->family,
				 .ifa_prefixlen = prefixlen,
				 .ifa_flags = IFA_F_NODAD,
				 .ifa_index = ifindex };
	struct nl_msg m;

	msg_init(&m, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK, &ifa, sizeof(ifa));
	attr_put(&m, IFA_LOCAL, &a->v4, ip_len(a));
	attr_put(&m, IFA_ADDRESS, &a->v4, ip_len(a));
	return nl_talk(s, &m, NULL, NULL);
}

int rtnl_neigh_add(struct nl_sock *s, int ifindex, const struct ip_addr *a, const uint8_t mac[6])
{
	struct ndmsg nd = { .ndm_family = a->family,
			    .ndm_ifindex = ifindex,
			    .ndm_state = NUD_PERMANENT };
	struct nl_msg m;

	msg_init(&m, RTM_NEWNEIGH, NLM_F_CREATE | NLM_F_REPLACE | NLM_F_ACK, &nd, sizeof(nd));
	attr_put(&m, NDA_DST, &a->v4, ip_len(a));
	attr_put(&m, NDA_LLADDR, mac, 6);
	return nl_talk(s, &m, NULL, NULL);
}

struct first_q {
	int ifindex, family, found;
	struct ip_addr *a;
	uint8_t *mac;
};

static int dump_first(struct nl_sock *s, int type, const void *hdr, size_t len, nl_cb cb,
		      struct first_q *q)
{
	struct nl_msg m;
	int err;

	msg_init(&m, type, NLM_F_DUMP, hdr, len);
	err = nl_talk(s, &m, cb, q);
	return err ? err : q->found ? 0 : -ENOENT;
}

static int neigh_cb(struct nlmsghdr *nh, void *arg)
{
	struct ndmsg *nd = NLMSG_DATA(nh);
	struct nlattr *tb[NDA_MAX + 1];
	struct first_q *q = arg;

	if (q->found || nh->nlmsg_type != RTM_NEWNEIGH || nd->ndm_ifindex != q->ifindex ||
	    nd->ndm_family != q->family)
		return 0;
	msg_parse(tb, NDA_MAX, nh, sizeof(*nd));
	if (!tb[NDA_DST] || !tb[NDA_LLADDR] || ATTR_LEN(tb[NDA_LLADDR]) != 6)
		return 0;
	if (nd->ndm_state & (NUD_FAILED | NUD_INCOMPLETE | NUD_NOARP))
		return 0;
	q->a->family = nd->ndm_family;
	memcpy(&q->a->v4, ATTR_DATA(tb[NDA_DST]), ip_len(q->a));
	memcpy(q->mac, ATTR_DATA(tb[NDA_LLADDR]), 6);
	q->found = 1;
	return 0;
}

int rtnl_neigh_first(struct nl_sock *s, int ifindex, int family, struct ip_addr *a, uint8_t mac[6])
{
	struct ndmsg nd = { .ndm_family = family };
	struct first_q q = { ifindex, family, 0, a, mac };

	return dump_first(s, RTM_GETNEIGH, &nd, sizeof(nd), neigh_cb, &q);
}

static int addr_cb(struct nlmsghdr *nh, void *arg)
{
	struct ifaddrmsg *ifa = NLMSG_DATA(nh);
	struct nlattr *tb[IFA_MAX + 1];
	struct first_q *q = arg;

	if (q->found || nh->nlmsg_type != RTM_NEWADDR || (int)ifa->ifa_index != q->ifindex ||
	    ifa->ifa_family != q->family)
		return 0;
	msg_parse(tb, IFA_MAX, nh, sizeof(*ifa));
	if (!tb[IFA_ADDRESS])
		return 0;
	q->a->family = ifa->ifa_family;
	memcpy(&q->a->v4, ATTR_DATA(tb[IFA_LOCAL] ?: tb[IFA_ADDRESS]), ip_len(q->a));
	q->found = 1;
	return 0;
}

int rtnl_addr_first(struct nl_sock *s, int ifindex, int family, struct ip_addr *a)
{
	struct ifaddrmsg ifa = { .ifa_family = family };
	struct first_q q = { ifindex, family, 0, a, NULL };

	return dump_first(s, RTM_GETADDR, &ifa, sizeof(ifa), addr_cb, &q);
}

/* ---- generic netlink ---------------------------------------------------- */

static int family_cb(struct nlmsghdr *nh, void *arg)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];

	msg_parse(tb, CTRL_ATTR_MAX, nh, GENL_HDRLEN);
	if (tb[CTRL_ATTR_FAMILY_ID])
		*(int *)arg = *(uint16_t *)ATTR_DATA(tb[CTRL_ATTR_FAMILY_ID]);
	return 0;
}

static int genl_family(struct nl_sock *s, const char *name)
{
	struct genlmsghdr g = { .cmd = CTRL_CMD_GETFAMILY, .version = 1 };
	struct nl_msg m;
	int id = -ENOENT, err;

	msg_init(&m, GENL_ID_CTRL, 0, &g, sizeof(g));
	attr_put_str(&m, CTRL_ATTR_FAMILY_NAME, name);
	err = nl_talk(s, &m, family_cb, &id);
	return err ? err : id;
}

static int xdp_features_cb(struct nlmsghdr *nh, void *arg)
{
	struct nlattr *tb[PPB_NETDEV_A_DEV_XDP_FEATURES + 1];

	msg_parse(tb, PPB_NETDEV_A_DEV_XDP_FEATURES, nh, GENL_HDRLEN);
	if (tb[PPB_NETDEV_A_DEV_XDP_FEATURES])
		memcpy(arg, ATTR_DATA(tb[PPB_NETDEV_A_DEV_XDP_FEATURES]), sizeof(uint64_t));
	return 0;
}

/*
 * One request of command CMD to the "netdev" family on a socket of its own
 * (to ifindex IFINDEX, or a dump): -ENOENT when the kernel has no such
 * family (before 6.3).
 */
static int netdev_talk(int cmd, bool dump, int ifindex, nl_cb cb, void *arg)
{
	struct genlmsghdr g = { .cmd = cmd, .version = 1 };
	struct nl_sock s;
	struct nl_msg m;
	int fam, err;

	err = nl_open(&s, NETLINK_GENERIC);
	if (err)
		return err;
	fam = genl_family(&s, "netdev");
	if (fam >= 0) {
		msg_init(&m, fam, dump ? NLM_F_DUMP : 0, &g, sizeof(g));
		if (!dump)
			attr_put_u32(&m, PPB_NETDEV_A_DEV_IFINDEX, ifindex);
		fam = nl_talk(&s, &m, cb, arg);
	}
	nl_close(&s);
	return fam;
}

int genl_xdp_features(int ifindex, uint64_t *features)
{
	int err;

	*features = 0;
	err = netdev_talk(PPB_NETDEV_CMD_DEV_GET, false, ifindex, xdp_features_cb, features);
	return err == -ENOENT ? -EOPNOTSUPP : err;
}

static int count_cb(struct nlmsghdr *nh, void *arg)
{
	(void)nh;
	(*(int *)arg)++;
	return 0;
}

int genl_page_pool_stats_supported(void)
{
	int n = 0, err = netdev_talk(PPB_NETDEV_CMD_PAGE_POOL_STATS_GET, true, 0, count_cb, &n);

	/* Without CONFIG_PAGE_POOL_STATS the dump fails with EOPNOTSUPP on the first
	 * pool; with no netlink-visible pool the answer is unknown. */
	if (err == -EOPNOTSUPP)
		return 0;
	return err ? err : n > 0 ? 1 : -ENODATA;
}

int ethtool_driver(const char *ifname, char *driver, size_t len)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr = {};
	int fd, err = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&info;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		err = -errno;
	else
		snprintf(driver, len, "%s", info.driver);
	close(fd);
	return err;
}

/* ---- page pools the kernel lists (netdev genl) ---------------------------- */

/* A netlink "uint": 4 or 8 bytes. */
static uint64_t attr_uint(const struct nlattr *a)
{
	uint64_t v64 = 0;
	uint32_t v32 = 0;

	if (!a)
		return 0;
	if (ATTR_LEN(a) >= 8) {
		memcpy(&v64, ATTR_DATA(a), 8);
		return v64;
	}
	if (ATTR_LEN(a) >= 4)
		memcpy(&v32, ATTR_DATA(a), sizeof(v32));
	return v32;
}

struct pools_q {
	int ifindex;
	struct nl_page_pool *out;
	int max, n;
};

static int pool_cb(struct nlmsghdr *nh, void *arg)
{
	struct nlattr *tb[PPB_NETDEV_A_PAGE_POOL_MAX + 1];
	struct pools_q *q = arg;
	struct nl_page_pool *p;

	msg_parse(tb, PPB_NETDEV_A_PAGE_POOL_MAX, nh, GENL_HDRLEN);
	if (!tb[PPB_NETDEV_A_PAGE_POOL_ID] ||
	    (int)attr_uint(tb[PPB_NETDEV_A_PAGE_POOL_IFINDEX]) != q->ifindex || q->n >= q->max)
		return 0;
	p = &q->out[q->n++];
	memset(p, 0, sizeof(*p));
	p->id = (uint32_t)attr_uint(tb[PPB_NETDEV_A_PAGE_POOL_ID]);
	p->napi_id = (uint32_t)attr_uint(tb[PPB_NETDEV_A_PAGE_POOL_NAPI_ID]);
	p->inflight = attr_uint(tb[PPB_NETDEV_A_PAGE_POOL_INFLIGHT]);
	return 0;
}

static int pool_stats_cb(struct nlmsghdr *nh, void *arg)
{
	struct nlattr *tb[PPB_NETDEV_A_PAGE_POOL_STATS_MAX + 1];
	struct nlattr *info[PPB_NETDEV_A_PAGE_POOL_MAX + 1];
	struct pools_q *q = arg;
	uint32_t id;

	msg_parse(tb, PPB_NETDEV_A_PAGE_POOL_STATS_MAX, nh, GENL_HDRLEN);
	if (!tb[PPB_NETDEV_A_PAGE_POOL_STATS_INFO])
		return 0;
	attr_parse(info, PPB_NETDEV_A_PAGE_POOL_MAX,
		   ATTR_DATA(tb[PPB_NETDEV_A_PAGE_POOL_STATS_INFO]),
		   ATTR_LEN(tb[PPB_NETDEV_A_PAGE_POOL_STATS_INFO]));
	id = (uint32_t)attr_uint(info[PPB_NETDEV_A_PAGE_POOL_ID]);
	for (int i = 0; i < q->n; i++) {
		struct nl_page_pool *p = &q->out[i];

		if (p->id != id)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(p->stats); k++)
			p->stats[k] = attr_uint(tb[PPB_NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST + k]);
		p->has_stats = true;
	}
	return 0;
}

int genl_page_pools(int ifindex, struct nl_page_pool *out, int max)
{
	struct pools_q q = { ifindex, out, max, 0 };
	int err = netdev_talk(PPB_NETDEV_CMD_PAGE_POOL_GET, true, 0, pool_cb, &q);

	if (err == -EINVAL || err == -ENOENT)
		return -EOPNOTSUPP; /* no such command before 6.8, no family before 6.3 */
	/* Without CONFIG_PAGE_POOL_STATS this dump fails: the pools stay, without stats. */
	if (!err && q.n)
		netdev_talk(PPB_NETDEV_CMD_PAGE_POOL_STATS_GET, true, 0, pool_stats_cb, &q);
	return err ? err : q.n;
}
