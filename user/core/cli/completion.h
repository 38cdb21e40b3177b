/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_COMPLETION_H
#define PPBENCH_COMPLETION_H

#include <stdio.h>

/* The bash completion of ppbench, from the command tables (completion.c). */
void cli_completion(FILE *f);

#endif
