// SPDX-License-Identifier: GPL-2.0
/*
 * The UDP frame builder (model/pkt.c) with any size, buffer length,
 * address families and addresses. A frame it builds must be what it says:
 * the size asked for, lengths that add up, checksums that verify.
 */
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include "fuzz.h"
#include "model/pkt.h"

#define BUF_MAX 70000

static int family(uint8_t b)
{
	static const int fams[] = { AF_INET, AF_INET6, 0, AF_PACKET };

	return fams[b % 4];
}

static uint16_t take16(struct fuzz_in *in)
{
	return fuzz_byte(in) | (uint16_t)fuzz_byte(in) << 8;
}

static void take(struct fuzz_in *in, void *dst, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((uint8_t *)dst)[i] = fuzz_byte(in);
}

/* The built frame: Ethernet, IP and UDP fields, and both checksums. */
static void check_frame(const struct udp_spec *s, const uint8_t *buf)
{
	bool v4 = s->src.family == AF_INET;
	size_t l3 = v4 ? sizeof(struct iphdr) : sizeof(struct ipv6hdr);
	size_t ulen = s->size - ETH_HLEN - l3;
	struct ethhdr eth;
	struct udphdr udp;
	uint32_t sum = IPPROTO_UDP + ulen;

	memcpy(&eth, buf, sizeof(eth));
	FUZZ_ASSERT(ntohs(eth.h_proto) == (v4 ? ETH_P_IP : ETH_P_IPV6), "the ethertype");
	memcpy(&udp, buf + ETH_HLEN + l3, sizeof(udp));
	FUZZ_ASSERT(ntohs(udp.len) == ulen, "the UDP length covers the rest of the frame");
	if (v4) {
		struct iphdr ip;

		memcpy(&ip, buf + ETH_HLEN, sizeof(ip));
		FUZZ_ASSERT(ntohs(ip.tot_len) == s->size - ETH_HLEN, "the IPv4 total length");
		FUZZ_ASSERT(pkt_csum(&ip, sizeof(ip), 0) == 0xffff, "the IPv4 header checksum");
		sum = pkt_csum(buf + ETH_HLEN + 12, 8, sum);
	} else {
		struct ipv6hdr ip6;

		memcpy(&ip6, buf + ETH_HLEN, sizeof(ip6));
		FUZZ_ASSERT(ntohs(ip6.payload_len) == ulen, "the IPv6 payload length");
		sum = pkt_csum(buf + ETH_HLEN + 8, 32, sum);
	}
	FUZZ_ASSERT(pkt_csum(buf + ETH_HLEN + l3, ulen, sum) == 0xffff, "the UDP checksum");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct udp_spec s = { 0 };
	size_t buflen;
	uint8_t *buf;
	int n;

	fuzz_quiet();
	s.size = take16(&in) + (fuzz_byte(&in) & 1 ? 65536 : 0);
	buflen = (take16(&in) + s.size) % BUF_MAX;
	s.src.family = family(fuzz_byte(&in));
	s.dst.family = fuzz_byte(&in) & 7 ? s.src.family : family(fuzz_byte(&in));
	take(&in, &s.src.v6, 16);
	take(&in, &s.dst.v6, 16);
	take(&in, s.src_mac, 6);
	take(&in, s.dst_mac, 6);
	s.sport = take16(&in);
	s.dport = take16(&in);
	buf = malloc(buflen ? buflen : 1);
	if (!buf)
		abort();
	n = pkt_build_udp(&s, buf, buflen);
	if (n >= 0) {
		FUZZ_ASSERT((size_t)n == s.size && s.size <= buflen, "the size asked for");
		check_frame(&s, buf);
	}
	free(buf);
	return 0;
}
