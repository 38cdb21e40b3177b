// SPDX-License-Identifier: GPL-2.0
/* An output file that appears whole or not at all (temporary file, rename). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "report/wholefile.h"

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		len -= n;
	}
	return 0;
}

int wholefile_write(const char *path, const char *buf, size_t len)
{
	char tmp[4096];
	mode_t mask;
	int fd, err;

	if (!strcmp(path, "-"))
		return write_all(STDOUT_FILENO, buf, len);
	if (snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	mask = umask(0);
	umask(mask);
	err = fchmod(fd, 0666 & ~mask) ? -errno : 0;
	err = err ?: write_all(fd, buf, len);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}
