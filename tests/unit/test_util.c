// SPDX-License-Identifier: GPL-2.0
/* Parsing helpers of user/core/sys/util.c. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include "unit.h"
#include "sys/kconfig.h"
#include "sys/util.h"

void test_parse_u64(void)
{
	uint64_t v;

	ASSERT_OK(parse_u64("1000", "--loops", 1000, 100000, &v), "min");
	ASSERT_EQ(v, 1000, "value");
	ASSERT_OK(parse_u64("0x10", "--x", 0, 100, &v), "hex");
	ASSERT_EQ(v, 16, "hex value");
	ASSERT_EQ(parse_u64("999", "--loops", 1000, 100000, &v), -ERANGE, "below min");
	ASSERT_EQ(parse_u64("100001", "--loops", 1000, 100000, &v), -ERANGE, "above max");
	ASSERT_EQ(parse_u64("-5", "--loops", 0, 10, &v), -EINVAL, "negative");
	ASSERT_EQ(parse_u64("12abc", "--loops", 0, 100, &v), -EINVAL, "trailing junk");
	ASSERT_EQ(parse_u64("", "--loops", 0, 100, &v), -EINVAL, "empty");
	ASSERT_EQ(parse_u64("99999999999999999999999", "--x", 0, UINT64_MAX, &v), -EINVAL,
		  "overflow");
}

void test_parse_seconds(void)
{
	double d;

	ASSERT_OK(parse_seconds("0.5", "--interval", 0.1, 3600, &d), "fraction");
	ASSERT_NEAR(d, 0.5, 1e-12, "value");
	ASSERT_EQ(parse_seconds("0", "--interval", 0.1, 3600, &d), -ERANGE, "zero");
	ASSERT_EQ(parse_seconds("-1", "--interval", 0.1, 3600, &d), -ERANGE, "negative");
	ASSERT_EQ(parse_seconds("1e9", "--interval", 0.1, 3600, &d), -ERANGE, "huge");
	ASSERT_EQ(parse_seconds("nan", "--interval", 0.1, 3600, &d), -EINVAL, "nan");
	ASSERT_EQ(parse_seconds("1s", "--interval", 0.1, 3600, &d), -EINVAL, "suffix");
}

void test_parse_cpu_list(void)
{
	bool set[8];

	ASSERT_EQ(parse_cpu_list("0,2-3", "--cpus", 8, set), 3, "count");
	ASSERT_TRUE(set[0] && !set[1] && set[2] && set[3] && !set[4], "members");
	ASSERT_EQ(parse_cpu_list("1,1", "--cpus", 8, set), 1, "duplicates once");
	ASSERT_EQ(parse_cpu_list("8", "--cpus", 8, set), -ERANGE, "out of range");
	ASSERT_EQ(parse_cpu_list("3-1", "--cpus", 8, set), -EINVAL, "reversed");
	ASSERT_EQ(parse_cpu_list("a", "--cpus", 8, set), -EINVAL, "letters");
	ASSERT_EQ(parse_cpu_list("1,", "--cpus", 8, set), -EINVAL, "trailing comma");
	ASSERT_EQ(parse_cpu_list("", "--cpus", 8, set), -EINVAL, "empty");
}

void test_parse_mac_ip(void)
{
	struct ip_addr a;
	uint8_t mac[6];
	char buf[32];

	ASSERT_OK(parse_mac("02:00:0a:ff:00:01", "--dst-mac", mac), "mac");
	format_mac(mac, buf, sizeof(buf));
	ASSERT_STREQ(buf, "02:00:0a:ff:00:01", "mac round trip");
	ASSERT_ERR(parse_mac("02:00:0a:ff:00", "--dst-mac", mac), "short mac");
	ASSERT_ERR(parse_mac("02:00:0a:ff:00:01:02", "--dst-mac", mac), "long mac");
	ASSERT_ERR(parse_mac("zz:00:0a:ff:00:01", "--dst-mac", mac), "hex");
	ASSERT_OK(parse_ip("10.0.0.1", "--dst-ip", &a), "ipv4");
	ASSERT_EQ(a.family, AF_INET, "family 4");
	ASSERT_OK(parse_ip("fd00::1", "--dst-ip", &a), "ipv6");
	ASSERT_EQ(a.family, AF_INET6, "family 6");
	ASSERT_ERR(parse_ip("10.0.0.256", "--dst-ip", &a), "bad v4");
	ASSERT_ERR(parse_ip("fd00:::1", "--dst-ip", &a), "bad v6");
}

/* Found by fuzzing: sscanf's %2x took signs and blanks, so "+a:bb:cc:dd:ee:0f"
 * and "-1:-2:-3:-4:-5:-6" (ff:fe:fd:fc:fb:fa) passed as MAC addresses. */
void test_parse_mac_only_hex_pairs(void)
{
	uint8_t mac[6];

	ASSERT_ERR(parse_mac("+a:bb:cc:dd:ee:0f", "--dst-mac", mac), "a sign");
	ASSERT_ERR(parse_mac("-1:-2:-3:-4:-5:-6", "--dst-mac", mac), "negative pairs");
	ASSERT_ERR(parse_mac(" a: b: c: d: e: f", "--dst-mac", mac), "blanks");
	ASSERT_ERR(parse_mac("02-00-0a-ff-00-01", "--dst-mac", mac), "dashes");
	ASSERT_OK(parse_mac("0A:bB:cc:DD:ee:0f", "--dst-mac", mac), "either case");
	ASSERT_EQ(mac[1], 0xbb, "a pair's value");
}

void test_kconfig_find(void)
{
	const char *text =
		"#\nCONFIG_HZ=250\nCONFIG_CC_VERSION_TEXT=\"gcc-14 (Debian 14.2.0-19) 14.2.0\"\n"
		"# CONFIG_KASAN is not set\nCONFIG_EMPTY=\"\"\n";
	char v[64];

	ASSERT_STREQ(kconfig_find(text, "HZ", v, sizeof(v)), "250", "a value");
	ASSERT_STREQ(kconfig_find(text, "CC_VERSION_TEXT", v, sizeof(v)),
		     "gcc-14 (Debian 14.2.0-19) 14.2.0", "a string, without its quotes");
	ASSERT_STREQ(kconfig_find(text, "EMPTY", v, sizeof(v)), "", "an empty string");
	ASSERT_STREQ(kconfig_find(text, "KASAN", v, sizeof(v)), "n", "not set");
	ASSERT_STREQ(kconfig_find(text, "HZ_100", v, sizeof(v)), "n", "absent");
}
