// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench-bisect's step: in a kernel tree that git bisect has checked out,
 * configure (the kernel's merge_config.sh: ppbench's fragment over defconfig
 * or the user's config), build incrementally, boot under ppbench vm running
 * bench, and compare with the baseline (compare --bisect). Each tool runs as
 * a child with its output in the step's log; what each returns becomes git
 * bisect run's status through model/bisect_status.h.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bisect/bisect_run.h"
#include "vm/vm_run.h"
#include "compare/bisect_status.h"
#include "compare/compare_stats.h"
#include "model/result.h"
#include "sys/log.h"
#include "sys/util.h"

#ifndef PPBENCH_LIBDIR
#define PPBENCH_LIBDIR "/usr/local/lib/ppbench"
#endif

#define MAX_ARGS (32 + 2 * BISECT_MAX_LIMITS)

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

/* The ppbench that runs vm and compare: this one, or a stand-in (tests), whose vm is its own. */
static const char *ppbench_stand_in(void)
{
	const char *p = getenv("PPBENCH_BISECT_PPBENCH");

	return p && *p ? p : NULL;
}

static const char *ppbench_exe(void)
{
	return ppbench_stand_in() ?: "/proc/self/exe";
}

void bisect_default_fragment(char *buf, size_t len)
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

/* Exit status of a child: its code, or 128 + the signal that ended it (as a shell says). */
static int child_status(int ws)
{
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	return WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : 255;
}

/*
 * Runs ARGV with stdin from /dev/null and stdout and stderr appended to LOG,
 * or stdout into CAP (LOG NULL: stderr discarded). Returns its status, or
 * -errno when it could not start; 127: no such program.
 */
static int run(const char *const *argv, const char *log, char *cap, size_t caplen,
	       const char *const *env)
{
	int fd[2] = { -1, -1 }, ws, out;
	pid_t pid;

	if (cap && pipe2(fd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);

		out = log ? open(log, O_WRONLY | O_CREAT | O_APPEND, 0644)
			  : open("/dev/null", O_WRONLY);
		if (in < 0 || out < 0)
			_exit(126);
		dup2(in, STDIN_FILENO);
		dup2(cap ? fd[1] : out, STDOUT_FILENO);
		dup2(out, STDERR_FILENO);
		for (size_t i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (cap) {
		char rest[256];
		size_t n = 0;
		ssize_t r = 1;

		close(fd[1]);
		while (n < caplen - 1 && (r = read(fd[0], cap + n, caplen - 1 - n)) > 0)
			n += r;
		cap[n] = 0;
		/* the rest, so that the child never blocks on a full pipe */
		while (r > 0)
			r = read(fd[0], rest, sizeof(rest));
		close(fd[0]);
	}
	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return child_status(ws);
}

/* Writes ARGV into LOG as the stage's header: "== STAGE: argv...". */
static void log_cmd(const char *log, const char *stage, const char *const *argv)
{
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

/*
 * The first line of LOG after offset FROM that holds one of WORDS (in order
 * of preference), else its last line, trimmed, into BUF.
 */
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

static double secs_since(uint64_t t0)
{
	return (now_ns() - t0) / 1e9;
}

__attribute__((format(printf, 3, 4))) static int decide(struct bisect_outcome *o, int status,
							const char *fmt, ...)
{
	va_list ap;

	o->status = status;
	va_start(ap, fmt);
	vsnprintf(o->why, sizeof(o->why), fmt, ap);
	va_end(ap);
	return status;
}

/* "3a1b2c4 subject" of HEAD, and the short hash alone in HASH ("step" outside git). */
static void commit_of(struct bisect_outcome *o, char *hash, size_t len)
{
	const char *argv[] = { "git", "log", "-1", "--format=%h %s", NULL };
	char cap[sizeof(o->commit)];

	snprintf(hash, len, "step");
	o->commit[0] = 0;
	if (run(argv, NULL, cap, sizeof(cap), NULL) || !cap[0])
		return;
	cap[strcspn(cap, "\n")] = 0;
	snprintf(o->commit, sizeof(o->commit), "%s", cap);
	snprintf(hash, len, "%.*s", (int)strcspn(cap, " "), cap);
}

/* compare's gate options, for the preflight and for each step. */
static void gate_args(const struct bisect_cfg *cfg, struct argv_buf *a, char *pct, size_t len)
{
	arg(a, "--bisect");
	if (cfg->noise) {
		arg(a, "--noise");
		arg(a, cfg->noise);
	}
	if (cfg->gate) {
		snprintf(pct, len, "%.17g", cfg->fail_above);
		arg(a, "--fail-above");
		arg(a, pct);
		arg(a, "--metric");
		arg(a, fig_name(cfg->metric));
	}
	for (size_t i = 0; i < cfg->nlimits; i++) {
		arg(a, "--limit");
		arg(a, cfg->limits[i]);
	}
}

/* The text of compare --bisect's verdict line in LOG after FROM, into WHY. */
static void compare_why(const char *log, long from, char *why, size_t len)
{
	static const char *const verdict[] = { "ppbench compare: bisect: ", NULL };
	static const char *const *const prefs[] = { verdict, NULL };
	char line[512];
	const char *p;

	log_pick(log, from, prefs, line, sizeof(line));
	p = strstr(line, verdict[0]);
	p = p ? strchr(p + strlen(verdict[0]), ':') : NULL;
	snprintf(why, len, "%s", p ? p + 2 : line);
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
		else if (cfg->gate && cfg->metric == FIG_PATH && !sc->has_path_cost)
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
		return prog_in_path(what);
	snprintf(hdr, sizeof(hdr), "%.*s", (int)strlen(what) - 2, what + 1);
	return !run(cc, NULL, NULL, 0, NULL);
}

/*
 * What building the kernel needs of this machine, into WHY as one line
 * naming the package: make, the compilers (the host's, and arm64's cross
 * compiler), kconfig's flex and bison, bc, pahole (without it kconfig drops
 * BTF, which ppbench needs), libelf (objtool, resolve_btfids), and OpenSSL's
 * headers where the config signs modules or keeps a keyring.
 */
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

/*
 * What fails the same at every step stops the bisection before a build:
 * an unreadable fragment or config, a tool or file the build or the boot
 * needs, a baseline without the scenario, and whatever compare --bisect
 * refuses of the baseline against itself (the noise profile, the gate's
 * options, a limit the good kernel already exceeds).
 */
static int preflight(const struct bisect_cfg *cfg, const char *log, struct bisect_outcome *o)
{
	const char *base = cfg->config ? cfg->config : karch[cfg->arch].defconfig;
	struct argv_buf a = { 0 };
	char pct[32], why[PATH_MAX + 128];
	long from = file_size(log);
	int st;

	if (access(cfg->fragment, R_OK))
		return decide(o, BISECT_STOP, "--fragment: cannot read '%s': %s", cfg->fragment,
			      strerror(errno));
	if (cfg->config && access(cfg->config, R_OK))
		return decide(o, BISECT_STOP, "--config: cannot read '%s': %s", cfg->config,
			      strerror(errno));
	if (kbuild_ready(cfg, base, why, sizeof(why)) ||
	    (!ppbench_stand_in() && vm_host_check(cfg->arch, why, sizeof(why))))
		return decide(o, BISECT_STOP, "%s", why);
	if (!cfg->baseline)
		return 0;
	if (check_baseline(cfg, o))
		return o->status;
	arg(&a, ppbench_exe());
	arg(&a, "compare");
	gate_args(cfg, &a, pct, sizeof(pct));
	arg(&a, cfg->baseline);
	arg(&a, cfg->baseline);
	log_cmd(log, "check: the baseline against itself", a.v);
	st = run(a.v, log, NULL, 0, NULL);
	if (st == 0)
		return 0;
	compare_why(log, from, why, sizeof(why));
	return decide(o, BISECT_STOP, "the baseline against itself: %s", why);
}

/*
 * Why a config or build stage AT ended with ST, from its part of LOG (after
 * FROM): the first line of PREFS, or of this machine's failures (a command
 * not found, make's Error 127 for it, a full disk), which stop the
 * bisection instead of skipping the commit.
 */
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
	st = run(a.v, log, NULL, 0, env);
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
	st = run(a.v, log, NULL, 0, NULL);
	o->build_s = secs_since(t0);
	return st ? stage_failed(o, BISECT_AT_BUILD, st, log, from, prefs, "the build failed",
				 "make")
		  : 0;
}

/* vm --bisect: 0 a result, 125 the kernel did not boot or bench failed in it, 128 this machine. */
static int boot(const struct bisect_cfg *cfg, const char *image, const char *json, const char *log,
		struct bisect_outcome *o)
{
	static const char *const err[] = { "error:", "rror", NULL };
	static const char *const *const prefs[] = { err, NULL };
	char rep[32], line[512];
	struct argv_buf a = { 0 };
	long from = file_size(log);
	uint64_t t0 = now_ns();
	int st, vm;

	arg(&a, ppbench_exe());
	arg(&a, "vm");
	arg(&a, "--bisect");
	arg(&a, "--quiet");
	arg(&a, "--arch");
	arg(&a, vm_arch_name(cfg->arch));
	arg(&a, "--kernel");
	arg(&a, image);
	arg(&a, "--");
	arg(&a, "bench");
	arg(&a, "--quiet");
	arg(&a, "--scenario");
	arg(&a, cfg->scenario);
	if (cfg->repeat) {
		snprintf(rep, sizeof(rep), "%u", cfg->repeat);
		arg(&a, "--repeat");
		arg(&a, rep);
	}
	arg(&a, "--json");
	arg(&a, json);
	log_cmd(log, "boot", a.v);
	/* a file of an earlier bisection is no result of this kernel */
	unlink(json);
	vm = run(a.v, log, NULL, 0, NULL);
	o->boot_s = secs_since(t0);
	st = bisect_step_status(BISECT_AT_BOOT, vm, file_exists(json), false);
	if (!st)
		return 0;
	log_pick(log, from, prefs, line, sizeof(line));
	if (st == BISECT_SKIP)
		return decide(o, st,
			      "no result from the kernel (it did not boot, or bench failed in it): "
			      "%s",
			      line);
	return decide(o, st, "this machine could not boot the kernel (vm exit %d): %s", vm,
		      vm < 0 ? strerror(-vm) : line);
}

static int compare(const struct bisect_cfg *cfg, const char *json, const char *log,
		   struct bisect_outcome *o)
{
	struct argv_buf a = { 0 };
	char pct[32], why[sizeof(o->why)];
	long from = file_size(log);
	int st;

	arg(&a, ppbench_exe());
	arg(&a, "compare");
	gate_args(cfg, &a, pct, sizeof(pct));
	if (cfg->baseline)
		arg(&a, cfg->baseline);
	arg(&a, json);
	log_cmd(log, "compare", a.v);
	st = run(a.v, log, NULL, 0, NULL);
	compare_why(log, from, why, sizeof(why));
	return decide(o, bisect_step_status(BISECT_AT_COMPARE, st, true, false), "%s", why);
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

int bisect_step(const struct bisect_cfg *cfg, struct bisect_outcome *o)
{
	char hash[64], json[PATH_MAX + 80], image[PATH_MAX + 80];

	memset(o, 0, sizeof(*o));
	o->build_s = o->boot_s = -1;
	commit_of(o, hash, sizeof(hash));
	if (access("scripts/kconfig/merge_config.sh", R_OK) || access("Makefile", R_OK))
		return decide(
			o, BISECT_STOP,
			"no scripts/kconfig/merge_config.sh here: run ppbench-bisect at the top "
			"of a kernel tree (git bisect run does)");
	if (make_dir("--out", cfg->out, o) ||
	    (cfg->build_dir && make_dir("--build-dir", cfg->build_dir, o)))
		return o->status;
	snprintf(o->log, sizeof(o->log), "%s/%s.log", cfg->out, hash);
	snprintf(json, sizeof(json), "%s/%s.json", cfg->out, hash);
	snprintf(image, sizeof(image), "%s/%s", cfg->build_dir ? cfg->build_dir : ".",
		 karch[cfg->arch].image);
	unlink(o->log);
	if (preflight(cfg, o->log, o) || configure(cfg, o->log, o) || build(cfg, o->log, o) ||
	    boot(cfg, image, json, o->log, o))
		return o->status;
	return compare(cfg, json, o->log, o);
}
