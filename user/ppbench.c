// SPDX-License-Identifier: GPL-2.0
/* ppbench: page_pool path costs and path proof, from XDP/BPF; and the lab around them. */
#include "cli/cli.h"

extern const struct cli_program ppbench;

int main(int argc, char **argv)
{
	return cli_start(&ppbench, argc, argv);
}
