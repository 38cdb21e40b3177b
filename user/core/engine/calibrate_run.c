// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench calibrate: this host's noise between bench invocations. Every
 * sample is a separate `ppbench bench` process (fresh namespaces, programs,
 * pools, TSC calibration), because that is what differs between a CI job's
 * before and after; they are spread over minutes because the host's levels
 * last seconds to minutes.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "engine/calibrate_run.h"
#include "model/noise.h"
#include "model/by_counter.h"
#include "sys/log.h"
#include "sys/spawn.h"
#include "sys/util.h"

#define POLL_NS 200000000ull /* how often a wait looks at its child and the clock */

struct cal {
	const struct calibrate_cfg *cfg;
	char dir[PATH_MAX - 32]; /* room for "/run-NN.json" */
	bool own_dir;		 /* a temporary directory, removed at the end */
	uint64_t t0;
	bool progress;
	struct result *res;
	char **paths; /* res[i].path points here */
	size_t nres;
	double last_ring; /* the last run's first figure, shown in the progress line */
	char last_name[32];
};

static void run_path(const struct cal *c, unsigned int i, const char *ext, char *buf, size_t len)
{
	snprintf(buf, len, "%s/run-%02u.%s", c->dir, i + 1, ext);
}

/* bench with the calibration's options, a process of its own (see the top), its result to
 * DIR/run-NN.json and its stderr to DIR/run-NN.err. Its pid, or -errno. */
static pid_t start_bench(const struct cal *c, unsigned int i)
{
	const struct calibrate_cfg *cfg = c->cfg;
	char json[PATH_MAX], err[PATH_MAX], rep[16], loops[24], cpu[16];
	const char *argv[20] = { "ppbench", "bench", "--quiet", "--repeat", rep, "--cpu", cpu };
	struct spawn s = { .argv = argv, .path = "/proc/self/exe", .out = SPAWN_NULL };
	int n = 7;
	pid_t pid;

	run_path(c, i, "json", json, sizeof(json));
	run_path(c, i, "err", err, sizeof(err));
	snprintf(rep, sizeof(rep), "%u", cfg->repeat);
	snprintf(loops, sizeof(loops), "%llu", (unsigned long long)cfg->loops);
	snprintf(cpu, sizeof(cpu), "%d", cfg->cpu);
	if (cfg->loops) {
		argv[n++] = "--loops";
		argv[n++] = loops;
	}
	if (cfg->scenario) {
		argv[n++] = "--scenario";
		argv[n++] = cfg->scenario;
	}
	if (cfg->counter) {
		argv[n++] = "--counters";
		argv[n++] = strstr(cfg->counter, "cycles") ? "instructions,cycles" : "instructions";
	}
	argv[n++] = "--json";
	argv[n++] = json; /* (the rest is NULL) */
	s.err = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (s.err < 0)
		s.err = SPAWN_INHERIT;
	pid = spawn_start(&s);
	if (s.err > 0)
		close(s.err);
	return pid;
}

static void show(struct cal *c, unsigned int i, const char *what, double secs)
{
	char last[96] = "", left[32] = "";

	if (!c->progress)
		return;
	if (c->last_name[0])
		snprintf(last, sizeof(last), " (last: %s %.1f cycles)", c->last_name, c->last_ring);
	if (secs > 0)
		snprintf(left, sizeof(left), " %.0f s", secs);
	progress_show(c->t0, "bench run %u/%u: %s%s%s", i + 1, c->cfg->runs, what, left, last);
}

/* Waits until START_NS, showing the countdown. */
static void wait_until(struct cal *c, unsigned int i, uint64_t start_ns)
{
	uint64_t now;

	while ((now = now_ns()) < start_ns) {
		show(c, i, "starts in", (start_ns - now) / 1e9);
		usleep((start_ns - now < POLL_NS ? start_ns - now : POLL_NS) / 1000);
	}
}

/* The last line of run I's stderr: bench's own error. */
static void last_err_line(const struct cal *c, unsigned int i, char *buf, size_t len)
{
	char path[PATH_MAX], line[512];
	FILE *f;

	run_path(c, i, "err", path, sizeof(path));
	snprintf(buf, len, "no message");
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (line[0] != '\n') {
			line[strcspn(line, "\n")] = 0;
			snprintf(buf, len, "%s", line);
		}
	if (f)
		fclose(f);
}

