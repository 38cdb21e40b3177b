// SPDX-License-Identifier: GPL-2.0
/*
 * Option parsing of every command's table (cli/cli.c and the commands'
 * own option callbacks): the input is a command line, one word a line, the
 * command's name first. cli_parse() stops where ppbench would start looking
 * at the system (interfaces, checks, the run), so nothing here touches the
 * kernel. The table is the program's own (user/ppbench.c, built with its main
 * renamed for this).
 *   fuzz-dict: tests/fuzz/cli.dict
 */
#include "fuzz.h"
#include "cli/cli.h"

#define MAX_WORDS 64

static void parse(const struct cli_cmd *cmd, int argc, char **argv)
{
	void *cfg = calloc(1, cmd->cfg_size ? cmd->cfg_size : 1);
	int nargs = -1, ret;

	if (!cfg)
		abort();
	if (cmd->cfg_init)
		cmd->cfg_init(cfg);
	ret = cli_parse(cmd, cfg, argc, argv, &nargs);
	FUZZ_ASSERT(ret == -1 || ret == EXIT_OK || ret == EXIT_USAGE, "an exit code of parsing");
	FUZZ_ASSERT(ret || (nargs >= 0 && nargs <= argc), "the arguments are within argv");
	free(cfg);
}

/* The program's own command table (commands.c). */
extern const struct cli_program ppbench;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	char *argv[MAX_WORDS + 1];
	const struct cli_cmd *cmd;
	int argc = 0;

	fuzz_quiet();
	cli_prog = &ppbench;
	while (argc < MAX_WORDS && (argv[argc] = fuzz_piece(&in, '\n')))
		argc++;
	argv[argc] = NULL;
	cmd = argc ? cli_find(argv[0]) : NULL;
	if (cmd)
		parse(cmd, argc, argv);
	while (argc--)
		free(argv[argc]);
	return 0;
}
