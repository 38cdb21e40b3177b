// SPDX-License-Identifier: GPL-2.0
/* ppbench report's "To reproduce": ppbench's commands, and git's for a bisection. */
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "report/mail.h"
#include "report/report.h"
#include "sys/util.h"
#include "vm/vm_run.h"

/* Word W (K characters) into BUF, a file vm carried in (/vm/in/N/NAME) as NAME; its length. */
static int guest_in(const char *w, int k, char *buf, size_t len)
{
	const char *in = memmem(w, k, VM_IN_DIR "/", strlen(VM_IN_DIR "/"));
	const char *name = in ? in + strlen(VM_IN_DIR "/") : NULL;

	if (name)
		name += strspn(name, "0123456789");
	if (!name || *name != '/' || (in != w && in[-1] != '='))
		return snprintf(buf, len, "%.*s", k, w);
	return snprintf(buf, len, "%.*s%.*s", (int)(in - w), w, (int)(w + k - name - 1), name + 1);
}

const char *mail_bench_args(const char *command, char *buf, size_t len)
{
	const char *s = command ? command : "ppbench bench";
	bool skip = false;
	size_t n = 0;

	buf[0] = 0;
	for (int at = 0; *(s += strspn(s, " ")) && n < len; at++) {
		const char *w = s;
		bool quoted = false;
		int k;

		for (; *s && (quoted || *s != ' '); s++)
			quoted ^= *s == '\'';
		k = s - w;
		if ((!at && k == 7 && !strncmp(w, "ppbench", 7)) || skip) {
			skip = false;
			continue;
		}
		/* --json FILE, -j FILE: the next word goes too; --json=FILE, -jFILE alone */
		skip = (k == 6 && !strncmp(w, "--json", 6)) || (k == 2 && !strncmp(w, "-j", 2));
		if (skip || !strncmp(w, "--json=", 7) || (k > 2 && !strncmp(w, "-j", 2)))
			continue;
		n += snprintf(buf + n, len - n, "%s", n ? " " : "");
		if (n < len)
			n += guest_in(w, k, buf + n, len - n);
	}
	if (!n)
		snprintf(buf, len, "bench");
	return buf;
}

/* Emulated by ppbench vm: qemu's instruction clock or plain TCG. */
static bool from_vm(const struct result *r)
{
	const char *k = result_clock_of(r)->kind;

	return !strcmp(k, "icount") || !strcmp(k, "tcg");
}

static bool debian(const struct result *r)
{
	const char *v = json_string_value(
		json_object_get(json_object_get(r->doc, "host"), "kernel_version"));

	return v && strstr(v, " Debian ");
}

/* vm's options besides the kernel that made R as it is: clock, arch, CPUs, profile. */
static void vm_flags(const struct result *r, char *buf, size_t len)
{
	bool tcg = !strcmp(result_clock_of(r)->kind, "tcg");
	size_t n = strlen(r->host.kernel);
	bool prof = false;
	int k = 0;

	for (size_t i = 0; i < r->nr_sc; i++)
		prof |= r->sc[i].prof.has;
	buf[0] = 0;
	if (tcg)
		k += snprintf(buf + k, len - k, " --clock tcg");
	if (n > 6 && !strcmp(r->host.kernel + n - 6, "-arm64"))
		k += snprintf(buf + k, len - k, " --arch arm64");
	if (r->host.nr_cpus != vm_default_cpus(tcg ? VM_CLOCK_TCG : VM_CLOCK_ICOUNT))
		k += snprintf(buf + k, len - k, " --cpus %llu",
			      (unsigned long long)r->host.nr_cpus);
	if (prof)
		snprintf(buf + k, len - k, " --profile");
}

/* "--debian linux-image-RELEASE" (AGAINST: "--against-debian ..."), or an image by path. */
static const char *kernel_opt(const struct result *r, bool against, char *buf, size_t len)
{
	if (debian(r))
		snprintf(buf, len, "--%sdebian linux-image-%s", against ? "against-" : "",
			 r->host.kernel);
	else
		snprintf(buf, len, "--%skernel %s", against ? "against-" : "",
			 against ? "BASE-IMAGE" : "IMAGE");
	return buf;
}

/* A command line: indented in text, as it is in Markdown's code block. */
__attribute__((format(printf, 3, 4))) static void cmd(FILE *f, const struct mail *m,
						      const char *fmt, ...)
{
	va_list ap;

	fprintf(f, "%s", m->md ? "" : "  ");
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fprintf(f, "\n");
}

/* Where a kernel's image is not recorded, the line that says which it must be. */
static void image_note(FILE *f, const struct mail *m, const struct result *r, const char *what)
{
	if (!debian(r))
		cmd(f, m, "# %s: the image of kernel %s (a result does not record its path)", what,
		    r->host.kernel);
}

