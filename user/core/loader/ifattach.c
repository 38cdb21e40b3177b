// SPDX-License-Identifier: GPL-2.0
/* Attaching one of our XDP programs to a named interface, and removing it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>
#include <xdp/libxdp.h>
#include "loader/ifattach.h"
#include "loader/kfeatures.h"
#include "loader/xdpobj.h"
#include "sys/guardian.h"
#include "sys/log.h"

/* Our program, if it is still on the interface: as its only program
 * (libxdp's legacy fallback) or as one of its dispatcher's. */
static void remove_if_ours(int ifindex, uint32_t prog_id)
{
	struct xdp_multiprog *mp = xdp_multiprog__get_from_ifindex(ifindex);
	struct xdp_program *p = NULL;
	int err = -ENOENT;

	if (libxdp_get_error(mp))
		return;
	if (xdp_multiprog__is_legacy(mp)) {
		p = xdp_multiprog__main_prog(mp);
		if (p && xdp_program__id(p) == prog_id)
			err = xdp_multiprog__detach(mp);
	} else {
		while ((p = xdp_multiprog__next_prog(p, mp)) && xdp_program__id(p) != prog_id)
			;
		if (p)
			err = xdp_program__detach(p, ifindex, xdp_multiprog__attach_mode(mp), 0);
	}
	if (!err)
		pr_warn("removed XDP program %u that a dead ppbench left on ifindex %d\n", prog_id,
			ifindex);
	else if (err != -ENOENT)
		pr_err("cannot remove XDP program %u that a dead ppbench left on ifindex %d: %s\n",
		       prog_id, ifindex, strerror(-err));
	xdp_multiprog__close(mp);
}

/* The reaper's child: waits for the pipe's end-of-file, then removes the program. */
struct reaper_args {
	int ifindex;
	uint32_t prog_id;
};

static void reaper_main(void *ctx)
{
	const struct reaper_args *a = ctx;
	char c;

	while (read(3, &c, 1) < 0 && errno == EINTR)
		;
	remove_if_ours(a->ifindex, a->prog_id);
}

void ifattach_init(struct ifattach *a, int ifindex, const char *ifname, bool skb, bool multiprog,
		   bool force)
{
	*a = (struct ifattach){ .ifindex = ifindex,
				.ifname = ifname,
				.skb = skb,
				.multiprog = multiprog,
				.force = force,
				.link = -1,
				.reaper = { .pid = -1, .fd = -1 } };
}

/* An XDP program already there: refuse, or (--force) remove it if we can. */
static int existing_prog(struct ifattach *a)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);

	if (bpf_xdp_query(a->ifindex, 0, &q) || !q.prog_id)
		return 0;
	if (!a->force) {
		pr_err("%s already has an XDP program (id %u); --force replaces it\n", a->ifname,
		       q.prog_id);
		return -EBUSY;
	}
	if (bpf_xdp_detach(a->ifindex, q.attach_mode == XDP_ATTACHED_SKB ? XDP_FLAGS_SKB_MODE : 0,
			   NULL)) {
		pr_err("cannot remove XDP program %u from %s (held by another process's "
		       "bpf_link?)\n",
		       q.prog_id, a->ifname);
		return -EBUSY;
	}
	pr_warn("removed XDP program %u from %s (--force)\n", q.prog_id, a->ifname);
	return 0;
}

static int attach_multiprog(struct ifattach *a, struct xdpo *x, const char *prog)
{
	struct reaper_args ra = { a->ifindex };
	struct xdp_multiprog *mp;
	const char *bpffs;
	int err;

	if (!bpffs_mounted(&bpffs)) {
		pr_err("bpffs is not mounted at %s: --multiprog needs it for libxdp (mount -t bpf "
		       "bpf %s)\n",
		       bpffs, bpffs);
		return -ENOENT;
	}
	a->xp = xdpo_libxdp_prog(x, prog);
	err = libxdp_get_error(a->xp);
	if (!err)
		err = xdp_program__attach(a->xp, a->ifindex,
					  a->skb ? XDP_MODE_SKB : XDP_MODE_NATIVE, 0);
	if (err) {
		pr_err("libxdp cannot attach to %s: %s\n", a->ifname, strerror(-err));
		xdp_program__close(a->xp);
		a->xp = NULL;
		return err;
	}
	ra.prog_id = xdp_program__id(a->xp);
	err = guardian_fork(&a->reaper, "ppbench-reaper", reaper_main, &ra);
	if (err)
		pr_warn("no watcher for a killed ppbench (%s): if it is killed, remove the program "
			"with 'ip link set %s xdp off'\n",
			strerror(-err), a->ifname);
	mp = xdp_multiprog__get_from_ifindex(a->ifindex);
	if (libxdp_get_error(mp))
		return 0;
	a->dispatcher_known = true;
	a->legacy = xdp_multiprog__is_legacy(mp);
	a->dispatcher_id = xdp_program__id(xdp_multiprog__main_prog(mp));
	a->prog_id = xdp_program__id(a->xp);
	a->nr_progs = xdp_multiprog__program_count(mp);
	/* The xdp tracepoints name the program the driver runs: the dispatcher. */
	xdpo_set_action_prog_id(x, a->dispatcher_id);
	xdp_multiprog__close(mp);
	return 0;
}

int ifattach_attach(struct ifattach *a, struct xdpo *x, const char *prog)
{
	if (existing_prog(a))
		return -EBUSY;
	if (a->multiprog)
		return attach_multiprog(a, x, prog);
	a->link = xdpo_attach(x, prog, a->ifindex, a->skb);
	if (a->link < 0) {
		pr_err("cannot attach XDP (%s mode) to %s: %s\n", a->skb ? "generic" : "native",
		       a->ifname, strerror(-a->link));
		return a->link;
	}
	return 0;
}

void ifattach_detach(struct ifattach *a)
{
	if (a->link >= 0)
		close(a->link);
	a->link = -1;
	if (a->xp) {
		xdp_program__detach(a->xp, a->ifindex, a->skb ? XDP_MODE_SKB : XDP_MODE_NATIVE, 0);
		xdp_program__close(a->xp);
		a->xp = NULL;
	}
	guardian_reap(&a->reaper);
}
