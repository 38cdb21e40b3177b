// SPDX-License-Identifier: GPL-2.0
/*
 * Output files written whole or not at all (outfile.h). The text goes into an
 * unnamed O_TMPFILE file in the target's directory, which the kernel frees if
 * we are killed; once complete and synced it is linked in as ".NAME.tmp-PID-N"
 * and renamed over NAME, so a reader sees the old file or the new one (a kill
 * between link and rename leaves that name behind). File systems without
 * O_TMPFILE (vfat, some network and FUSE ones) get the named file from the
 * start, left behind only by a kill while it is written. The text collects in
 * memory and goes out by write(2) at the commit: stdio forgets the errno of a
 * buffered write that failed (a full disk read "Input/output error").
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sys/log.h"
#include "sys/outfile.h"

enum { K_STDOUT = 1, K_IN_PLACE, K_UNNAMED, K_NAMED };

#define TMP_TRIES 100

/* The file PATH stands for: a symlink's target is replaced, not the link. */
static int target_of(const char *path, char *buf, size_t len)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode) && realpath(path, buf))
		return 0;
	return (size_t)snprintf(buf, len, "%s", path) < len ? 0 : -ENAMETOOLONG;
}

static void dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(buf, len, ".");
	else
		snprintf(buf, len, "%.*s", (int)(slash - path ?: 1), path);
}

/* Temporary name number I beside the target. */
static int tmp_name(struct outfile *o, int i)
{
	const char *slash = strrchr(o->target, '/');
	const char *base = slash ? slash + 1 : o->target;
	int dirlen = slash ? (int)(slash - o->target + 1) : 0;
	size_t n = snprintf(o->tmp, sizeof(o->tmp), "%.*s.%s.tmp-%d-%d", dirlen, o->target, base,
			    (int)getpid(), i);

	return n < sizeof(o->tmp) ? 0 : -ENAMETOOLONG;
}

/* OP(O) under the first free temporary name: OP's result, or -errno. */
static int under_tmp_name(struct outfile *o, int (*op)(struct outfile *o))
{
	int ret = 0;

	for (int i = 0; i < TMP_TRIES; i++) {
		ret = tmp_name(o, i) ?: op(o);
		if (ret != -EEXIST)
			break;
	}
	if (ret < 0)
		o->tmp[0] = '\0';
	return ret;
}

static int create_named(struct outfile *o)
{
	int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);

	return fd < 0 ? -errno : fd;
}

static int open_whole(struct outfile *o, bool named)
{
	char dir[PATH_MAX];
	struct stat st;
	bool exists;
	int fd = -1, err;

	err = target_of(o->path, o->target, sizeof(o->target));
	if (err)
		return err;
	exists = !stat(o->target, &st);
	dir_of(o->target, dir, sizeof(dir));
	if (!named) {
		fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
		/* EOPNOTSUPP: a file system without O_TMPFILE; EISDIR: a kernel without it */
		if (fd < 0 && errno != EOPNOTSUPP && errno != EISDIR)
			return -errno;
	}
	o->kind = fd >= 0 ? K_UNNAMED : K_NAMED;
	if (fd < 0)
		fd = under_tmp_name(o, create_named);
	if (fd < 0)
		return fd;
	/* The new file keeps the mode of the one it replaces. */
	if ((exists && fchmod(fd, st.st_mode & 07777)) ||
	    !(o->f = open_memstream(&o->buf, &o->len))) {
		err = -errno;
		close(fd);
		if (o->tmp[0])
			unlink(o->tmp);
		o->tmp[0] = '\0';
		return err;
	}
	o->fd = fd;
	return 0;
}

int outfile_open(struct outfile *o, const char *path, enum outfile_mode mode)
{
	struct stat st;
	int err = 0;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->fd = -1;
	if (!strcmp(path, "-")) {
		o->f = stdout;
		o->kind = K_STDOUT;
		return 0;
	}
	if (mode == OUTFILE_STREAM || (!stat(path, &st) && !S_ISREG(st.st_mode))) {
		o->kind = K_IN_PLACE;
		o->f = fopen(path, "we");
		if (!o->f)
			err = -errno;
	} else {
		err = open_whole(o, mode == OUTFILE_NAMED_TMP);
	}
	if (err)
		pr_err("cannot write '%s': %s\n", path, strerror(-err));
	return err;
}

