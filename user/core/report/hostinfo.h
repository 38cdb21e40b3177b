/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_HOSTINFO_H
#define PPBENCH_HOSTINFO_H

#include <stdbool.h>
#include "model/result.h"
#include "report/json.h"
#include "sys/tsc_clock.h"

/*
 * The "host" object of a result (ppbench-bench(8), "JSON"): what a
 * comparison of two runs needs to know - kernel, CPU, TSC, clock source,
 * speculation mitigations, the kernel config options that change page_pool
 * costs, fentry and live frames.
 */
void json_host(struct json *j, const struct tsc_info *tsc, bool fentry, bool live_frames);
/*
 * HOST, a host block json_host() wrote and a loader read back, written again
 * as it is (a noise profile's, of its first run), but for its clock's kind
 * and unit, which are CLOCK's (a counter's view: "pmu").
 */
void json_host_copy(struct json *j, const json_t *host, const struct result_clock *clock);
/*
 * The "clock" object: what the figures count, TSC cycles or, under qemu's
 * instruction clock, guest instructions ({"kind", "unit", "qemu"}).
 */
void json_clock(struct json *j);
/* The kernel config options recorded (also printed by bench). */
extern const char *const host_config_options[];

#endif
