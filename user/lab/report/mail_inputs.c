// SPDX-License-Identifier: GPL-2.0
/* ppbench report's inputs: the files an argument means, and their commits from git. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "report/mail.h"
#include "sys/log.h"
#include "sys/spawn.h"
#include "sys/util.h"

/* git's stdout into BUF, or -1 when git failed. */
static int git(const char *const *argv, char *buf, size_t len)
{
	const struct spawn s = { .argv = argv, .in = SPAWN_NULL, .err = SPAWN_NULL };

	return spawn_capture(&s, buf, len, 0) ? -1 : 0;
}

static int add(struct mail_in *in, const char *path)
{
	if (in->n == MAIL_MAX_FILES) {
		pr_err("too many files: at most %d\n", MAIL_MAX_FILES);
		return -EINVAL;
	}
	in->file[in->n] = strdup(path);
	return in->file[in->n++] ? 0 : -ENOMEM;
}

/* "dir/F" + ".a.json" of "dir/F.json" into BUF; false when ARG names no .json. */
static bool ab_side(const char *arg, const char *side, char *buf, size_t len)
{
	size_t n = strlen(arg);

	if (n < 6 || strcmp(arg + n - 5, ".json"))
		return false;
	return snprintf(buf, len, "%.*s.%s.json", (int)(n - 5), arg, side) < (int)len;
}

/* One argument that is no directory: F.json of an A/B, whose sides vm wrote beside it. */
static int one_file(struct mail_in *in, const char *arg)
{
	char a[PATH_MAX], b[PATH_MAX];

	if (ab_side(arg, "a", a, sizeof(a)) && ab_side(arg, "b", b, sizeof(b)) && file_exists(a) &&
	    file_exists(b)) {
		in->kind = MAIL_AB;
		snprintf(in->ab, sizeof(in->ab), "%s", arg);
		return add(in, a) ?: add(in, b);
	}
	pr_err("%s: %s\n", arg,
	       file_exists(arg) ? "one result file: a report compares two or more, or an A/B's "
				  "F.json (vm --against-* wrote F.a.json and F.b.json)"
				: "no such file, nor an A/B's F.a.json and F.b.json beside it");
	return -EINVAL;
}

/* Two files F.a.json and F.b.json, in that order: vm --against-*'s, F.json its name. */
static void ab_named(struct mail_in *in)
{
	size_t n = strlen(in->file[0]);

	if (in->n != 2 || n < 8 || strcmp(in->file[0] + n - 7, ".a.json") ||
	    strlen(in->file[1]) != n || strncmp(in->file[0], in->file[1], n - 7) ||
	    strcmp(in->file[1] + n - 7, ".b.json"))
		return;
	in->kind = MAIL_AB;
	snprintf(in->ab, sizeof(in->ab), "%.*s.json", (int)(n - 7), in->file[0]);
}

/* COMMIT's full hash, its first parent's and its subject, from TREE's git. */
static int resolve(const char *tree, const char *rev, struct mail_commit *c,
		   struct mail_commit *parent)
{
	const char *args[] = { "git", "-C", tree, "log", "-1", "--format=%H%n%P%n%s",
			       rev,   "--", NULL };
	char out[1024], *nl, *nl2;

	if (git(args, out, sizeof(out)) || !(nl = strchr(out, '\n')) ||
	    !(nl2 = strchr(nl + 1, '\n'))) {
		pr_err("%s: git names no commit '%s' there\n", tree, rev);
		return -EINVAL;
	}
	*nl = *nl2 = 0;
	nl2[1 + strcspn(nl2 + 1, "\n")] = 0;
	snprintf(c->hash, sizeof(c->hash), "%.40s", out);
	snprintf(c->subject, sizeof(c->subject), "%s", nl2 + 1);
	if (!parent)
		return 0;
	snprintf(parent->hash, sizeof(parent->hash), "%.*s", (int)strcspn(nl + 1, " "), nl + 1);
	if (!parent->hash[0]) {
		pr_err("%s: commit %s has no parent to compare it with\n", tree, c->hash);
		return -EINVAL;
	}
	return resolve(tree, parent->hash, parent, NULL);
}

/* A step's result in DIR: STEM.json with STEM a hexadecimal prefix of HASH, or the first step. */
static bool step_of(const char *dir, const char *hash, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n < 9 || n > 45 || strcmp(e->d_name + n - 5, ".json") ||
		    strspn(e->d_name, "0123456789abcdef") != n - 5)
			continue;
		found = !hash || !strncmp(e->d_name, hash, n - 5);
		if (found)
			snprintf(buf, len, "%s/%s", dir, e->d_name);
	}
	if (d)
		closedir(d);
	return found;
}

