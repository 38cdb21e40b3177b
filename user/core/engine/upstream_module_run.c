// SPDX-License-Identifier: GPL-2.0
/*
 * bench --upstream-module: the kernel's own page_pool benchmark module
 * (bench_page_pool_simple, built as bench_page_pool.ko) beside bench's
 * scenarios. It runs its loops in its init function, so each load is one
 * run: the figures come from its time_bench lines in the kernel log.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "engine/upstream_module_run.h"
#include "instr/guest_profile.h"
#include "sys/kmod.h"
#include "sys/log.h"
#include "sys/progress.h"

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
		err = kmod_unload(name);
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
