// SPDX-License-Identifier: GPL-2.0
/*
 * The value parsers of the command line (sys/util.c): MAC, IPv4 and IPv6
 * addresses, CPU lists, integers and seconds. The first byte picks the
 * parser, the rest is the string. What a parser accepts must be what it
 * says: a MAC is six pairs of hex digits, an address prints back as itself,
 * a number is in its range.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <math.h>
#include "fuzz.h"
#include "sys/util.h"

#define NR_CPUS 8

static void mac(const char *s)
{
	uint8_t m[6], back[6];
	char text[18];

	if (parse_mac(s, "--src-mac", m))
		return;
	FUZZ_ASSERT(strlen(s) == 17, "a MAC is 17 characters");
	for (int i = 0; i < 17; i++)
		FUZZ_ASSERT(i % 3 == 2 ? s[i] == ':' : isxdigit((unsigned char)s[i]),
			    "a MAC is hex pairs and colons");
	format_mac(m, text, sizeof(text));
	FUZZ_ASSERT(!strcasecmp(text, s), "a MAC prints back as given");
	FUZZ_ASSERT(!parse_mac(text, "mac", back) && !memcmp(m, back, 6),
		    "a printed MAC reads back");
}

static void ip(const char *s)
{
	struct ip_addr a, back;
	char text[INET6_ADDRSTRLEN];

	if (parse_ip(s, "--src-ip", &a))
		return;
	FUZZ_ASSERT(a.family == AF_INET || a.family == AF_INET6, "an address has a family");
	FUZZ_ASSERT(inet_ntop(a.family, &a.v6, text, sizeof(text)), "an address prints");
	FUZZ_ASSERT(!parse_ip(text, "ip", &back) && back.family == a.family &&
			    !memcmp(&a.v6, &back.v6, a.family == AF_INET ? 4 : 16),
		    "a printed address reads back");
}

static void cpu_list(const char *s)
{
	bool set[NR_CPUS];
	int n = parse_cpu_list(s, "--cpus", NR_CPUS, set), count = 0;

	if (n < 0)
		return;
	for (int i = 0; i < NR_CPUS; i++)
		count += set[i];
	FUZZ_ASSERT(n == count && n > 0, "a CPU list counts the CPUs it sets");
}

static void numbers(const char *s, uint8_t sel)
{
	uint64_t min = sel & 1 ? 1 : 0, max = sel & 2 ? 65535 : UINT64_MAX, v;
	uint32_t v32;
	double d;

	if (!parse_u64(s, "--count", min, max, &v))
		FUZZ_ASSERT(v >= min && v <= max, "an integer is in its range");
	if (!parse_u32(s, "--batch", 1, 256, &v32))
		FUZZ_ASSERT(v32 >= 1 && v32 <= 256, "a u32 is in its range");
	if (!parse_seconds(s, "--duration", 0.1, 3600, &d))
		FUZZ_ASSERT(isfinite(d) && d >= 0.1 && d <= 3600, "seconds are in their range");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint8_t sel = fuzz_byte(&in);
	char *s = fuzz_piece(&in, '\0');

	fuzz_quiet();
	if (!s)
		s = strdup("");
	switch (sel % 4) {
	case 0:
		mac(s);
		break;
	case 1:
		ip(s);
		break;
	case 2:
		cpu_list(s);
		break;
	default:
		numbers(s, sel >> 2);
	}
	free(s);
	return 0;
}
