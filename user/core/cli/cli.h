/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_CLI_H
#define PPBENCH_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * What an option's argument is. Every kind but CLI_CUSTOM is parsed here,
 * into the config member the option names, with one error message per rule;
 * CLI_CUSTOM goes to the command's opt() with the option's key.
 */
enum cli_kind {
	CLI_CUSTOM,
	CLI_FLAG,    /* bool: true */
	CLI_STRING,  /* const char *: the argument */
	CLI_UINT,    /* unsigned integer of the member's size, min..max */
	CLI_SECONDS, /* double, dmin..dmax */
	CLI_NUMBER,  /* double, dmin..dmax; CLI_F_PERCENT: a trailing '%' is allowed */
	CLI_CPU,     /* integer of the member's size: an online CPU */
	CLI_IFACE,   /* const char *: an existing interface; its ifindex (int) at ifindex_off */
	CLI_ENUM,    /* int: the value of the word given, one of words[] */
	CLI_OUTPUT,  /* const char *: a writable path, or "-" for stdout */
};

enum {
	CLI_F_PERCENT = 1 << 0,	    /* CLI_NUMBER: "5%" is 5 */
	CLI_F_PROSE_RANGE = 1 << 1, /* the help says the range in its own words */
	CLI_F_OUTDIR = 1 << 2,	    /* CLI_STRING: a directory the command writes files into */
	CLI_F_OPTIONAL =
		1 << 3, /* CLI_ENUM: --NAME alone means its first word, --NAME=WORD another */
	CLI_F_INFILE = 1 << 4, /* CLI_STRING: a file the command reads (vm carries it in) */
};

/* Accepted words of a CLI_ENUM option; lists end with a NULL word. */
struct cli_word {
	const char *word;
	int value;
};

/* One option of a subcommand; tables end with an entry whose name is NULL. */
struct cli_opt {
	const char *name;    /* long name, without "--" */
	char short_name;     /* 0: none */
	const char *metavar; /* CLI_ENUM: NULL makes it "word|word" */
	const char *help;    /* ranges are added to it: see cli_opt_help() */
	int key;	     /* CLI_CUSTOM: what opt() gets */
	enum cli_kind kind;
	size_t off, size; /* the config member: CLI_MEMBER() */
	uint64_t min, max;
	double dmin, dmax;
	const struct cli_word *words;
	size_t ifindex_off;
	bool has_mark; /* also set the bool at mark_off when the option is given */
	size_t mark_off;
	unsigned flags; /* CLI_F_* */
	/* instead of help: the help made when it is shown, from a table of the program's */
	const char *(*help_fn)(void);
};

#define CLI_MEMBER(type, m) .off = offsetof(type, m), .size = sizeof(((type *)0)->m)
#define CLI_MARK(type, m) .has_mark = true, .mark_off = offsetof(type, m)
/* Count-like u64 options: no upper limit worth printing. */
#define CLI_U64_NOLIMIT (UINT64_MAX / 2)

/* Options several commands share: each rule is here once. */
#define CLI_OPT_INTERVAL(type, m, help)                                                            \
	{                                                                                          \
		"interval", 'i', "SECONDS", help, .kind = CLI_SECONDS, CLI_MEMBER(type, m),        \
						  .dmin = 0.1, .dmax = 3600                        \
	}
#define CLI_OPT_DURATION(type, m, help)                                                            \
	{                                                                                          \
		"duration", 'd', "SECONDS", help, .kind = CLI_SECONDS, CLI_MEMBER(type, m),        \
						  .dmin = 0.1, .dmax = 31536000                    \
	}
#define CLI_OPT_JSON(type, m, help)                                                                \
	{                                                                                          \
		"json", 'j', "FILE", help, .kind = CLI_OUTPUT, CLI_MEMBER(type, m)                 \
	}
/* bench and recipe: queue behind a running measurement (sys/runlock.h). */
#define CLI_OPT_WAIT(type, m)                                                                      \
	{                                                                                          \
		"wait", 0, NULL,                                                                   \
			"if another bench or recipe is running, wait for it to finish instead of " \
			"exiting",                                                                 \
			.kind = CLI_FLAG, CLI_MEMBER(type, m)                                      \
	}
#define CLI_OPT_BACKEND(type, m, w, help)                                                          \
	{                                                                                          \
		"backend", 'B', NULL, help, .kind = CLI_ENUM, CLI_MEMBER(type, m), .words = w      \
	}

/*
 * A figure a command's manual page states, as the program has it: the page
 * writes @{NAME} where it stands (manpage.c), so the page cannot say another
 * value than the code uses. Integral values are printed as integers.
 */
struct cli_fig {
	const char *name;
	double value;
};
#define CLI_MAX_FIGS 64
/* A figures() callback's end: the array V of figures into F; how many. */
#define CLI_FIGURES(f, v)                                                                          \
	({                                                                                         \
		_Static_assert(sizeof(v) / sizeof((v)[0]) <= CLI_MAX_FIGS, "too many figures");    \
		memcpy(f, v, sizeof(v));                                                           \
		(int)(sizeof(v) / sizeof((v)[0]));                                                 \
	})

/*
 * A subcommand: its help text is generated from this table, so --help and
 * the man pages describe the same options.
 */
