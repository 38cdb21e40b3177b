// SPDX-License-Identifier: GPL-2.0
/*
 * bench --upstream-module: the kernel's own page_pool benchmark module
 * (bench_page_pool_simple, built as bench_page_pool.ko) beside bench's
 * scenarios. It runs its loops in its init function, so each load is one
 * run: the figures come from its time_bench lines in the kernel log
 * (/dev/kmsg), read while finit_module() loads it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "engine/bench_run.h"
#include "instr/guest_profile.h"
#include "sys/log.h"

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
	FILE *in = fopen("/proc/modules", "re");
	char *text = NULL;
	size_t cap = 0;

	/* one read to its end: the text holds no NUL */
	if (!in || getdelim(&text, &cap, '\0', in) < 0) {
		free(text);
		text = strdup("");
	}
	if (in)
		fclose(in);
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

/*
 * Loads PATH with PARAMS ("loops=1000 run_flags=2"); 0 or a negative errno.
 * NAME gets the name the kernel knows it by (its own, not the file's: a
 * renamed file keeps it), the module /proc/modules lists that it did not
 * before.
 */
static int kmod_load(const char *path, const char *params, char *name, size_t len)
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

/* /dev/kmsg opened at its end: what is logged from now on; a negative errno. */
static int kmsg_open_end(void)
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

/*
 * The messages logged since (the text of each record, its prefix removed),
 * each passed to FN; stops when none is left. 0 or a negative errno.
 */
static int kmsg_read_new(int fd, void (*fn)(void *ctx, const char *msg), void *ctx)
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

/* The module's test of each scenario and its bit of run_flags (bit 0, its baselines, stays off). */
static const struct {
	const char *test;
	unsigned flag;
} tests[NR_SCENARIOS] = {
	[SC_FAST] = { "no-softirq-page_pool01", 1u << 1 },
	[SC_RING] = { "no-softirq-page_pool02", 1u << 2 },
	[SC_SLOW] = { "no-softirq-page_pool03", 1u << 3 },
};

const char *upstream_module_test(enum scenario_id id)
{
	return tests[id].test;
}

/* One load's time_bench line: "Type:TEST Per elem: C cycles(tsc) N ns ..." */
struct tb_line {
	const char *test;
	bool found;
	uint64_t tsc;
	double ns;
};

static void scan_line(void *ctx, const char *msg)
{
	struct tb_line *l = ctx;
	const char *at = strstr(msg, "Type:");
	char type[64];
	unsigned long long tsc;
	double ns;

	if (at && sscanf(at, "Type:%63s Per elem: %llu cycles(tsc) %lf ns", type, &tsc, &ns) == 3 &&
	    !strcmp(type, l->test)) {
		l->found = true;
		l->tsc = tsc;
		l->ns = ns;
	}
}

static void why(struct upstream_module_fig *u, const char *fmt, const char *a, int err)
{
	snprintf(u->why, sizeof(u->why), fmt, a, strerror(-err));
}

/* Why the kernel would not load FILE, in its terms. */
static void refused(struct upstream_module_fig *u, const char *file, int err)
{
	const char *hint = "";

	if (err == -ENOSYS)
		hint = ": this kernel loads no modules (CONFIG_MODULES off)";
	else if (err == -EPERM)
		hint = ": CAP_SYS_MODULE, kernel.modules_disabled or lockdown";
	else if (err == -ENOEXEC)
		hint = ": not a module for this kernel (its version, its architecture)";
	else if (err == -EKEYREJECTED || err == -ENOKEY)
		hint = ": its signature (module.sig_enforce)";
	snprintf(u->why, sizeof(u->why), "the kernel refused %s (%s)%s", file, strerror(-err),
		 hint);
}

/*
 * Load K of U's test (U->loops[K] elements), as a window of its own with the
 * module's symbols as this load placed them; NAME gets the module's name.
 */
static int load_window(struct bench_ctx *b, struct upstream_module_fig *u, enum scenario_id id,
		       int k, char *name, size_t len)
{
	struct instr_window w = { INSTR_WHOLE };
	char params[96], extra[160];
	struct guest_prof prof;
	int err;

	snprintf(params, sizeof(params), "loops=%" PRIu64 " run_flags=%u", u->loops[k],
		 tests[id].flag);
	snprintf(extra, sizeof(extra), "scenario=%s loops=%" PRIu64, scenario_defs[id].name,
		 u->loops[k]);
	guest_prof_add(&prof, guest_prof_tag("module", u->test, extra));
	err = instr_begin(&w) ?: kmod_load(b->cfg->upstream_module, params, name, len);
	err = instr_end(&w, u->loops[k], err);
	instr_remove(&prof.in);
	if (!err) {
		guest_prof_mod_syms(prof.tag, name);
		err = syscall(SYS_delete_module, name, O_NONBLOCK) ? -errno : 0;
		if (err)
			why(u, "cannot unload %s: %s", name, err);
	} else if (err == -EEXIST) {
		why(u, "%s is loaded already (%s): unload it first", b->cfg->upstream_module,
		    -EEXIST);
	} else {
		refused(u, b->cfg->upstream_module, err);
	}
	return err;
}

/* Load K of U's test, and its time_bench line from the kernel log. */
static int one_load(struct bench_ctx *b, struct upstream_module_fig *u, enum scenario_id id, int k)
{
	struct tb_line l = { .test = u->test };
	char name[64];
	int fd, err;

	fd = kmsg_open_end();
	if (fd < 0) {
		why(u, "cannot read the kernel log %s: %s", "/dev/kmsg", fd);
		return fd;
	}
	err = load_window(b, u, id, k, name, sizeof(name));
	if (!err) {
		err = kmsg_read_new(fd, scan_line, &l);
		if (!err && !l.found) {
			snprintf(u->why, sizeof(u->why),
				 "%s printed no 'Type:%s Per elem:' line: not the upstream "
				 "bench_page_pool module?",
				 b->cfg->upstream_module, u->test);
			err = -ENOMSG;
		}
	}
	close(fd);
	u->tsc[k] = l.tsc;
	u->ns[k] = l.ns;
	return err;
}

static int one_test(struct bench_ctx *b, struct sc_result *r)
{
	struct upstream_module_fig *u = &r->up;
	uint64_t n = UPMOD_LOOPS;

	u->tried = true;
	u->test = upstream_module_test(r->id);
	for (int k = 0; k < UPMOD_LOADS; k++)
		u->loops[k] = n * (k + 1);
	for (int k = 0; k < UPMOD_LOADS; k++) {
		if (progress_wanted(b->cfg->quiet))
			progress_show(b->t0, "upstream module: %s, load %d/%d", u->test, k + 1,
				      UPMOD_LOADS);
		if (one_load(b, u, r->id, k))
			return -1;
	}
	u->ran = true;
	return 0;
}

int upstream_module_run(struct bench_ctx *b)
{
	int ran = 0;

	for (int i = 0; i < NR_SCENARIOS; i++) {
		struct sc_result *r = &b->res[i];

		if (!b->cfg->want[i] || !r->ok || !upstream_module_test(i))
			continue;
		ran += !one_test(b, r);
	}
	return ran ? 0 : -ENOEXEC;
}
