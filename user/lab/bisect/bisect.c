// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench-bisect: one step of `git bisect run` (ppbench-bisect(8)). The kernel's tools run
 * as children, vm and compare in-process; every stage's output goes to the step's log.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compare/compare.h"
#include "vm/vm.h"
#include "compare/bisect_status.h"
#include "model/result.h"
#include "sys/log.h"
#include "sys/spawn.h"
#include "sys/util.h"
#include "cli/cli.h"
#include "model/scenario.h"

struct bisect_cfg {
	const char *baseline;  /* --baseline FILE: the good kernel's bench result, or NULL */
	const char *scenario;  /* --scenario LIST: what bench runs and compare gates */
	struct cmp_gate g;     /* --fail-above, --noise, --metric, --limit; always bisect's */
	const char *config;    /* --config FILE: the config to merge over, instead of defconfig */
	const char *fragment;  /* --fragment FILE, default ppbench's (scripts/vm/ppbench.config) */
	const char *build_dir; /* --build-dir DIR: make O=DIR */
	const char *out;       /* --out DIR: each step's result and log */
	int arch;	       /* enum vm_arch */
	uint32_t jobs;	       /* make -j, 0: the online CPUs */
	uint32_t repeat;       /* bench --repeat, 0: bench's default */
};

/* One step: its line (bisect_print_step prints it) and the strings it points to. */
struct bisect_outcome {
	struct bisect_line l;
	char commit[128], why[640], log[PATH_MAX];
};

#ifndef PPBENCH_LIBDIR
#define PPBENCH_LIBDIR "/usr/local/lib/ppbench"
#endif

#define MAX_ARGS 16

/* The kernel's own config of each guest architecture, and the image qemu boots. */
static const struct {
	const char *defconfig, *image, *target, *make_arch;
} karch[] = {
	[VM_ARCH_X86_64] = { "arch/x86/configs/x86_64_defconfig", "arch/x86/boot/bzImage",
			     "bzImage", NULL },
	[VM_ARCH_ARM64] = { "arch/arm64/configs/defconfig", "arch/arm64/boot/Image", "Image",
			    "arm64" },
};

struct argv_buf {
	const char *v[MAX_ARGS + 1];
	int n;
};

static void arg(struct argv_buf *a, const char *s)
{
	if (a->n < MAX_ARGS)
		a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

/* The fragment a kernel for ppbench vm needs: this source tree's, or the installation's. */
static void bisect_default_fragment(char *buf, size_t len)
{
	const char *lib = getenv("PPBENCH_LIBDIR");
	char exe[PATH_MAX] = "";

	if (lib && *lib) {
		snprintf(buf, len, "%s/vm/ppbench.config", lib);
		return;
	}
	/* a build directory's ppbench (build/, build/static/) uses its tree's */
	if (readlink("/proc/self/exe", exe, sizeof(exe) - 1) > 0) {
		for (int up = 0; up < 3; up++) {
			char *slash = strrchr(exe, '/');

			if (!slash || slash == exe)
				break;
			*slash = '\0';
			snprintf(buf, len, "%s/scripts/vm/ppbench.config", exe);
			if (!access(buf, R_OK))
				return;
		}
	}
	snprintf(buf, len, "%s/vm/ppbench.config", PPBENCH_LIBDIR);
}

/* ARGV's status, its output appended to LOG (NULL: discarded), ENV added; -errno. */
static int run(const char *const *argv, const char *log, const char *const *env)
{
	struct spawn s = { .argv = argv, .env = env, .in = SPAWN_NULL };
	int fd = SPAWN_NULL, st;

	if (log && (fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) < 0)
		return -errno;
	s.out = s.err = fd;
	st = spawn_run(&s);
	if (fd > 0)
		close(fd);
	return st;
}

/* An in-process stage's output into LOG, as COMMAND's (SAVED: for std_back()). 0, -errno. */
static int std_to(const char *log, const char *command, int saved[2])
{
	int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	fflush(NULL);
	saved[0] = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	saved[1] = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
	log_set_command(command);
	return 0;
}

static void std_back(const int saved[2])
{
	fflush(NULL);
	log_set_command("bisect");
	for (int i = 0; i < 2; i++) {
		dup2(saved[i], STDOUT_FILENO + i);
		close(saved[i]);
	}
}

/* "== STAGE: ARGV..." into LOG (STAGE NULL: ARGV alone). */
static void log_cmd(const char *log, const char *stage, const char *const *argv)
{
	if (stage)
		log_append(log, "== %s:", stage);
	for (int i = 0; argv[i]; i++)
		log_append(log, " %s", argv[i]);
	log_append(log, "\n");
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (long)st.st_size;
}

static bool has_word(const char *line, const char *const *words)
{
	for (int i = 0; words[i]; i++)
		if (strstr(line, words[i]))
			return true;
	return false;
}

/* LOG's first line after FROM with a word of PREFS (in their order), else its last. */
static void log_pick(const char *log, long from, const char *const *const *prefs, char *buf,
		     size_t len)
{
	char line[512], last[512] = "no output";
	FILE *f = fopen(log, "r");

	snprintf(buf, len, "%s", last);
	if (!f)
		return;
	for (int p = 0; prefs[p]; p++) {
		fseek(f, from, SEEK_SET);
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = 0;
			if (line[0] && strncmp(line, "== ", 3))
				snprintf(last, sizeof(last), "%s", line);
			if (line[0] && has_word(line, prefs[p])) {
				snprintf(buf, len, "%s", line);
				fclose(f);
				return;
			}
		}
	}
	fclose(f);
	snprintf(buf, len, "%s", last);
}

