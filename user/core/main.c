// SPDX-License-Identifier: GPL-2.0
/*
 * The measuring core as a program of its own, the one vm's guests run: its
 * commands measure where the kernel is (calibrate runs benches) and read no
 * other machine's results.
 */
#include "cmd/cmd.h"
#include "loader/kfeatures.h"

static const struct cli_cmd *const cmds[] = {
	&cmd_bench, &cmd_load, &cmd_gen, &cmd_probe, &cmd_env, &cmd_watch, &cmd_recipe, &cmd_calibrate,
	NULL,
};

static const struct cli_program core = { cmds, ppb_check_needs };

int main(int argc, char **argv)
{
	return cli_start(&core, argc, argv);
}
