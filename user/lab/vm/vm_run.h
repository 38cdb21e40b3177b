/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_VM_RUN_H
#define PPBENCH_VM_RUN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct prof;
struct capture;

/* vm --profile: the profiles of the guest's capture, and the command's result file. */
struct vm_profiles {
	const struct prof *p; /* N profiles */
	size_t n;
	const struct capture *c; /* the capture they came from (its meta) */
	const char *json;	 /* the result file's host path, or NULL */
	const char *text;	 /* its bytes (LEN) and what they read as (DOC), or NULL */
	size_t len;
	const json_t *doc;
	bool stream; /* the result file is JSON lines (load's): the profiles join as lines */
};

/* --clock: qemu's instruction clock (the default), or plain emulation. */
enum vm_clock { VM_CLOCK_ICOUNT, VM_CLOCK_TCG };

/* --arch: the guest's architecture (its kernels, its static ppbench, its qemu). */
enum vm_arch { VM_ARCH_X86_64, VM_ARCH_ARM64 };

/* --stall's default, and the floor of a boot's silence whatever --stall says:
 * a kernel booting with "quiet" prints nothing until init runs. */
#define VM_STALL_DEFAULT_S 300

/*
 * An option (--NAME) of the command run in the guest whose value, at
 * ARGV[ARGI] + AT, is a file it writes (with DIR: a directory it writes files
 * into): vm rewrites it to a path in the guest and copies the file back there.
 */
struct vm_out_arg {
	const char *name;
	int argi;
	size_t at;
	bool dir;
};

/*
 * A file the command run in the guest reads: an option (--NAME) whose value,
 * at ARGV[ARGI] + AT, names it (CLI_F_INFILE). The guest has the K-th of them
 * (from 1) at VM_IN_DIR/K/BASENAME, BASENAME the value's last component.
 */
struct vm_in_arg {
	const char *name;
	int argi;
	size_t at;
};

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

/* The guest's NIC pair (--nic[=MODEL]): none, or two of one model on a qemu hub. */
enum vm_nic { VM_NIC_NONE, VM_NIC_VMXNET3, VM_NIC_VIRTIO };

struct vm_cfg {
	const char *debian;  /* --debian SPEC (default "newest") */
	const char *kernel;  /* --kernel IMAGE */
	const char *modules; /* --modules DIR */
	int clock;	     /* enum vm_clock */
	int arch;	     /* enum vm_arch */
	uint32_t cpus;	     /* 0: the clock's default */
	uint32_t mem_mb;
	int nic;       /* enum vm_nic: --nic[=MODEL] */
	uint32_t rate; /* --rate: pktgen frames/s from peer0 to nic0, 0: none */
	double stall;  /* seconds without a byte from the guest */
	bool quiet;
	bool profile;		/* --profile: count instructions per function (a qemu TCG plugin) */
	const char *debug_info; /* --debug-info: a vmlinux with DWARF, or "debian" */
	/* the options of the inner command line that name a file it writes */
	const struct vm_out_arg *out_args;
	int nr_out_args;
	/* the options that name a file it reads (checked: regular, readable) */
	const struct vm_in_arg *in_args;
	int nr_in_args;
};

/*
 * How a guest ended: its exit status (the command's, or EXIT_USAGE or
 * EXIT_FAIL when it could not run it), whether it was stopped because another
 * guest ended with an error and without its result, and whether its failure
 * was this machine's (a tool, a file, a write, the network: what would fail
 * any kernel alike) rather than its kernel's or the command's; WHY, the
 * guest side's first one-line error, or "".
 */
struct vm_end {
	int rc;
	bool stopped, host;
	char why[256];
};

/*
 * Where vm's news goes as the guest runs (vm/vm.c hands it to report/),
 * each with CTX: the script's phase (fetch, build, pack, boot, run, files)
 * and what it does; a tick every 200 ms; LEN bytes the command wrote to FD
 * (1 or 2) in the guest; the script's notes and its one-line errors; the end.
 */
struct vm_sink {
	void *ctx;
	void (*phase)(void *ctx, const char *phase, const char *text);
	void (*tick)(void *ctx);
	void (*output)(void *ctx, int fd, const char *buf, size_t len);
	void (*info)(void *ctx, const char *text);
	void (*error)(void *ctx, const char *text);
	void (*done)(void *ctx);
	/* vm --profile, after the command's output: the profiles, to merge into the
	 * result file and show; returns the exit status */
	int (*profile)(void *ctx, const struct vm_profiles *v);
};

