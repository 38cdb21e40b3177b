// SPDX-License-Identifier: GPL-2.0
/* ppbench: page_pool path costs and path proof, from XDP/BPF. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/manpage.h"
#include "cmd/cmd.h"
#include "loader/kfeatures.h"
#include "sys/log.h"
#include "sys/log_libbpf.h"

const struct cli_cmd *const cli_commands[] = {
	&cmd_bench,	&cmd_load,    &cmd_gen,	 &cmd_probe, &cmd_env, &cmd_watch,  &cmd_recipe,
	&cmd_calibrate, &cmd_compare, &cmd_plot, &cmd_trend, &cmd_vm,  &cmd_export, NULL,
};

int cli_check_needs(const char *name, unsigned needs)
{
	if ((needs & CLI_NEED_ROOT) && need_privileges(name))
		return -EPERM;
	if ((needs & CLI_NEED_BTF) && need_btf())
		return -ENOENT;
	if ((needs & CLI_NEED_KCONFIG) && need_kconfig())
		return -ENOENT;
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	log_setup_libbpf();
	/* 'ppbench help CMD': the manual pages, which use the command table */
	if (argc > 2 && !strcmp(argv[1], "help"))
		return cli_help(argc - 2, argv + 2);
	return cli_main(argc, argv);
}