__attribute__((format(printf, 3, 4))) static int decide(struct bisect_outcome *o, int status,
							const char *fmt, ...)
{
	va_list ap;

	o->l.status = status;
	va_start(ap, fmt);
	vsnprintf(o->why, sizeof(o->why), fmt, ap);
	va_end(ap);
	return status;
}

/* "3a1b2c4 subject" of HEAD, and the short hash alone in HASH ("step" outside git). */
static void commit_of(struct bisect_outcome *o, char *hash, size_t len)
{
	const char *argv[] = { "git", "log", "-1", "--format=%h %s", NULL };
	const struct spawn git = { .argv = argv, .in = SPAWN_NULL, .err = SPAWN_NULL };
	char cap[sizeof(o->commit)];

	snprintf(hash, len, "step");
	o->commit[0] = 0;
	if (spawn_capture(&git, cap, sizeof(cap), 0) || !cap[0])
		return;
	cap[strcspn(cap, "\n")] = 0;
	snprintf(o->commit, sizeof(o->commit), "%s", cap);
	snprintf(hash, len, "%.*s", (int)strcspn(cap, " "), cap);
}

/* compare --bisect's status of NEW against OLD (NULL: the limits alone), logged; WHY. */
static int judge(const struct bisect_cfg *cfg, const char *old, const char *new, const char *log,
		 char *why, size_t len)
{
	struct verdict v;
	int saved[2], st;

	log_append(log, "== compare: %s%s%s\n", old ? old : "", old ? " " : "", new);
	if (std_to(log, "compare", saved)) {
		snprintf(why, len, "cannot write the log %s: %s", log, strerror(errno));
		return BISECT_STOP;
	}
	compare_judge(&cfg->g, old, new, &v);
	st = compare_status(&cfg->g, &v);
	std_back(saved);
	snprintf(why, len, "%s", v.why);
	return st;
}

/* Each scenario of the list in the baseline, with the gated figure. */
static int check_baseline(const struct bisect_cfg *cfg, struct bisect_outcome *o)
{
	char err[512], list[256], *save = NULL;
	struct result base;
	int ret = 0;

	if (result_load(cfg->baseline, &base, err, sizeof(err)))
		return decide(o, BISECT_STOP, "--baseline: %s", err);
	snprintf(list, sizeof(list), "%s", cfg->scenario);
	for (char *s = strtok_r(list, ",", &save); s && !ret; s = strtok_r(NULL, ",", &save)) {
		const struct result_scenario *sc = result_find(&base, s);

		if (!sc)
			ret = decide(o, BISECT_STOP, "--scenario %s: not in the baseline %s", s,
				     cfg->baseline);
		else if (!sc->ok)
			ret = decide(o, BISECT_STOP,
				     "--scenario %s: skipped in the baseline %s: %s", s,
				     cfg->baseline, sc->reason ? sc->reason : "no reason");
		else if (cfg->g.gate && cfg->g.metric == FIG_PATH && !sc->has_path_cost)
			ret = decide(o, BISECT_STOP,
				     "--scenario %s: no path figure in the baseline %s to gate "
				     "--metric path on",
				     s, cfg->baseline);
	}
	result_free(&base);
	return ret;
}