struct cli_cmd {
	const char *name;
	const char *args;	 /* positional synopsis, e.g. "[IFACE]" */
	const char *summary;	 /* one line for 'ppbench --help' */
	const char *description; /* paragraphs for 'ppbench CMD --help' */
	const char *examples;
	/* Its page's figures into FIGS (CLI_MAX_FIGS at most); how many. NULL: none. */
	int (*figures)(struct cli_fig *figs);
	const struct cli_opt *opts;
	int min_args, max_args;
	size_t cfg_size;
	void (*cfg_init)(void *cfg);
	/* CLI_CUSTOM options: returns 0, or a negative errno after a one-line error. */
	int (*opt)(void *cfg, int key, const char *arg);
	/*
	 * Checks of the arguments and of options together, before the needs:
	 * returns EXIT_OK to go on, else the exit code (the error is printed).
	 */
	int (*check)(void *cfg, int argc, char **argv);
	unsigned needs; /* the program's bits: what check_needs() checks */
	/* Runs the command; returns an exit code (EXIT_*). */
	int (*run)(void *cfg, int argc, char **argv);
	/*
	 * Hand positional arguments to opt() as CLI_KEY_ARG, in command-line
	 * order among the options, for commands where an option gives the
	 * arguments after it their meaning (compare --old A B --new C D).
	 * run() then gets no arguments: leave min_args/max_args at 0.
	 */
	bool ordered_args;
	/*
	 * The first argument ends the options: what follows is another command
	 * line, whose options are its own (ppbench vm -- bench --json F).
	 */
	bool args_end_options;
	/*
	 * Whether the command line ARGV (ARGV[0] the command's name) is for
	 * `git bisect run`, which reads 1-127 but 125 as "bad": then each long
	 * option must be written whole (getopt's abbreviations are refused), and
	 * what ends the command before run() (a usage error, a failure) exits
	 * 128, which stops the bisection. run()'s status is its own to map.
	 */
	bool (*for_bisect)(int argc, char **argv);
};

/* Keys below this are free for commands. */
enum { CLI_KEY_HELP = 1000, CLI_KEY_VERBOSE, CLI_KEY_VERSION, CLI_KEY_ARG };

/*
 * A program: its commands, in --help order, ending with NULL, and the check
 * of what a command needs of this system (struct cli_cmd's needs, the
 * program's bits) just before its run(): each failure a one-line error; 0,
 * or a negative errno.
 */
struct cli_program {
	const struct cli_cmd *const *cmds;
	int (*check_needs)(const char *name, unsigned needs);
};

/* The running program's: cli_start() sets it. */
extern const struct cli_program *cli_prog;
/*
 * The options every command takes (--verbose, --help), after its own: in
 * --help and in the manual pages, from this one table.
 */
extern const struct cli_opt cli_common_opts[];

/* A program's main(): 'ppbench-CMD' as 'ppbench CMD', 'ppbench help CMD', a command. */
int cli_start(const struct cli_program *prog, int argc, char **argv);
/*
 * The running command's line as a shell reads it, "ppbench bench --scenario
 * ring,slow --json r.json" (words quoted where a shell would split them), for
 * the files that record what made them; malloc'ed, NULL outside a command or
 * without memory.
 */
char *cli_command_line(void);
/*
 * Whether a word of ARGV before "--" gives the long option NAME: --NAME,
 * --NAME=VALUE or a prefix of two letters or more that getopt would take
 * for it (--bis for --bisect).
 */
bool cli_names_opt(int argc, char **argv, const char *name);
/*
 * The options and the number of arguments of CMD's command line ARGV (ARGV[0]
 * is the command's name) into CFG, initialised by the caller; nothing is
 * checked against the system and nothing runs. Returns EXIT_OK with the
 * arguments at ARGV + optind (NARGS of them), -1 after --help, else the exit
 * code (the error is printed).
 */
int cli_parse(const struct cli_cmd *cmd, void *cfg, int argc, char **argv, int *nargs);
void cli_print_help(const struct cli_cmd *cmd, FILE *f);
/* The command called NAME, or NULL. */
const struct cli_cmd *cli_find(const char *name);
/*
 * CPU options (CLI_CPU) are checked against this many CPUs instead of the
 * online CPUs of this machine when it is above 0: the command line is for
 * another machine (ppbench vm's guest).
 */
extern int cli_guest_cpus;
/*
 * Calls FN for each option of CMD's command line ARGV (ARGV[0] is the
 * command's name) that takes a value, in order, with the index in ARGV of
 * the word that holds the value and where the value starts in it ("--json=F":
 * after the '='). ARGV is not changed. Returns 0, or FN's first non-zero
 * return. Only for a command line cli_parse() accepted.
 */
typedef int (*cli_walk_fn)(void *ctx, const struct cli_opt *o, int argi, size_t at);
int cli_walk(const struct cli_cmd *cmd, int argc, char **argv, cli_walk_fn fn, void *ctx);
/* The help text with the range the kind enforces, e.g. "batch size, 1..256 (default 64)". */
void cli_opt_help(const struct cli_opt *o, char *buf, size_t len);
/* The metavar, generated for enums ("auto|tracepoint"); NULL for a flag. */
const char *cli_opt_metavar(const struct cli_opt *o, char *buf, size_t len);

/* The bash completion of ppbench, from the command tables (completion.c). */
void cli_completion(FILE *f);

#endif