/*
 * Boots the guest and runs ppbench ARGV[0] ARGV[1..] (the command line after
 * "--", checked by the caller) in it; the command's stdout and stderr go to
 * SINK as it prints them, its files to the paths its options named
 * (cfg->out_args); the files it reads (cfg->in_args) are copied in.
 * How it ended into END, whose status it returns: the command's exit
 * status, or EXIT_USAGE (the guest could not run it: the one-line reason is
 * printed), or EXIT_FAIL, or 128 + the signal that stopped it.
 */
int vm_run(const struct vm_cfg *cfg, int argc, char **argv, const struct vm_sink *sink,
	   struct vm_end *end);

/* At most this many guests side by side (vm --against-*: two). */
#define VM_MAX_GUESTS 2

/*
 * N guests side by side, each booted and run as vm_run() would: CFG[i],
 * ARGV[i] (the same command; its output paths may differ) and SINK[i]; how
 * each ended into END[i]. Returns EXIT_OK once every guest ended, EXIT_USAGE
 * when nothing could start (the one-line reason printed, nothing left
 * behind), or 128 + the signal (SIGINT, SIGTERM, SIGHUP) that stopped them all.
 */
int vm_run_many(int n, const struct vm_cfg *const *cfg, int argc, char **const *argv,
		const struct vm_sink *const *sink, struct vm_end *end);

/*
 * What the guest side needs of this machine for a guest of ARCH (its qemu,
 * the initramfs's tools, busybox, vm's scripts, an installed static
 * ppbench): 0, or -ENOENT and one line into WHY naming what to install.
 */
int vm_host_check(int arch, char *why, size_t len);

/* ppbench vm's defaults: the instruction clock, 1024 MB, a stall of VM_STALL_DEFAULT_S. */
void vm_cfg_init(struct vm_cfg *cfg);
/* The number of CPUs a guest gets when --cpus is not given. */
uint32_t vm_default_cpus(int clock);
/* ARCH's name: "x86-64", "arm64". */
const char *vm_arch_name(int arch);
const char *vm_arch_qemu(int arch); /* its qemu-system binary */

/*
 * vm --profile before a boot: the plugin build qemu program QEMU (on PATH)
 * takes, in the source tree TREE (build/qprof-vN.so) or else under LIBVM,
 * into PLUGIN. 0, or EXIT_USAGE after one line.
 */
int vm_profile_plugin(const char *qemu, const char *tree, const char *libvm, char *plugin,
		      size_t len);

/*
 * After the guest: the profiles of the capture in WORK/profile/, handed with
 * JSON (the command's result file, or NULL) to SINK's profile(). EXIT_OK, or
 * EXIT_FAIL after one line.
 */
int vm_profile_finish(const char *work, const char *json, const struct vm_sink *sink);

/*
 * Which build of ppbench's qemu TCG plugin (user/lab/vm/qprof/) a qemu can
 * load. A plugin exports the API version it was built for; qemu's loader
 * takes it when that version lies in qemu's [min, cur] range, which is fixed
 * at qemu's build and visible only to a loaded plugin. So the range comes
 * from qemu's release: the table in vm_profile.c, the one place that says
 * which release takes which API.
 */
struct qemu_version {
	unsigned int major, minor, micro;
};

/*
 * The version in qemu's "-version" output ("QEMU emulator version 7.2.22
 * (Debian 1:7.2+dfsg-7+deb12u18+b3)"); -EINVAL when there is none.
 */
int qemu_version_parse(const char *text, struct qemu_version *v);
/* V's plugin API range; -ENOENT for a release without plugins (before 4.2). */
int qemu_api_range(const struct qemu_version *v, int *min, int *cur);
/* The API version of the build that [MIN, CUR] takes (the newest that fits), or -ENOENT. */
int qemu_api_pick(int min, int cur);
/*
 * The releases whose build is API's, into BUF: "qemu 6.0 to 8.2", "qemu 9.1
 * and later"; -ENOENT when no release takes it.
 */
int qemu_api_releases(int api, char *buf, size_t len);

#endif
