// SPDX-License-Identifier: GPL-2.0
/* ppbench vm's job for scripts/vm/run: job.conf, cmd, outputs and inputs, as files. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "vm/vm_job.h"
#include "sys/log.h"
#include "sys/util.h"

static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static void put_var(FILE *f, const char *name, const char *val)
{
	fprintf(f, "%s=", name);
	put_quoted(f, val);
	fputc('\n', f);
}

static FILE *open_in(const char *work, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", work, name);
	return fopen(path, "we");
}

/* job.conf: shell variables (a --debian SPEC, or paths made absolute). */
static int write_conf(const char *work, const struct vm_cfg *cfg, const struct vm_paths *p,
		      const char *qplugin)
{
	char kernel[PATH_MAX], modules[PATH_MAX], dbg[PATH_MAX];
	const char *di = cfg->debug_info, *bin = getenv("PPBENCH_VM_BIN");
	FILE *f = open_in(work, "job.conf");

	if (!f)
		return -errno;
	fputs("# Written by ppbench vm for scripts/vm/run\n", f);
	if (cfg->kernel) {
		put_var(f, "VM_KERNEL", realpath(cfg->kernel, kernel) ? kernel : cfg->kernel);
		if (cfg->modules)
			put_var(f, "VM_MODULES",
				realpath(cfg->modules, modules) ? modules : cfg->modules);
	} else {
		put_var(f, "VM_DEBIAN", cfg->debian);
	}
	put_var(f, "VM_CLOCK", cfg->clock == VM_CLOCK_ICOUNT ? "icount" : "tcg");
	fprintf(f,
		"VM_CPUS=%u\nVM_MEM=%u\nVM_NIC=%d\nVM_RATE=%u\nVM_STALL=%.0f\nVM_BOOT_STALL=%d\n",
		cfg->cpus, cfg->mem_mb, cfg->nic != VM_NIC_NONE, cfg->rate, cfg->stall,
		VM_STALL_DEFAULT_S);
	if (cfg->nic != VM_NIC_NONE)
		put_var(f, "VM_NIC_MODEL", cfg->nic == VM_NIC_VIRTIO ? "virtio-net" : "vmxnet3");
	put_var(f, "VM_ARCH", vm_arch_name(cfg->arch));
	put_var(f, "VM_QEMU", vm_arch_qemu(cfg->arch));
	if (bin)
		put_var(f, "VM_EXTRA_BIN", bin);
	if (qplugin) {
		fputs("VM_PROFILE=1\n", f);
		put_var(f, "VM_QPLUGIN", qplugin);
		if (di)
			put_var(f, "VM_DEBUG_INFO",
				strcmp(di, "debian") && realpath(di, dbg) ? dbg : di);
	}
	if (p->tree[0])
		put_var(f, "VM_TREE", p->tree);
	else
		put_var(f, "VM_PPBENCH", p->ppbench);
	return fclose(f) ? -EIO : 0;
}

/* cmd: the guest's command line, each word quoted for sh, after PPBENCH_VM_WRAP's words. */
static int write_cmd(const char *work, int argc, char *const *argv)
{
	const char *wrap = getenv("PPBENCH_VM_WRAP");
	FILE *f = open_in(work, "cmd");

	if (!f)
		return -errno;
	/* (the wrapper's words are the self-check's own: split on blanks) */
	fprintf(f, "exec %s%s/bin/ppbench", wrap ? wrap : "", wrap ? " " : "");
	for (int i = 0; i < argc; i++) {
		fputc(' ', f);
		put_quoted(f, argv[i]);
	}
	fputc('\n', f);
	return fclose(f) ? -EIO : 0;
}

/* An absolute path for PATH, whose directory exists (the last part may not). */
static int absolute(const char *path, char *out, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	else
		snprintf(dir, sizeof(dir), ".");
	if (!realpath(dir, real))
		return -errno;
	if (snprintf(out, len, "%s/%s", strcmp(real, "/") ? real : "", slash ? slash + 1 : path) >=
	    (int)len) {
		errno = ENAMETOOLONG;
		return -ENAMETOOLONG;
	}
	return 0;
}

/* The inner command line, with each output path rewritten to /vm/out/N/. */
struct outputs {
	char **argv;	      /* a copy: the words replaced are ours */
	const char *host[16]; /* output N + 1's absolute host path */
	bool dir[16];
	int n;
	const char *json; /* the host path of the command's --json, or NULL */
};