/* Whether a line of the config at PATH is one of LINES. */
static bool config_has(const char *path, const char *const *lines)
{
	char line[256];
	bool found = false;
	FILE *f = fopen(path, "r");

	while (f && !found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		for (int i = 0; lines[i] && !found; i++)
			found = !strcmp(line, lines[i]);
	}
	if (f)
		fclose(f);
	return found;
}

/* WHAT (a program, or a <header> the host compiler finds) is on this machine. */
static bool host_has(const char *what)
{
	char hdr[64];
	/* (run() sends its output to /dev/null) */
	const char *cc[] = { "gcc", "-E", "-include", hdr, "-x", "c", "/dev/null", NULL };

	if (what[0] != '<')
		return prog_in_path(what, NULL, 0);
	snprintf(hdr, sizeof(hdr), "%.*s", (int)strlen(what) - 2, what + 1);
	return !run(cc, NULL, NULL);
}

/* What building the kernel needs here (pahole: kconfig drops BTF without it); WHY names it. */
static int kbuild_ready(const struct bisect_cfg *cfg, const char *base, char *why, size_t len)
{
	static const char *const signs[] = { "CONFIG_MODULE_SIG=y",
					     "CONFIG_SYSTEM_TRUSTED_KEYRING=y", NULL };
	const char *cross = getenv("CROSS_COMPILE");
	enum { ALWAYS, ARM64, SIGNING };
	const bool when[] = { [ALWAYS] = true,
			      [ARM64] = cfg->arch == VM_ARCH_ARM64,
			      [SIGNING] = config_has(base, signs) };
	char cc[128];
	const struct {
		const char *what, *pkg;
		int when;
	} need[] = {
		{ "make", "make", ALWAYS },
		{ "gcc", "gcc", ALWAYS },
		{ cc, "gcc-aarch64-linux-gnu", ARM64 },
		{ "flex", "flex", ALWAYS },
		{ "bison", "bison", ALWAYS },
		{ "bc", "bc", ALWAYS },
		{ "pahole", "dwarves", ALWAYS },
		{ "<gelf.h>", "libelf-dev", ALWAYS },
		{ "<openssl/opensslv.h>", "libssl-dev", SIGNING },
	};

	snprintf(cc, sizeof(cc), "%sgcc", cross ? cross : "aarch64-linux-gnu-");
	for (size_t i = 0; i < ARRAY_SIZE(need); i++) {
		if (!when[need[i].when] || host_has(need[i].what))
			continue;
		if (need[i].what == cc && cross)
			snprintf(why, len, "%s not found: CROSS_COMPILE names no compiler here",
				 cc);
		else
			snprintf(why, len,
				 "%s not found: building the kernel needs it (apt-get install %s; "
				 "ppbench's scripts/install-deps.sh --kernel-build installs all it "
				 "needs)",
				 need[i].what, need[i].pkg);
		return -ENOENT;
	}
	return 0;
}

