// SPDX-License-Identifier: GPL-2.0
/*
 * Table-driven subcommands (the xdp-tools params.c idea, written afresh):
 * each command supplies an option table and callbacks; parsing, help text,
 * and usage errors are handled here once.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/manpage.h"
#include "sys/cpus.h"
#include "sys/log.h"
#include "sys/log_libbpf.h"
#include "sys/outfile.h"
#include "sys/util.h"

const struct cli_opt cli_common_opts[] = {
	{ "verbose", 'v', NULL, "more messages; repeat (-vv) for libbpf debug output",
	  CLI_KEY_VERBOSE },
	{ "help", 'h', NULL, "show the command's options and exit", CLI_KEY_HELP },
	{ NULL },
};

static bool takes_arg(const struct cli_opt *o)
{
	if (o->kind == CLI_CUSTOM)
		return o->metavar;
	return o->kind != CLI_FLAG;
}

const char *cli_opt_metavar(const struct cli_opt *o, char *buf, size_t len)
{
	size_t n = 0;

	if (o->metavar || !takes_arg(o))
		return o->metavar;
	buf[0] = '\0';
	for (const struct cli_word *w = o->words; w && w->word && n < len; w++)
		n += snprintf(buf + n, len - n, "%s%s", n ? "|" : "", w->word);
	if (o->flags & CLI_F_OPTIONAL) {
		char words[128];

		snprintf(words, sizeof(words), "%s", buf);
		snprintf(buf, len, "[=%s]", words);
	}
	return buf;
}

/* The range the kind enforces goes before the last parenthesis, where the defaults are. */
void cli_opt_help(const struct cli_opt *o, char *buf, size_t len)
{
	const char *help = o->help_fn ? o->help_fn() : o->help, *paren = NULL;
	char range[64] = "";
	int head;

	for (const char *p = strstr(help, " ("); p; p = strstr(p + 1, " ("))
		paren = p;
	head = paren ? (int)(paren - help) : (int)strlen(help);
	if (o->kind == CLI_UINT && o->max != CLI_U64_NOLIMIT)
		snprintf(range, sizeof(range), "%llu..%llu", (unsigned long long)o->min,
			 (unsigned long long)o->max);
	else if (o->kind == CLI_SECONDS || o->kind == CLI_NUMBER)
		snprintf(range, sizeof(range), "%.10g..%.10g", o->dmin, o->dmax);
	if (!range[0] || (o->flags & CLI_F_PROSE_RANGE))
		snprintf(buf, len, "%s", help);
	else
		snprintf(buf, len, "%.*s, %s%s", head, help, range, help + head);
}

static void print_opt(FILE *f, const struct cli_opt *o)
{
	char lhs[96], mv[96], help[512];
	const char *metavar = cli_opt_metavar(o, mv, sizeof(mv));
	int n;

	if (o->short_name)
		n = snprintf(lhs, sizeof(lhs), "-%c, --%s", o->short_name, o->name);
	else
		n = snprintf(lhs, sizeof(lhs), "    --%s", o->name);
	if (metavar) /* (an optional argument follows its option's name: --nic[=...]) */
		snprintf(lhs + n, sizeof(lhs) - n, "%s%s", o->flags & CLI_F_OPTIONAL ? "" : " ",
			 metavar);
	cli_opt_help(o, help, sizeof(help));
	if (strlen(lhs) > 24)
		fprintf(f, "  %s\n  %-24s  %s\n", lhs, "", help);
	else
		fprintf(f, "  %-24s  %s\n", lhs, help);
}

void cli_print_help(const struct cli_cmd *cmd, FILE *f)
{
	fprintf(f, "Usage: ppbench %s [OPTIONS]%s%s\n\n", cmd->name, cmd->args ? " " : "",
		cmd->args ? cmd->args : "");
	fprintf(f, "%s\n", cmd->description ? cmd->description : cmd->summary);
	fprintf(f, "\nOptions:\n");
	for (const struct cli_opt *o = cmd->opts; o && o->name; o++)
		print_opt(f, o);
	for (const struct cli_opt *o = cli_common_opts; o->name; o++)
		print_opt(f, o);
	if (cmd->examples)
		fprintf(f, "\nExamples:\n%s", cmd->examples);
	fprintf(f, "\nExit status: 0 success, 1 runtime error, 2 usage error%s.\n",
		!strcmp(cmd->name, "compare") ? ", 3 regression above --fail-above"
		: !strcmp(cmd->name, "trend") ? ", 3 regression above --fail-on-regression"
					      : "");
}

