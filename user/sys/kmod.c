// SPDX-License-Identifier: GPL-2.0
/* Kernel modules and the kernel log (kmod.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "sys/kmod.h"

int kmod_name(const char *path, char *name, size_t len)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(base);

	if (n > 3 && !strcmp(base + n - 3, ".ko"))
		n -= 3;
	if (!n || n >= len)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		name[i] = base[i] == '-' ? '_' : base[i];
	name[n] = '\0';
	return 0;
}

int kmod_load(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params, 0))
		err = -errno;
	close(fd);
	return err;
}

int kmod_unload(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK) ? -errno : 0;
}

int kmsg_open_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_END) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

int kmsg_read_new(int fd, void (*fn)(void *ctx, const char *msg), void *ctx)
{
	char rec[8192];

	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		char *msg, *nl;

		if (n < 0 && errno == EPIPE)
			continue; /* records were overwritten before we read them */
		if (n < 0)
			return errno == EAGAIN ? 0 : -errno;
		rec[n] = '\0';
		/* "PRIO,SEQ,USEC,FLAGS[,...];TEXT\n" then " KEY=VALUE" lines */
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = '\0';
		fn(ctx, msg);
	}
}
