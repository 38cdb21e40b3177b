// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench vm's host side. The guest side, shared with the kernel matrix
 * (kernel fetch, initramfs, qemu command line), is scripts/vm/: this file
 * has vm_job.c write the job for scripts/vm/run, runs it in a process group of its own
 * under a guardian, relays the command's output as the guest prints it and
 * reports the script's progress lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>
#include "vm/vm_run.h"
#include "vm/vm_job.h"
#include "sys/guardian.h"
#include "sys/log.h"
#include "sys/spawn.h"
#include "sys/ticker.h"
#include "sys/util.h"

#ifndef PPBENCH_LIBDIR
#define PPBENCH_LIBDIR "/usr/local/lib/ppbench"
#endif

static const struct {
	const char *name, *qemu, *pkg;
} arches[] = {
	[VM_ARCH_X86_64] = { "x86-64", "qemu-system-x86_64", "qemu-system-x86" },
	[VM_ARCH_ARM64] = { "arm64", "qemu-system-aarch64", "qemu-system-arm" },
};

const char *vm_arch_name(int arch)
{
	return arches[arch].name;
}

const char *vm_arch_qemu(int arch)
{
	return arches[arch].qemu;
}

void vm_cfg_init(struct vm_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->clock = VM_CLOCK_ICOUNT;
	cfg->mem_mb = 1024;
	cfg->stall = VM_STALL_DEFAULT_S;
}

uint32_t vm_default_cpus(int clock)
{
	/* Under icount one host thread runs the vCPUs in turns: a second one
	 * only adds its idle loop (and 6.1 hangs bringing it up). */
	return clock == VM_CLOCK_ICOUNT ? 1 : 2;
}

/* A build directory's ppbench (build/ or build/static/) runs its own tree's scripts. */
static bool find_tree(struct vm_paths *p)
{
	char exe[PATH_MAX], try[PATH_MAX + 32];

	memset(exe, 0, sizeof(exe));
	if (readlink("/proc/self/exe", exe, sizeof(exe) - 1) <= 0)
		return false;
	for (int up = 0; up < 3; up++) {
		char *slash = strrchr(exe, '/');

		if (!slash || slash == exe)
			return false;
		*slash = '\0';
		snprintf(try, sizeof(try), "%s/scripts/vm/run", exe);
		if (!access(try, X_OK) && snprintf(try, sizeof(try), "%s/Makefile", exe) > 0 &&
		    !access(try, R_OK)) {
			snprintf(p->tree, sizeof(p->tree), "%s", exe);
			snprintf(p->dir, sizeof(p->dir), "%s/scripts/vm", exe);
			return true;
		}
	}
	return false;
}

/* PPBENCH_LIBDIR in the environment: an installation moved elsewhere (DESTDIR). */
static void find_paths(struct vm_paths *p)
{
	const char *lib = getenv("PPBENCH_LIBDIR");

	memset(p, 0, sizeof(*p));
	if ((lib && *lib) || !find_tree(p)) {
		lib = lib && *lib ? lib : PPBENCH_LIBDIR;
		snprintf(p->dir, sizeof(p->dir), "%s/vm", lib);
		snprintf(p->ppbench, sizeof(p->ppbench), "%s/ppbench-static", lib);
	}
}

