/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_ENV_REPORT_H
#define PPBENCH_ENV_REPORT_H

/* `ppbench env` without a command: each side's interface, address and namespace. */
void env_report_up(const char *const ifname[2], const char *const ip[2], const char *const ns[2]);

#endif
