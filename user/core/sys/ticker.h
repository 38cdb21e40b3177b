/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_TICKER_H
#define PPBENCH_TICKER_H

#include <signal.h>
#include <stdbool.h>

/*
 * The stats loop's clock (xdp-tools style): SIGINT/SIGTERM/SIGHUP are
 * blocked and read from a signalfd, intervals come from a timerfd, and the
 * loop polls both. Nothing runs in signal context; the caller's normal exit
 * path (detach, summary) always runs.
 */
struct ticker {
	int sfd, tfd;
	sigset_t old;
};

/*
 * Blocks the signals that stop a ppbench command (SIGINT, SIGTERM, SIGHUP, and
 * SIGCHLD with CHILD), keeps the previous mask in OLD and returns a signalfd
 * that reads them (-errno on failure, the signals still blocked: the caller
 * restores OLD).
 */
int stop_signalfd(sigset_t *old, bool child);

enum tick { TICK_INTERVAL, TICK_SIGNAL, TICK_ERROR, TICK_IDLE };

int ticker_open(struct ticker *t, double interval);
/* Wait for the next interval or a signal. */
enum tick ticker_wait(struct ticker *t);
/*
 * The same, calling idle(arg) every idle_s seconds in between (the observer
 * takes freed pools out of its maps then, between reports).
 */
enum tick ticker_wait_idle(struct ticker *t, double idle_s, void (*idle)(void *), void *arg);
void ticker_close(struct ticker *t);

#endif
