/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_UTIL_H
#define PPBENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Parsers for command-line values. On bad input they print one line naming
 * the option and the accepted range, and return a negative errno.
 */
int parse_u64(const char *s, const char *what, uint64_t min, uint64_t max, uint64_t *out);
int parse_u32(const char *s, const char *what, uint32_t min, uint32_t max, uint32_t *out);
int parse_seconds(const char *s, const char *what, double min, double max, double *out);
/* "0,2-3" -> bitmap; every CPU must be < nr_cpus. Returns the number of CPUs set. */
int parse_cpu_list(const char *s, const char *what, int nr_cpus, bool *set);
int parse_mac(const char *s, const char *what, uint8_t mac[6]);

struct ip_addr {
	int family; /* AF_INET or AF_INET6 */
	union {
		struct in_addr v4;
		struct in6_addr v6;
	};
};
int parse_ip(const char *s, const char *what, struct ip_addr *out);
void format_mac(const uint8_t mac[6], char *buf, size_t len);

/* IFACE's index; else "WHAT: interface 'IFACE' does not exist" (no "WHAT: " if NULL). */
int iface_index(const char *name, const char *what, int *ifindex);

/*
 * The running kernel's PAGE_SIZE and its log2. The page size a process sees
 * (AT_PAGESZ) is the kernel's base page: 4K on x86-64, 4K, 16K or 64K on
 * arm64, chosen when the kernel is built.
 */
long sys_page_size(void);
unsigned int sys_page_shift(void);

/* Time and files. */
uint64_t now_ns(void);					    /* CLOCK_MONOTONIC */
int read_file_str(const char *path, char *buf, size_t len); /* trims a trailing newline */
int write_file_str(const char *path, const char *s);
bool file_exists(const char *path);
/* Room for element N of *ARR (SIZE bytes each): doubles *CAP when full; 0 or -ENOMEM. */
int array_grow(void **arr, size_t *cap, size_t n, size_t size);
/* Whether PROG is an executable file in a directory of PATH (/usr/bin:/bin when unset);
 * its path in OUT unless OUT is NULL. */
bool prog_in_path(const char *prog, char *out, size_t len);
/* "dir/base.json" -> "base" in BUF: how a file is named when nothing else names it. */
const char *path_stem(const char *path, char *buf, size_t len);

#endif
