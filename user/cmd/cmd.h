/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_CMD_H
#define PPBENCH_CMD_H

#include "cli/cli.h"

/* The subcommands, one per file of cmd/ (main.c lists them in --help order). */
extern const struct cli_cmd cmd_bench, cmd_bisect, cmd_calibrate, cmd_compare, cmd_env, cmd_export,
	cmd_gen, cmd_load, cmd_plot, cmd_probe, cmd_recipe, cmd_trend, cmd_vm, cmd_watch;

/*
 * --backend's words (enum obs_want, loader/observer.h), shared by watch, load
 * and recipe (watch.c); recipe's may force fentry.
 */
extern const struct cli_word backend_words[], backend_words_fentry[];

#endif
