// SPDX-License-Identifier: GPL-2.0
/* UDP frame builder for the live-frames generator (pure, unit-tested). */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <string.h>
#include "model/pkt.h"

uint16_t pkt_csum(const void *data, size_t len, uint32_t sum)
{
	const uint8_t *p = data;

	for (; len > 1; len -= 2, p += 2)
		sum += (uint32_t)p[0] << 8 | p[1];
	if (len)
		sum += (uint32_t)p[0] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

size_t pkt_hdr_size(int family)
{
	return ETH_HLEN + (family == AF_INET6 ? sizeof(struct ipv6hdr) : sizeof(struct iphdr)) +
	       sizeof(struct udphdr);
}

/* The UDP checksum covers a pseudo header of addresses, protocol and length. */
static uint16_t udp_csum(const struct udp_spec *s, const uint8_t *udp, size_t ulen)
{
	uint32_t sum = IPPROTO_UDP + (uint32_t)ulen;
	uint16_t c;

	if (s->src.family == AF_INET) {
		sum = pkt_csum(&s->src.v4, 4, sum);
		sum = pkt_csum(&s->dst.v4, 4, sum);
	} else {
		sum = pkt_csum(&s->src.v6, 16, sum);
		sum = pkt_csum(&s->dst.v6, 16, sum);
	}
	c = ~pkt_csum(udp, ulen, sum);
	return c ? c : 0xffff; /* 0 means "no checksum" in UDP over IPv4 */
}

/* Headers are built in local structs and copied in: after the 14-byte
 * Ethernet header they are not aligned for direct access. */
static size_t put_ip(const struct udp_spec *s, uint8_t *p, size_t l4len)
{
	if (s->src.family == AF_INET) {
		struct iphdr ip = { .version = 4, .ihl = 5, .ttl = 64, .protocol = IPPROTO_UDP };

		ip.tot_len = htons(sizeof(ip) + l4len);
		ip.saddr = s->src.v4.s_addr;
		ip.daddr = s->dst.v4.s_addr;
		ip.check = htons(~pkt_csum(&ip, sizeof(ip), 0) & 0xffff);
		memcpy(p, &ip, sizeof(ip));
		return sizeof(ip);
	} else {
		struct ipv6hdr ip6 = { .version = 6, .hop_limit = 64, .nexthdr = IPPROTO_UDP };

		ip6.payload_len = htons(l4len);
		memcpy(&ip6.saddr, &s->src.v6, 16);
		memcpy(&ip6.daddr, &s->dst.v6, 16);
		memcpy(p, &ip6, sizeof(ip6));
		return sizeof(ip6);
	}
}

int pkt_build_udp(const struct udp_spec *s, uint8_t *buf, size_t buflen)
{
	size_t hdr = pkt_hdr_size(s->src.family), l3, ulen;
	struct ethhdr eth = {};
	struct udphdr udp = {};
	uint8_t *u;

	/* the IP and UDP length fields are 16 bits: above that they would wrap */
	if (s->src.family != s->dst.family ||
	    (s->src.family != AF_INET && s->src.family != AF_INET6) || s->size < hdr ||
	    s->size < PKT_MIN_SIZE || s->size > buflen || s->size - ETH_HLEN > 0xffff)
		return -EINVAL;
	memset(buf, 0, s->size);
	memcpy(eth.h_dest, s->dst_mac, 6);
	memcpy(eth.h_source, s->src_mac, 6);
	eth.h_proto = htons(s->src.family == AF_INET ? ETH_P_IP : ETH_P_IPV6);
	memcpy(buf, &eth, ETH_HLEN);
	/* Everything after the headers is payload (Ethernet padding included). */
	ulen = s->size - hdr + sizeof(struct udphdr);
	l3 = put_ip(s, buf + ETH_HLEN, ulen);
	u = buf + ETH_HLEN + l3;
	for (size_t i = 0; i < ulen - sizeof(udp); i++)
		u[sizeof(udp) + i] = (uint8_t)i;
	udp.source = htons(s->sport);
	udp.dest = htons(s->dport);
	udp.len = htons(ulen);
	memcpy(u, &udp, sizeof(udp));
	udp.check = htons(udp_csum(s, u, ulen));
	memcpy(u, &udp, sizeof(udp));
	return (int)s->size;
}

uint32_t pkt_live_max(long page_size)
{
	long max = page_size - 256 - 112 - 320;

	if (max > PKT_BUF_SIZE)
		return PKT_BUF_SIZE;
	return max > PKT_MIN_SIZE ? (uint32_t)max : PKT_MIN_SIZE;
}

uint32_t pkt_page_copy_size(long page_size)
{
	return page_size <= 4096 ? 1500 : (uint32_t)(page_size / 2);
}