/* The file's content, or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	if (getdelim(&s, &len, 0, f) < 0) {
		free(s);
		s = NULL;
	}
	fclose(f);
	return s;
}

/* The baseline the step's LOG compared with: "== compare: BASELINE NEW" (relative to TREE). */
static bool log_baseline(const char *log, const char *tree, char *buf, size_t len)
{
	const char *at = log, *last = NULL;

	while (at && (at = strstr(at, "== compare: ")))
		last = at += strlen("== compare: ");
	/* (one file there is the step's own: limits alone, no baseline) */
	if (!last || last[strcspn(last, " \n")] != ' ')
		return false;
	snprintf(buf, len, "%s%s%.*s", *last == '/' ? "" : tree, *last == '/' ? "" : "/",
		 (int)strcspn(last, " "), last);
	return file_exists(buf);
}

/* The hash of LINE's "# KEY: [HASH] subject" onto OUT's end, after a space; false if no such. */
static bool mark(const char *line, const char *key, char *out)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) || line[n] != '[')
		return false;
	strncat(strcat(out, " "), line + n + 1, strcspn(line + n + 1, "]"));
	return true;
}

/* git bisect log's commands, start's words (HEAD~3) as hashes; the first bad into FIRST_BAD. */
static char *bisect_steps(const char *tree, char *first_bad)
{
	const char *args[] = { "git", "-C", tree, "bisect", "log", NULL };
	char *log = malloc(65536), *out = log ? calloc(1, 65536) : NULL, *line, *save;
	char bad[64] = "", good[4096] = "";

	if (!out || git(args, log, 65536)) {
		free(log);
		free(out);
		return NULL;
	}
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (mark(line, "# first bad commit: ", first_bad) ||
		    (!*bad && mark(line, "# bad: ", bad)) ||
		    (strlen(good) < 3000 && mark(line, "# good: ", good)))
			continue;
		if (!strncmp(line, "git bisect start '", 18) && *bad && *good)
			sprintf(out + strlen(out), "git bisect start%s%s\n", bad, good);
		else if (!strncmp(line, "git bisect ", 11))
			strcat(strcat(out, line), "\n");
	}
	free(log);
	return out;
}

static int bisection(struct mail_in *in, const char *dir, const char *tree, const char *commit)
{
	struct mail_commit *base = &in->commit[0], *bad = &in->commit[1];
	char first_bad[64] = "", step[PATH_MAX], log[PATH_MAX];

	in->kind = MAIL_BISECT;
	if (!step_of(dir, NULL, step, sizeof(step))) {
		pr_err("%s: no step results in it (HASH.json, as ppbench bisect --out writes)\n",
		       dir);
		return -EINVAL;
	}
	if (!tree) {
		pr_err("%s is a bisection's directory: give --tree DIR, the kernel tree whose git "
		       "bisected\n",
		       dir);
		return -EINVAL;
	}
	in->steps = bisect_steps(tree, first_bad);
	if (!commit && !first_bad[0]) {
		pr_err("%s: git bisect log names no first bad commit: give --commit REV\n", tree);
		return -EINVAL;
	}
	if (resolve(tree, commit ? commit : first_bad + 1, bad, base))
		return -EINVAL;
	if (!step_of(dir, bad->hash, step, sizeof(step))) {
		pr_err("%s: no result of %.*s, the first bad commit\n", dir, MAIL_HASH_SHORT,
		       bad->hash);
		return -EINVAL;
	}
	snprintf(log, sizeof(log), "%.*s.log", (int)(strlen(step) - 5), step);
	in->log = slurp(log);
	in->base_baseline = !step_of(dir, base->hash, log, sizeof(log));
	if (in->base_baseline && !log_baseline(in->log, tree, log, sizeof(log))) {
		pr_err("%s: no result of %.*s, the first bad commit's parent, nor a baseline its "
		       "step's log names\n",
		       dir, MAIL_HASH_SHORT, base->hash);
		return -EINVAL;
	}
	return add(in, log) ?: add(in, step);
}

int mail_in_open(struct mail_in *in, char **args, int nargs, const char *tree, const char *commit)
{
	struct stat st;
	int e = 0;

	memset(in, 0, sizeof(*in));
	if (nargs == 1 && !stat(args[0], &st) && S_ISDIR(st.st_mode))
		return bisection(in, args[0], tree, commit);
	if (commit && !tree) {
		pr_err("--commit names a commit of a kernel tree: give --tree DIR too\n");
		return -EINVAL;
	}
	if (tree && !commit) {
		pr_err("--tree goes with a bisection's directory, or with --commit REV\n");
		return -EINVAL;
	}
	if (nargs == 1)
		e = one_file(in, args[0]);
	for (int i = 0; nargs > 1 && !e && i < nargs; i++)
		e = add(in, args[i]);
	if (!e && nargs > 1)
		ab_named(in);
	if (!e && commit)
		e = resolve(tree, commit, &in->commit[1], NULL);
	return e;
}

void mail_in_free(struct mail_in *in)
{
	for (size_t i = 0; i < in->n; i++)
		free(in->file[i]);
	free(in->steps);
	free(in->log);
	memset(in, 0, sizeof(*in));
}

const char *mail_area(const char *subject, char *buf, size_t len)
{
	size_t n = strcspn(subject, ":");

	buf[0] = 0;
	if (subject[n] == ':' && n && n < 32 && !memchr(subject, ' ', n))
		snprintf(buf, len, "%.*s", (int)n, subject);
	return buf;
}