static void print_main_help(FILE *f)
{
	fprintf(f,
		"Usage: ppbench COMMAND [OPTIONS] [ARGS]\n"
		"       ppbench COMMAND --help\n"
		"       ppbench help COMMAND\n"
		"       ppbench --version\n\n"
		"Measure what each page_pool recycling path (fast, ptr_ring, slow) costs, in TSC\n"
		"cycles per element, with BPF counters proving which path every element took.\n"
		"No kernel module. With no interface given, commands run on a private veth pair\n"
		"in network namespaces that ppbench creates and removes itself.\n\nCommands:\n");
	for (int i = 0; cli_prog->cmds[i]; i++)
		fprintf(f, "  %-9s %s\n", cli_prog->cmds[i]->name, cli_prog->cmds[i]->summary);
	fprintf(f, "\n'ppbench help COMMAND' shows a command's manual page.\n"
		   "Exit status: 0 success, 1 runtime error, 2 usage error.\n");
}

/* getopt's value of a long option: where it is, past the short letters and 1. */
enum { VAL_BASE = 0x1000, VAL_TABLE = 0x400 };

/* getopt_long()'s tables for CMD, and getopt reset for a new parse. */
static void build_longopts(const struct cli_cmd *cmd, struct option *lo, char *so, int max)
{
	const struct cli_opt *tables[] = { cmd->opts, cli_common_opts };
	int n = 0, s = 0;

	if (cmd->ordered_args)
		so[s++] = '-'; /* positionals come back in order, as option 1 */
	else if (cmd->args_end_options)
		so[s++] = '+'; /* stop at the first argument */
	so[s++] = ':';	       /* report missing arguments as ':' */
	for (int t = 0; t < 2; t++) {
		for (int i = 0; tables[t] && tables[t][i].name && n < max - 1; i++) {
			const struct cli_opt *o = &tables[t][i];

			bool opt = o->flags & CLI_F_OPTIONAL;

			lo[n++] = (struct option){ o->name,
						   opt		  ? optional_argument
						   : takes_arg(o) ? required_argument
								  : no_argument,
						   NULL, VAL_BASE + t * VAL_TABLE + i };
			if (o->short_name) {
				so[s++] = o->short_name;
				if (takes_arg(o))
					so[s++] = ':';
				if (opt)
					so[s++] = ':';
			}
		}
	}
	so[s] = '\0';
	memset(&lo[n], 0, sizeof(lo[n]));
	opterr = 0;
	/* 0, not 1: glibc then forgets the previous parse too (its place inside
	 * a "-abc" cluster, its argument-order mode), which a second parse in one
	 * process would otherwise continue from */
	optind = 0;
}

/* The table entry of what getopt returned: a long option's value or a short letter. */
static const struct cli_opt *find_opt(const struct cli_cmd *cmd, int c)
{
	const struct cli_opt *tables[] = { cmd->opts, cli_common_opts };

	if (c >= VAL_BASE)
		return &tables[(c - VAL_BASE) / VAL_TABLE][(c - VAL_BASE) % VAL_TABLE];
	for (int t = 0; t < 2; t++)
		for (const struct cli_opt *o = tables[t]; o && o->name; o++)
			if (o->short_name == c)
				return o;
	return NULL;
}

static void store_uint(void *p, size_t size, uint64_t v)
{
	if (size == 1)
		*(uint8_t *)p = v;
	else if (size == 2)
		*(uint16_t *)p = v;
	else if (size == 4)
		*(uint32_t *)p = v;
	else
		*(uint64_t *)p = v;
}

