// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench vm --profile's host side: before a boot, the qemu program and the
 * plugin build it takes; after the guest, the capture it brought back.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sys/spawn.h"
#include "sys/util.h"
#include "vm/vm_run.h"
#include "model/jsonparse.h"
#include "vm/prof_build.h"
#include "sys/log.h"

/*
 * A qemu binary's version and whether it has the TCG plugin API. qemu built
 * without plugins (--disable-plugins) exports no qemu_plugin_* symbol, and
 * its -plugin option fails only once a machine boots: so the symbols are
 * read here, before anything starts: of the binary on PATH, or of the one a
 * wrapper script there runs.
 */
struct qemu_bin {
	char path[4096];   /* where PATH finds it */
	char version[160]; /* the first line of "-version" ("QEMU emulator version ...") */
	char binary[4096]; /* the ELF file: path itself, or the one a wrapper script runs */
	bool plugins;	   /* its dynamic symbols export qemu_plugin_* (the TCG plugin API) */
};

/* Whether the file at PATH exports a dynamic symbol named qemu_plugin_*: 1, 0, or -1: not ELF. */
static int plugin_api(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), found = -1;
	Elf_Scn *scn = NULL;
	Elf *e;

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && elf_kind(e) == ELF_K_ELF)
		found = 0;
	while (!found && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize && !found; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(d, i, &s) || s.st_shndx == SHN_UNDEF)
				continue;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			found = name && !strncmp(name, "qemu_plugin_", strlen("qemu_plugin_"));
		}
	}
	elf_end(e);
	close(fd);
	return found;
}

/*
 * Whether the ELF file PATH runs exports the plugin API, that file into OUT:
 * PATH itself, or for a wrapper script (a private qemu of another suite,
 * scripts/vm/qemu-get.sh) the absolute path it names whose base name is
 * PROG's and which is an ELF file. OUT stays "" where there is none.
 */
static bool elf_behind(const char *path, const char *prog, char *out, size_t len)
{
	char text[8192], *save, *w;
	int fd, api = plugin_api(path);
	ssize_t n;

	if (api >= 0) {
		snprintf(out, len, "%s", path);
		return api;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n < 2 || text[0] != '#' || text[1] != '!')
		return false;
	text[n] = '\0';
	for (w = strtok_r(text, " \t\n\"'", &save); w; w = strtok_r(NULL, " \t\n\"'", &save)) {
		const char *base = strrchr(w, '/');

		if (w[0] == '/' && base && !strcmp(base + 1, prog) && (api = plugin_api(w)) >= 0) {
			snprintf(out, len, "%s", w);
			return api;
		}
	}
	return false;
}

/*
 * PROG on PATH, probed into Q (the first line "-version" prints within 10 s):
 * 0, or -ENOENT (not on PATH), -EIO (no version line), silently.
 */
static int qemu_bin_probe(const char *prog, struct qemu_bin *q)
{
	const char *argv[] = { q->path, "-version", NULL };
	struct spawn s = { .argv = argv, .path = q->path, .in = SPAWN_NULL, .err = SPAWN_NULL };
	char real[PATH_MAX];

	memset(q, 0, sizeof(*q));
	if (!prog_in_path(prog, q->path, sizeof(q->path)))
		return -ENOENT;
	spawn_capture(&s, q->version, sizeof(q->version), 10000000000ull);
	q->version[strcspn(q->version, "\n")] = '\0';
	if (!q->version[0])
		return -EIO;
	if (!realpath(q->path, real))
		snprintf(real, sizeof(real), "%s", q->path);
	q->plugins = elf_behind(real, prog, q->binary, sizeof(q->binary));
	return 0;
}

/* The plugin API range of a qemu release, and the build that fits it. */

/* The plugin's builds, by the API version each exports. */
static const int qemu_api_builds[] = { 1, 3 };

int qemu_version_parse(const char *text, struct qemu_version *v)
{
	const char *at = strstr(text, "version ");
	unsigned int x, y, z = 0;

	if (!at || sscanf(at + strlen("version "), "%u.%u", &x, &y) != 2)
		return -EINVAL;
	/* the micro number is optional (a tree's "9.2.50" has it, "10.0" may not) */
	sscanf(at + strlen("version "), "%*u.%*u.%u", &z);
	*v = (struct qemu_version){ x, y, z };
	return 0;
}

/*
 * qemu's plugin API range by release, newest first (qemu's
 * include/qemu/qemu-plugin.h and plugins/plugin.h). Releases after the
 * newest one read are taken to keep min 2, as every release since 9.0 has.
 */
