/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_VM_JOB_H
#define PPBENCH_VM_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The files ppbench vm writes for scripts/vm/run in its work directory:
 * job.conf (shell variables), cmd (the guest's command line, each word
 * quoted for sh), outputs ("N file|dir HOSTPATH" per output the command
 * writes into /vm/out/N) and inputs ("N HOSTPATH" per file the command
 * reads, which the guest has as /vm/in/N/BASENAME).
 */
struct vm_job_desc {
	const char *debian, *kernel, *modules; /* the kernel: a Debian SPEC, or paths */
	const char *clock;		       /* "icount" or "tcg" */
	uint32_t cpus, mem_mb, rate;
	bool nic;
	const char *nic_model; /* "vmxnet3" or "virtio-net" */
	double stall;
	double boot_stall; /* the floor of the boot's limit */
	const char *arch;  /* "x86-64" or "arm64": the guest's kernel, programs, machine */
	const char *qemu;
	const char *tree;    /* the source tree to build the static ppbench in, or NULL */
	const char *ppbench; /* else the installed static ppbench */
	/* self-checks: a static program for the guest's /bin, and words before
	 * ppbench on its command line (PPBENCH_VM_BIN, PPBENCH_VM_WRAP) */
	const char *extra_bin, *wrap;
	const char *qplugin;	/* --profile: the qemu plugin build to load, else NULL */
	const char *debug_info; /* with it: --debug-info FILE (absolute) or "debian", or NULL */
};

struct vm_output {
	int n;
	bool dir;
	const char *host; /* absolute */
};

int vm_job_write_conf(const char *work, const struct vm_job_desc *d);
/* ARGV is the guest's command line (outputs already under /vm/out), after WRAP's words. */
int vm_job_write_cmd(const char *work, const char *wrap, int argc, char *const *argv);
int vm_job_write_outputs(const char *work, const struct vm_output *o, int n);

struct vm_input {
	int n;
	const char *host; /* absolute; its last component is the guest's BASENAME */
};

int vm_job_write_inputs(const char *work, const struct vm_input *in, int n);

/*
 * The files ppbench vm carries into its guest: an option (--NAME) of the
 * command run there whose value, at ARGV[ARGI] + AT, is a file it reads
 * (CLI_F_INFILE). The guest has the K-th of them (from 1) at
 * /vm/in/K/BASENAME, BASENAME the last component of the value as given.
 */
struct vm_in_arg {
	const char *name;
	int argi;
	size_t at;
};

/* The guest's directory of the inputs (scripts/vm/run packs them there). */
#define VM_IN_DIR "/vm/in"

/*
 * ARGV (ARGC words) with the value of each of the N inputs A replaced by its
 * guest path, into OUT (ARGC + 1 words, NULL-terminated): a replaced word is
 * a new string ("--opt=d/x.ko" -> "--opt=/vm/in/1/x.ko"), the others are
 * ARGV's. HOST[K - 1] gets the K-th input's value as given (in ARGV). ARGV is
 * not changed. Returns 0, or -ENOMEM (OUT then holds no new string).
 */
int vm_in_rewrite(int argc, char *const *argv, const struct vm_in_arg *a, int n, char **out,
		  const char **host);
/* The words of OUT that vm_in_rewrite() made (those not in ARGV), freed. */
void vm_in_free(int argc, char *const *argv, char **out);

#endif
