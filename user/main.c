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
	&cmd_bench, &cmd_load,	 &cmd_gen,	 &cmd_probe,   &cmd_env,
	&cmd_watch, &cmd_recipe, &cmd_calibrate, &cmd_compare, &cmd_plot,
	&cmd_trend, &cmd_vm,	 &cmd_export,	 &cmd_bisect,  NULL,
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

/*
 * Installed as ppbench-CMD (a link: ppbench-bisect, for git bisect run), the
 * program is 'ppbench CMD'.
 */
static int main_as(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	char **args;
	int ret;

	base = base ? base + 1 : argv[0];
	if (strncmp(base, "ppbench-", 8) || !cli_find(base + 8))
		return -1;
	args = calloc(argc + 2, sizeof(*args));
	if (!args)
		return EXIT_FAIL;
	args[0] = "ppbench";
	args[1] = (char *)base + 8;
	memcpy(args + 2, argv + 1, (argc - 1) * sizeof(*args));
	ret = cli_main(argc + 1, args);
	free(args);
	return ret;
}

int main(int argc, char **argv)
{
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	log_setup_libbpf();
	ret = argc > 0 ? main_as(argc, argv) : -1;
	if (ret >= 0)
		return ret;
	/* 'ppbench help CMD': the manual pages, which use the command table */
	if (argc > 2 && !strcmp(argv[1], "help"))
		return cli_help(argc - 2, argv + 2);
	return cli_main(argc, argv);
}
