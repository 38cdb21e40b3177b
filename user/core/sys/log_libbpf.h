/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_LOG_LIBBPF_H
#define PPBENCH_LOG_LIBBPF_H

/* Route libbpf's messages through pr_log, one level down (xdp-tools habit). */
void log_setup_libbpf(void);
/* Capture libbpf's last warning so a failed load can name the reason in one line. */
const char *log_last_libbpf_warning(void);

#endif
