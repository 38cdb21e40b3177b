// SPDX-License-Identifier: GPL-2.0
/* Kill a process group and remove a directory when ppbench dies (guardian.h). */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sys/guardian.h"

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) && errno != ENOENT ? -1 : 0;
	return unlink(path) && errno != ENOENT ? -1 : 0;
}

int remove_tree(const char *dir)
{
	return nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) ? -errno : 0;
}

int guardian_fork(struct guardian *g, const char *name, void (*fn)(void *ctx), void *ctx)
{
	int p[2];

	g->pid = -1;
	g->fd = -1;
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	g->pid = fork();
	if (g->pid < 0) {
		close(p[0]);
		close(p[1]);
		return -errno;
	}
	if (g->pid == 0) {
		setsid();
		prctl(PR_SET_NAME, name);
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGPIPE, SIG_IGN);
		/* Hold nothing of ppbench's: its maps, links and the pipe's write end. */
		if (dup2(p[0], 3) < 0)
			_exit(1);
		close_range(4, ~0U, 0);
		fn(ctx);
		_exit(0);
	}
	close(p[0]);
	g->fd = p[1];
	return 0;
}

void guardian_reap(struct guardian *g)
{
	if (g->fd >= 0)
		close(g->fd);
	if (g->pid > 0)
		while (waitpid(g->pid, NULL, 0) < 0 && errno == EINTR)
			;
	g->fd = -1;
	g->pid = -1;
}

/* Records on the pipe: a process group (> 0), or 0 for "done". */
static void guardian_main(void *ctx)
{
	const char *dir = ctx;
	int32_t rec, pgid = 0;
	int done = 0;
	ssize_t n;

	while ((n = read(3, &rec, sizeof(rec))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n != sizeof(rec))
			break;
		if (rec > 0)
			pgid = rec;
		else
			done = 1;
	}
	if (!done) {
		if (pgid > 0)
			kill(-pgid, SIGKILL);
		remove_tree(dir);
	}
}

int guardian_start(struct guardian *g, const char *dir)
{
	return guardian_fork(g, "ppbench-guard", guardian_main, (void *)dir);
}

int guardian_adopt_self(const struct guardian *g)
{
	int32_t me = getpid();

	if (setpgid(0, 0))
		return -errno;
	return write(g->fd, &me, sizeof(me)) == sizeof(me) ? 0 : -EIO;
}

void guardian_stop(struct guardian *g)
{
	int32_t done = 0;

	/* Should the write fail, it kills a group that is gone and removes a
	 * removed tree: harmless. */
	if (g->fd >= 0)
		(void)!write(g->fd, &done, sizeof(done));
	guardian_reap(g);
}
