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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include "cli/cli.h"
#include "vm/vm.h"
#include "compare/compare.h"
#include "vm/vm_run.h"
#include "vm/vm_report.h"
#include "vm/prof_report.h"
#include "sys/tsc_clock.h"
#include "sys/log.h"
#include "sys/util.h"

/* a number's macro as a string, for the help text */
#define STR_(x) #x
#define STR(x) STR_(x)

enum { OPT_LIMIT = 1 };

/*
 * vm's options: the guest's (VM), and for two kernels side by side (A/B)
 * the other kernel and the gate compare judges the two results by.
 */
struct vm_cmd_cfg {
	struct vm_cfg vm; /* B, the kernel under test: --debian or --kernel */
	/* A, the baseline (compare's old side): --against-debian or --against-kernel */
	const char *ag_debian, *ag_kernel, *ag_modules;
	struct cmp_gate g; /* and with --bisect alone, how one guest's end is read */
};

#define V(m) CLI_MEMBER(struct vm_cmd_cfg, vm.m)
#define VC(m) CLI_MEMBER(struct vm_cmd_cfg, m)

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
	  "the guest's architecture: x86-64 (qemu-system-x86_64) or arm64 (qemu-system-aarch64 -M "
	  "virt, with a static arm64 ppbench; its Debian kernels are linux-image-*-arm64) (default "
	  "x86-64)",
	  .kind = CLI_ENUM, V(arch), .words = arches },
	{ "debian", 'D', "SPEC",
	  "boot a Debian kernel: 6.1, 6.12, newest (trixie-backports' linux-image-amd64), "
	  "newest-rt or newest-cloud (its PREEMPT_RT and cloud flavours; arm64 also newest-16k, "
	  "16K pages) or a linux-image-* package of bookworm or trixie-backports, through the "
	  "kernel matrix's private apt and cache (default newest)",
	  .kind = CLI_STRING, V(debian) },
	{ "kernel", 'k', "IMAGE",
	  "boot this kernel image instead (x86-64: bzImage or vmlinuz; arm64: Image or Image.gz)",
	  .kind = CLI_STRING, V(kernel) },
	{ "modules", 'M', "DIR",
	  "--kernel's modules: a lib/modules/RELEASE tree (make modules_install) or the kernel's "
	  "build tree; veth, pktgen and vmxnet3 are loaded from it",
	  .kind = CLI_STRING, V(modules) },
	{ "clock", 'C', NULL,
	  "icount: qemu's instruction clock, one TSC tick per guest instruction (figures are "
	  "instructions per element); tcg: plain emulation, whose timings mean nothing (default "
	  "icount)",
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
	  "with --nic: pktgen sends 60-byte UDP frames from peer0 to nic0 at PPS frames/s (of "
	  "guest time) while COMMAND runs (default: no traffic)",
	  .kind = CLI_UINT, V(rate), .min = 1, .max = 10000000 },
	{ "stall", 0, "SECONDS",
	  "end a guest that printed nothing for this long while its command runs, or hung "
	  "(default " STR(VM_STALL_DEFAULT_S) "; a boot, silent until init runs, has at least "
					      "the default)",
	  .kind = CLI_SECONDS, V(stall), .dmin = 10, .dmax = 86400 },
	{ "profile", 0, NULL,
	  "count the guest instructions each scenario's timed runs execute, per kernel function, "
	  "module function and BPF program (a qemu TCG plugin): bench and recipe; a profile per "
	  "scenario in the result file, its path figure, a report after the command's output; "
	  "load: all the guest runs while its program is attached, per packet",
	  .kind = CLI_FLAG, V(profile) },
	{ "debug-info", 0, "FILE|debian",
	  "with --profile, the profiles' source lines: the kernel's vmlinux with DWARF (FILE), or "
	  "Debian's linux-image-*-dbg package of a --debian kernel, downloaded once into the "
	  "kernel cache, of which only its vmlinux is kept (default: --kernel's build tree's "
	  "vmlinux, or a Debian kernel's in the cache)",
	  .kind = CLI_STRING, V(debug_info) },
	{ "against-debian", 0, "SPEC",
	  "boot a second kernel beside the first, a Debian one (as --debian), run the same bench "
	  "in both and compare: this one is the baseline (A, compare's old side)",
	  .kind = CLI_STRING, VC(ag_debian) },
	{ "against-kernel", 0, "IMAGE",
	  "the same with a kernel image as the baseline (as --kernel)", .kind = CLI_STRING,
	  VC(ag_kernel) },
	{ "against-modules", 0, "DIR", "--against-kernel's modules (as --modules)",
	  .kind = CLI_STRING, VC(ag_modules) },
	CMP_GATE_OPTS(struct vm_cmd_cfg, g, OPT_LIMIT),
	CMP_OPT_BISECT(struct vm_cmd_cfg, g,
		       "exit as 'git bisect run' reads it: 125 when the kernel under test does not "
		       "boot or its command fails in it, 128 when this machine fails, the command "
		       "line is wrong or (with --against-*) the baseline does not run; else 0, or "
		       "with --against-* compare --bisect's 0 or 1"),
	{ "quiet", 'q', NULL, "no progress line", .kind = CLI_FLAG, V(quiet) },
	{ NULL },
};

