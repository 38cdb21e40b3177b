/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_CMD_H
#define PPBENCH_CMD_H

#include "cli/cli.h"

/* The measuring core's commands, one per file of cmd/. */
extern const struct cli_cmd cmd_bench, cmd_calibrate, cmd_env, cmd_gen, cmd_load, cmd_probe,
	cmd_recipe, cmd_watch;

/*
 * --backend's words (enum obs_want, loader/observer.h), shared by watch, load
 * and recipe (watch.c); recipe's may force fentry.
 */
extern const struct cli_word backend_words[], backend_words_fentry[];

#endif