/* vm_host_check() against the paths P (a source tree builds its own static ppbench). */
static int host_ready(const struct vm_paths *p, int arch, char *why, size_t len)
{
	const struct {
		const char *prog, *pkg;
	} need[] = {
		{ arches[arch].qemu, arches[arch].pkg },
		{ "cpio", "cpio" },
		{ "gzip", "gzip" },
		{ "readelf", "binutils" },
		{ "flock", "util-linux" },
		{ "aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu" },
	};
	char path[sizeof(p->ppbench) + 8];

	for (size_t i = 0; i < ARRAY_SIZE(need); i++) {
		/* a source tree builds the arm64 guest's ppbench with Debian's cross compiler */
		bool cross = !strcmp(need[i].prog, "aarch64-linux-gnu-gcc");

		if ((cross && (arch != VM_ARCH_ARM64 || !p->tree[0])) ||
		    prog_in_path(need[i].prog, NULL, 0))
			continue;
		snprintf(why, len, "%s not found: install %s (apt-get install %s)", need[i].prog,
			 need[i].pkg, need[i].pkg);
		return -ENOENT;
	}
	/* (an arm64 guest's busybox comes from the arm64 sysroot) */
	if (arch == VM_ARCH_X86_64 && access("/bin/busybox", X_OK)) {
		snprintf(why, len, "no /bin/busybox for the guest: install busybox-static");
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/run", p->dir);
	if (access(path, X_OK)) {
		snprintf(why, len, "%s is missing: ppbench vm needs its scripts (make install)",
			 path);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s%s", p->ppbench, arch == VM_ARCH_ARM64 ? "-arm64" : "");
	if (!p->tree[0] && access(path, X_OK)) {
		snprintf(
			why, len,
			"no static ppbench for the guest at %s: make install-guest%s puts it there",
			path, arch == VM_ARCH_ARM64 ? " ARM64=1" : "");
		return -ENOENT;
	}
	return 0;
}

int vm_host_check(int arch, char *why, size_t len)
{
	struct vm_paths p;

	find_paths(&p);
	return host_ready(&p, arch, why, len);
}

/* ---- running it ------------------------------------------------------------------- */

struct vm_job {
	const struct vm_cfg *cfg;
	int argc;
	char **argv;
	struct vm_paths p;
	char qplugin[PATH_MAX + 64];
	const char *json; /* the host path of the command's --json, or NULL */
	char work[PATH_MAX];
	struct guardian guard;
	bool guarded;	 /* the guardian runs (the work directory exists) */
	bool launched;	 /* its script started */
	pid_t pid;	 /* the script, leader of its process group; 0 when none runs */
	int status;	 /* its exit status (spawn_status()) */
	int status_fd;	 /* its reports, -1 when closed */
	char line[1024]; /* the status line being read */
	size_t nline;
	off_t relayed[2]; /* bytes of WORK/stdout and WORK/stderr copied out */
	int rc;		  /* the command's status ("rc N"), -1 until known */
	bool error;	  /* the script said why it could not run the command */
	bool host;	  /* this machine failed, not the kernel or the command (vm_end) */
	bool stopped;	  /* ended by us: another guest failed */
	char why[256];	  /* the first error the job reported */
	int ret;	  /* the job's exit status, once it ended */
	const struct vm_sink *sink;
};

static void relay(struct vm_job *j)
{
	static const char *const names[] = { "stdout", "stderr" };
	char path[PATH_MAX + 16], buf[65536];

	for (int i = 0; i < 2; i++) {
		int fd;
		ssize_t n;

		snprintf(path, sizeof(path), "%s/%s", j->work, names[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		while ((n = pread(fd, buf, sizeof(buf), j->relayed[i])) > 0) {
			j->sink->output(j->sink->ctx, i + 1, buf, n);
			j->relayed[i] += n;
		}
		close(fd);
	}
}

/* The job's one-line ERROR, reported and the first kept. */
static void job_error(struct vm_job *j, const char *error)
{
	if (!j->why[0])
		snprintf(j->why, sizeof(j->why), "%s", error);
	j->sink->error(j->sink->ctx, error);
}

/* One line of the script's reports (scripts/vm/run: phase, info, error, rc). */
static void status_line(struct vm_job *j, char *l)
{
	char *text = strchr(l, ' ');

	if (!text)
		return;
	*text++ = '\0';
	if (!strcmp(l, "phase")) {
		char *what = text;

		text = strchr(text, ' ');
		if (text)
			*text++ = '\0';
		j->sink->phase(j->sink->ctx, what, text ? text : "");
	} else if (!strcmp(l, "info")) {
		j->sink->info(j->sink->ctx, text);
	} else if (!strcmp(l, "error") || !strcmp(l, "hosterror")) {
		j->error = true;
		j->host = l[0] == 'h';
		job_error(j, text);
	} else if (!strcmp(l, "rc")) {
		j->rc = atoi(text);
	}
}

static void read_status(struct vm_job *j)
{
	char buf[4096];
	ssize_t n = read(j->status_fd, buf, sizeof(buf));

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	for (ssize_t i = 0; i < n; i++) {
		if (buf[i] != '\n') {
			if (j->nline < sizeof(j->line) - 1)
				j->line[j->nline++] = buf[i];
			continue;
		}
		j->line[j->nline] = '\0';
		status_line(j, j->line);
		j->nline = 0;
	}
	if (n <= 0) {
		close(j->status_fd);
		j->status_fd = -1;
	}
}

/* The job's status once its script ended (or a signal SIGNO stopped it). */
static int script_status(struct vm_job *j, int signo)
{
	for (int i = 0; i < 64 && j->status_fd >= 0; i++)
		read_status(j);
	relay(j);
	if (signo)
		return 128 + signo;
	if (j->rc >= 0)
		return j->rc;
	if (j->status == EXIT_USAGE)
		return EXIT_USAGE;
	/* (a script that died unannounced: killed or broken on this machine) */
	if (!j->error && !j->stopped) {
		j->host = true;
		job_error(j, "the guest's script ended without a result");
	}
	return EXIT_FAIL;
}

/* Side by side, a guest without a result leaves nothing to compare: the others stop. */
static void stop_others(struct vm_job *jobs, int n, int failed)
{
	for (int i = 0; i < n; i++)
		if (i != failed && jobs[i].pid > 0 && !jobs[i].stopped) {
			jobs[i].stopped = true;
			jobs[i].sink->info(jobs[i].sink->ctx,
					   "stopped: the other guest gave no result");
			kill(-jobs[i].pid, SIGTERM);
		}
}

/*
 * Waits for the N jobs' scripts, relaying each one's reports and output as
 * they come. SIGINT/SIGTERM/SIGHUP: every script stops its qemu and exits
 * (each in its process group); SIGCHLD: one did. Returns the signal, or 0.
 */
static int wait_scripts(struct vm_job *jobs, int n, int sig_fd)
{
	int running = 0, signo = 0;

	for (int i = 0; i < n; i++)
		running += jobs[i].pid > 0;
	while (running) {
		struct pollfd pfd[VM_MAX_GUESTS + 1] = { { sig_fd, POLLIN, 0 } };
		struct signalfd_siginfo si;

		for (int i = 0; i < n; i++) /* (poll() passes over a closed one's -1) */
			pfd[i + 1] = (struct pollfd){ jobs[i].status_fd, POLLIN, 0 };
		if (poll(pfd, n + 1, 200) < 0 && errno != EINTR)
			break;
		for (int i = 0; i < n; i++)
			if (pfd[i + 1].revents)
				read_status(&jobs[i]);
		if (pfd[0].revents && read(sig_fd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo != SIGCHLD) {
				signo = si.ssi_signo;
				for (int i = 0; i < n; i++)
					if (jobs[i].pid > 0)
						kill(-jobs[i].pid, SIGTERM);
			}
			/* (SIGCHLDs merge: ask each script) */
			for (int i = 0; i < n; i++)
				if (jobs[i].pid > 0 &&
				    (jobs[i].status = spawn_wait(jobs[i].pid, 1)) != -EAGAIN) {
					jobs[i].pid = 0;
					jobs[i].ret = script_status(&jobs[i], signo);
					running--;
					/* (a bench that skipped a scenario has a result) */
					if (!signo && jobs[i].ret &&
					    (!jobs[i].json || access(jobs[i].json, F_OK)))
						stop_others(jobs, n, i);
				}
		}
		for (int i = 0; i < n; i++) {
			relay(&jobs[i]);
			jobs[i].sink->tick(jobs[i].sink->ctx);
		}
	}
	return signo;
}

/* scripts/vm/run WORK: a job of its own, which the guardian ends should ppbench die. */
static int start(struct vm_job *j)
{
	char run[sizeof(j->p.dir) + 8];
	const char *argv[] = { "bash", run, j->work, NULL };
	int pipefd[2];
	struct spawn s = { .argv = argv, .path = "/bin/bash", .guard = &j->guard };

	snprintf(run, sizeof(run), "%s/run", j->p.dir);
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	s.fd3 = pipefd[1];
	j->pid = spawn_start(&s);
	close(pipefd[1]);
	if (j->pid < 0) {
		close(pipefd[0]);
		errno = -j->pid;
		j->pid = 0;
		return -errno;
	}
	/* Non-blocking: the last reads after the script ended must not wait
	 * for a child of it that kept the pipe open. */
	fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
	j->status_fd = pipefd[0];
	return 0;
}

static int make_work(struct vm_job *j)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(j->work, sizeof(j->work), "%s/ppbench-vm.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(j->work)) {
		pr_err("cannot make a work directory in %s: %s\n", tmp && *tmp ? tmp : "/tmp",
		       strerror(errno));
		return -errno;
	}
	return 0;
}

/* The checks a refusal leaves nothing after: EXIT_OK, or EXIT_USAGE after one line. */
static int check_job(struct vm_job *j)
{
	const struct vm_cfg *cfg = j->cfg;
	char why[PATH_MAX + 128];

	find_paths(&j->p);
	if (host_ready(&j->p, cfg->arch, why, sizeof(why))) {
		pr_err("%s\n", why);
		return EXIT_USAGE;
	}
	if (cfg->profile &&
	    vm_profile_plugin(arches[cfg->arch].qemu, j->p.tree[0] ? j->p.tree : NULL, j->p.dir,
			      j->qplugin, sizeof(j->qplugin)))
		return EXIT_USAGE;
	return EXIT_OK;
}

/* The work directory, its guardian, the job and the script: EXIT_OK, or a status. */
static int launch(struct vm_job *j)
{
	int ret;

	if (make_work(j))
		return EXIT_USAGE;
	if (guardian_start(&j->guard, j->work)) {
		pr_err("cannot start the guardian of %s: %s\n", j->work, strerror(errno));
		remove_tree(j->work);
		return EXIT_FAIL;
	}
	j->guarded = true;
	ret = vm_job_write(j->work, j->cfg, &j->p, j->cfg->profile ? j->qplugin : NULL, j->argc,
			   j->argv, &j->json);
	if (ret) {
		if (ret != -EINVAL)
			pr_err("cannot write the job into %s: %s\n", j->work, strerror(-ret));
		return ret == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	}
	if (start(j)) {
		pr_err("cannot start %s/run: %s\n", j->p.dir, strerror(errno));
		return EXIT_FAIL;
	}
	j->launched = true;
	return EXIT_OK;
}

/* After the script: the profiles into the result file, the work directory gone. */
static void finish(struct vm_job *j)
{
	j->sink->done(j->sink->ctx);
	/* (the command's files are at their paths; its capture is still in WORK) */
	if (j->cfg->profile && j->launched && j->ret == EXIT_OK) {
		j->ret = vm_profile_finish(j->work, j->json, j->sink);
		j->host = j->ret != EXIT_OK;
	}
	if (j->guarded) {
		remove_tree(j->work);
		guardian_stop(&j->guard);
	}
}

int vm_run_many(int n, const struct vm_cfg *const *cfg, int argc, char **const *argv,
		const struct vm_sink *const *sink, struct vm_end *end)
{
	struct vm_job jobs[VM_MAX_GUESTS];
	sigset_t old;
	int sig_fd, signo = 0;

	memset(jobs, 0, sizeof(jobs));
	for (int i = 0; i < n; i++) {
		jobs[i] = (struct vm_job){ .cfg = cfg[i],
					   .argc = argc,
					   .argv = argv[i],
					   .rc = -1,
					   .status_fd = -1,
					   .sink = sink[i] };
		end[i] = (struct vm_end){ .rc = EXIT_USAGE, .host = true };
	}
	/* (all checks before any work directory: a refusal leaves nothing) */
	for (int i = 0; i < n; i++)
		if (check_job(&jobs[i]))
			return EXIT_USAGE;
	sig_fd = stop_signalfd(&old, true);
	if (sig_fd < 0) {
		pr_err("cannot watch signals: %s\n", strerror(-sig_fd));
		sigprocmask(SIG_SETMASK, &old, NULL);
		return EXIT_FAIL;
	}
	for (int i = 0, failed = 0; i < n; i++) {
		jobs[i].ret = failed ? EXIT_FAIL : launch(&jobs[i]);
		jobs[i].host = jobs[i].ret != EXIT_OK;
		if (jobs[i].ret && !failed) /* the others already started stop too */
			for (int k = 0; k < i; k++)
				kill(-jobs[k].pid, SIGTERM);
		failed |= jobs[i].ret;
	}
	signo = wait_scripts(jobs, n, sig_fd);
	for (int i = 0; i < n; i++) {
		finish(&jobs[i]);
		end[i] = (struct vm_end){ jobs[i].ret, jobs[i].stopped, jobs[i].host };
		snprintf(end[i].why, sizeof(end[i].why), "%s", jobs[i].why);
	}
	close(sig_fd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return signo ? 128 + signo : EXIT_OK;
}

int vm_run(const struct vm_cfg *cfg, int argc, char **argv, const struct vm_sink *sink,
	   struct vm_end *end)
{
	int ret = vm_run_many(1, &cfg, argc, &argv, &sink, end);

	if (ret) {
		end->rc = ret;
		end->host = ret < 128;
	}
	return end->rc;
}