/* One file: its kernel under vm, or bench on the host running its kernel. */
static void one_file(FILE *f, const struct mail *m, const struct result *r, const char *name)
{
	char args[2048], flags[128], kopt[256];

	mail_bench_args(r->command, args, sizeof(args));
	if (!from_vm(r)) {
		cmd(f, m, "# on a host running kernel %s (%s):", r->host.kernel, r->host.cpu_model);
		cmd(f, m, "ppbench %s --json %s", args, name);
		return;
	}
	vm_flags(r, flags, sizeof(flags));
	image_note(f, m, r, "IMAGE");
	cmd(f, m, "ppbench vm %s%s -- %s --json %s", kernel_opt(r, false, kopt, sizeof(kopt)),
	    flags, args, name);
}

/* vm --against-*: both kernels at once, as the A/B was made. */
static void ab(FILE *f, const struct mail *m)
{
	const struct result *a = &m->cf->files[0], *b = &m->cf->files[1];
	char args[2048], flags[128], kb[256], ka[256], name[sizeof(m->in->ab)];
	const char *base = strrchr(m->in->ab, '/');

	snprintf(name, sizeof(name), "%s", base ? base + 1 : m->in->ab);
	mail_bench_args(b->command, args, sizeof(args));
	vm_flags(b, flags, sizeof(flags));
	image_note(f, m, b, "IMAGE");
	image_note(f, m, a, "BASE-IMAGE");
	cmd(f, m, "ppbench vm %s %s%s -- %s --json %s", kernel_opt(b, false, kb, sizeof(kb)),
	    kernel_opt(a, true, ka, sizeof(ka)), flags, args, name);
	cmd(f, m, "ppbench report %s", name);
}

/* The first line of LOG's stage ("== build: make -j2 bzImage" -> "make -j2 bzImage"), or NULL. */
static char *stage(const char *log, const char *what)
{
	char key[32], *at;

	snprintf(key, sizeof(key), "\n== %s: ", what);
	at = log ? strstr(log, key) : NULL;
	return at ? strndup(at + strlen(key), strcspn(at + strlen(key), "\n")) : NULL;
}

/* A commit's figures as the bisection took them: checkout, config, build, boot. */
static void bisect_commit(FILE *f, const struct mail *m, const char *log, size_t i)
{
	const char *hash = m->in->commit[i].hash;
	char *config = stage(log, "config"), *build = stage(log, "build");
	char *boot = stage(log, "boot"), *json = boot ? strstr(boot, " --json ") : NULL;
	char args[2048];

	cmd(f, m, "git checkout %s", hash);
	if (config && build && json) {
		cmd(f, m, "%s", config);
		cmd(f, m, "%s", build);
		cmd(f, m, "ppbench %.*s --json %.*s.json", (int)(json - boot), boot,
		    MAIL_HASH_SHORT, hash);
	} else {
		cmd(f, m, "# build it as the bisection did (ppbench-bisect(8), One step)");
		cmd(f, m, "ppbench vm --kernel arch/x86/boot/bzImage -- %s --json %.*s.json",
		    mail_bench_args(m->cf->files[i].command, args, sizeof(args)), MAIL_HASH_SHORT,
		    hash);
	}
	free(config);
	free(build);
	free(boot);
}

static void bisection(FILE *f, const struct mail *m)
{
	const struct mail_in *in = m->in;
	char *steps = in->steps ? strdup(in->steps) : NULL, *line, *save;

	cmd(f, m,
	    "# in the kernel tree: the bisection as git bisect log has it (git bisect "
	    "replay takes it)");
	for (line = steps ? strtok_r(steps, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		cmd(f, m, "%s", line);
	if (!steps)
		cmd(f, m, "# (the tree is not bisecting now: git bisect log has no steps)");
	cmd(f, m, "git bisect reset");
	cmd(f, m, "# the figures of %s, then of the first bad commit",
	    in->base_baseline ? "the baseline (made apart, not a step)" : "its parent");
	if (in->base_baseline)
		one_file(f, m, &m->cf->files[0], "baseline.json");
	for (size_t i = in->base_baseline; i < 2; i++)
		bisect_commit(f, m, in->log, i);
	cmd(f, m, "ppbench report %.*s.json %.*s.json", MAIL_HASH_SHORT, m->t.names[0],
	    MAIL_HASH_SHORT, in->commit[1].hash);
	free(steps);
}

void mail_reproduce(FILE *f, const struct mail *m)
{
	char names[4096] = "", name[256];
	size_t n = 0;

	fprintf(f, m->md ? "#### To reproduce\n\n```sh\n" : "To reproduce:\n\n");
	if (m->in->kind == MAIL_BISECT) {
		bisection(f, m);
	} else if (m->in->kind == MAIL_AB && from_vm(&m->cf->files[0]) &&
		   from_vm(&m->cf->files[1])) {
		ab(f, m);
	} else {
		for (size_t i = 0; i < m->cf->n; i++) {
			const char *p = m->cf->files[i].path, *slash = strrchr(p, '/');

			snprintf(name, sizeof(name), "%s", slash ? slash + 1 : p);
			one_file(f, m, &m->cf->files[i], name);
			n += snprintf(names + n, n < sizeof(names) ? sizeof(names) - n : 0, " %s",
				      name);
		}
		cmd(f, m, "ppbench report%s", names);
	}
	fprintf(f, m->md ? "```\n\n" : "\n");
}
