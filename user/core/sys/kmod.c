// SPDX-License-Identifier: GPL-2.0
/* Kernel modules and the kernel log (kmod.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "sys/kmod.h"

/* kbuild's name of a module file: its base name to the first '.', '-' as '_'. */
static void file_name(const char *path, char *name, size_t len)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strcspn(base, ".");

	n = n < len ? n : len - 1;
	for (size_t i = 0; i < n; i++)
		name[i] = base[i] == '-' ? '_' : base[i];
	name[n] = '\0';
}

/* /proc/modules' text (freed by the caller), or NULL. */
static char *modules_text(void)
{
	char *text = NULL, buf[4096];
	size_t len = 0, n;
	FILE *in = fopen("/proc/modules", "re"), *out = open_memstream(&text, &len);

	while (in && out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	return text;
}

/* The line after L's, or NULL. */
static const char *next_line(const char *l)
{
	const char *nl = strchr(l, '\n');

	return nl && nl[1] ? nl + 1 : NULL;
}

/* Whether /proc/modules' TEXT has a line for module NAME. */
static bool listed(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *l = text && *text ? text : NULL; l; l = next_line(l))
		if (!strncmp(l, name, n) && l[n] == ' ')
			return true;
	return false;
}

/* The first module of AFTER that BEFORE does not list, into NAME. */
static int new_module(const char *before, const char *after, char *name, size_t len)
{
	for (const char *l = *after ? after : NULL; l; l = next_line(l)) {
		size_t n = strcspn(l, " \n");

		if (n && n < len) {
			memcpy(name, l, n);
			name[n] = '\0';
			if (!listed(before, name))
				return 0;
		}
	}
	return -ENOENT;
}

int kmod_load(const char *path, const char *params, char *name, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	char *before, *after;

	if (fd < 0)
		return -errno;
	before = modules_text();
	if (syscall(SYS_finit_module, fd, params, 0))
		err = -errno;
	close(fd);
	after = err ? NULL : modules_text();
	/* (unlisted: kbuild names a module by its file, '-' as '_') */
	if (!err && (!before || !after || new_module(before, after, name, len)))
		file_name(path, name, len);
	free(before);
	free(after);
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
