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
 * takes a whole page, not a fragment: the copy is a fragment while its
 * truesize (the data, the skb_shared_info and the headroom) is at most half
 * a page. 1500 on 4K pages (an Ethernet MTU's frame), half a page on larger
 * ones, where a 1500-byte copy shares its page with others.
 */
uint32_t pkt_page_copy_size(long page_size);

struct udp_spec {
	uint8_t src_mac[6], dst_mac[6];
	struct ip_addr src, dst; /* same family */
	uint16_t sport, dport;
	size_t size; /* whole frame, from the Ethernet header on */
};

/*
 * Build an Ethernet/IPv4-or-IPv6/UDP frame of spec->size bytes into buf
 * (at least spec->size long), with correct IPv4 header and UDP checksums.
 * Returns the size, or -EINVAL if the size cannot hold the headers or is
 * more than the IP length field can say, or the address families differ.
 */
int pkt_build_udp(const struct udp_spec *spec, uint8_t *buf, size_t buflen);
/* RFC 1071 ones'-complement sum, folded; for tests and the builder. */
uint16_t pkt_csum(const void *data, size_t len, uint32_t initial);
/* Header size for the family (Ethernet + IP + UDP). */
size_t pkt_hdr_size(int family);

/* Frames sent, and what the interface did with them (summed over CPUs). */
struct gen_totals {
	uint64_t frames, taken, not_taken, redirect_err;
};

#endif
