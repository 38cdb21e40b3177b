// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for the tests: pthread_create() fails with EAGAIN, as it
 * does when a process may not have more threads, and leaves errno alone
 * (POSIX: the error is the return value).
 */
#include <errno.h>
#include <pthread.h>

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	(void)thread;
	(void)attr;
	(void)fn;
	(void)arg;
	return EAGAIN;
}
