/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_SPAWN_H
#define PPBENCH_SPAWN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct guardian;

/*
 * A child that runs another program: make, the guest runner, qemu, or
 * calibrate's bench. What ppbench's own code does runs in-process; a child
 * is a program of its own, or an invocation that is itself what is measured.
 */

/*
 * What a standard file of the child is besides one of our descriptors
 * above 0: ours (0, as a zeroed struct spawn has it), or /dev/null.
 */
enum { SPAWN_INHERIT = 0, SPAWN_NULL = -1 };

struct spawn {
	const char *const *argv; /* NULL-terminated */
	const char *path;	 /* the program to run, or NULL: ARGV[0], looked up in PATH */
	const char *const *env;	 /* "NAME=VALUE"s added to its environment, or NULL */
	int in, out, err;	 /* its 0, 1 and 2: a descriptor, SPAWN_INHERIT or SPAWN_NULL */
	int fd3;		 /* its 3 (a status pipe), or 0: none */
	/*
	 * A job of its own, or NULL: the child leads a new process group, which
	 * GUARD kills with SIGKILL should ppbench die, and finds the stop
	 * signals at their defaults (it is stopped by signalling its group).
	 */
	const struct guardian *guard;
};

/*
 * Starts S's child with no signal blocked: its pid, or -errno when none
 * started. It exits 127 when the program could not be run.
 */
pid_t spawn_start(const struct spawn *s);
/* A wait status as a shell says it: the exit code, or 128 + the signal. */
int spawn_status(int wstatus);
/*
 * PID's spawn_status() once it ended, or -errno; with NOHANG, -EAGAIN
 * while it runs.
 */
int spawn_wait(pid_t pid, int nohang);
/* spawn_start() and spawn_wait(): the child's status, or -errno when none started. */
int spawn_run(const struct spawn *s);
/*
 * spawn_run() with the child's stdout into BUF (LEN bytes with the NUL; what
 * does not fit is read and dropped, so that the child never blocks on a full
 * pipe). With TIMEOUT_NS (0: none), for a program that may hang, the child is
 * killed with SIGKILL once its stdout closed or the time is up.
 */
int spawn_capture(const struct spawn *s, char *buf, size_t len, uint64_t timeout_ns);

#endif