struct qemu_release {
	unsigned int major, minor;
};

static const struct {
	struct qemu_release first, last; /* last {0, 0}: every later release */
	int min, cur;
} ranges[] = {
	{ { 10, 1 }, { 0, 0 }, 2, 5 }, /* the newest release read: 10.2 */
	{ { 9, 2 }, { 10, 0 }, 2, 4 }, /* bookworm-backports' 10.0 */
	{ { 9, 1 }, { 9, 1 }, 2, 3 },  /* v3 changed qemu_plugin_insn_data() */
	{ { 9, 0 }, { 9, 0 }, 2, 2 },  /* v2 removed the plain-pointer inline adds */
	{ { 6, 0 }, { 8, 2 }, 0, 1 },  /* Debian 12's 7.2 */
	{ { 4, 2 }, { 5, 2 }, 0, 0 },
};

int qemu_api_range(const struct qemu_version *v, int *min, int *cur)
{
	for (size_t i = 0; i < ARRAY_SIZE(ranges); i++) {
		const struct qemu_release *f = &ranges[i].first;

		if (v->major < f->major || (v->major == f->major && v->minor < f->minor))
			continue;
		*min = ranges[i].min;
		*cur = ranges[i].cur;
		return 0;
	}
	return -ENOENT;
}

int qemu_api_pick(int min, int cur)
{
	for (int i = (int)ARRAY_SIZE(qemu_api_builds) - 1; i >= 0; i--)
		if (qemu_api_builds[i] >= min && qemu_api_builds[i] <= cur)
			return qemu_api_builds[i];
	return -ENOENT;
}

int qemu_api_releases(int api, char *buf, size_t len)
{
	int lo = -1, hi = -1;

	for (int i = 0; i < (int)ARRAY_SIZE(ranges); i++)
		if (qemu_api_pick(ranges[i].min, ranges[i].cur) == api) {
			hi = hi < 0 ? i : hi;
			lo = i;
		}
	if (lo < 0)
		return -ENOENT;
	if (!ranges[hi].last.major)
		snprintf(buf, len, "qemu %u.%u and later", ranges[lo].first.major,
			 ranges[lo].first.minor);
	else
		snprintf(buf, len, "qemu %u.%u to %u.%u", ranges[lo].first.major,
			 ranges[lo].first.minor, ranges[hi].last.major, ranges[hi].last.minor);
	return 0;
}

/* Why no build fits API [MIN, CUR]: the builds and the releases they serve. */
static void no_build(const char *who, int min, int cur)
{
	char api[32], builds[160] = "", rel[48];
	size_t n = 0;

	if (min == cur)
		snprintf(api, sizeof(api), "API %d only", cur);
	else
		snprintf(api, sizeof(api), "APIs %d to %d", min, cur);
	for (int i = 0; i < (int)ARRAY_SIZE(qemu_api_builds) && n < sizeof(builds); i++) {
		if (qemu_api_releases(qemu_api_builds[i], rel, sizeof(rel)))
			continue;
		n += snprintf(builds + n, sizeof(builds) - n, "%sAPI %d (%s)", n ? " and " : "",
			      qemu_api_builds[i], rel);
	}
	pr_err("--profile: %s serves TCG plugin %s; ppbench's plugin is built for %s\n", who, api,
	       builds);
}

int vm_profile_plugin(const char *qemu, const char *tree, const char *libvm, char *plugin,
		      size_t len)
{
	struct qemu_version v;
	struct qemu_bin q;
	char who[4300]; /* "qemu 7.2.22 (PATH)" */
	int min, cur, api;

	if (qemu_bin_probe(qemu, &q) || qemu_version_parse(q.version, &v)) {
		pr_err("--profile: '%s -version' says no version: which plugin build it takes is "
		       "unknown\n",
		       q.path[0] ? q.path : qemu);
		return EXIT_USAGE;
	}
	snprintf(who, sizeof(who), "qemu %u.%u.%u (%s)", v.major, v.minor, v.micro, q.path);
	if (!q.plugins) {
		pr_err("--profile: %s has no TCG plugin support (%s exports no qemu_plugin_* "
		       "symbols)\n",
		       who, q.binary[0] ? "it" : "neither it nor a qemu binary it runs");
		return EXIT_USAGE;
	}
	if (qemu_api_range(&v, &min, &cur)) {
		pr_err("--profile: %s predates TCG plugins (qemu 4.2)\n", who);
		return EXIT_USAGE;
	}
	api = qemu_api_pick(min, cur);
	if (api < 0) {
		no_build(who, min, cur);
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
