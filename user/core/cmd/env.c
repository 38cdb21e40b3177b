// SPDX-License-Identifier: GPL-2.0
/* ppbench env [-- CMD ARGS...]: CMD inside the private veth pair, torn down when it ends. */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "loader/kfeatures.h"
#include "report/report.h"
#include "sys/vethenv.h"
#include "sys/log.h"
#include "sys/ticker.h"
#include "sys/util.h"

struct env_cfg {
	int side;
};

static const struct cli_word sides[] = { { "a", 0 }, { "b", 1 }, { NULL } };

static const struct cli_opt env_opts[] = {
	{ "side", 's', NULL, "run CMD in namespace a (default) or b", .kind = CLI_ENUM,
	  CLI_MEMBER(struct env_cfg, side), .words = sides },
	{ NULL },
};

/* PPB_* variables describe the environment to CMD (and to tests). */
static void export_env(const struct ppb_env *e)
{
	static const char *const names[] = { "IF", "IFINDEX", "MAC", "IP", "NS" };
	char name[32], val[5][128];

	for (int i = 0; i < 2; i++) {
		snprintf(val[0], sizeof(val[0]), "%s", e->ifname[i]);
		snprintf(val[1], sizeof(val[1]), "%d", e->ifindex[i]);
		format_mac(e->mac[i], val[2], sizeof(val[2]));
		inet_ntop(AF_INET, &e->ip4[i].v4, val[3], sizeof(val[3]));
		/* nsenter --net=$PPB_NS_B reaches the namespace while we live. */
		snprintf(val[4], sizeof(val[4]), "/proc/%d/fd/%d", (int)getpid(), e->ns[i]);
		for (int k = 0; k < 5; k++) {
			snprintf(name, sizeof(name), "PPB_%s_%c", names[k], 'A' + i);
			setenv(name, val[k], 1);
		}
	}
}

static pid_t spawn(const struct ppb_env *e, int side, char **argv, const sigset_t *old)
{
	pid_t parent = getpid(), pid = fork();

	if (pid != 0)
		return pid;
	/* If ppbench dies (even by SIGKILL) the command must not keep the namespaces alive. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	/* ppbench forwards these to the command: a command started with them
	 * ignored (as a script's background job is) must still get them. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sigprocmask(SIG_SETMASK, old, NULL);
	if (env_enter(e, side))
		_exit(127);
	execvp(argv[0], argv);
	pr_err("cannot run '%s': %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Wait for the child or a signal; forward SIGINT/SIGTERM to the child. */
static int wait_loop(int sfd, pid_t child)
{
	struct signalfd_siginfo si;
	int status;

	for (;;) {
		if (read(sfd, &si, sizeof(si)) != sizeof(si)) {
			if (errno == EINTR)
				continue;
			return EXIT_FAIL;
		}
		if (si.ssi_signo == SIGCHLD) {
			if (child <= 0 || waitpid(child, &status, WNOHANG) != child)
				continue;
			if (WIFEXITED(status))
				return WEXITSTATUS(status);
			return 128 + WTERMSIG(status);
		}
		if (child <= 0)
			return EXIT_OK;
		kill(child, si.ssi_signo);
	}
}

/*
 * CMD may leave background jobs in our namespaces (a failed test's helpers):
 * they would keep the namespaces alive. Kill whatever still lives in them.
 */
static void kill_stragglers(const struct ppb_env *e)
{
	struct stat ns[2], st;
	char path[64];
	struct dirent *d;
	DIR *proc;

	for (int i = 0; i < 2; i++)
		if (fstat(e->ns[i], &ns[i]))
			return;
	proc = opendir("/proc");
	while (proc && (d = readdir(proc))) {
		int pid = atoi(d->d_name);

		if (pid <= 1 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
		if (!stat(path, &st) && (st.st_ino == ns[0].st_ino || st.st_ino == ns[1].st_ino))
			kill(pid, SIGKILL);
	}
	if (proc)
		closedir(proc);
}

static int env_run(void *c, int argc, char **argv)
{
	struct env_cfg *cfg = c;
	struct ppb_env e;
	sigset_t old;
	pid_t child = 0;
	int sfd, ret;

	sfd = stop_signalfd(&old, true);
	if (sfd < 0 || env_create(&e)) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return EXIT_FAIL;
	}
	export_env(&e);
	if (argc) {
		child = spawn(&e, cfg->side, argv, &old);
		if (child < 0) {
			pr_err("fork: %s\n", strerror(errno));
			ret = EXIT_FAIL;
			goto out;
		}
	} else {
		env_report_up((const char *const[]){ e.ifname[0], e.ifname[1] },
			      (const char *const[]){ getenv("PPB_IP_A"), getenv("PPB_IP_B") },
			      (const char *const[]){ getenv("PPB_NS_A"), getenv("PPB_NS_B") });
	}
	ret = wait_loop(sfd, child);
	kill_stragglers(&e);
out:
	env_destroy(&e);
	close(sfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

const struct cli_cmd cmd_env = {
	.name = "env",
	.args = "[-- CMD [ARGS...]]",
	.summary = "run a command inside a private veth pair (the embedded default)",
	.description =
		"Create the environment every ppbench command uses when no interface is given:\n"
		"two unnamed network namespaces joined by a veth pair (10.77.0.1/24 on side a,\n"
		"10.77.0.2/24 on side b, static neighbours, IPv6 off), then run CMD in side a\n"
		"(or b). CMD sees PPB_IF_A/B, PPB_IFINDEX_A/B, PPB_MAC_A/B, PPB_IP_A/B and\n"
		"PPB_NS_A/B (for nsenter --net=...). Everything is removed when CMD ends, on\n"
		"SIGINT/SIGTERM, and by the kernel if ppbench is killed: the namespaces are held\n"
		"only by this process's file descriptors. Without CMD, waits for Ctrl-C.\n"
		"The exit status is CMD's.",
	.examples = "  ppbench env -- ping -c 1 10.77.0.2\n"
		    "  ppbench env -- sh -c 'ppbench probe $PPB_IF_A'\n",
	.opts = env_opts,
	.max_args = 1 << 20,
	.cfg_size = sizeof(struct env_cfg),
	.needs = PPB_NEED_ROOT,
	.run = env_run,
};
