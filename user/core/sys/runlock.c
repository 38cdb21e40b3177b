// SPDX-License-Identifier: GPL-2.0
/* One measuring run per machine (see runlock.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include "sys/log.h"
#include "sys/runlock.h"

/* Held until exit: the descriptor is never closed (nor inherited: O_CLOEXEC,
 * so a child that outlives us cannot keep the lock). */
static int lock_fd = -1;

/* The lock file's path (PPBENCH_LOCK_FILE overrides it). */
static const char *run_lock_path(void)
{
	const char *env = getenv("PPBENCH_LOCK_FILE");

	if (env && *env)
		return env;
	return access("/run", W_OK) ? "/tmp/ppbench.lock" : "/run/ppbench.lock";
}

/* The holder's "PID command" line; it writes it right after it got the lock,
 * so a reader may find the file empty for a moment. */
static void read_holder(int fd, char *buf, size_t len)
{
	ssize_t n = 0;

	for (int i = 0; i < 50 && n <= 0; i++) {
		n = pread(fd, buf, len - 1, 0);
		if (n <= 0)
			usleep(2000);
	}
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0])
		snprintf(buf, len, "? (not written yet)");
}

static void write_holder(int fd, const char *what)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "%d %s\n", (int)getpid(), what);

	if (ftruncate(fd, 0) || pwrite(fd, line, n, 0) != n)
		pr_debug("cannot write the lock holder into %s: %s\n", run_lock_path(),
			 strerror(errno));
}

int run_lock_take(const char *what, bool wait)
{
	const char *path = run_lock_path();
	char holder[64], pid[16];
	int fd, err;

	if (lock_fd >= 0)
		return 0;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		pr_err("cannot open the run lock %s: %s\n", path, strerror(errno));
		return -errno;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK)
			goto fail;
		read_holder(fd, holder, sizeof(holder));
		snprintf(pid, sizeof(pid), "%.*s", (int)strcspn(holder, " "), holder);
		/* calibrate holds it for the bench runs it starts */
		if (atoi(pid) == (int)getppid()) {
			close(fd);
			return 0;
		}
		if (!wait) {
			pr_err("another ppbench is measuring (PID %s, %s): two at once spoil "
			       "each other's figures; wait for it, or queue with --wait\n",
			       pid,
			       holder[strcspn(holder, " ")] ? holder + strcspn(holder, " ") + 1
							    : "?");
			close(fd);
			return -EBUSY;
		}
		pr_warn("waiting for ppbench PID %s to finish (%s)\n", pid, path);
		if (flock(fd, LOCK_EX))
			goto fail;
	}
	write_holder(fd, what);
	lock_fd = fd;
	return 0;
fail:
	err = -errno;
	pr_err("cannot lock %s: %s\n", path, strerror(-err));
	close(fd);
	return err;
}