/* What fails the same at every step stops the bisection before a build. */
static int preflight(const struct bisect_cfg *cfg, const char *log, struct bisect_outcome *o)
{
	const char *base = cfg->config ? cfg->config : karch[cfg->arch].defconfig;
	char why[PATH_MAX + 128];

	if (access(cfg->fragment, R_OK))
		return decide(o, BISECT_STOP, "--fragment: cannot read '%s': %s", cfg->fragment,
			      strerror(errno));
	if (cfg->config && access(cfg->config, R_OK))
		return decide(o, BISECT_STOP, "--config: cannot read '%s': %s", cfg->config,
			      strerror(errno));
	if (kbuild_ready(cfg, base, why, sizeof(why)) || vm_host_check(cfg->arch, why, sizeof(why)))
		return decide(o, BISECT_STOP, "%s", why);
	if (!cfg->baseline)
		return 0;
	if (check_baseline(cfg, o))
		return o->l.status;
	log_append(log, "== check: the baseline against itself\n");
	if (!judge(cfg, cfg->baseline, cfg->baseline, log, why, sizeof(why)))
		return 0;
	return decide(o, BISECT_STOP, "the baseline against itself: %s", why);
}

/* Why stage AT ended with ST, from LOG after FROM; this machine's failures stop. */
static int stage_failed(struct bisect_outcome *o, enum bisect_stage at, int st, const char *log,
			long from, const char *const *const *prefs, const char *what,
			const char *tool)
{
	static const char *const cmd[] = { "command not found", ": not found",
					   "No space left on device", NULL };
	static const char *const make[] = { "Error 127", NULL };
	static const char *const *const host[] = { cmd, make, NULL };
	char line[512];
	bool mine;
	int status;

	log_pick(log, from, host, line, sizeof(line));
	mine = has_word(line, cmd) || has_word(line, make);
	if (st < 0)
		snprintf(line, sizeof(line), "%s", strerror(-st));
	else if (!mine)
		log_pick(log, from, prefs, line, sizeof(line));
	status = bisect_step_status(at, st, false, mine);
	return decide(o, status, "%s%s (%s exit %d): %s", what,
		      status == BISECT_SKIP ? "" : " on this machine's account", tool, st, line);
}

/* merge_config.sh wants the base config by path; a relative one is the user's. */
static int configure(const struct bisect_cfg *cfg, const char *log, struct bisect_outcome *o)
{
	static const char *const err[] = { "rror", "No such", NULL };
	static const char *const *const prefs[] = { err, NULL };
	char env_arch[32];
	const char *env[] = { env_arch, NULL };
	struct argv_buf a = { 0 };
	long from = file_size(log);
	int st;

	snprintf(env_arch, sizeof(env_arch), "ARCH=%s",
		 karch[cfg->arch].make_arch ? karch[cfg->arch].make_arch : "x86");
	arg(&a, "scripts/kconfig/merge_config.sh");
	if (cfg->build_dir) {
		arg(&a, "-O");
		arg(&a, cfg->build_dir);
	}
	arg(&a, cfg->config ? cfg->config : karch[cfg->arch].defconfig);
	arg(&a, cfg->fragment);
	log_cmd(log, "config", a.v);
	st = run(a.v, log, env);
	return st ? stage_failed(o, BISECT_AT_CONFIG, st, log, from, prefs,
				 "the config did not merge", "merge_config.sh")
		  : 0;
}

