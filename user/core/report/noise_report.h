/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_NOISE_REPORT_H
#define PPBENCH_NOISE_REPORT_H

#include <stdio.h>
#include "model/noise.h"

/*
 * Writes profile P as JSON (schema ppbench-noise/1) to PATH, stamped with
 * the current time and CMDLINE. 0, or -1 after a one-line error.
 */
int noise_write(const struct noise_profile *p, const char *path, const char *cmdline);
/* calibrate's result: the profile, and the file it was written to. */
void calibrate_report(const struct noise_profile *p, const char *path);

#endif