static int vm_opt(void *c, int key, const char *arg)
{
	(void)key;
	return cmp_gate_limit(&((struct vm_cmd_cfg *)c)->g, arg);
}

static void vm_init(void *c)
{
	struct vm_cmd_cfg *cfg = c;

	vm_cfg_init(&cfg->vm);
	cmp_gate_init(&cfg->g);
}

/* Commands that run until Ctrl-C unless --duration or --count ends them. */
static const char *const until_stopped[] = { "watch", "load", "gen", NULL };

/* Commands that read files and need no kernel of their own. */
static const char *const host_only[] = { "compare", "plot", "trend", "export", "vm", NULL };

/*
 * What a kernel image file is, from its first bytes: the boot protocols
 * qemu's -kernel takes. The x86 boot protocol puts "HdrS" at 0x202 of a
 * bzImage; an arm64 Image has "ARM\x64" at 0x38; an EFI zboot image (arm64's
 * vmlinuz since CONFIG_EFI_ZBOOT) is a PE file with "zimg" at 4 and its
 * machine (0xaa64) in the PE header; Debian's older arm64 vmlinuz is a gzip
 * of an Image (qemu unpacks it), an ELF vmlinux names its machine.
 */
enum kernel_image_kind {
	KIMAGE_UNKNOWN,
	KIMAGE_X86_64, /* bzImage, or an x86-64 ELF vmlinux */
	KIMAGE_ARM64,  /* Image, EFI zboot, or an aarch64 ELF vmlinux */
};

#define ELF_MACHINE_X86_64 62
#define ELF_MACHINE_AARCH64 183
#define PE_MACHINE_ARM64 0xaa64

static uint16_t le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static enum kernel_image_kind elf_kind(const unsigned char *b, size_t len)
{
	uint16_t m;

	if (len < 20 || b[5] != 1) /* little-endian only */
		return KIMAGE_UNKNOWN;
	m = le16(b + 18);
	if (m == ELF_MACHINE_X86_64)
		return KIMAGE_X86_64;
	return m == ELF_MACHINE_AARCH64 ? KIMAGE_ARM64 : KIMAGE_UNKNOWN;
}

/* A PE image: its machine, at the COFF header that 0x3c points to. */
static enum kernel_image_kind pe_kind(const unsigned char *b, size_t len)
{
	uint32_t pe;

	if (len < 0x40)
		return KIMAGE_UNKNOWN;
	pe = b[0x3c] | b[0x3d] << 8 | b[0x3e] << 16 | (uint32_t)b[0x3f] << 24;
	if (pe > len - 6 || memcmp(b + pe, "PE\0\0", 4))
		return KIMAGE_UNKNOWN;
	return le16(b + pe + 4) == PE_MACHINE_ARM64 ? KIMAGE_ARM64 : KIMAGE_UNKNOWN;
}

/* The kind of the image at PATH (a gzip-compressed one's: inside), or -errno. */
static int image_kind(const char *path)
{
	unsigned char b[4096];
	gzFile gz = gzopen(path, "rbe"); /* (reads a file that is no gzip as it is) */
	int len;

	if (!gz)
		return errno ? -errno : -ENOMEM;
	len = gzread(gz, b, sizeof(b));
	gzclose(gz);
	if (len >= 4 && !memcmp(b, "\177ELF", 4))
		return elf_kind(b, len);
	if (len >= 0x3c && !memcmp(b + 0x38, "ARM\x64", 4))
		return KIMAGE_ARM64;
	if (len >= 0x206 && !memcmp(b + 0x202, "HdrS", 4) && b[0x1fe] == 0x55 && b[0x1ff] == 0xaa)
		return KIMAGE_X86_64;
	if (len >= 8 && b[0] == 'M' && b[1] == 'Z')
		return pe_kind(b, len);
	return KIMAGE_UNKNOWN;
}

