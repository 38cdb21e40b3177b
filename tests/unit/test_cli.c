// SPDX-License-Identifier: GPL-2.0
/* Option parsing (cli/cli.c) with the commands' own tables. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "engine/load_run.h"
#include "vm/vm_run.h"
#include "model/bench_types.h"
#include "model/scenario.h"
#include "sys/log.h"
#include "unit.h"

/* The lab's commands (commands.c lists them). */
extern const struct cli_cmd cmd_bisect, cmd_compare, cmd_vm;

/* cli_parse() of ARGV into a fresh config of CMD (freed, or kept in *CFG). */
static int parse(const struct cli_cmd *cmd, char **argv, void **cfg)
{
	void *c = calloc(1, cmd->cfg_size);
	int argc = 0, nargs, ret, saved, devnull = open("/dev/null", O_WRONLY);

	while (argv[argc])
		argc++;
	if (cmd->cfg_init)
		cmd->cfg_init(c);
	/* usage errors go to stderr directly: keep the runner's output clean */
	fflush(stderr);
	saved = dup(2);
	dup2(devnull, 2);
	ret = cli_parse(cmd, c, argc, argv, &nargs);
	dup2(saved, 2);
	close(saved);
	close(devnull);
	if (cfg)
		*cfg = c;
	else
		free(c);
	return ret;
}

/*
 * Found by fuzzing: a parse that stopped inside a cluster of short options
 * ("-xq", x unknown) left getopt there, and the next parse in the process
 * went on with the rest of the old cluster (in freed memory, in the fuzzer),
 * and kept the first command's argument-order mode.
 */
void test_cli_parse_starts_afresh(void)
{
	char *bad[] = { "bench", "-xq", NULL }, *repeat[] = { "bench", "--repeat", "7", NULL };
	char *cmp[] = { "compare", "a.json", "--old", "b.json", NULL };
	struct bench_cfg *cfg = NULL;

	ASSERT_EQ(parse(&cmd_bench, bad, NULL), EXIT_USAGE, "unknown -x");
	if (!ASSERT_EQ(parse(&cmd_bench, repeat, (void **)&cfg), EXIT_OK, "--repeat 7"))
		goto out;
	ASSERT_EQ(cfg->repeat, 7, "repeat");
	ASSERT_FALSE(cfg->quiet, "the old cluster's -q is not read again");
	/* in order: a.json is a plain file, so --old after it is refused */
	ASSERT_EQ(parse(&cmd_compare, cmp, NULL), EXIT_USAGE, "compare keeps its argument order");
out:
	free(cfg);
}

/*
 * Found by fuzzing: --action copied what follows its colon, and a second
 * --action (or a usage error before the checks) lost the copy. It now points
 * into the command line; LeakSanitizer (make test runs this binary built with
 * it) fails the run if the config owns memory again.
 */
void test_cli_load_action_given_twice(void)
{
	char *argv[] = { "load", "lo", "-acpu:1", "--action=redirect:eth0", NULL };
	struct load_cfg *cfg = NULL;

	if (ASSERT_EQ(parse(&cmd_load, argv, (void **)&cfg), EXIT_OK, "parse")) {
		ASSERT_EQ(cfg->action, PPB_ACT_REDIRECT, "the last --action wins");
		ASSERT_STREQ(cfg->pending_action, "eth0", "its device");
	}
	free(cfg);
}

/*
 * An option whose argument is optional (CLI_F_OPTIONAL): vm --nic alone is
 * its first word (vmxnet3), --nic=WORD another, a word it does not know a
 * usage error; and the next word is never taken for its argument.
 */
