// SPDX-License-Identifier: GPL-2.0
/*
 * A qemu binary's version and whether it has the TCG plugin API (qemubin.h).
 * qemu built without plugins (--disable-plugins) exports no qemu_plugin_*
 * symbol, and its -plugin option fails only once a machine boots: so the
 * symbols are read here, before anything starts: of the binary on PATH, or
 * of the one a wrapper script there runs.
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
#include "vm/qemubin.h"
#include "sys/spawn.h"

static int find_on_path(const char *prog, char *out, size_t len)
{
	const char *path = getenv("PATH");

	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		snprintf(out, len, "%.*s/%s", (int)n, p, prog);
		if (n && !access(out, X_OK))
			return 0;
		p += n + (p[n] == ':');
	}
	return -ENOENT;
}

/* Whether the ELF file at PATH exports a dynamic symbol named qemu_plugin_*. */
static bool exports_plugin_api(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf_Scn *scn = NULL;
	bool found = false;
	Elf *e;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && !found && (scn = elf_nextscn(e, scn))) {
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
	if (e)
		elf_end(e);
	close(fd);
	return found;
}

static bool is_elf(const char *path)
{
	unsigned char m[4] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool elf = fd >= 0 && read(fd, m, 4) == 4 && !memcmp(m, "\177ELF", 4);

	if (fd >= 0)
		close(fd);
	return elf;
}

/*
 * The ELF file PATH runs: PATH itself, or for a wrapper script (a private
 * qemu of another suite, scripts/vm/qemu-get.sh) the absolute path it names
 * whose base name is PROG's and which is an ELF file. 0, or -ENOENT.
 */
static int elf_behind(const char *path, const char *prog, char *out, size_t len)
{
	char text[8192], *save, *w;
	ssize_t n;
	int fd;

	if (is_elf(path)) {
		snprintf(out, len, "%s", path);
		return 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n < 2 || text[0] != '#' || text[1] != '!')
		return -ENOENT;
	text[n] = '\0';
	for (w = strtok_r(text, " \t\n\"'", &save); w; w = strtok_r(NULL, " \t\n\"'", &save)) {
		const char *base = strrchr(w, '/');

		if (w[0] == '/' && base && !strcmp(base + 1, prog) && is_elf(w)) {
			snprintf(out, len, "%s", w);
			return 0;
		}
	}
	return -ENOENT;
}

/* The first line PATH -version prints on stdout, within 10 s. */
static int version_line(const char *path, char *out, size_t len)
{
	const char *argv[] = { path, "-version", NULL };
	struct spawn s = { .argv = argv, .path = path, .in = SPAWN_NULL, .err = SPAWN_NULL };

	spawn_capture(&s, out, len, 10000000000ull);
	out[strcspn(out, "\n")] = '\0';
	return out[0] ? 0 : -EIO;
}

int qemu_bin_probe(const char *prog, struct qemu_bin *q)
{
	char real[PATH_MAX];
	int err;

	memset(q, 0, sizeof(*q));
	err = find_on_path(prog, q->path, sizeof(q->path));
	err = err ?: version_line(q->path, q->version, sizeof(q->version));
	if (err)
		return err;
	if (!realpath(q->path, real))
		snprintf(real, sizeof(real), "%s", q->path);
	q->plugins = !elf_behind(real, prog, q->binary, sizeof(q->binary)) &&
		     exports_plugin_api(q->binary);
	return 0;
}
