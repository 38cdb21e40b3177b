// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench vm [OPTIONS] -- COMMAND [ARGS]: run one ppbench command in a
 * kernel booted under qemu, with the instruction clock by default (every
 * "cycle" is then a guest instruction, the same from boot to boot).
 * Everything that can be checked on the host is checked before a boot:
 * the kernel, the options, and the inner command line with its own table.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "engine/vm_run.h"
#include "model/kimage.h"
#include "report/prof_report.h"
#include "report/vm_report.h"
#include "sys/log.h"
#include "sys/util.h"

/* a number's macro as a string, for the help text */
#define STR_(x) #x
#define STR(x) STR_(x)

#define V(m) CLI_MEMBER(struct vm_cfg, m)

static const struct cli_word clocks[] = {
	{ "icount", VM_CLOCK_ICOUNT },
	{ "tcg", VM_CLOCK_TCG },
	{ NULL },
};

static const struct cli_word nic_models[] = {
	{ "vmxnet3", VM_NIC_VMXNET3 }, /* the first: --nic alone */
	{ "virtio-net", VM_NIC_VIRTIO },
	{ NULL },
};

static const struct cli_word arches[] = {
	{ "x86-64", VM_ARCH_X86_64 },
	{ "arm64", VM_ARCH_ARM64 },
	{ NULL },
};

static const struct cli_opt vm_opts[] = {
	{ "arch", 'a', NULL,
	  "the guest's architecture: x86-64 (qemu-system-x86_64) or arm64 (qemu-system-aarch64 "
	  "-M virt, with a static arm64 ppbench; its Debian kernels are linux-image-*-arm64) "
	  "(default x86-64)",
	  .kind = CLI_ENUM, V(arch), .words = arches },
	{ "debian", 'D', "SPEC",
	  "boot a Debian kernel: 6.1, 6.12, newest (trixie-backports' linux-image-amd64), "
	  "newest-rt or newest-cloud (its PREEMPT_RT and cloud flavours; arm64 also "
	  "newest-16k, 16K pages) or a linux-image-* package of bookworm or "
	  "trixie-backports, through the kernel matrix's private apt and cache "
	  "(default newest)",
	  .kind = CLI_STRING, V(debian) },
	{ "kernel", 'k', "IMAGE",
	  "boot this kernel image instead (x86-64: bzImage or vmlinuz; arm64: Image or "
	  "Image.gz)",
	  .kind = CLI_STRING, V(kernel) },
	{ "modules", 'M', "DIR",
	  "--kernel's modules: a lib/modules/RELEASE tree (make modules_install) or the "
	  "kernel's build tree; veth, pktgen and vmxnet3 are loaded from it",
	  .kind = CLI_STRING, V(modules) },
	{ "clock", 'C', NULL,
	  "icount: qemu's instruction clock, one TSC tick per guest instruction (figures "
	  "are instructions per element); tcg: plain emulation, whose timings mean "
	  "nothing (default icount)",
	  .kind = CLI_ENUM, V(clock), .words = clocks },
	{ "cpus", 'c', "N",
	  "the guest's CPUs (default 1 with icount, whose vCPUs take turns; 2 with tcg)",
	  .kind = CLI_UINT, V(cpus), .min = 1, .max = 8 },
	{ "mem", 'm', "MB", "the guest's memory (default 1024)", .kind = CLI_UINT, V(mem_mb),
	  .min = 256, .max = 65536 },
	{ "nic", 'n', NULL,
	  "two NICs of this model on a qemu hub: nic0 (10.0.0.2) to measure, in the root "
	  "namespace, and its traffic source peer0 (10.0.0.1) in namespace 'peer'; virtio-net "
	  "keeps its RX buffers in page_pools from 7.x (default vmxnet3)",
	  .kind = CLI_ENUM, V(nic), .words = nic_models, .flags = CLI_F_OPTIONAL },
	{ "rate", 'r', "PPS",
	  "with --nic: pktgen sends 60-byte UDP frames from peer0 to nic0 at PPS frames/s "
	  "(of guest time) while COMMAND runs (default: no traffic)",
	  .kind = CLI_UINT, V(rate), .min = 1, .max = 10000000 },
	{ "stall", 0, "SECONDS",
	  "end a guest that printed nothing for this long while its command runs, or hung "
	  "(default " STR(VM_STALL_DEFAULT_S) "; a boot, silent until init runs, has "
					      "at least the default)",
	  .kind = CLI_SECONDS, V(stall), .dmin = 10, .dmax = 86400 },
	{ "profile", 0, NULL,
	  "count the guest instructions each scenario's timed runs execute, per kernel "
	  "function, module function and BPF program (a qemu TCG plugin): bench and recipe; "
	  "a profile per scenario in the result file, its path figure, a report after the "
	  "command's output",
	  .kind = CLI_FLAG, V(profile) },
	{ "quiet", 'q', NULL, "no progress line", .kind = CLI_FLAG, V(quiet) },
	{ NULL },
};

