// SPDX-License-Identifier: GPL-2.0
/* Children that run another program (spawn.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sys/guardian.h"
#include "sys/spawn.h"
#include "sys/util.h"

/* FD as the child's descriptor TO (kept open across exec). */
static int place(int fd, int to, int null)
{
	if (fd == SPAWN_INHERIT)
		return 0;
	if (fd == SPAWN_NULL)
		fd = null;
	if (fd != to)
		return dup2(fd, to) < 0 ? -1 : 0;
	return fcntl(fd, F_SETFD, 0);
}

static void __attribute__((noreturn)) child(const struct spawn *s)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (s->guard) {
		if (guardian_adopt_self(s->guard))
			_exit(127);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
	}
	if (null < 0 || place(s->in, 0, null) || place(s->out, 1, null) || place(s->err, 2, null) ||
	    (s->fd3 && place(s->fd3, 3, null)))
		_exit(127);
	for (size_t i = 0; s->env && s->env[i]; i++)
		putenv((char *)s->env[i]);
	if (s->path)
		execv(s->path, (char *const *)s->argv);
	else
		execvp(s->argv[0], (char *const *)s->argv);
	_exit(127);
}

pid_t spawn_start(const struct spawn *s)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		child(s);
	/* (the child does it too: whichever runs first, the group exists before a kill) */
	if (s->guard)
		setpgid(pid, pid);
	return pid;
}

int spawn_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	return WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus) : 255;
}

int spawn_wait(pid_t pid, int nohang)
{
	int ws;
	pid_t r;

	while ((r = waitpid(pid, &ws, nohang ? WNOHANG : 0)) < 0)
		if (errno != EINTR)
			return -errno;
	return r ? spawn_status(ws) : -EAGAIN;
}

int spawn_run(const struct spawn *s)
{
	pid_t pid = spawn_start(s);

	return pid < 0 ? pid : spawn_wait(pid, 0);
}

int spawn_capture(const struct spawn *s, char *buf, size_t len, uint64_t timeout_ns)
{
	uint64_t end = timeout_ns ? now_ns() + timeout_ns : 0;
	struct spawn c = *s;
	char rest[256];
	size_t n = 0;
	int fd[2];
	pid_t pid;

	if (pipe2(fd, O_CLOEXEC))
		return -errno;
	c.out = fd[1];
	pid = spawn_start(&c);
	close(fd[1]);
	while (pid > 0 && (!end || now_ns() < end)) {
		struct pollfd p = { fd[0], POLLIN, 0 };
		bool room = n + 1 < len;
		ssize_t r;

		if (poll(&p, 1, end ? 200 : -1) <= 0)
			continue;
		r = read(fd[0], room ? buf + n : rest, room ? len - 1 - n : sizeof(rest));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += room ? (size_t)r : 0;
	}
	close(fd[0]);
	buf[n] = '\0';
	if (pid < 0)
		return pid;
	/* (a program that may hang: it has ended, unless it hung) */
	if (end)
		kill(pid, SIGKILL);
	return spawn_wait(pid, 0);
}
