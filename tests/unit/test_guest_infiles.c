// SPDX-License-Identifier: GPL-2.0
/* vm's input files: the guest command line's rewrite (vm/vm_run.c). */
#include <stdlib.h>
#include "cli/cli.h"
#include "vm/vm_run.h"
#include "unit.h"

/*
 * Both forms of an option, a second input, an output and a plain word
 * between them: each input's value becomes /vm/in/K/BASENAME, in order, its
 * host path is the value as given, and every other word stays ARGV's own.
 */
void test_vm_in_rewrite(void)
{
	char *argv[] = { "bench", "--mod",	"dir/sub/x.ko", "--json", "r.json",
			 "-q",	  "--mod=y.ko", "--label",	"a/b",	  NULL };
	struct vm_in_arg a[] = { { "mod", 2, 0 }, { "mod", 6, 6 } };
	char *out[10];
	const char *host[2];

	if (!ASSERT_OK(vm_in_rewrite(9, argv, a, 2, out, host), "rewrite"))
		return;
	ASSERT_STREQ(out[2], "/vm/in/1/x.ko", "--mod PATH: the first input");
	ASSERT_STREQ(out[6], "--mod=/vm/in/2/y.ko", "--mod=PATH: the second input");
	ASSERT_STREQ(host[0], "dir/sub/x.ko", "the first input's host path");
	ASSERT_STREQ(host[1], "y.ko", "the second input's host path");
	ASSERT_STREQ(argv[2], "dir/sub/x.ko", "ARGV unchanged");
	ASSERT_STREQ(argv[6], "--mod=y.ko", "ARGV unchanged (--mod=)");
	for (int i = 0; i < 9; i++)
		if (i != 2 && i != 6)
			ASSERT_TRUE(out[i] == argv[i], "another word is ARGV's");
	ASSERT_TRUE(out[9] == NULL, "NULL-terminated");
	vm_in_free(9, argv, out);
	ASSERT_TRUE(out[2] == argv[2] && out[6] == argv[6], "freed back to ARGV's words");
}

/* No inputs: ARGV itself, word for word. */
void test_vm_in_rewrite_none(void)
{
	char *argv[] = { "probe", "--json", "p.json", NULL };
	char *out[4];

	if (!ASSERT_OK(vm_in_rewrite(3, argv, NULL, 0, out, NULL), "rewrite"))
		return;
	for (int i = 0; i < 4; i++)
		ASSERT_TRUE(out[i] == argv[i], "the same words");
}

/* Where cli_walk() says an input's value is, for vm to rewrite: its word and offset, both forms. */
struct seen {
	struct vm_in_arg a[4];
	int n;
};

static int note(void *ctx, const struct cli_opt *o, int argi, size_t at)
{
	struct seen *s = ctx;

	if (o->kind == CLI_STRING && (o->flags & CLI_F_INFILE) && s->n < 4)
		s->a[s->n++] = (struct vm_in_arg){ o->name, argi, at };
	return 0;
}

void test_vm_in_walk_positions(void)
{
	static const struct cli_opt opts[] = {
		{ "mod", 'm', "FILE", "a file read", .kind = CLI_STRING, .flags = CLI_F_INFILE },
		{ "out", 'o', "FILE", "a file written", .kind = CLI_OUTPUT },
		{ "text", 0, "TEXT", "a word", .kind = CLI_STRING },
		{ NULL },
	};
	static const struct cli_cmd cmd = { .name = "t", .opts = opts, .max_args = 1 };
	char *argv[] = { "t",  "--text", "x",	       "--mod",	 "a/b.ko",
			 "-o", "r",	 "--mod=c.ko", "-md.ko", NULL };
	struct seen s = { .n = 0 };
	char *out[10];
	const char *host[4];

	cli_walk(&cmd, 9, argv, note, &s);
	if (!ASSERT_EQ(s.n, 3, "three inputs"))
		return;
	ASSERT_TRUE(s.a[0].argi == 4 && s.a[0].at == 0, "--mod PATH");
	ASSERT_TRUE(s.a[1].argi == 7 && s.a[1].at == 6, "--mod=PATH");
	ASSERT_TRUE(s.a[2].argi == 8 && s.a[2].at == 2, "-mPATH");
	if (!ASSERT_OK(vm_in_rewrite(9, argv, s.a, s.n, out, host), "rewrite"))
		return;
	ASSERT_STREQ(out[4], "/vm/in/1/b.ko", "--mod PATH rewritten");
	ASSERT_STREQ(out[7], "--mod=/vm/in/2/c.ko", "--mod=PATH rewritten");
	ASSERT_STREQ(out[8], "-m/vm/in/3/d.ko", "-mPATH rewritten");
	ASSERT_STREQ(out[6], "r", "an output is not an input");
	vm_in_free(9, argv, out);
}