static void vm_init(void *c)
{
	struct vm_cfg *cfg = c;

	cfg->clock = VM_CLOCK_ICOUNT;
	cfg->mem_mb = 1024;
	cfg->stall = VM_STALL_DEFAULT_S;
}

/* Commands that run until Ctrl-C unless --duration or --count ends them. */
static const char *const until_stopped[] = { "watch", "load", "gen", NULL };

/* Commands that read files and need no kernel of their own. */
static const char *const host_only[] = { "compare", "plot", "trend", "export", "vm", NULL };

static int check_kernel_image(const char *path, int arch)
{
	unsigned char buf[4096];
	enum kimage_kind k;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		pr_err("--kernel: cannot open '%s': %s\n", path, strerror(errno));
		return -errno;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	k = vm_image_kind(path, buf, n < 0 ? 0 : (size_t)n);
	if (k == vm_arch_image(arch))
		return 0;
	if (k == KIMAGE_ARM64 || k == KIMAGE_X86_64)
		pr_err("--kernel: '%s' is an %s kernel image, not an %s one%s\n", path,
		       kimage_name(k), vm_arch_name(arch),
		       k == KIMAGE_ARM64 ? " (--arch arm64 boots it)"
					 : " (--arch x86-64 boots it)");
	else
		pr_err("--kernel: '%s' is not a kernel image (no bzImage, arm64 Image or ELF "
		       "header)\n",
		       path);
	return -EINVAL;
}

static int check_kernel(struct vm_cfg *cfg)
{
	if (cfg->kernel && cfg->debian) {
		pr_err("--kernel and --debian both name the kernel: give one\n");
		return -EINVAL;
	}
	if (cfg->modules && !cfg->kernel) {
		pr_err("--modules goes with --kernel (a --debian kernel brings its own)\n");
		return -EINVAL;
	}
	if (cfg->modules && access(cfg->modules, R_OK | X_OK)) {
		pr_err("--modules: cannot read the directory '%s': %s\n", cfg->modules,
		       strerror(errno));
		return -EINVAL;
	}
	if (!cfg->kernel && !cfg->debian)
		cfg->debian = "newest";
	return cfg->kernel ? check_kernel_image(cfg->kernel, cfg->arch) : 0;
}

/* An inner command that runs until stopped: in a guest, Ctrl-C ends the guest. */
struct bounded {
	bool has_limit, limited;
};

static int note_limit(void *ctx, const struct cli_opt *o, int argi, size_t at)
{
	struct bounded *b = ctx;

	(void)argi;
	(void)at;
	if (!strcmp(o->name, "duration") || !strcmp(o->name, "count"))
		b->limited = true;
	return 0;
}

