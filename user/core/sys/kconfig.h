/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_KCONFIG_H
#define PPBENCH_KCONFIG_H

#include <stddef.h>

/*
 * The running kernel's config, from /proc/config.gz or /boot/config-$(uname -r).
 * kconfig_get("PAGE_POOL_STATS") returns "y", "m", a value (a string's without
 * its quotes), "n" (explicitly not set), or NULL when no config file could be
 * read.
 */
const char *kconfig_get(const char *name);
/* The same lookup in the config TEXT; a value is copied to VAL (LEN bytes). */
const char *kconfig_find(const char *text, const char *name, char *val, size_t len);
/* Where the config came from ("/proc/config.gz", ...), or NULL. */
const char *kconfig_source(void);

#endif
