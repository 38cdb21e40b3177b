// SPDX-License-Identifier: GPL-2.0
/* The private veth environment (see vethenv.h for the picture). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/netlink.h>
#include "sys/vethenv.h"
#include "sys/log.h"
#include "sys/nl.h"

static int open_cur_netns(void)
{
	int fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Brings lo up in the calling thread's namespace. */
static int lo_up(void)
{
	struct link_info li;
	struct nl_sock s;
	int err = nl_open(&s, NETLINK_ROUTE);

	if (!err) {
		err = rtnl_link_get(&s, "lo", 0, &li) ?: rtnl_link_set_up(&s, li.ifindex);
		nl_close(&s);
	}
	return err;
}

/* New namespace for this thread; returns its fd, and switches back to orig. */
static int new_netns(int orig)
{
	int fd, err;

	if (unshare(CLONE_NEWNET) < 0) {
		err = -errno;
		pr_err("cannot create a network namespace: %s%s\n", strerror(-err),
		       err == -EPERM ? " (ppbench needs root / CAP_SYS_ADMIN)" : "");
		return err;
	}
	fd = open_cur_netns();
	if (fd >= 0) {
		/* sysctl files resolve to the opener's namespace: this one. No IPv6
		 * means no router solicitations or MLD reports on the wire. */
		write_file_str("/proc/sys/net/ipv6/conf/all/disable_ipv6", "1");
		write_file_str("/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");
	}
	if (setns(orig, CLONE_NEWNET) < 0) {
		err = -errno;
		pr_err("cannot return to the original network namespace: %s\n", strerror(-err));
		if (fd >= 0)
			close(fd);
		return err;
	}
	return fd;
}

int env_enter(const struct ppb_env *e, int side)
{
	if (e->ns[side] < 0)
		return 0; /* an existing interface (--iface): stay where we are */
	if (setns(e->ns[side], CLONE_NEWNET) < 0) {
		int err = -errno;

		pr_err("cannot enter private network namespace %d: %s\n", side, strerror(-err));
		return err;
	}
	return 0;
}

int env_leave(const struct ppb_env *e)
{
	if (e->orig_ns < 0)
		return 0;
	return setns(e->orig_ns, CLONE_NEWNET) < 0 ? -errno : 0;
}

/* FN(E, I, S) in side I's namespace, with a netlink socket S there. */
static int on_side(struct ppb_env *e, int i, int (*fn)(struct ppb_env *, int, struct nl_sock *))
{
	struct nl_sock s;
	int err = env_enter(e, i);

	if (err)
		return err;
	err = nl_open(&s, NETLINK_ROUTE);
	if (!err) {
		err = fn(e, i, &s);
		nl_close(&s);
	}
	env_leave(e);
	return err;
}

static int setup_side(struct ppb_env *e, int i, struct nl_sock *s)
{
	struct link_info li;
	int err = lo_up() ?: rtnl_link_get(s, e->ifname[i], 0, &li);

	if (!err) {
		e->ifindex[i] = li.ifindex;
		memcpy(e->mac[i], li.mac, 6);
	}
	return err;
}

static int config_side(struct ppb_env *e, int i, struct nl_sock *s)
{
	int err = rtnl_addr_add(s, e->ifindex[i], &e->ip4[i], 24);

	/* Static neighbour: no ARP on the wire, and XDP_DROP would drop ARP anyway. */
	err = err ?: rtnl_neigh_add(s, e->ifindex[i], &e->ip4[!i], e->mac[!i]);
	return err ?: rtnl_link_set_up(s, e->ifindex[i]);
}

int env_create(struct ppb_env *e)
{
	struct nl_sock s;
	int err, i;

	memset(e, 0, sizeof(*e));
	e->orig_ns = e->ns[0] = e->ns[1] = -1;
	e->orig_ns = open_cur_netns();
	if (e->orig_ns < 0) {
		pr_err("cannot open /proc/thread-self/ns/net: %s\n", strerror(-e->orig_ns));
		return e->orig_ns;
	}
	for (i = 0; i < 2; i++) {
		e->ns[i] = new_netns(e->orig_ns);
		if (e->ns[i] < 0) {
			err = e->ns[i];
			goto fail;
		}
		snprintf(e->ifname[i], IF_NAMESIZE, "ppb%d-%c", (int)getpid(), 'a' + i);
		e->ip4[i].family = AF_INET;
		e->ip4[i].v4.s_addr = htonl(0x0a4d0001 + i); /* 10.77.0.1 / .2 */
	}
	err = nl_open(&s, NETLINK_ROUTE);
	if (!err) {
		err = rtnl_veth_create(&s, e->ifname[0], e->ns[0], e->ifname[1], e->ns[1]);
		nl_close(&s);
	}
	if (err) {
		pr_err("cannot create veth pair %s/%s: %s\n", e->ifname[0], e->ifname[1],
		       strerror(-err));
		goto fail;
	}
	for (i = 0; i < 2 && !err; i++)
		err = on_side(e, i, setup_side);
	for (i = 0; i < 2 && !err; i++)
		err = on_side(e, i, config_side);
	if (err) {
		pr_err("cannot configure the private veth pair: %s\n", strerror(-err));
		goto fail;
	}
	pr_debug("private env: %s (ifindex %d) <-> %s (ifindex %d)\n", e->ifname[0], e->ifindex[0],
		 e->ifname[1], e->ifindex[1]);
	return 0;
fail:
	env_destroy(e);
	return err;
}

void env_destroy(struct ppb_env *e)
{
	/* Closing the last references frees both namespaces and the veth pair. */
	if (e->orig_ns >= 0)
		setns(e->orig_ns, CLONE_NEWNET);
	for (int i = 0; i < 2; i++) {
		if (e->ns[i] >= 0)
			close(e->ns[i]);
		e->ns[i] = -1;
	}
	if (e->orig_ns >= 0)
		close(e->orig_ns);
	e->orig_ns = -1;
}

int netns_private_enter(int *orig_ns)
{
	int err;

	*orig_ns = open_cur_netns();
	if (*orig_ns < 0)
		return *orig_ns;
	if (unshare(CLONE_NEWNET) < 0) {
		err = -errno;
		close(*orig_ns);
		*orig_ns = -1;
		return err;
	}
	return lo_up();
}

int netns_private_leave(int orig_ns)
{
	int err = setns(orig_ns, CLONE_NEWNET) < 0 ? -errno : 0;

	close(orig_ns);
	return err;
}

int netns_new_fd(void)
{
	int orig, fd;

	orig = open_cur_netns();
	if (orig < 0)
		return orig;
	fd = new_netns(orig);
	if (fd >= 0 && !setns(fd, CLONE_NEWNET)) {
		lo_up();
		setns(orig, CLONE_NEWNET);
	}
	close(orig);
	return fd;
}

int netns_enter_fd(int fd, int *orig)
{
	*orig = open_cur_netns();
	if (*orig < 0)
		return *orig;
	if (setns(fd, CLONE_NEWNET)) {
		int err = -errno;

		close(*orig);
		*orig = -1;
		return err;
	}
	return 0;
}

void netns_leave_fd(int orig)
{
	if (orig >= 0) {
		setns(orig, CLONE_NEWNET);
		close(orig);
	}
}
