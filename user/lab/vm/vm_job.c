// SPDX-License-Identifier: GPL-2.0
/*
 * The job files of ppbench vm for scripts/vm/run, and the guest's command
 * line with its input files' guest paths.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vm/vm_job.h"

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

int vm_job_write_conf(const char *work, const struct vm_job_desc *d)
{
	FILE *f = open_in(work, "job.conf");

	if (!f)
		return -errno;
	fputs("# Written by ppbench vm for scripts/vm/run\n", f);
	if (d->kernel) {
		put_var(f, "VM_KERNEL", d->kernel);
		if (d->modules)
			put_var(f, "VM_MODULES", d->modules);
	} else {
		put_var(f, "VM_DEBIAN", d->debian);
	}
	put_var(f, "VM_CLOCK", d->clock);
	fprintf(f,
		"VM_CPUS=%u\nVM_MEM=%u\nVM_NIC=%d\nVM_RATE=%u\nVM_STALL=%.0f\nVM_BOOT_STALL=%.0f\n",
		d->cpus, d->mem_mb, d->nic, d->rate, d->stall, d->boot_stall);
	if (d->nic)
		put_var(f, "VM_NIC_MODEL", d->nic_model);
	put_var(f, "VM_ARCH", d->arch);
	put_var(f, "VM_QEMU", d->qemu);
	if (d->extra_bin)
		put_var(f, "VM_EXTRA_BIN", d->extra_bin);
	if (d->qplugin) {
		fputs("VM_PROFILE=1\n", f);
		put_var(f, "VM_QPLUGIN", d->qplugin);
		if (d->debug_info)
			put_var(f, "VM_DEBUG_INFO", d->debug_info);
	}
	if (d->tree)
		put_var(f, "VM_TREE", d->tree);
	else
		put_var(f, "VM_PPBENCH", d->ppbench);
	return fclose(f) ? -EIO : 0;
}

int vm_job_write_cmd(const char *work, const char *wrap, int argc, char *const *argv)
{
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

int vm_job_write_outputs(const char *work, const struct vm_output *o, int n)
{
	FILE *f = open_in(work, "outputs");

	if (!f)
		return -errno;
	for (int i = 0; i < n; i++)
		fprintf(f, "%d %s %s\n", o[i].n, o[i].dir ? "dir" : "file", o[i].host);
	return fclose(f) ? -EIO : 0;
}

int vm_job_write_inputs(const char *work, const struct vm_input *in, int n)
{
	FILE *f = open_in(work, "inputs");

	if (!f)
		return -errno;
	for (int i = 0; i < n; i++)
		fprintf(f, "%d %s\n", in[i].n, in[i].host);
	return fclose(f) ? -EIO : 0;
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