void test_cli_optional_argument(void)
{
	char *plain[] = { "vm", "--nic", "--", "probe", NULL };
	char *virtio[] = { "vm", "--nic=virtio-net", "--", "probe", NULL };
	char *bad[] = { "vm", "--nic=e1000", "--", "probe", NULL };
	char *none[] = { "vm", "--", "probe", NULL };
	struct vm_cfg *cfg = NULL;

	if (ASSERT_EQ(parse(&cmd_vm, plain, (void **)&cfg), EXIT_OK, "--nic alone"))
		ASSERT_EQ(cfg->nic, VM_NIC_VMXNET3, "--nic alone is vmxnet3");
	free(cfg);
	cfg = NULL;
	if (ASSERT_EQ(parse(&cmd_vm, virtio, (void **)&cfg), EXIT_OK, "--nic=virtio-net"))
		ASSERT_EQ(cfg->nic, VM_NIC_VIRTIO, "--nic=virtio-net");
	free(cfg);
	cfg = NULL;
	if (ASSERT_EQ(parse(&cmd_vm, none, (void **)&cfg), EXIT_OK, "no --nic"))
		ASSERT_EQ(cfg->nic, VM_NIC_NONE, "no NICs without --nic");
	free(cfg);
	ASSERT_EQ(parse(&cmd_vm, bad, NULL), EXIT_USAGE, "an unknown model");
}

/*
 * A command line for git bisect run takes its long options whole: getopt
 * would take --bis for --bisect and --base for --baseline, and a slip in
 * such a prefix must stop the bisection, not pass as another option. Other
 * command lines keep getopt's prefixes.
 */
void test_cli_bisect_options_whole(void)
{
	char *bis[] = { "compare", "--bis", "--limit", "slow=1", "a.json", NULL };
	char *whole[] = { "compare", "--bisect", "--limit", "slow=1", "a.json", NULL };
	char *lim[] = { "compare", "--bisect", "--lim", "slow=1", "a.json", NULL };
	char *eq[] = { "compare", "--bisect", "--limit=slow=1", "a.json", NULL };
	char *plain[] = { "compare", "--lim", "slow=1", "a.json", NULL };
	char *base[] = { "bisect", "--base", "b.json", "--limit", "slow=1", "-s", "slow", NULL };
	char *vm[] = { "vm", "--quiet", "--", "bench", "--bis", NULL };

	ASSERT_TRUE(cli_names_opt(4, bis, "bisect"), "--bis names --bisect");
	ASSERT_FALSE(cli_names_opt(2, (char *[]){ "compare", "--b", NULL }, "bisect"),
		     "--b is too short to name it");
	ASSERT_FALSE(cli_names_opt(5, vm, "bisect"), "after --: the inner command's");
	ASSERT_EQ(parse(&cmd_compare, bis, NULL), EXIT_USAGE, "--bis refused");
	ASSERT_EQ(parse(&cmd_compare, lim, NULL), EXIT_USAGE, "--lim refused beside --bisect");
	ASSERT_EQ(parse(&cmd_compare, whole, NULL), EXIT_OK, "--bisect --limit whole");
	ASSERT_EQ(parse(&cmd_compare, eq, NULL), EXIT_OK, "--limit=VALUE whole");
	ASSERT_EQ(parse(&cmd_compare, plain, NULL), EXIT_OK, "without --bisect: --lim as before");
	ASSERT_EQ(parse(&cmd_bisect, base, NULL), EXIT_USAGE, "bisect: --base refused");
	base[1] = "--baseline";
	ASSERT_EQ(parse(&cmd_bisect, base, NULL), EXIT_OK, "bisect: --baseline whole");
}

/* An option's help made when shown (help_fn): --help and the page say the table's names. */
void test_cli_help_from_table(void)
{
	const struct cli_opt *o = cmd_bench.opts;
	char help[512], want[128];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	while (o->name && strcmp(o->name, "scenario"))
		o++;
	ASSERT_TRUE(o->name && o->help_fn && !o->help, "bench --scenario's help is made");
	cli_opt_help(o, help, sizeof(help));
	snprintf(want, sizeof(want), "comma separated: %s (default: all)", scenario_name_list());
	ASSERT_TRUE(strstr(help, want), "names the scenarios");
	cli_print_help(&cmd_bench, f);
	fclose(f);
	ASSERT_TRUE(strstr(text, want), "--help shows it");
	free(text);
}
