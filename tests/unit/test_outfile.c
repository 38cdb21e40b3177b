// SPDX-License-Identifier: GPL-2.0
/*
 * Output files (sys/outfile.c) in a scratch directory: the previous file
 * stays until the commit, the temporary file never outlives the call that
 * fails or drops it, and what is no regular file is written in place.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sys/outfile.h"
#include "unit.h"

static char dir[64];

static void scratch(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ppb-outfile.XXXXXX");
	if (!mkdtemp(dir))
		dir[0] = '\0';
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static const char *get(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
	return buf;
}

/* Entries of the scratch directory, "." and ".." aside. */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static void cleanup(void)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (dir[0] && system(cmd))
		dir[0] = '\0';
}

/* The previous file until the commit, then the new one, with the old mode. */
static void check_replace(enum outfile_mode mode, int during, const char *name)
{
	char path[96], buf[64];
	struct outfile o;
	struct stat st;

	scratch();
	snprintf(path, sizeof(path), "%s/r.json", dir);
	put(path, "old\n");
	chmod(path, 0640);
	ASSERT_OK(outfile_open(&o, path, mode), name);
	fputs("new\n", o.f);
	ASSERT_STREQ(get(path, buf, sizeof(buf)), "old\n", name);
	ASSERT_EQ(entries(), during, name);
	ASSERT_OK(outfile_commit(&o), name);
	ASSERT_STREQ(get(path, buf, sizeof(buf)), "new\n", name);
	ASSERT_EQ(entries(), 1, name);
	ASSERT_OK(stat(path, &st), name);
	ASSERT_EQ(st.st_mode & 07777, 0640, name);
	cleanup();
}

void test_outfile_replaces_on_commit(void)
{
	/* the unnamed file has no name; the named one does */
	check_replace(OUTFILE_WHOLE, 1, "O_TMPFILE");
	check_replace(OUTFILE_NAMED_TMP, 2, "named temporary file");
}

void test_outfile_discard_keeps_the_previous_file(void)
{
	enum outfile_mode modes[] = { OUTFILE_WHOLE, OUTFILE_NAMED_TMP };
	char path[96], buf[64];
	struct outfile o;

	for (int i = 0; i < 2; i++) {
		scratch();
		snprintf(path, sizeof(path), "%s/r.json", dir);
		put(path, "old\n");
		ASSERT_OK(outfile_open(&o, path, modes[i]), "open");
		fputs("half", o.f);
		outfile_discard(&o);
		ASSERT_STREQ(get(path, buf, sizeof(buf)), "old\n", "discarded");
		ASSERT_EQ(entries(), 1, "no temporary file left");
		cleanup();
	}
}

/* A symlink stays a symlink: the file it names is replaced. */
void test_outfile_symlink_target(void)
{
	char path[96], link[96], buf[64];
	struct outfile o;
	struct stat st;

	scratch();
	snprintf(path, sizeof(path), "%s/r.json", dir);
	snprintf(link, sizeof(link), "%s/latest.json", dir);
	put(path, "old\n");
	ASSERT_OK(symlink("r.json", link), "symlink");
	ASSERT_OK(outfile_open(&o, link, OUTFILE_WHOLE), "open");
	fputs("new\n", o.f);
	ASSERT_OK(outfile_commit(&o), "commit");
	ASSERT_OK(lstat(link, &st), "lstat");
	ASSERT_TRUE(S_ISLNK(st.st_mode), "still a symlink");
	ASSERT_STREQ(get(path, buf, sizeof(buf)), "new\n", "its target replaced");
	cleanup();
}

/* A FIFO (as /dev/null or a terminal) is written in place, never replaced. */
void test_outfile_fifo_in_place(void)
{
	char path[96], buf[64] = "";
	struct outfile o;
	struct stat st;
	int rd;

	scratch();
	snprintf(path, sizeof(path), "%s/pipe", dir);
	ASSERT_OK(mkfifo(path, 0600), "mkfifo");
	rd = open(path, O_RDONLY | O_NONBLOCK);
	ASSERT_TRUE(rd >= 0, "reader");
	ASSERT_OK(outfile_open(&o, path, OUTFILE_WHOLE), "open");
	fputs("line\n", o.f);
	ASSERT_OK(outfile_commit(&o), "commit");
	ASSERT_EQ(read(rd, buf, sizeof(buf) - 1), 5, "read back");
	ASSERT_OK(stat(path, &st), "stat");
	ASSERT_TRUE(S_ISFIFO(st.st_mode), "still a FIFO");
	close(rd);
	cleanup();
}

/* No such directory: refused at the open (and by the check of the option). */
void test_outfile_open_errors(void)
{
	struct outfile o;

	ASSERT_ERR(outfile_open(&o, "/nonexistent-dir/r.json", OUTFILE_WHOLE), "no directory");
	ASSERT_ERR(outfile_open(&o, "/nonexistent-dir/r.json", OUTFILE_NAMED_TMP), "named");
	ASSERT_ERR(outfile_check("/nonexistent-dir/r.json", "--json"), "check");
	ASSERT_OK(outfile_check("-", "--json"), "stdout");
}
