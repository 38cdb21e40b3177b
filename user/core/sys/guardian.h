/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_GUARDIAN_H
#define PPBENCH_GUARDIAN_H

#include <sys/types.h>

/*
 * A guardian process for work that outlives nothing of ours: when ppbench
 * dies, however (SIGKILL included), it kills the process group it was given
 * and removes a directory. The parent holds the write end of a pipe; the
 * guardian's read returns end-of-file when the last holder is gone, which
 * no signal can skip.
 */
struct guardian {
	pid_t pid;
	int fd; /* the pipe's write end; -1 when not started */
};

/* Starts a guardian for DIR (removed with everything in it). */
int guardian_start(struct guardian *g, const char *dir);
/*
 * In a child that calls it before exec: makes the child the leader of a new
 * process group and hands the group to the guardian. The child's copy of the
 * pipe closes at exec (it is close-on-exec), so only ppbench holds it then.
 */
int guardian_adopt_self(const struct guardian *g);
/* The work ended and was cleaned up: the guardian leaves without a kill. */
void guardian_stop(struct guardian *g);
/*
 * The child behind a guardian, for any cleanup that must outlive ppbench:
 * forks one that runs in its own session as NAME, ignores SIGINT, SIGTERM,
 * SIGHUP and SIGPIPE (a Ctrl-C or a group kill reaches ppbench only), holds
 * only the pipe's read end, as fd 3, and runs FN(CTX), which reads fd 3
 * until end-of-file. 0, or a negative errno.
 */
int guardian_fork(struct guardian *g, const char *name, void (*fn)(void *ctx), void *ctx);
/* Closes the write end and waits for the child to leave. */
void guardian_reap(struct guardian *g);
/* Removes DIR and everything under it (no symlink is followed). */
int remove_tree(const char *dir);

#endif
