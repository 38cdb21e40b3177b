/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_MANPAGE_H
#define PPBENCH_MANPAGE_H

#include <stdio.h>

/* ppbench(8) in troff, from the same tables as --help. */
void cli_print_man(FILE *f);

#endif