/* A plain number (not seconds): "--alpha '0.7' is not a number in 1e-09..0.5". */
static int parse_number(const struct cli_opt *o, const char *what, const char *arg, double *out)
{
	char *end;
	double v = strtod(arg, &end);

	if (end != arg && *end == '%' && (o->flags & CLI_F_PERCENT))
		end++;
	if (end == arg || *end || !isfinite(v) || v < o->dmin || v > o->dmax) {
		pr_err("%s '%s' is not a number in %g..%g\n", what, arg, o->dmin, o->dmax);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int parse_enum(const struct cli_opt *o, const char *what, const char *arg, void *p)
{
	char list[256] = "";
	size_t n = 0, nr = 0;

	for (const struct cli_word *w = o->words; w->word; w++, nr++) {
		if (!strcmp(arg, w->word)) {
			store_uint(p, o->size, (uint32_t)w->value);
			return 0;
		}
	}
	for (size_t i = 0; i < nr && n < sizeof(list); i++)
		n += snprintf(list + n, sizeof(list) - n, "%s%s",
			      !i	    ? ""
			      : i == nr - 1 ? " or "
					    : ", ",
			      o->words[i].word);
	pr_err("%s '%s' must be %s\n", what, arg, list);
	return -EINVAL;
}

int cli_guest_cpus;

/* Parses ARG by the option's kind into its config member. */
static int parse_kind(const struct cli_opt *o, void *cfg, const char *arg)
{
	void *p = (char *)cfg + o->off;
	char what[64];
	uint64_t v;
	int cpu = 0, err = 0;

	snprintf(what, sizeof(what), "--%s", o->name);
	switch (o->kind) {
	case CLI_CUSTOM:
		return -EINVAL;
	case CLI_FLAG:
		*(bool *)p = true;
		break;
	case CLI_OUTPUT:
		err = outfile_check(arg, what);
		/* fall through */
	case CLI_STRING:
	case CLI_IFACE: /* resolved once all options are in: resolve_ifaces() */
		*(const char **)p = arg;
		break;
	case CLI_UINT:
		err = parse_u64(arg, what, o->min, o->max, &v);
		if (!err)
			store_uint(p, o->size, v);
		break;
	case CLI_SECONDS:
		err = parse_seconds(arg, what, o->dmin, o->dmax, p);
		break;
	case CLI_NUMBER:
		err = parse_number(o, what, arg, p);
		break;
	case CLI_CPU:
		if (cli_guest_cpus > 0) {
			err = parse_u64(arg, what, 0, cli_guest_cpus - 1, &v);
		} else {
			err = parse_online_cpu(arg, what, &cpu);
			v = cpu;
		}
		if (!err)
			store_uint(p, o->size, v);
		break;
	case CLI_ENUM:
		err = parse_enum(o, what, arg ? arg : o->words[0].word, p);
		break;
	}
	if (!err && o->has_mark)
		*(bool *)((char *)cfg + o->mark_off) = true;
	return err;
}

/* After the other options, as the commands checked interfaces before. */
static int resolve_ifaces(const struct cli_cmd *cmd, void *cfg)
{
	for (const struct cli_opt *o = cmd->opts; o && o->name; o++) {
		const char *name;
		char what[64];

		if (o->kind != CLI_IFACE) /* only these members are pointers */
			continue;
		name = *(const char **)((char *)cfg + o->off);
		if (!name)
			continue;
		snprintf(what, sizeof(what), "--%s", o->name);
		if (iface_index(name, what, (int *)((char *)cfg + o->ifindex_off)))
			return -ENODEV;
	}
	return 0;
}

/* The command's name leads the line: run_cmd() set it (log_set_command). */
static int __attribute__((format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_err("%s\n", msg);
	return EXIT_USAGE;
}

/* One option getopt returned; EXIT_OK to go on, else the exit code. */
static int handle_opt(const struct cli_cmd *cmd, void *cfg, int c, const char *arg, char **argv)
{
	const struct cli_opt *o;

	if (c == '?') {
		char sopt[3] = { '-', (char)optopt, 0 };

		/* "--flag=x" sets optopt to the option's value: name it as written */
		if (optopt > 0 && optopt < 128 && isalnum(optopt))
			return usage_error("unknown option '%s'", sopt);
		return usage_error("unknown option '%s'", argv[optind - 1]);
	}
	if (c == ':')
		return usage_error("option '%s' needs a value", argv[optind - 1]);
	/* In ordered_args mode getopt returns 1 for a bare argument (options are >= VAL_BASE). */
	if (cmd->ordered_args && c == 1)
		return cmd->opt(cfg, CLI_KEY_ARG, arg) ? EXIT_USAGE : EXIT_OK;
	o = find_opt(cmd, c);
	if (o && o->key == CLI_KEY_HELP) {
		cli_print_help(cmd, stdout);
		return -1; /* done, successfully */
	}
	if (o && o->key == CLI_KEY_VERBOSE) {
		log_level++;
		return EXIT_OK;
	}
	if (!o || (o->kind == CLI_CUSTOM ? cmd->opt(cfg, o->key, arg) : parse_kind(o, cfg, arg)))
		return EXIT_USAGE;
	return EXIT_OK;
}

/*
 * The long option LO[LI] getopt just returned, as written: under git bisect
 * run a prefix of it is refused, since the usage error a slip makes of the
 * next one would read as a verdict.
 */
static int check_whole(const struct option *lo, int li, char **argv)
{
	/* (a value in the next word: the option is the word before it) */
	const char *w = argv[optind - (optarg && optarg == argv[optind - 1] ? 2 : 1)];
	size_t n = strlen(lo[li].name);

	if (!strncmp(w, "--", 2) && !strncmp(w + 2, lo[li].name, n) &&
	    (!w[n + 2] || w[n + 2] == '='))
		return EXIT_OK;
	return usage_error("'%.*s' is short for --%s: write it whole for git bisect run",
			   (int)strcspn(w, "="), w, lo[li].name);
}

bool cli_names_opt(int argc, char **argv, const char *name)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		size_t n = strcspn(argv[i], "=");

		if (n >= 4 && n - 2 <= strlen(name) && !strncmp(argv[i], "--", 2) &&
		    !strncmp(argv[i] + 2, name, n - 2))
			return true;
	}
	return false;
}

int cli_parse(const struct cli_cmd *cmd, void *cfg, int argc, char **argv, int *nargs)
{
	bool whole = cmd->for_bisect && cmd->for_bisect(argc, argv);
	struct option lo[64];
	char so[160];
	int c, li, ret;

	build_longopts(cmd, lo, so, 64);
	for (li = -1; (c = getopt_long(argc, argv, so, lo, &li)) != -1; li = -1) {
		ret = whole && li >= 0 ? check_whole(lo, li, argv) : EXIT_OK;
		ret = ret ?: handle_opt(cmd, cfg, c, optarg, argv);
		if (ret)
			return ret;
	}
	/* after "--" getopt stops; what is left is still in order */
	for (; cmd->ordered_args && optind < argc; optind++)
		if (cmd->opt(cfg, CLI_KEY_ARG, argv[optind]))
			return EXIT_USAGE;
	*nargs = cmd->ordered_args ? 0 : argc - optind;
	if (*nargs < cmd->min_args)
		return usage_error("missing argument%s%s", cmd->args ? " " : "",
				   cmd->args ? cmd->args : "");
	if (*nargs > cmd->max_args)
		return usage_error("unexpected argument '%s'", argv[optind + cmd->max_args]);
	return EXIT_OK;
}

/* The word of ARGV (a copy, before getopt permuted it) that holds VALUE. */
static int value_word(char *const *orig, int argc, const char *value, size_t *at)
{
	for (int i = 1; i < argc; i++) {
		size_t n = strlen(orig[i]);

		if (value >= orig[i] && value <= orig[i] + n) {
			*at = value - orig[i];
			return i;
		}
	}
	return -1;
}

int cli_walk(const struct cli_cmd *cmd, int argc, char **argv, cli_walk_fn fn, void *ctx)
{
	char **work = calloc(argc + 1, sizeof(*work));
	struct option lo[64];
	char so[160];
	int c, ret = 0;

	if (!work)
		return -ENOMEM;
	memcpy(work, argv, argc * sizeof(*work));
	build_longopts(cmd, lo, so, 64);
	while (!ret && (c = getopt_long(argc, work, so, lo, NULL)) != -1) {
		const struct cli_opt *o = find_opt(cmd, c);
		size_t at = 0;
		int i;

		if (!o || !optarg)
			continue;
		i = value_word(argv, argc, optarg, &at);
		if (i > 0)
			ret = fn(ctx, o, i, at);
	}
	free(work);
	return ret;
}

const struct cli_cmd *cli_find(const char *name)
{
	for (int i = 0; cli_prog->cmds[i]; i++)
		if (!strcmp(cli_prog->cmds[i]->name, name))
			return cli_prog->cmds[i];
	return NULL;
}

/* The running command's words (ARGV[0] its name), for cli_command_line(). */
static int cmd_argc;
static char **cmd_argv;

char *cli_command_line(void)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f;

	if (!cmd_argv)
		return NULL;
	f = open_memstream(&s, &len);
	if (!f)
		return NULL;
	fputs("ppbench", f);
	for (int i = 0; i < cmd_argc; i++) {
		const char *w = cmd_argv[i];
		bool bare = *w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					    "0123456789_@%+=:,./-") == strlen(w);

		fputs(bare ? " " : " '", f);
		/* (a quote ends the quoted part, comes escaped, and opens the next) */
		for (; *w; w++) {
			if (*w == '\'')
				fputs("'\\''", f);
			else
				fputc(*w, f);
		}
		if (!bare)
			fputc('\'', f);
	}
	if (!fclose(f))
		return s;
	free(s);
	return NULL;
}

