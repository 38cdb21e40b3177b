/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PKT_H
#define PPBENCH_PKT_H

#include <stddef.h>
#include <stdint.h>
#include "sys/util.h"

#define PKT_MIN_SIZE 60	  /* Ethernet minimum without FCS */
#define PKT_MAX_SIZE 3408 /* live frames: PAGE_SIZE - headroom - xdp_page_head - shinfo */

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

#endif
