// SPDX-License-Identifier: GPL-2.0
/* Pure helpers: number/address parsing, small file helpers. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sys/log.h"
#include "sys/util.h"

int parse_u64(const char *s, const char *what, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (!s || !*s || *s == '-' || isspace((unsigned char)*s))
		goto bad;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		goto bad;
	if (v < min || v > max) {
		pr_err("%s %s is out of range (%llu..%llu)\n", what, s, (unsigned long long)min,
		       (unsigned long long)max);
		return -ERANGE;
	}
	*out = v;
	return 0;
bad:
	pr_err("%s '%s' is not a non-negative integer\n", what, s ? s : "");
	return -EINVAL;
}

int parse_u32(const char *s, const char *what, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;
	int err = parse_u64(s, what, min, max, &v);

	if (!err)
		*out = (uint32_t)v;
	return err;
}

int parse_seconds(const char *s, const char *what, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	if (!s || !*s || isspace((unsigned char)*s))
		goto bad;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		goto bad;
	if (v < min || v > max) {
		pr_err("%s %s is out of range (%g..%g seconds)\n", what, s, min, max);
		return -ERANGE;
	}
	*out = v;
	return 0;
bad:
	pr_err("%s '%s' is not a number of seconds\n", what, s ? s : "");
	return -EINVAL;
}

static int parse_cpu_num(const char **p, int nr_cpus, const char *what, const char *s)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)**p)) {
		pr_err("%s '%s' is not a CPU list (e.g. 0,2-3)\n", what, s);
		return -EINVAL;
	}
	v = strtol(*p, &end, 10);
	if (v < 0 || v >= nr_cpus) {
		pr_err("%s: CPU %ld does not exist (this machine has CPUs 0-%d)\n", what, v,
		       nr_cpus - 1);
		return -ERANGE;
	}
	*p = end;
	return (int)v;
}

int parse_cpu_list(const char *s, const char *what, int nr_cpus, bool *set)
{
	const char *p = s;
	int n = 0;

	memset(set, 0, sizeof(bool) * nr_cpus);
	if (!s || !*s) {
		pr_err("%s: empty CPU list\n", what);
		return -EINVAL;
	}
	while (*p) {
		int lo = parse_cpu_num(&p, nr_cpus, what, s), hi;

		if (lo < 0)
			return lo;
		hi = lo;
		if (*p == '-') {
			p++;
			hi = parse_cpu_num(&p, nr_cpus, what, s);
			if (hi < 0)
				return hi;
			if (hi < lo) {
				pr_err("%s '%s': range %d-%d is reversed\n", what, s, lo, hi);
				return -EINVAL;
			}
		}
		for (int c = lo; c <= hi; c++)
			n += !set[c], set[c] = true;
		if (*p == ',' && p[1])
			p++;
		else if (*p) {
			pr_err("%s '%s' is not a CPU list (e.g. 0,2-3)\n", what, s);
			return -EINVAL;
		}
	}
	return n;
}

/* Six pairs of hex digits and five colons: sscanf's %x alone also takes a
 * sign or a space ("+a:-1:..."), which is no MAC. */
static bool mac_shaped(const char *s)
{
	if (!s || strlen(s) != 17)
		return false;
	for (int i = 0; i < 17; i++)
		if (i % 3 == 2 ? s[i] != ':' : !isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

int parse_mac(const char *s, const char *what, uint8_t mac[6])
{
	unsigned int b[6];

	if (!mac_shaped(s) ||
	    sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6) {
		pr_err("%s '%s' is not a MAC address (aa:bb:cc:dd:ee:ff)\n", what, s ? s : "");
		return -EINVAL;
	}
	for (int i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

int parse_ip(const char *s, const char *what, struct ip_addr *out)
{
	memset(out, 0, sizeof(*out));
	if (s && inet_pton(AF_INET, s, &out->v4) == 1) {
		out->family = AF_INET;
		return 0;
	}
	if (s && inet_pton(AF_INET6, s, &out->v6) == 1) {
		out->family = AF_INET6;
		return 0;
	}
	pr_err("%s '%s' is not an IPv4 or IPv6 address\n", what, s ? s : "");
	return -EINVAL;
}

void format_mac(const uint8_t mac[6], char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2], mac[3], mac[4],
		 mac[5]);
}

long sys_page_size(void)
{
	return sysconf(_SC_PAGESIZE); /* never fails on Linux */
}

unsigned int sys_page_shift(void)
{
	return (unsigned int)__builtin_ctzl((unsigned long)sys_page_size());
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int read_file_str(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return (int)n;
}

int write_file_str(const char *path, const char *s)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n < 0 ? -errno : 0;
}

bool file_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

int array_grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t want = *cap ? 2 * *cap : 64;
	void *a;

	if (n < *cap)
		return 0;
	a = realloc(*arr, want * size);
	if (!a)
		return -ENOMEM;
	*arr = a;
	*cap = want;
	return 0;
}

bool prog_in_path(const char *prog, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (!out) {
		out = buf;
		len = sizeof(buf);
	}
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		/* an empty directory is the current one, as for execvp() */
		snprintf(out, len, "%.*s/%s", n ? (int)n : 1, n ? p : ".", prog);
		if (!access(out, X_OK))
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

int iface_index(const char *name, const char *what, int *ifindex)
{
	*ifindex = if_nametoindex(name);
	if (*ifindex)
		return 0;
	pr_err("%s%sinterface '%s' does not exist\n", what ?: "", what ? ": " : "", name);
	return -ENODEV;
}

const char *path_stem(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".json"))
		n -= 5;
	snprintf(buf, len, "%.*s", (int)n, b);
	return buf;
}
