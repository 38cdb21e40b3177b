/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_IFATTACH_H
#define PPBENCH_IFATTACH_H

#include <stdbool.h>
#include <stdint.h>
#include "sys/guardian.h"

struct xdpo;
struct xdp_program;

/*
 * One of our XDP programs on a named interface: through a bpf_link (the
 * kernel removes it if we die), or through libxdp's dispatcher (--multiprog).
 * libxdp attaches through netlink, not through a bpf_link, so the kernel
 * keeps its program on the interface when ppbench dies: a reaper, a
 * guardian's child, removes it then if it is still ours.
 */
struct ifattach {
	int ifindex;
	const char *ifname;
	bool skb;	/* generic (SKB) mode */
	bool multiprog; /* libxdp */
	bool force;	/* replace a program already there */
	int link;	/* bpf_link fd, or -1 */
	struct xdp_program *xp;
	struct guardian reaper;
	/* What libxdp made of it (multiprog only): */
	bool dispatcher_known; /* the fields below are set */
	bool legacy;	       /* fell back to a single program, no dispatcher */
	uint32_t dispatcher_id, prog_id;
	int nr_progs;
};

/* Sets the fields that say "nothing attached"; call before ifattach_attach. */
void ifattach_init(struct ifattach *a, int ifindex, const char *ifname, bool skb, bool multiprog,
		   bool force);
/* Attaches x's program PROG; a one-line error and a negative errno on failure. */
int ifattach_attach(struct ifattach *a, struct xdpo *x, const char *prog);
/* Removes what ifattach_attach attached (safe to call twice). */
void ifattach_detach(struct ifattach *a);

#endif
