// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include "sys/ticker.h"

int stop_signalfd(sigset_t *old, bool child)
{
	sigset_t mask;
	int fd;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	if (child)
		sigaddset(&mask, SIGCHLD);
	/* Blocked signals are queued even if ignored (background jobs ignore SIGINT). */
	pthread_sigmask(SIG_BLOCK, &mask, old);
	fd = signalfd(-1, &mask, SFD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int ticker_open(struct ticker *t, double interval)
{
	struct itimerspec its = {};

	t->sfd = stop_signalfd(&t->old, false);
	t->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (t->sfd < 0)
		return t->sfd;
	if (t->tfd < 0)
		return -errno;
	its.it_interval.tv_sec = (time_t)interval;
	its.it_interval.tv_nsec = (long)((interval - (time_t)interval) * 1e9);
	its.it_value = its.it_interval;
	return timerfd_settime(t->tfd, 0, &its, NULL) ? -errno : 0;
}

static enum tick wait_for(struct ticker *t, int timeout_ms)
{
	struct pollfd pfd[2] = { { .fd = t->sfd, .events = POLLIN },
				 { .fd = t->tfd, .events = POLLIN } };
	struct signalfd_siginfo si;
	uint64_t exp;

	for (;;) {
		int n = poll(pfd, 2, timeout_ms);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return TICK_ERROR;
		}
		if (!n)
			return TICK_IDLE;
		/* Consume the signal: once unblocked, a pending SIGTERM would kill us. */
		if (pfd[0].revents & POLLIN)
			return read(t->sfd, &si, sizeof(si)) < 0 ? TICK_ERROR : TICK_SIGNAL;
		if ((pfd[1].revents & POLLIN) && read(t->tfd, &exp, sizeof(exp)) > 0)
			return TICK_INTERVAL;
	}
}

enum tick ticker_wait(struct ticker *t)
{
	return wait_for(t, -1);
}

enum tick ticker_wait_idle(struct ticker *t, double idle_s, void (*idle)(void *), void *arg)
{
	enum tick k;

	while ((k = wait_for(t, (int)(idle_s * 1000))) == TICK_IDLE)
		idle(arg);
	return k;
}

void ticker_close(struct ticker *t)
{
	if (t->sfd >= 0)
		close(t->sfd);
	if (t->tfd >= 0)
		close(t->tfd);
	pthread_sigmask(SIG_SETMASK, &t->old, NULL);
}
