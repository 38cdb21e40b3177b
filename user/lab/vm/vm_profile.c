// SPDX-License-Identifier: GPL-2.0
/* ppbench vm --profile's host side: the plugin to load, the capture to read (vm_profile.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vm/vm_profile.h"
#include "model/jsonparse.h"
#include "vm/prof_build.h"
#include "vm/prof_capture.h"
#include "vm/qemu_api.h"
#include "sys/log.h"
#include "vm/qemubin.h"

/* Why no build fits API [MIN, CUR]: the builds and the releases they serve. */
static void no_build(const struct qemu_bin *q, const struct qemu_version *v, int min, int cur)
{
	char api[32], builds[160] = "", rel[48];
	size_t n = 0;

	if (min == cur)
		snprintf(api, sizeof(api), "API %d only", cur);
	else
		snprintf(api, sizeof(api), "APIs %d to %d", min, cur);
	for (int i = 0; i < QEMU_API_NR_BUILDS && n < sizeof(builds); i++) {
		if (qemu_api_releases(qemu_api_builds[i], rel, sizeof(rel)))
			continue;
		n += snprintf(builds + n, sizeof(builds) - n, "%sAPI %d (%s)", n ? " and " : "",
			      qemu_api_builds[i], rel);
	}
	pr_err("--profile: qemu %u.%u.%u (%s) serves TCG plugin %s; ppbench's plugin is built "
	       "for %s\n",
	       v->major, v->minor, v->micro, q->path, api, builds);
}

int vm_profile_plugin(const char *qemu, const char *tree, const char *libvm, char *plugin,
		      size_t len)
{
	struct qemu_version v;
	struct qemu_bin q;
	int min, cur, api;

	if (qemu_bin_probe(qemu, &q) || qemu_version_parse(q.version, &v)) {
		pr_err("--profile: '%s -version' says no version: which plugin build it takes "
		       "is unknown\n",
		       q.path[0] ? q.path : qemu);
		return EXIT_USAGE;
	}
	if (!q.plugins) {
		pr_err("--profile: qemu %u.%u.%u (%s) has no TCG plugin support (%s exports no "
		       "qemu_plugin_* symbols)\n",
		       v.major, v.minor, v.micro, q.path,
		       q.binary[0] ? "it" : "neither it nor a qemu binary it runs");
		return EXIT_USAGE;
	}
	if (qemu_api_range(&v, &min, &cur)) {
		pr_err("--profile: qemu %u.%u.%u (%s) predates TCG plugins (qemu 4.2)\n", v.major,
		       v.minor, v.micro, q.path);
		return EXIT_USAGE;
	}
	api = qemu_api_pick(min, cur);
	if (api < 0) {
		no_build(&q, &v, min, cur);
		return EXIT_USAGE;
	}
	if (tree)
		snprintf(plugin, len, "%s/build/qprof-v%d.so", tree, api);
	else
		snprintf(plugin, len, "%s/qprof-v%d.so", libvm, api);
	if (access(plugin, R_OK)) {
		pr_err("--profile: %s, the plugin for qemu %u.%u.%u, is missing: %s\n", plugin,
		       v.major, v.minor, v.micro,
		       tree ? "make builds it" : "make install installs it");
		return EXIT_USAGE;
	}
	pr_debug("vm: --profile: qemu %u.%u.%u (plugin API %d..%d) loads %s\n", v.major, v.minor,
		 v.micro, min, cur, plugin);
	return 0;
}

/* The result file the command wrote: its TEXT and, read, its DOC. */
static int read_result(const char *json, char **text, size_t *len, json_t **doc)
{
	char err[512];
	int ret;

	ret = prof_read_file(json, text, len);
	if (ret) {
		pr_err("--profile: cannot read %s: %s\n", json, strerror(-ret));
		return EXIT_FAIL;
	}
	*doc = jparse_buf(*text, *len, err, sizeof(err));
	if (!*doc || !json_is_object(*doc)) {
		pr_err("--profile: %s: %s\n", json, *doc ? "not a result file" : err);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/*
 * The kernel's debug info the script found (meta's debug_info), opened and
 * matched to the boot, into C; else why there is none (meta's
 * debug_info_why, or what was wrong with it), for the report's one line.
 */
static void attach_debug_info(struct capture *c)
{
	const char *path = capture_meta(c, "debug_info"), *why = capture_meta(c, "debug_info_why");
	char err[600];

	if (!path && !why)
		return; /* (none was looked for) */
	if (path && !prof_dbg_open(path, &c->dbg, err, sizeof(err)) &&
	    prof_dbg_match(c->dbg, c, err, sizeof(err))) {
		prof_dbg_close(c->dbg);
		c->dbg = NULL;
	}
	if (!c->dbg)
		c->nolines = strdup(path ? err : why);
}

int vm_profile_finish(const char *work, const char *json, const struct vm_sink *sink)
{
	struct vm_profiles v = { .json = json };
	char dir[PATH_MAX], err[600];
	struct capture c;
	struct prof *p = NULL;
	json_t *doc = NULL;
	char *text = NULL;
	size_t n = 0;
	int ret;

	snprintf(dir, sizeof(dir), "%s/profile", work);
	if (capture_load(dir, &c, err, sizeof(err))) {
		pr_err("--profile: the guest's capture: %s\n", err);
		return EXIT_FAIL;
	}
	attach_debug_info(&c);
	if (prof_build(&c, &p, &n, err, sizeof(err))) {
		pr_err("--profile: %s\n", err);
		capture_free(&c);
		return EXIT_FAIL;
	}
	if (!n)
		pr_warn("--profile: the guest counted no window: no scenario or recipe ran a timed "
			"syscall\n");
	/* load writes JSON lines: its profile becomes one more line, nothing is read */
	v.stream = n && !strcmp(p[0].kind, "load");
	ret = json && n && !v.stream ? read_result(json, &text, &v.len, &doc) : EXIT_OK;
	if (ret == EXIT_OK) {
		v.p = p;
		v.n = n;
		v.c = &c;
		v.text = text;
		v.doc = doc;
		ret = sink->profile(sink->ctx, &v);
	}
	json_decref(doc);
	free(text);
	prof_free_all(p, n);
	capture_free(&c);
	return ret;
}