static int note_output(struct outputs *out, const struct vm_out_arg *o)
{
	const char *val = out->argv[o->argi] + o->at, *base;
	char host[PATH_MAX], *word, *copy;

	if (!strcmp(val, "-"))
		return 0;
	if (out->n == (int)ARRAY_SIZE(out->host)) {
		pr_err("more than %zu output files\n", ARRAY_SIZE(out->host));
		return -EINVAL;
	}
	if (absolute(val, host, sizeof(host)) || (o->dir && mkdir(host, 0755) && errno != EEXIST)) {
		pr_err("--%s: cannot use '%s': %s\n", o->name, val, strerror(errno));
		return -EINVAL;
	}
	copy = strdup(host);
	base = strrchr(host, '/') + 1;
	if (!copy || asprintf(&word, "%.*s/vm/out/%d%s%s", (int)o->at, out->argv[o->argi],
			      out->n + 1, o->dir ? "" : "/", o->dir ? "" : base) < 0)
		return -ENOMEM;
	out->host[out->n] = copy;
	out->dir[out->n++] = o->dir;
	if (!strcmp(o->name, "json"))
		out->json = copy;
	out->argv[o->argi] = word; /* these few strings live as long as the process */
	return 0;
}

/* outputs: "N file|dir HOSTPATH" per output the command writes into /vm/out/N. */
static int write_outputs(const char *work, const struct outputs *out)
{
	FILE *f = open_in(work, "outputs");

	if (!f)
		return -errno;
	for (int i = 0; i < out->n; i++)
		fprintf(f, "%d %s %s\n", i + 1, out->dir[i] ? "dir" : "file", out->host[i]);
	return fclose(f) ? -EIO : 0;
}

/*
 * The inner command line ARGV with each input file's value rewritten to its
 * guest path, into OUT (ARGC + 1 words); WORK/inputs names the host files,
 * "N HOSTPATH" each. The words replaced are new strings (vm_in_free()).
 */
static int note_inputs(const char *work, const struct vm_cfg *cfg, int argc, char **argv,
		       char **out)
{
	const char **given = calloc(cfg->nr_in_args + 1, sizeof(*given));
	char host[PATH_MAX];
	FILE *f;
	int ret;

	if (!given)
		return -ENOMEM;
	ret = vm_in_rewrite(argc, argv, cfg->in_args, cfg->nr_in_args, out, given);
	if (ret) {
		free(given);
		return ret;
	}
	f = open_in(work, "inputs");
	ret = f ? 0 : -errno;
	for (int k = 0; !ret && k < cfg->nr_in_args; k++) {
		/* (a symlink's own name kept: the guest's BASENAME is the value's) */
		ret = absolute(given[k], host, sizeof(host)) ? -EINVAL : 0;
		if (ret)
			pr_err("--%s: cannot use '%s': %s\n", cfg->in_args[k].name, given[k],
			       strerror(errno));
		else
			fprintf(f, "%d %s\n", k + 1, host);
	}
	if (f && fclose(f) && !ret)
		ret = -EIO;
	if (ret)
		vm_in_free(argc, argv, out);
	free(given);
	return ret;
}

int vm_job_write(const char *work, const struct vm_cfg *cfg, const struct vm_paths *p,
		 const char *qplugin, int argc, char **argv, const char **json)
{
	struct outputs out = { .argv = calloc(argc + 1, sizeof(char *)) };
	char **guest = calloc(argc + 1, sizeof(char *));
	int ret = out.argv && guest ? 0 : -ENOMEM;

	if (!ret)
		memcpy(out.argv, argv, argc * sizeof(*argv));
	for (int i = 0; !ret && i < cfg->nr_out_args; i++)
		ret = note_output(&out, &cfg->out_args[i]);
	ret = ret ?: write_conf(work, cfg, p, qplugin);
	ret = ret ?: write_outputs(work, &out);
	ret = ret ?: note_inputs(work, cfg, argc, out.argv, guest);
	if (!ret) {
		ret = write_cmd(work, argc, guest);
		vm_in_free(argc, out.argv, guest);
	}
	free(guest);
	free(out.argv);
	*json = out.json;
	return ret;
}

/* WORD with its value from AT replaced by input N's guest path. */
static char *guest_word(const char *word, size_t at, int n)
{
	const char *val = word + at, *slash = strrchr(val, '/');
	char *s;

	if (asprintf(&s, "%.*s" VM_IN_DIR "/%d/%s", (int)at, word, n, slash ? slash + 1 : val) < 0)
		return NULL;
	return s;
}

void vm_in_free(int argc, char *const *argv, char **out)
{
	for (int i = 0; i < argc; i++)
		if (out[i] != argv[i]) {
			free(out[i]);
			out[i] = argv[i];
		}
}

int vm_in_rewrite(int argc, char *const *argv, const struct vm_in_arg *a, int n, char **out,
		  const char **host)
{
	memcpy(out, argv, argc * sizeof(*out));
	out[argc] = NULL;
	for (int k = 0; k < n; k++) {
		char *w = guest_word(argv[a[k].argi], a[k].at, k + 1);

		if (!w) {
			vm_in_free(argc, argv, out);
			return -ENOMEM;
		}
		host[k] = argv[a[k].argi] + a[k].at;
		out[a[k].argi] = w;
	}
	return 0;
}