static int check_kernel_image(const char *pfx, const char *path, int arch)
{
	int k = image_kind(path);
	const char *name = vm_arch_name(k == KIMAGE_ARM64 ? VM_ARCH_ARM64 : VM_ARCH_X86_64);

	if (k < 0) {
		pr_err("--%skernel: cannot open '%s': %s\n", pfx, path, strerror(-k));
		return k;
	}
	if (k == (arch == VM_ARCH_ARM64 ? KIMAGE_ARM64 : KIMAGE_X86_64))
		return 0;
	if (k != KIMAGE_UNKNOWN)
		pr_err("--%skernel: '%s' is an %s kernel image, not an %s one (--arch %s "
		       "boots it)\n",
		       pfx, path, name, vm_arch_name(arch), name);
	else
		pr_err("--%skernel: '%s' is not a kernel image (no bzImage, arm64 Image "
		       "or ELF header)\n",
		       pfx, path);
	return -EINVAL;
}

/* One kernel's options, named with PFX ("" or "against-"). */
static int check_kernel(const char *pfx, const char **debian, const char *kernel,
			const char *modules, int arch)
{
	if (kernel && *debian) {
		pr_err("--%skernel and --%sdebian both name the kernel: give one\n", pfx, pfx);
		return -EINVAL;
	}
	if (modules && !kernel) {
		pr_err("--%smodules goes with --%skernel (a --%sdebian kernel brings its own)\n",
		       pfx, pfx, pfx);
		return -EINVAL;
	}
	if (modules && access(modules, R_OK | X_OK)) {
		pr_err("--%smodules: cannot read the directory '%s': %s\n", pfx, modules,
		       strerror(errno));
		return -EINVAL;
	}
	if (!kernel && !*debian)
		*debian = "newest";
	return kernel ? check_kernel_image(pfx, kernel, arch) : 0;
}

/* An inner command that runs until stopped needs a limit: in a guest, Ctrl-C ends the guest. */
static int has_limit(void *ctx, const struct cli_opt *o, int argi, size_t at)
{
	(void)ctx;
	(void)argi;
	(void)at;
	return !strcmp(o->name, "duration") || !strcmp(o->name, "count");
}

