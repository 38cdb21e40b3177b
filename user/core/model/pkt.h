/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PKT_H
#define PPBENCH_PKT_H

#include <stddef.h>
#include <stdint.h>
#include "sys/util.h"

#define PKT_MIN_SIZE 60	   /* Ethernet minimum without FCS */
#define PKT_MAX_SIZE 3408  /* gen's frames: the largest live frame of 4K pages */
#define PKT_BUF_SIZE 65535 /* room for a live frame of any page size (64K pages) */

/*
 * The largest live-frames BPF_PROG_RUN frame on pages of PAGE_SIZE bytes:
 * the page less XDP's headroom (256), the test run's struct xdp_page_head
 * (112) and the aligned struct skb_shared_info (320). 3408 on 4K pages.
 */
uint32_t pkt_live_max(long page_size);
/*
 * A frame whose copy by generic XDP into a page_pool (skb_pp_cow_data())
 * takes a whole page, not a fragment (whose truesize is at most half a
 * page): 1500 on 4K pages, half a page on larger ones.
 */
uint32_t pkt_page_copy_size(long page_size);

struct udp_spec {
	uint8_t src_mac[6], dst_mac[6];
	struct ip_addr src, dst; /* same family */
	uint16_t sport, dport;
	size_t size; /* whole frame, from the Ethernet header on */
};

/*
 * Build an Ethernet/IPv4-or-IPv6/UDP frame of spec->size bytes, checksums
 * correct, into buf. The size, or -EINVAL if the size cannot hold the
 * headers or the IP length field cannot say it, or the families differ.
 */
int pkt_build_udp(const struct udp_spec *spec, uint8_t *buf, size_t buflen);
/* RFC 1071 ones'-complement sum, folded. */
uint16_t pkt_csum(const void *data, size_t len, uint32_t initial);
/* Header size for the family (Ethernet + IP + UDP). */
size_t pkt_hdr_size(int family);

/* Frames sent, and what the interface did with them (summed over CPUs). */
struct gen_totals {
	uint64_t frames, taken, not_taken, redirect_err;
};

#endif