static int build(const struct bisect_cfg *cfg, const char *log, struct bisect_outcome *o)
{
	static const char *const cc[] = { ": error:", ": fatal error:", NULL };
	static const char *const ld[] = { "undefined reference", "rror", NULL };
	static const char *const *const prefs[] = { cc, ld, NULL };
	char jobs[32], odir[PATH_MAX + 8], arch[32];
	struct argv_buf a = { 0 };
	long from = file_size(log);
	uint64_t t0 = now_ns();
	int st;

	snprintf(jobs, sizeof(jobs), "-j%u",
		 cfg->jobs ? cfg->jobs : (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
	arg(&a, "make");
	arg(&a, jobs);
	if (cfg->build_dir) {
		snprintf(odir, sizeof(odir), "O=%s", cfg->build_dir);
		arg(&a, odir);
	}
	if (karch[cfg->arch].make_arch) {
		snprintf(arch, sizeof(arch), "ARCH=%s", karch[cfg->arch].make_arch);
		arg(&a, arch);
		if (!getenv("CROSS_COMPILE"))
			arg(&a, "CROSS_COMPILE=aarch64-linux-gnu-");
	}
	arg(&a, karch[cfg->arch].target);
	log_cmd(log, "build", a.v);
	st = run(a.v, log, NULL);
	o->l.build_s = (now_ns() - t0) / 1e9;
	return st ? stage_failed(o, BISECT_AT_BUILD, st, log, from, prefs, "the build failed",
				 "make")
		  : 0;
}

/* Why a guest that ended as END gave no result, in a clause. */
static void boot_why(const struct vm_end *end, char *buf, size_t len)
{
	if (end->why[0])
		snprintf(buf, len, "%s", end->why);
	else if (end->rc >= 128)
		snprintf(buf, len, "stopped by signal %d", end->rc - 128);
	else if (end->host)
		snprintf(buf, len, "vm could not run the guest (the log says why)");
	else if (end->rc)
		snprintf(buf, len, "bench exited %d in it (the log has its output)", end->rc);
	else
		snprintf(buf, len, "bench left no result file");
}

/* IMAGE booted under vm running bench into JSON: 0, a skip, or a stop (this machine's). */
static int boot(const struct bisect_cfg *cfg, char *image, char *json, const char *log,
		struct bisect_outcome *o)
{
	char rep[32], why[256],
		*argv[12] = { "bench", "--quiet", "--scenario", (char *)cfg->scenario };
	struct vm_cfg vm;
	struct vm_end end;
	uint64_t t0 = now_ns();
	int argc = 4, saved[2], st;

	vm_cfg_init(&vm);
	vm.kernel = image;
	vm.arch = cfg->arch;
	vm.cpus = vm_default_cpus(vm.clock);
	vm.quiet = true;
	if (cfg->repeat) {
		snprintf(rep, sizeof(rep), "%u", cfg->repeat);
		argv[argc++] = "--repeat";
		argv[argc++] = rep;
	}
	argv[argc++] = "--json";
	argv[argc++] = json;
	argv[argc] = NULL;
	log_append(log, "== boot: vm --arch %s --kernel %s --", vm_arch_name(cfg->arch), image);
	log_cmd(log, NULL, (const char *const *)argv);
	/* a file of an earlier bisection is no result of this kernel */
	unlink(json);
	if (std_to(log, "vm", saved))
		return decide(o, BISECT_STOP, "cannot write the log %s: %s", log, strerror(errno));
	vm_guest(&vm, argc, argv, &end);
	std_back(saved);
	o->l.boot_s = (now_ns() - t0) / 1e9;
	st = bisect_step_status(BISECT_AT_BOOT, end.rc, file_exists(json), end.host);
	if (!st)
		return 0;
	boot_why(&end, why, sizeof(why));
	if (st == BISECT_SKIP)
		return decide(o, st,
			      "no result from the kernel (it did not boot, or bench failed in it): "
			      "%s",
			      why);
	return decide(o, st, "this machine could not boot the kernel: %s", why);
}

static int make_dir(const char *opt, const char *dir, struct bisect_outcome *o)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s", dir);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		mkdir(p, 0755); /* (an error shows in the last mkdir) */
		*s = '/';
	}
	if (mkdir(p, 0755) && errno != EEXIST)
		return decide(o, BISECT_STOP, "%s: cannot create '%s': %s", opt, dir,
			      strerror(errno));
	return 0;
}

/* One step in the kernel tree that is the current directory: O, and its status. */
static int bisect_step(const struct bisect_cfg *cfg, struct bisect_outcome *o)
{
	char hash[64], json[PATH_MAX + 80], image[PATH_MAX + 80], why[sizeof(o->why)];

	memset(o, 0, sizeof(*o));
	o->l = (struct bisect_line){
		.commit = o->commit, .why = o->why, .build_s = -1, .boot_s = -1
	};
	commit_of(o, hash, sizeof(hash));
	if (access("scripts/kconfig/merge_config.sh", R_OK) || access("Makefile", R_OK))
		return decide(
			o, BISECT_STOP,
			"no scripts/kconfig/merge_config.sh here: run ppbench-bisect at the top "
			"of a kernel tree (git bisect run does)");
	if (make_dir("--out", cfg->out, o) ||
	    (cfg->build_dir && make_dir("--build-dir", cfg->build_dir, o)))
		return o->l.status;
	snprintf(o->log, sizeof(o->log), "%s/%s.log", cfg->out, hash);
	snprintf(json, sizeof(json), "%s/%s.json", cfg->out, hash);
	snprintf(image, sizeof(image), "%s/%s", cfg->build_dir ? cfg->build_dir : ".",
		 karch[cfg->arch].image);
	unlink(o->log);
	if (preflight(cfg, o->log, o) || configure(cfg, o->log, o) || build(cfg, o->log, o) ||
	    boot(cfg, image, json, o->log, o))
		return o->l.status;
	return decide(o, judge(cfg, cfg->baseline, json, o->log, why, sizeof(why)), "%s", why);
}