/* Gives the complete unnamed file its temporary name. */
static int link_unnamed(struct outfile *o)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	if (!linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW))
		return 0;
	/* without /proc: the same by descriptor (needs CAP_DAC_READ_SEARCH) */
	if (errno == ENOENT && !linkat(o->fd, "", AT_FDCWD, o->tmp, AT_EMPTY_PATH))
		return 0;
	return -errno;
}

/* So that the rename outlives a crash of the machine; the file is in place already. */
static void sync_dir(const char *target)
{
	char dir[PATH_MAX];
	int fd;

	dir_of(target, dir, sizeof(dir));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= w;
	}
	return 0;
}

/* The text into the temporary file, on disk, under its temporary name. */
static int complete(struct outfile *o)
{
	int err = 0;

	/* a memory stream fails only for want of memory */
	if (fclose(o->f))
		err = -ENOMEM;
	o->f = NULL;
	err = err ?: write_all(o->fd, o->buf, o->len);
	if (!err && fsync(o->fd))
		err = -errno;
	if (!err && o->kind == K_UNNAMED)
		err = under_tmp_name(o, link_unnamed);
	/* NFS, for one, reports a failed write as late as the close */
	if (close(o->fd) && !err)
		err = -errno;
	o->fd = -1;
	free(o->buf);
	o->buf = NULL;
	return err;
}

int outfile_commit(struct outfile *o)
{
	int err = 0;

	if (!o->f)
		return 0;
	if (o->kind == K_STDOUT || o->kind == K_IN_PLACE) {
		errno = 0;
		if (fflush(o->f) || ferror(o->f))
			err = errno ? -errno : -EIO;
		if (o->kind == K_IN_PLACE && fclose(o->f) && !err)
			err = -errno;
	} else {
		err = complete(o);
		if (!err && rename(o->tmp, o->target))
			err = -errno;
		if (err && o->tmp[0])
			unlink(o->tmp);
		if (!err)
			sync_dir(o->target);
	}
	o->f = NULL;
	o->tmp[0] = '\0';
	if (err && o->kind == K_STDOUT)
		pr_err("cannot write to stdout: %s\n", strerror(-err));
	else if (err)
		pr_err("cannot write '%s': %s\n", o->path, strerror(-err));
	return err;
}

void outfile_discard(struct outfile *o)
{
	if (o->f && o->kind != K_STDOUT)
		fclose(o->f);
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmp[0])
		unlink(o->tmp);
	free(o->buf);
	o->buf = NULL;
	o->fd = -1;
	o->tmp[0] = '\0';
	o->f = NULL;
}

int outfile_check(const char *path, const char *what)
{
	char target[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	int err = 0;

	if (!strcmp(path, "-"))
		return 0;
	err = target_of(path, target, sizeof(target));
	/* Check without creating anything, so a failed run leaves no empty file. */
	if (!err && !stat(target, &st) && access(target, W_OK))
		err = -errno;
	if (!err && (stat(target, &st) || S_ISREG(st.st_mode))) {
		dir_of(target, dir, sizeof(dir));
		if (access(dir, W_OK))
			err = -errno;
	}
	if (err)
		pr_err("%s: cannot write '%s': %s\n", what, path, strerror(-err));
	return err;
}

int outfile_copy(const char *src, const char *dst)
{
	char buf[65536];
	struct outfile o;
	FILE *in = fopen(src, "r");
	size_t k;
	int e = 0;

	if (!in) {
		pr_err("%s: %s\n", src, strerror(errno));
		return -1;
	}
	if (outfile_open(&o, dst, OUTFILE_WHOLE)) {
		fclose(in);
		return -1;
	}
	while ((k = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, k, o.f);
	if (ferror(in)) {
		pr_err("%s: %s\n", src, strerror(errno));
		outfile_discard(&o);
		e = -1;
	}
	fclose(in);
	return e ?: outfile_commit(&o) ? -1 : 0;
}
