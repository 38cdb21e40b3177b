// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench(8), written from the same command tables as --help (so the two
 * cannot drift apart) plus the sections a man page has beyond the options.
 * 'ppbench help --man' prints it; the build installs build/ppbench.8.
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/manpage.h"
#include "sys/log.h"

/* troff: a leading '.' or '\'' starts a request, '\' escapes, '-' is a hyphen. */
static void roff(FILE *f, const char *s)
{
	bool bol = true;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
		bol = *s == '\n';
	}
}

static void man_options(FILE *f, const struct cli_opt *opts)
{
	for (const struct cli_opt *o = opts; o && o->name; o++) {
		char mv[96], help[512];
		const char *metavar = cli_opt_metavar(o, mv, sizeof(mv));

		fputs(".TP\n", f);
		if (o->short_name)
			fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
		fprintf(f, "\\fB\\-\\-");
		roff(f, o->name);
		fprintf(f, "\\fR");
		if (metavar) {
			fputs(" \\fI", f);
			roff(f, metavar);
			fputs("\\fR", f);
		}
		fputc('\n', f);
		cli_opt_help(o, help, sizeof(help));
		roff(f, help);
		fputs(".\n", f);
	}
}

static void man_command(FILE *f, const struct cli_cmd *c)
{
	fputs(".SS ppbench ", f);
	roff(f, c->name);
	fputs(" [OPTIONS]", f);
	if (c->args) {
		fputc(' ', f);
		roff(f, c->args);
	}
	fputs("\n.nf\n", f);
	roff(f, c->description ? c->description : c->summary);
	fputs("\n.fi\n", f);
	man_options(f, c->opts);
	fputs(".TP\n\\fB\\-v\\fR, \\fB\\-\\-verbose\\fR\nMore messages; repeat for libbpf debug "
	      "output.\n.TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nShow the command's help.\n",
	      f);
	if (c->examples) {
		fputs(".PP\nExamples:\n.nf\n", f);
		roff(f, c->examples);
		fputs(".fi\n", f);
	}
}

static const char *const man_head =
	".TH PPBENCH 8 \"2026\" \"ppbench " PPBENCH_VERSION "\" \"System Administration\"\n"
	".SH NAME\nppbench \\- page_pool recycling path costs and path proof, from XDP/BPF\n"
	".SH SYNOPSIS\n\\fBppbench\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGS\\fR]\n"
	".br\n\\fBppbench\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR\n.br\n"
	"\\fBppbench \\-\\-version\\fR\n"
	".SH DESCRIPTION\nppbench measures what each page_pool recycling path costs in TSC "
	"cycles and ns per element \\(em the \\fBfast\\fR path (the per-pool alloc cache and "
	"direct recycling in NAPI context), the \\fBptr_ring\\fR path (returns through the "
	"pool's ring, also from another CPU) and the \\fBslow\\fR path (the page allocator) "
	"\\(em and proves with counters which path every element took. It needs no kernel "
	"module: XDP programs drive frames through the kernel's page_pool (live-frames "
	"BPF_PROG_RUN, veth, cpumap and devmap redirects, real NICs) and BPF programs count. "
	"With no interface, commands run on a private veth pair in two network namespaces "
	"that ppbench creates; they are held only by its file descriptors, so the kernel "
	"removes them when ppbench exits, even by SIGKILL.\n"
	".SH COMMANDS\n";

static const char *const man_tail =
	".SH PATH ACCOUNTING\nWhere the kernel allows fentry programs, fentry/fexit on the "
	"page_pool alloc and put functions classify every call exactly. Elsewhere the "
	"page_pool_state_hold and page_pool_state_release tracepoints count slow allocations "
	"and releases exactly, and ring and cache traffic is derived from samples of each "
	"pool's state taken by ppbench's XDP programs; counts that cannot be known are shown as "
	"n/a (null in JSON), never as 0. See README.md for what each backend counts.\n"
	".SH ENVIRONMENT\n.TP\n\\fBPPBENCH_BTF\\fR\nKernel BTF to use instead of "
	"/sys/kernel/btf/vmlinux.\n.TP\n\\fBPPBENCH_BPFFS\\fR\nWhere bpffs is expected "
	"(default /sys/fs/bpf); only \\fBload \\-\\-multiprog\\fR needs it.\n"
	".SH EXIT STATUS\n0 on success, 1 on a runtime error, 2 on a usage error (bad option, "
	"argument or input file), 3 when \\fBcompare \\-\\-fail\\-above\\fR finds a "
	"significant regression or \\fBtrend \\-\\-fail\\-on\\-regression\\fR a change point "
	"that is one. Errors are one line on stderr naming the problem.\n"
	".SH NOTES\nCycles are TSC cycles, as in bench_page_pool_simple's cycles(tsc): "
	"reference cycles at the TSC frequency, not core cycles. In virtual machines, with "
	"frequency scaling and with speculative-execution mitigations the figures change; "
	"results record the kernel, CPU, TSC frequency, clock source, mitigations and the "
	"relevant kernel configuration so that \\fBcompare\\fR can tell.\n"
	".SH SEE ALSO\n\\fBbpftool\\fR(8), \\fBxdp\\-bench\\fR(8), \\fBethtool\\fR(8), "
	"\\fBip\\-link\\fR(8)\n";

void cli_print_man(FILE *f)
{
	fputs(man_head, f);
	for (int i = 0; cli_commands[i]; i++)
		man_command(f, cli_commands[i]);
	fputs(man_tail, f);
}