static int run_cmd(const struct cli_cmd *cmd, int argc, char **argv)
{
	bool bisect = cmd->for_bisect && cmd->for_bisect(argc, argv);
	void *cfg = calloc(1, cmd->cfg_size ? cmd->cfg_size : 1);
	char **args;
	int nargs, ret;

	if (!cfg)
		return bisect ? EXIT_BISECT_STOP : EXIT_FAIL;
	log_set_command(cmd->name);
	cmd_argc = argc;
	cmd_argv = argv;
	if (cmd->cfg_init)
		cmd->cfg_init(cfg);
	ret = cli_parse(cmd, cfg, argc, argv, &nargs);
	/* (saved: a check may parse another command line, as vm's does) */
	args = argv + optind;
	if (!ret && resolve_ifaces(cmd, cfg))
		ret = EXIT_USAGE;
	if (!ret && cmd->check)
		ret = cmd->check(cfg, nargs, args);
	if (!ret && cmd->needs && cli_prog->check_needs(cmd->name, cmd->needs))
		ret = EXIT_FAIL;
	if (!ret)
		ret = cmd->run(cfg, nargs, args);
	else if (ret < 0) /* --help */
		ret = EXIT_OK;
	else if (bisect) /* (git bisect run would read 1 or 2 as "bad") */
		ret = EXIT_BISECT_STOP;
	free(cfg);
	return ret;
}

static int cli_main(int argc, char **argv)
{
	const char *name;

	if (argc < 2) {
		pr_err("missing command\n");
		return EXIT_USAGE;
	}
	name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		print_main_help(stdout);
		return EXIT_OK;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
		printf("ppbench %s\n", PPBENCH_VERSION);
		return EXIT_OK;
	}
	if (cli_find(name))
		return run_cmd(cli_find(name), argc - 1, argv + 1);
	pr_err("unknown command '%s'\n", name);
	return EXIT_USAGE;
}

/* Installed as ppbench-CMD (a link: ppbench-bisect, for git bisect run), the program is 'ppbench
 * CMD'. */
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

const struct cli_program *cli_prog;

int cli_start(const struct cli_program *prog, int argc, char **argv)
{
	int ret;

	cli_prog = prog;
	setvbuf(stdout, NULL, _IOLBF, 0);
	log_setup_libbpf();
	ret = argc > 0 ? main_as(argc, argv) : -1;
	if (ret >= 0)
		return ret;
	/* 'ppbench help CMD': the manual pages */
	if (argc > 2 && !strcmp(argv[1], "help"))
		return cli_help(argc - 2, argv + 2);
	return cli_main(argc, argv);
}
