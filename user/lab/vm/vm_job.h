/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_VM_JOB_H
#define PPBENCH_VM_JOB_H

#include <stdbool.h>
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

#endif