enum { OPT_SCENARIO = 1, OPT_LIMIT };

#define B(m) CLI_MEMBER(struct bisect_cfg, m)

static const struct cli_word arches[] = {
	{ "x86-64", VM_ARCH_X86_64 },
	{ "arm64", VM_ARCH_ARM64 },
	{ NULL },
};

static const struct cli_opt bisect_opts[] = {
	{ "baseline", 'b', "FILE",
	  "the good kernel's result: 'ppbench vm --kernel IMAGE -- bench --json FILE' of a "
	  "kernel built the same way (--limit alone needs none)",
	  .kind = CLI_STRING, B(baseline) },
	{ "scenario", 's', "LIST",
	  "the scenarios bench runs in each kernel and compare gates (ring, fast, slow; "
	  "comma-separated)",
	  OPT_SCENARIO },
	CMP_GATE_OPTS(struct bisect_cfg, g, OPT_LIMIT),
	{ "config", 'c', "FILE",
	  "merge the fragment over this config instead of the architecture's defconfig",
	  .kind = CLI_STRING, B(config) },
	{ "fragment", 'F', "FILE",
	  "the config fragment (default: ppbench's, ppbench.config beside vm's scripts)",
	  .kind = CLI_STRING, B(fragment) },
	{ "build-dir", 'O', "DIR", "build in DIR (make O=DIR; default: in the tree)",
	  .kind = CLI_STRING, B(build_dir) },
	{ "out", 'o', "DIR",
	  "where each step's result (HASH.json) and log (HASH.log) go (default .ppbench-bisect)",
	  .kind = CLI_STRING, B(out) },
	{ "arch", 'a', NULL,
	  "the kernel's architecture: x86-64 (bzImage) or arm64 (Image, cross-built with "
	  "aarch64-linux-gnu-) (default x86-64)",
	  .kind = CLI_ENUM, B(arch), .words = arches },
	{ "jobs", 'j', "N", "make -jN (default: the online CPUs)", .kind = CLI_UINT, B(jobs),
	  .min = 1, .max = 4096 },
	{ "repeat", 'r', "N", "bench --repeat in each kernel (default: bench's)", .kind = CLI_UINT,
	  B(repeat), .min = 1, .max = 1000 },
	{ NULL },
};

static void bisect_init(void *c)
{
	struct bisect_cfg *cfg = c;

	cmp_gate_init(&cfg->g);
	cfg->g.bisect = true;
	cfg->out = ".ppbench-bisect";
}

static int check_scenarios(const char *arg)
{
	char err[256];

	if (strlen(arg) >= sizeof(err)) {
		pr_err("--scenario: list too long\n");
		return -EINVAL;
	}
	if (scenario_list_parse(arg, NULL, err, sizeof(err))) {
		pr_err("%s\n", err);
		return -EINVAL;
	}
	return 0;
}

static int bisect_opt(void *c, int key, const char *arg)
{
	struct bisect_cfg *cfg = c;

	if (key == OPT_SCENARIO) {
		cfg->scenario = arg;
		return check_scenarios(arg);
	}
	return cmp_gate_limit(&cfg->g, arg);
}