static int check_inner(const struct vm_cfg *cfg, int argc, char **argv)
{
	const struct cli_cmd *cmd = cli_find(argv[0]);
	struct bounded b = { 0 };
	char name[32];
	void *inner;
	int nargs, ret;

	if (!cmd) {
		pr_err("'%s' is not a ppbench command ('ppbench --help' lists them)\n", argv[0]);
		return EXIT_USAGE;
	}
	for (int i = 0; host_only[i]; i++)
		if (!strcmp(argv[0], host_only[i])) {
			pr_err("'%s' %s: run it on the host\n", argv[0],
			       strcmp(argv[0], "vm") ? "reads result files and needs no kernel"
						     : "inside a vm is not supported");
			return EXIT_USAGE;
		}
	inner = calloc(1, cmd->cfg_size ? cmd->cfg_size : 1);
	if (!inner)
		return EXIT_FAIL;
	if (cmd->cfg_init)
		cmd->cfg_init(inner);
	cli_guest_cpus = cfg->cpus;
	snprintf(name, sizeof(name), "vm %s", cmd->name);
	log_set_command(name);
	ret = cli_parse(cmd, inner, argc, argv, &nargs);
	free(inner);
	log_set_command("vm");
	if (ret)
		return ret < 0 ? EXIT_USAGE : ret; /* --help of the inner command: nothing to run */
	for (int i = 0; until_stopped[i]; i++)
		if (!strcmp(argv[0], until_stopped[i]))
			b.has_limit = true;
	cli_walk(cmd, argc, argv, note_limit, &b);
	if (b.has_limit && !b.limited) {
		pr_err("'%s' runs until stopped: give it --duration or --count, since Ctrl-C "
		       "ends the whole guest\n",
		       argv[0]);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* --json -: the result goes to stdout, where the profile's report would land in it. */
static int json_to_stdout(void *ctx, const struct cli_opt *o, int argi, size_t at)
{
	char **argv = ctx;

	return !strcmp(o->name, "json") && !strcmp(argv[argi] + at, "-");
}

/* What --profile needs: the instruction clock, and a command with timed runs. */
static int check_profile(const struct vm_cfg *cfg, int argc, char **argv)
{
	if (cfg->clock != VM_CLOCK_ICOUNT) {
		pr_err("--profile counts under the instruction clock only: plain TCG runs each "
		       "vCPU "
		       "in a thread of its own, and the counts would race (drop --clock tcg)\n");
		return EXIT_USAGE;
	}
	if (strcmp(argv[0], "bench") && strcmp(argv[0], "recipe")) {
		pr_err("--profile profiles the timed runs of bench and recipe: '%s' has none\n",
		       argv[0]);
		return EXIT_USAGE;
	}
	if (cli_walk(cli_find(argv[0]), argc, argv, json_to_stdout, argv)) {
		pr_err("--profile with --json -: the profile's report would land in the JSON on "
		       "stdout; give the file a name\n");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int vm_check(void *c, int argc, char **argv)
{
	struct vm_cfg *cfg = c;
	int ret;

	if (check_kernel(cfg))
		return EXIT_USAGE;
	if (cfg->rate && !cfg->nic) {
		pr_err("--rate sends traffic between the guest's NICs: give --nic too\n");
		return EXIT_USAGE;
	}
	if (!cfg->cpus)
		cfg->cpus = vm_default_cpus(cfg->clock);
	ret = check_inner(cfg, argc, argv);
	return ret || !cfg->profile ? ret : check_profile(cfg, argc, argv);
}

/* The options of the inner command line that name a file (or directory) it writes. */
struct out_args {
	struct vm_out_arg *a;
	int n;
};

static int note_output(void *ctx, const struct cli_opt *o, int argi, size_t at)
{
	struct out_args *l = ctx;
	bool dir = o->kind == CLI_STRING && (o->flags & CLI_F_OUTDIR);
	struct vm_out_arg *a;

	if (o->kind != CLI_OUTPUT && !dir)
		return 0;
	a = realloc(l->a, (l->n + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	a[l->n++] = (struct vm_out_arg){ .name = o->name, .argi = argi, .at = at, .dir = dir };
	l->a = a;
	return 0;
}

/* The engine's news, to report/ (the sink's context is the progress line). */
static void show_phase(void *p, const char *phase, const char *text)
{
	vm_report_phase(p, phase, text);
}

static void show_tick(void *p)
{
	vm_report_tick(p);
}

static void show_output(void *p, int fd, const char *buf, size_t len)
{
	vm_report_output(p, fd, buf, len);
}

static void show_info(void *p, const char *text)
{
	vm_report_info(p, text);
}

static void show_error(void *p, const char *text)
{
	vm_report_error(p, text);
}

static void show_done(void *p)
{
	vm_report_done(p);
}

/* The profiles into the result file (whole, or left as it was), then shown. */
static int show_profile(void *p, const struct vm_profiles *v)
{
	int merged = 0;

	(void)p;
	if (v->doc) {
		merged = prof_result_merge(v->json, v->text, v->len, v->doc, v->p, v->n, v->c);
		if (merged < 0)
			return EXIT_FAIL;
		if (!merged)
			pr_warn("--profile: %s has no scenario or recipe the profiles name: it "
				"stays "
				"as it was\n",
				v->json);
	}
	prof_report_all(stdout, v->p, v->n, v->doc);
	return EXIT_OK;
}

static int vm_cmd_run(void *c, int argc, char **argv)
{
	struct vm_cfg *cfg = c;
	struct vm_progress p;
	const struct vm_sink sink = { .ctx = &p,
				      .phase = show_phase,
				      .tick = show_tick,
				      .output = show_output,
				      .info = show_info,
				      .error = show_error,
				      .done = show_done,
				      .profile = show_profile };
	struct out_args outs = { NULL, 0 };
	int ret;

	if (cli_walk(cli_find(argv[0]), argc, argv, note_output, &outs)) {
		free(outs.a);
		pr_err("cannot list the command's output files: %s\n", strerror(ENOMEM));
		return EXIT_FAIL;
	}
	cfg->out_args = outs.a;
	cfg->nr_out_args = outs.n;
	vm_progress_init(&p, cfg->quiet);
	ret = vm_run(cfg, argc, argv, &sink);
	free(outs.a);
	return ret;
}

const struct cli_cmd cmd_vm = {
	.name = "vm",
	.args = "-- COMMAND [ARGS...]",
	.summary = "run a ppbench command in a kernel under qemu, counting instructions",
	.description =
		"Boot a kernel under qemu (TCG) with the instruction clock, run 'ppbench COMMAND\n"
		"ARGS' inside, and return its output, its files and its exit status. Under\n"
		"qemu's -icount shift=0,sleep=off the guest's TSC and ktime advance once per\n"
		"guest instruction, so bench's cycles(tsc) and ns are instructions per element:\n"
		"the same from boot to boot to about 0.1 %, whatever else the host runs. They\n"
		"measure a path's length, not memory stalls, lock contention or another CPU.\n"
		"Kernels: Debian's (--debian, cached as the kernel matrix caches them) or one\n"
		"given by path (--kernel, --modules). The files COMMAND writes (--json F, -o F,\n"
		"--keep DIR) appear at the paths given. Ctrl-C, SIGTERM and SIGKILL leave no\n"
		"qemu and no temporary tree behind. --profile also counts, with a qemu TCG\n"
		"plugin, the instructions of each scenario's timed runs per kernel function,\n"
		"module function and BPF program: a profile per scenario in the result file\n"
		"and a report after the command's output.",
	.examples =
		"  ppbench vm -- bench --json icount.json\n"
		"  ppbench vm --debian 6.12 -- bench --scenario ring,slow\n"
		"  ppbench vm --kernel arch/x86/boot/bzImage --modules /tmp/mods/lib/modules/7.3.0 "
		"-- bench\n"
		"  ppbench vm --nic --rate 20000 -- bench --iface nic0 --scenario fast\n"
		"  ppbench vm --profile -- bench --json prof.json\n"
		"  ppbench vm --nic=virtio-net --rate 20000 -- load nic0 --count 100000\n"
		"  ppbench vm --clock tcg -- probe\n"
		"  ppbench vm --arch arm64 --debian newest -- bench\n"
		"  ppbench vm --arch arm64 --debian newest-16k -- bench\n"
		"  ppbench vm --debian linux-image-7.3.4+deb13-rt-amd64 -- bench\n",
	.opts = vm_opts,
	.min_args = 1,
	.max_args = 1 << 20,
	.cfg_size = sizeof(struct vm_cfg),
	.cfg_init = vm_init,
	.check = vm_check,
	.run = vm_cmd_run,
	.args_end_options = true,
};
