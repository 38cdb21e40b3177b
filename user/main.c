// SPDX-License-Identifier: GPL-2.0
/* ppbench: page_pool path costs and path proof, from XDP/BPF. */
#include <stdio.h>
#include <stdlib.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "sys/log.h"
#include "sys/log_libbpf.h"

const struct cli_cmd *const cli_commands[] = {
	&cmd_bench,	&cmd_load,    &cmd_gen,	 &cmd_probe, &cmd_env, &cmd_watch,  &cmd_recipe,
	&cmd_calibrate, &cmd_compare, &cmd_plot, &cmd_trend, &cmd_vm,  &cmd_export, NULL,
};

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	log_setup_libbpf();
	return cli_main(argc, argv);
}
