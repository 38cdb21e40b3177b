// SPDX-License-Identifier: GPL-2.0
/* The UDP frame builder: sizes, fields and checksums (verified independently). */
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <stdlib.h>
#include "model/pkt.h"
#include "unit.h"

static struct udp_spec spec4(size_t size)
{
	struct udp_spec s = { .src_mac = { 2, 0, 0, 0, 0, 1 },
			      .dst_mac = { 2, 0, 0, 0, 0, 2 },
			      .sport = 9,
			      .dport = 9,
			      .size = size };

	parse_ip("10.77.0.1", "src", &s.src);
	parse_ip("10.77.0.2", "dst", &s.dst);
	return s;
}

/* Frames start 2 bytes into an aligned buffer, as in a driver's RX buffer
 * (NET_IP_ALIGN): the headers after Ethernet are then 4-byte aligned and can
 * be read through their structs. */
#define FRAME_BUF(name, len)                                                                       \
	uint8_t name##_raw[(len) + 2] __attribute__((aligned(8)));                                 \
	uint8_t *name = name##_raw + 2

/* Verifying a checksum: summing a header that contains its own checksum gives 0xffff. */
void test_pkt_ipv4_checksums(void)
{
	struct udp_spec s = spec4(64);
	FRAME_BUF(buf, 128);
	struct iphdr *ip = (void *)(buf + ETH_HLEN);
	struct udphdr *udp = (void *)(ip + 1);
	uint32_t pseudo;

	ASSERT_EQ(pkt_build_udp(&s, buf, 128), 64, "size");
	ASSERT_EQ(ntohs(((struct ethhdr *)buf)->h_proto), ETH_P_IP, "ethertype");
	ASSERT_EQ(ntohs(ip->tot_len), 50, "ip total length");
	ASSERT_EQ(pkt_csum(ip, sizeof(*ip), 0), 0xffff, "ip header checksum verifies");
	ASSERT_EQ(ntohs(udp->len), 30, "udp length");
	pseudo = IPPROTO_UDP + ntohs(udp->len);
	pseudo = pkt_csum(&ip->saddr, 8, pseudo);
	ASSERT_EQ(pkt_csum(udp, ntohs(udp->len), pseudo), 0xffff, "udp checksum verifies");
}

/* A known frame: RFC 1071 example data sums to 0xddf2. */
void test_pkt_csum_rfc1071(void)
{
	const uint8_t d[] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };

	ASSERT_EQ(pkt_csum(d, sizeof(d), 0), 0xddf2, "rfc1071 example");
	ASSERT_EQ(pkt_csum(d, 3, 0), 0xf201, "odd length pads with zero");
}

void test_pkt_ipv6(void)
{
	struct udp_spec s = spec4(100);
	FRAME_BUF(buf, 128);
	struct ipv6hdr *ip6 = (void *)(buf + ETH_HLEN);
	struct udphdr *udp = (void *)(ip6 + 1);
	uint32_t pseudo;

	parse_ip("fd00::1", "src", &s.src);
	parse_ip("fd00::2", "dst", &s.dst);
	ASSERT_EQ(pkt_build_udp(&s, buf, 128), 100, "size");
	ASSERT_EQ(ntohs(((struct ethhdr *)buf)->h_proto), ETH_P_IPV6, "ethertype");
	ASSERT_EQ(ntohs(ip6->payload_len), 100 - 54, "payload length");
	pseudo = IPPROTO_UDP + ntohs(udp->len);
	pseudo = pkt_csum(&ip6->saddr, 32, pseudo);
	ASSERT_EQ(pkt_csum(udp, ntohs(udp->len), pseudo), 0xffff, "udp checksum verifies");
}

void test_pkt_bad_input(void)
{
	struct udp_spec s = spec4(59);
	uint8_t buf[4096];

	ASSERT_ERR(pkt_build_udp(&s, buf, sizeof(buf)), "below 60 bytes");
	s.size = 3000;
	ASSERT_ERR(pkt_build_udp(&s, buf, 100), "buffer too small");
	s = spec4(80);
	parse_ip("fd00::2", "dst", &s.dst);
	ASSERT_ERR(pkt_build_udp(&s, buf, sizeof(buf)), "family mix");
	s = spec4(PKT_MAX_SIZE);
	ASSERT_EQ(pkt_build_udp(&s, buf, sizeof(buf)), PKT_MAX_SIZE, "max size");
}

/* Found by fuzzing: a frame longer than the 16-bit IP and UDP length fields
 * was built with lengths wrapped around (a 68289-byte frame said 2753). */
void test_pkt_length_fields_do_not_wrap(void)
{
	struct udp_spec s = spec4(ETH_HLEN + 0xffff);
	size_t len = ETH_HLEN + 0x10000;
	uint8_t *buf = malloc(len);

	if (!ASSERT_TRUE(buf, "malloc"))
		return;
	ASSERT_EQ(pkt_build_udp(&s, buf, len), ETH_HLEN + 0xffff, "the largest IPv4 frame");
	s.size = len;
	ASSERT_ERR(pkt_build_udp(&s, buf, len), "one byte more");
	free(buf);
}

/*
 * The frame sizes that follow the kernel's page size: 4K pages keep the
 * figures of old (3408, 1500), and on every page size the page-copy frame
 * fits a live frame and its copy's truesize (64-byte aligned data, the
 * 320-byte skb_shared_info, 256 bytes of headroom) is over half a page, so
 * page_pool hands out a whole page for it rather than a fragment.
 */
void test_pkt_sizes_follow_the_page_size(void)
{
	static const long pages[] = { 4096, 16384, 65536 };

	ASSERT_EQ(pkt_live_max(4096), PKT_MAX_SIZE, "4K: the live frame limit of old");
	ASSERT_EQ(pkt_page_copy_size(4096), 1500, "4K: 1500-byte frames");
	for (size_t i = 0; i < ARRAY_SIZE(pages); i++) {
		long p = pages[i];
		uint32_t sz = pkt_page_copy_size(p);
		long truesize = ((sz + 63) & ~63L) + 320 + 256;

		ASSERT_TRUE(sz <= pkt_live_max(p), "the page-copy frame is a live frame");
		ASSERT_TRUE(truesize > p / 2, "its copy takes more than half a page");
		ASSERT_TRUE(pkt_live_max(p) <= PKT_BUF_SIZE, "a buffer holds the largest");
	}
	ASSERT_TRUE(pkt_live_max(16384) > 8192, "16K: more than a 4K page's frames");
}
