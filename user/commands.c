// SPDX-License-Identifier: GPL-2.0
/* ppbench's commands: the measuring core's, then the lab's, in --help order. */
#include "cmd/cmd.h"
#include "loader/kfeatures.h"

extern const struct cli_cmd cmd_compare, cmd_plot, cmd_trend, cmd_vm, cmd_export, cmd_bisect,
	cmd_report;

static const struct cli_cmd *const cmds[] = {
	&cmd_bench,  &cmd_load,	     &cmd_gen,	   &cmd_probe, &cmd_env,   &cmd_watch,
	&cmd_recipe, &cmd_calibrate, &cmd_compare, &cmd_plot,  &cmd_trend, &cmd_vm,
	&cmd_export, &cmd_bisect,    &cmd_report,  NULL,
};

const struct cli_program ppbench = { cmds, ppb_check_needs };