static int bisect_check(void *c, int argc, char **argv)
{
	struct bisect_cfg *cfg = c;

	(void)argc;
	(void)argv;
	if (!cfg->baseline && cfg->g.gate) {
		pr_err("--fail-above compares with a baseline: give --baseline FILE, the good "
		       "kernel's bench result\n");
		return EXIT_USAGE;
	}
	if (!cfg->scenario) {
		pr_err("no scenario: give --scenario LIST, what bench runs and compare gates\n");
		return EXIT_USAGE;
	}
	if (!cfg->g.gate && !cfg->g.nlimits) {
		pr_err("nothing decides good from bad: give --fail-above PCT or --limit\n");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int bisect_run(void *c, int argc, char **argv)
{
	struct bisect_cfg *cfg = c;
	char fragment[4096];
	struct bisect_outcome o;

	(void)argc;
	(void)argv;
	if (!cfg->fragment) {
		bisect_default_fragment(fragment, sizeof(fragment));
		cfg->fragment = fragment;
	}
	bisect_step(cfg, &o);
	o.l.log = o.log[0] && file_exists(o.log) ? o.log : NULL;
	bisect_print_step(stdout, &o.l);
	return o.l.status;
}

/* Every command line of it is git bisect run's: a mistake stops the bisection. */
static bool bisect_always(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return true;
}

const struct cli_cmd cmd_bisect = {
	.name = "bisect",
	.args = NULL,
	.summary = "one step of 'git bisect run' in a kernel tree: build, boot, bench, compare",
	.description =
		"Run from the top of a kernel tree as git bisect run's command, installed as\n"
		"ppbench-bisect:\n"
		"\n"
		"  git bisect run ppbench-bisect --baseline base.json --noise noise.json \\\n"
		"      --scenario slow --fail-above 0.5\n"
		"\n"
		"Each step configures the kernel with ppbench's config fragment (the kernel's\n"
		"scripts/kconfig/merge_config.sh over the architecture's defconfig, or over\n"
		"--config), builds it incrementally, boots it as 'ppbench vm' does running\n"
		"'bench --scenario LIST', judges the result against the baseline as\n"
		"'compare --bisect' does, prints one line saying what it decided and why, and\n"
		"exits as git bisect run reads it:\n"
		"  0    good: no gate fired\n"
		"  1    bad: --fail-above's rule or a --limit fired\n"
		"  125  skip: the kernel could not be measured - the config did not merge,\n"
		"       the build failed, the kernel did not boot or bench failed in it, or\n"
		"       its result lacks the gated figure\n"
		"  128  stop: what would fail every step the same way - the command line (an\n"
		"       option unknown or abbreviated), not a kernel tree, a tool or file the\n"
		"       build or the boot needs missing here, this machine failing during a\n"
		"       step (a command not found, a full disk, vm's own failures), the\n"
		"       baseline without the scenario, a noise profile of another kernel, a\n"
		"       limit the baseline already exceeds\n"
		"Before the first build of every step it checks what the step needs of this\n"
		"machine and the baseline against itself (compare --bisect), so a mistake\n"
		"stops the bisection at once. Each step's result (HASH.json) and log (config,\n"
		"build, boot, compare) are kept in --out.",
	.examples = "  # once, on the good commit: the baseline and its noise\n"
		    "  scripts/kconfig/merge_config.sh arch/x86/configs/x86_64_defconfig \\\n"
		    "      /usr/local/lib/ppbench/vm/ppbench.config && make -j2 bzImage\n"
		    "  ppbench vm --kernel arch/x86/boot/bzImage -- bench --scenario slow --json "
		    "/tmp/base.json\n"
		    "  ppbench vm --kernel arch/x86/boot/bzImage -- calibrate --runs 5 --scenario "
		    "slow -o /tmp/noise.json\n"
		    "  git bisect start BAD GOOD\n"
		    "  git bisect run ppbench-bisect --baseline /tmp/base.json --noise "
		    "/tmp/noise.json --scenario slow --fail-above 0.5\n"
		    "  # a hard limit instead: no noise profile needed\n"
		    "  git bisect run ppbench-bisect --baseline /tmp/base.json --scenario fast "
		    "--limit fast:path=70\n",
	.opts = bisect_opts,
	.cfg_size = sizeof(struct bisect_cfg),
	.cfg_init = bisect_init,
	.opt = bisect_opt,
	.check = bisect_check,
	.run = bisect_run,
	.for_bisect = bisect_always,
};