static int run_one(struct cal *c, unsigned int i)
{
	char why[512], path[PATH_MAX];
	pid_t pid = start_bench(c, i);
	int status;

	if (pid < 0) {
		pr_err("cannot start bench: %s\n", strerror(-pid));
		return pid;
	}
	while ((status = spawn_wait(pid, 1)) == -EAGAIN) {
		show(c, i, "running", 0);
		usleep(POLL_NS / 1000);
	}
	if (status) {
		last_err_line(c, i, why, sizeof(why));
		if (c->progress)
			progress_clear();
		/* (bench's own exit codes are below 128: above, a signal ended it) */
		pr_err("bench run %u failed (%s %d): %s\n", i + 1, status > 128 ? "signal" : "exit",
		       status > 128 ? status - 128 : status, why);
		return -EIO;
	}
	run_path(c, i, "json", path, sizeof(path));
	c->paths[c->nres] = strdup(path);
	if (!c->paths[c->nres])
		return -ENOMEM;
	if (result_load_view(c->paths[c->nres], &c->res[c->nres], c->cfg->counter, why,
			     sizeof(why))) {
		pr_err("%s\n", why);
		return -EINVAL;
	}
	c->nres++;
	for (size_t k = 0; k < c->res[c->nres - 1].nr_sc; k++) {
		const struct result_scenario *sc = &c->res[c->nres - 1].sc[k];

		if (!sc->ok)
			continue;
		snprintf(c->last_name, sizeof(c->last_name), "%s", sc->name);
		c->last_ring = sc->cycles.median;
		break;
	}
	return 0;
}

static int make_dir(struct cal *c)
{
	if (c->cfg->keep) {
		snprintf(c->dir, sizeof(c->dir), "%s", c->cfg->keep);
		if (mkdir(c->dir, 0755) && errno != EEXIST) {
			pr_err("--keep %s: cannot create: %s\n", c->dir, strerror(errno));
			return -errno;
		}
		return 0;
	}
	snprintf(c->dir, sizeof(c->dir), "/tmp/ppbench-calibrate.XXXXXX");
	if (!mkdtemp(c->dir)) {
		pr_err("cannot create a temporary directory: %s\n", strerror(errno));
		return -errno;
	}
	c->own_dir = true;
	return 0;
}

static void remove_dir(const struct cal *c)
{
	char path[PATH_MAX];

	if (!c->own_dir)
		return;
	for (unsigned int i = 0; i < c->cfg->runs; i++) {
		run_path(c, i, "json", path, sizeof(path));
		unlink(path);
		run_path(c, i, "err", path, sizeof(path));
		unlink(path);
	}
	rmdir(c->dir);
}

/* All runs must share a host (a TSC recalibrated differently would shift every figure). */
static int same_host(const struct cal *c)
{
	char why[600];

	for (size_t i = 1; i < c->nres; i++) {
		const struct result_host *a = &c->res[0].host, *b = &c->res[i].host;

		if (result_same_clock(&c->res[0], &c->res[i], why, sizeof(why))) {
			pr_err("%s: a profile takes runs of one clock\n", why);
			return -EXDEV;
		}
		/* (no TSC on either, as on arm64: the same) */
		double hi = fmax(a->tsc_hz, b->tsc_hz);

		if (strcmp(a->cpu_model, b->cpu_model) || strcmp(a->kernel, b->kernel) ||
		    (hi > 0 && fabs(a->tsc_hz - b->tsc_hz) / hi > 0.01)) {
			pr_err("run %zu saw another host than run 1 (CPU, kernel or "
			       "TSC)\n",
			       i + 1);
			return -EINVAL;
		}
	}
	return 0;
}

static int finish(struct cal *c, double span_s, struct noise_profile *p)
{
	int err = same_host(c);

	if (err)
		return err;
	err = noise_build(c->res, c->nres, p);
	if (err) {
		pr_err("no scenario was measured in two runs\n");
		return err;
	}
	p->span_s = span_s;
	return 0;
}

static void free_runs(struct result *res, size_t nres, char **paths, size_t npaths)
{
	for (size_t i = 0; i < nres; i++)
		result_free(&res[i]);
	for (size_t i = 0; i < npaths; i++)
		free(paths[i]);
	free(res);
	free(paths);
}

void calibrate_free(struct calibration *cal)
{
	noise_free(&cal->p);
	free_runs(cal->res, cal->nres, cal->paths, cal->nres);
}

int calibrate_main(const struct calibrate_cfg *cfg, struct calibration *cal)
{
	struct cal c = { .cfg = cfg, .t0 = now_ns(), .progress = progress_wanted(cfg->quiet) };
	uint64_t slot = (uint64_t)(cfg->duration * 1e9 / cfg->runs);
	int ret = -EIO;

	c.res = calloc(cfg->runs, sizeof(*c.res));
	c.paths = calloc(cfg->runs, sizeof(*c.paths));
	if (!c.res || !c.paths || make_dir(&c)) {
		free_runs(c.res, 0, c.paths, 0);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < cfg->runs; i++) {
		wait_until(&c, i, c.t0 + i * slot);
		if (run_one(&c, i))
			goto out;
	}
	if (c.progress)
		progress_clear();
	ret = finish(&c, (now_ns() - c.t0) / 1e9, &cal->p);
	if (!ret) {
		/* the profile's strings point into the runs: they go with it */
		cal->res = c.res;
		cal->paths = c.paths;
		cal->nres = c.nres;
	}
out:
	if (ret)
		free_runs(c.res, c.nres, c.paths, cfg->runs);
	remove_dir(&c);
	return ret;
}
