/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_KCONFIG_H
#define PPBENCH_KCONFIG_H

/*
 * The running kernel's config, from /proc/config.gz or /boot/config-$(uname -r).
 * kconfig_get("PAGE_POOL_STATS") returns "y", "m", a value, "n" (explicitly not
 * set), or NULL when no config file could be read.
 */
const char *kconfig_get(const char *name);
/* Where the config came from ("/proc/config.gz", ...), or NULL. */
const char *kconfig_source(void);

#endif