static int check_inner(const struct vm_cfg *cfg, int argc, char **argv)
{
	const struct cli_cmd *cmd = cli_find(argv[0]);
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
		if (!strcmp(argv[0], until_stopped[i]) &&
		    !cli_walk(cmd, argc, argv, has_limit, NULL)) {
			pr_err("'%s' runs until stopped: give it --duration or --count, since "
			       "Ctrl-C ends the whole guest\n",
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
		       "vCPU in a thread of its own, and the counts would race (drop --clock "
		       "tcg)\n");
		return EXIT_USAGE;
	}
	if (strcmp(argv[0], "bench") && strcmp(argv[0], "recipe") && strcmp(argv[0], "load")) {
		pr_err("--profile profiles the timed runs of bench and recipe, and load's attached "
		       "run: '%s' has none\n",
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

static bool is_ab(const struct vm_cmd_cfg *cfg)
{
	return cfg->ag_debian || cfg->ag_kernel || cfg->ag_modules;
}

/* --debug-info: with --profile, a vmlinux with DWARF, or "debian" where a Debian kernel boots. */
static int check_debug_info(const struct vm_cmd_cfg *ccfg)
{
	const struct vm_cfg *cfg = &ccfg->vm;
	struct prof_dbg *d;
	char err[600];

	if (!cfg->debug_info)
		return EXIT_OK;
	if (!cfg->profile) {
		pr_err("--debug-info gives --profile's source lines: give --profile too\n");
		return EXIT_USAGE;
	}
	if (!strcmp(cfg->debug_info, "debian")) {
		if (cfg->kernel && !ccfg->ag_debian) {
			pr_err("--debug-info debian fetches a Debian kernel's, and --kernel boots "
			       "your own: its build tree's vmlinux is used, or give it as "
			       "--debug-info FILE\n");
			return EXIT_USAGE;
		}
		return EXIT_OK;
	}
	if (prof_dbg_open(cfg->debug_info, &d, err, sizeof(err))) {
		pr_err("--debug-info %s\n", err);
		return EXIT_USAGE;
	}
	prof_dbg_close(d);
	return EXIT_OK;
}

/*
 * What compare will refuse of the two results, checked before either guest
 * boots as compare's one line: what --fail-above needs, a noise profile that
 * is none, or one of another clock than the guests' instructions.
 */
static int check_compare_gate(const struct vm_cmd_cfg *cfg)
{
	const struct inst_clock icount = { .icount = true };
	const struct result guests = {
		.path = "vm's guests",
		.host.clock = { .kind = inst_clock_kind(&icount),
				.unit = inst_clock_unit(&icount) },
	};
	struct verdict v;
	int ret;

	log_set_command("vm compare");
	ret = cmp_gate_check(&cfg->g, &guests, &v);
	log_set_command("vm");
	return ret ? EXIT_USAGE : EXIT_OK;
}

/* The inner command line's --json value (the last one), or NULL. */
static int find_json(void *ctx, const struct cli_opt *o, int argi, size_t at)
{
	const char **val = ctx;

	if (!strcmp(o->name, "json"))
		*val = val[1] ? ((char **)val[1])[argi] + at : NULL;
	return 0;
}

/* What two kernels side by side need, before any boot. */
static int check_ab(struct vm_cmd_cfg *cfg, int argc, char **argv)
{
	const char *json[2] = { NULL, (const char *)argv };
	bool gate = cfg->g.gate || cfg->g.noise || cfg->g.nlimits;

	if (!is_ab(cfg)) {
		if (!gate)
			return EXIT_OK;
		pr_err("--fail-above, --noise and --limit compare two kernels: give the baseline "
		       "with --against-debian or --against-kernel\n");
		return EXIT_USAGE;
	}
	if (check_kernel("against-", &cfg->ag_debian, cfg->ag_kernel, cfg->ag_modules,
			 cfg->vm.arch))
		return EXIT_USAGE;
	if (strcmp(argv[0], "bench")) {
		pr_err("--against-* compares two kernels' bench results: the command is '%s', not "
		       "bench\n",
		       argv[0]);
		return EXIT_USAGE;
	}
	cli_walk(cli_find(argv[0]), argc, argv, find_json, json);
	if (json[0] && !strcmp(json[0], "-")) {
		pr_err("--against-* with --json -: two results cannot both go to stdout; give the "
		       "file a name (F.json gives F.a.json and F.b.json)\n");
		return EXIT_USAGE;
	}
	if (cfg->vm.clock != VM_CLOCK_ICOUNT) {
		pr_err("--against-* compares figures of the instruction clock: plain TCG's timings "
		       "mean nothing (drop --clock tcg)\n");
		return EXIT_USAGE;
	}
	if (cfg->g.bisect && !cfg->g.gate && !cfg->g.nlimits) {
		pr_err("--bisect with --against-* needs a gate to decide with: --fail-above PCT or "
		       "--limit\n");
		return EXIT_USAGE;
	}
	return check_compare_gate(cfg);
}

static bool is_input(const struct cli_opt *o)
{
	return o->kind == CLI_STRING && (o->flags & CLI_F_INFILE);
}

/* A file the inner command reads must be a readable regular file here, before any boot. */
static int check_input(void *ctx, const struct cli_opt *o, int argi, size_t at)
{
	const char *val = ((char **)ctx)[argi] + at;
	struct stat st;
	int fd;

	if (!is_input(o))
		return 0;
	if (stat(val, &st))
		goto err;
	if (!S_ISREG(st.st_mode)) {
		pr_err("--%s %s: %s\n", o->name, val,
		       S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file");
		return -EINVAL;
	}
	/* (scripts/vm/run's inputs file holds one path a line) */
	if (strchr(val, '\n')) {
		pr_err("--%s: a file name with a newline cannot go into the guest\n", o->name);
		return -EINVAL;
	}
	fd = open(val, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto err;
	close(fd);
	return 0;
err:
	pr_err("--%s %s: %s\n", o->name, val, strerror(errno));
	return -EINVAL;
}

static int vm_check(void *c, int argc, char **argv)
{
	struct vm_cmd_cfg *ccfg = c;
	struct vm_cfg *cfg = &ccfg->vm;
	int ret;

	if (check_kernel("", &cfg->debian, cfg->kernel, cfg->modules, cfg->arch))
		return EXIT_USAGE;
	if (cfg->rate && !cfg->nic) {
		pr_err("--rate sends traffic between the guest's NICs: give --nic too\n");
		return EXIT_USAGE;
	}
	if (!cfg->cpus)
		cfg->cpus = vm_default_cpus(cfg->clock);
	ret = check_inner(cfg, argc, argv);
	if (!ret && cli_walk(cli_find(argv[0]), argc, argv, check_input, argv))
		ret = EXIT_USAGE;
	ret = ret ?: check_ab(ccfg, argc, argv);
	ret = ret ?: check_debug_info(ccfg);
	return ret || !cfg->profile ? ret : check_profile(cfg, argc, argv);
}

/* An option of the inner command line that names a file it writes (or a directory), or reads. */
static int note_file(void *ctx, const struct cli_opt *o, int argi, size_t at)
{
	struct vm_cfg *cfg = ctx;
	bool dir = o->kind == CLI_STRING && (o->flags & CLI_F_OUTDIR);
	struct vm_out_arg *out;
	struct vm_in_arg *in;

	if (o->kind == CLI_OUTPUT || dir) {
		out = realloc((void *)cfg->out_args, (cfg->nr_out_args + 1) * sizeof(*out));
		if (!out)
			return -ENOMEM;
		out[cfg->nr_out_args++] = (struct vm_out_arg){ o->name, argi, at, dir };
		cfg->out_args = out;
	} else if (is_input(o)) {
		in = realloc((void *)cfg->in_args, (cfg->nr_in_args + 1) * sizeof(*in));
		if (!in)
			return -ENOMEM;
		in[cfg->nr_in_args++] = (struct vm_in_arg){ o->name, argi, at };
		cfg->in_args = in;
	}
	return 0;
}

static void free_files(struct vm_cfg *cfg)
{
	free((void *)cfg->out_args);
	free((void *)cfg->in_args);
	cfg->out_args = NULL;
	cfg->in_args = NULL;
	cfg->nr_out_args = cfg->nr_in_args = 0;
}

/* The options of ARGV's command that write files and that read them, into CFG (free_files()). */
static int list_files(struct vm_cfg *cfg, int argc, char **argv)
{
	if (!cli_walk(cli_find(argv[0]), argc, argv, note_file, cfg))
		return 0;
	free_files(cfg);
	pr_err("cannot list the command's files: %s\n", strerror(ENOMEM));
	return -ENOMEM;
}

/* A failure of vm itself, on this machine: with --bisect, git bisect run stops. */
static int vm_failed(const struct vm_cmd_cfg *cfg)
{
	return cfg->g.bisect ? BISECT_STOP : EXIT_FAIL;
}

int vm_guest(struct vm_cfg *cfg, int argc, char **argv, struct vm_end *end)
{
	struct vm_progress p;
	struct vm_sink sink = vm_report_sink(&p);

	if (list_files(cfg, argc, argv)) {
		*end = (struct vm_end){ .rc = EXIT_FAIL, .host = true };
		return EXIT_FAIL;
	}
	vm_progress_init(&p, cfg->quiet);
	vm_run(cfg, argc, argv, &sink, end);
	free_files(cfg);
	return end->rc;
}

char *ab_tagged_path(const char *path, const char *tag)
{
	const char *base = strrchr(path, '/'), *dot;
	char *out;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		dot = path + strlen(path);
	if (asprintf(&out, "%.*s.%s%s", (int)(dot - path), path, tag, dot) < 0)
		return NULL;
	return out;
}

int ab_status(bool bisect, const struct ab_end *a, const struct ab_end *b)
{
	const struct ab_end *cause;
	int rc;

	if (a->have && b->have)
		return -1;
	/* b failed first, or alone, or both failed on their own: b's */
	cause = !b->have && !b->stopped ? b : a;
	rc = cause->rc ? cause->rc : 1;
	/* (a baseline that cannot run fails every step alike) */
	return bisect ? bisect_guest_status(rc, cause->host || cause == a) : rc;
}

/* The default result file of A/B when bench has no --json: ab.json (ab.a.json, ab.b.json). */
#define AB_JSON "ab.json"

/*
 * ARGV for one side of A/B (TAG "a" or "b"): each output path tagged, the
 * result file's host path into *JSON. The strings live as long as the process.
 */
static char **side_argv(const struct vm_cfg *cfg, int argc, char **argv, const char *tag,
			const char **json)
{
	char **v = calloc(argc + 1, sizeof(*v));

	if (!v)
		return NULL;
	memcpy(v, argv, argc * sizeof(*v));
	for (int i = 0; i < cfg->nr_out_args; i++) {
		const struct vm_out_arg *o = &cfg->out_args[i];
		char *word, *val = ab_tagged_path(argv[o->argi] + o->at, tag);

		if (!val || asprintf(&word, "%.*s%s", (int)o->at, argv[o->argi], val) < 0)
			return NULL;
		v[o->argi] = word;
		if (!strcmp(o->name, "json"))
			*json = val;
	}
	return v;
}

/* Whether FILE was written since T0 (a file of an earlier run must not stand for a guest that wrote
 * none). */
static bool written_since(const char *file, const struct timespec *t0)
{
	struct stat st;

	return file && !stat(file, &st) &&
	       (st.st_mtim.tv_sec > t0->tv_sec ||
		(st.st_mtim.tv_sec == t0->tv_sec && st.st_mtim.tv_nsec >= t0->tv_nsec));
}

/* The guests' ends (ab_status()), with the one-line reason of a missing result. */
static int ab_end(const struct vm_cmd_cfg *cfg, const struct vm_end end[2], const char *json[2],
		  const struct timespec *t0)
{
	struct ab_end a = { end[0].rc, written_since(json[0], t0), end[0].stopped, end[0].host },
		      b = { end[1].rc, written_since(json[1], t0), end[1].stopped, end[1].host };
	bool blame_b = !b.have && !b.stopped;

	if (a.have && b.have)
		return -1;
	pr_err("%s gave no result (exit %d): nothing to compare\n",
	       blame_b ? "b, the kernel under test," : "a, the baseline,", blame_b ? b.rc : a.rc);
	return ab_status(cfg->g.bisect, &a, &b);
}

/* Two guests side by side: A the baseline, B the kernel under test; then compare judges them. */
static int run_ab(struct vm_cmd_cfg *ccfg, int argc, char **argv)
{
	struct vm_cfg cfg[2];
	const struct vm_cfg *cp[2] = { &cfg[0], &cfg[1] };
	struct vm_progress p[2];
	struct vm_sink sink[2] = { vm_report_sink(&p[0]), vm_report_sink(&p[1]) };
	const struct vm_sink *sp[2] = { &sink[0], &sink[1] };
	const char *json[2] = { NULL, NULL }, *has[2] = { NULL, (const char *)argv };
	char **v[2], **full = argv;
	struct verdict verdict;
	struct timespec t0;
	struct vm_end end[2];
	int ret;

	/* no --json: the results go to ab.a.json and ab.b.json */
	cli_walk(cli_find(argv[0]), argc, argv, find_json, has);
	if (!has[0]) {
		full = calloc(argc + 3, sizeof(*full));
		if (!full)
			return vm_failed(ccfg);
		memcpy(full, argv, argc * sizeof(*full));
		full[argc++] = "--json";
		full[argc++] = AB_JSON;
	}
	if (list_files(&ccfg->vm, argc, full))
		return vm_failed(ccfg);
	/* (both guests write the same outputs, tagged below, and read the same inputs) */
	cfg[0] = cfg[1] = ccfg->vm;
	cfg[0].debian = ccfg->ag_debian;
	cfg[0].kernel = ccfg->ag_kernel;
	cfg[0].modules = ccfg->ag_modules;
	/* (--debug-info FILE is the kernel under test's: the baseline's own is looked for) */
	if (cfg[0].debug_info && strcmp(cfg[0].debug_info, "debian"))
		cfg[0].debug_info = NULL;
	v[0] = side_argv(&cfg[0], argc, full, "a", &json[0]);
	v[1] = side_argv(&cfg[1], argc, full, "b", &json[1]);
	if (!v[0] || !v[1]) {
		pr_err("out of memory\n");
		return vm_failed(ccfg);
	}
	clock_gettime(CLOCK_REALTIME, &t0);
	vm_progress_pair(&p[0], &p[1], ccfg->vm.quiet, "a", "b");
	ret = vm_run_many(2, cp, argc, v, sp, end);
	free_files(&ccfg->vm);
	if (ret)
		return ret < 128 && ccfg->g.bisect ? BISECT_STOP : ret;
	ret = ab_end(ccfg, end, json, &t0);
	if (ret >= 0)
		return ret;
	log_set_command("compare");
	compare_judge(&ccfg->g, json[0], json[1], &verdict);
	ret = compare_status(&ccfg->g, &verdict);
	log_set_command("vm");
	return ret;
}

static int vm_cmd_run(void *c, int argc, char **argv)
{
	struct vm_cmd_cfg *cfg = c;
	struct vm_end end;
	int rc;

	if (is_ab(cfg))
		return run_ab(cfg, argc, argv);
	rc = vm_guest(&cfg->vm, argc, argv, &end);
	/* (with --bisect, one guest's end as git bisect run reads it) */
	return cfg->g.bisect ? bisect_guest_status(rc, end.host) : rc;
}

/* With --bisect (before "--"), a mistake on vm's command line stops the bisection. */
static bool vm_for_bisect(int argc, char **argv)
{
	return cli_names_opt(argc, argv, "bisect");
}

/* The figures ppbench-vm(8) states (@{NAME}), from the constants the report uses. */
static int vm_figures(struct cli_fig *f)
{
	const struct cli_fig v[] = {
		{ "prof_list_pct", PROF_LIST_PCT },
		{ "prof_gap_min", PROF_GAP_MIN },
	};

	return CLI_FIGURES(f, v);
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
		"the same from boot to boot, whatever else the host runs. They\n"
		"measure a path's length, not memory stalls, lock contention or another CPU.\n"
		"Kernels: Debian's (--debian, cached as the kernel matrix caches them) or one\n"
		"given by path (--kernel, --modules). The files COMMAND writes (--json F, -o F,\n"
		"--keep DIR) appear at the paths given. Ctrl-C, SIGTERM and SIGKILL leave no\n"
		"qemu and no temporary tree behind. --profile also counts, with a qemu TCG\n"
		"plugin, the instructions of each scenario's timed runs per kernel function,\n"
		"module function and BPF program: a profile per scenario in the result file\n"
		"and a report after the command's output (load: one profile of everything the\n"
		"guest ran while its program was attached, per packet, traffic's sender\n"
		"included). --against-debian or --against-kernel\n"
		"boots a baseline beside it, runs the same bench in both (F.json gives F.a.json\n"
		"and F.b.json) and prints compare's table of the two, gated by --fail-above,\n"
		"--limit, --bisect.",
	.examples = "  ppbench vm -- bench --json icount.json\n"
		    "  ppbench vm --debian 6.12 -- bench --scenario ring,slow\n"
		    "  ppbench vm --kernel arch/x86/boot/bzImage --modules "
		    "/tmp/mods/lib/modules/7.3.0 -- bench\n"
		    "  ppbench vm --nic --rate 20000 -- bench --iface nic0 --scenario fast\n"
		    "  ppbench vm --profile -- bench --json prof.json\n"
		    "  ppbench vm --profile -- bench --upstream-module bench_page_pool.ko\n"
		    "  ppbench vm --debian newest --against-debian 6.12 -- bench --json r.json\n"
		    "  ppbench vm --kernel bzImage --against-debian newest --profile -- bench\n"
		    "  ppbench vm --nic=virtio-net --rate 20000 -- load nic0 --count 100000\n"
		    "  ppbench vm --clock tcg -- probe\n"
		    "  ppbench vm --arch arm64 --debian newest -- bench\n"
		    "  ppbench vm --arch arm64 --debian newest-16k -- bench\n"
		    "  ppbench vm --debian linux-image-7.3.4+deb13-rt-amd64 -- bench\n",
	.figures = vm_figures,
	.opts = vm_opts,
	.min_args = 1,
	.max_args = 1 << 20,
	.cfg_size = sizeof(struct vm_cmd_cfg),
	.cfg_init = vm_init,
	.opt = vm_opt,
	.check = vm_check,
	.run = vm_cmd_run,
	.for_bisect = vm_for_bisect,
	.args_end_options = true,
};
