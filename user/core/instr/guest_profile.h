/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's side of `ppbench vm --profile`: what ppbench tells the qemu
 * plugin (include/vmprof.h, through the markers below) and the files it leaves for
 * the host's analysis in $PPBENCH_PROF_DIR:
 *   tags     one line per tag: "TAG KIND NAME [KEY=VALUE...]"; KIND scenario
 *            (NAME ring, fast, ...; recipe=NAME), reference (the same for a
 *            scenario's reference recipe, whose figure bench subtracts),
 *            recipe (NAME: ppbench recipe NAME), module (NAME: the upstream
 *            module's test, no-softirq-page_pool01; scenario=NAME loops=N)
 *   bpf-TAG  the [bpf] lines of /proc/kallsyms ("ADDR t NAME [bpf]") taken
 *            while the tag's programs were loaded, and "len ADDR BYTES", the
 *            JIT length of each program (and subprogram) then loaded; for a
 *            module's window, the module's lines ("ADDR t NAME [MODULE]")
 *            taken while it was loaded (each load may place it elsewhere)
 * All of it happens only in a guest booted with ppbench.profile=1; elsewhere
 * these calls do nothing and cost a test of a flag.
 */
#ifndef PPBENCH_GUEST_PROFILE_H
#define PPBENCH_GUEST_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "instr/instrument.h"

/*
 * The markers of `ppbench vm --profile` (include/vmprof.h): instructions
 * that do nothing on the CPU and tell the qemu plugin on the host what the
 * guest is doing. They execute only in a guest booted with ppbench.profile=1
 * (/proc/cmdline, read once); everywhere else, and on architectures other
 * than x86-64 and arm64, these calls do nothing.
 * marker_active(): whether this kernel was booted for a profile (and markers
 * exist for this CPU).
 */
bool marker_active(void);
/* Whether a kernel command line has ppbench.profile=1 as a word of its own. */
bool marker_cmdline(const char *cmdline);
/* Markers on or off whatever the command line says (tests run them on the host). */
void marker_set_active(bool on);
/* OP (enum vmprof_op) with VALUE: 16 nibbles, then the op. */
void marker_send(int op, uint64_t value);
/* OP alone (its value is 0). */
void marker_op(int op);

/*
 * Once per process: tells the plugin ktime_get's address, the functions of
 * the test-run timer and the call graph's symbols (from /proc/kallsyms),
 * then arms it (the plugin retranslates what it translated before). A
 * kernel whose symbols it cannot read gets a warning, and its timer windows
 * count nothing.
 */
void guest_prof_arm(void);

/* A new tag, unique in this boot (the tags file's next line); 0 when not profiling. */
uint32_t guest_prof_tag(const char *kind, const char *name, const char *extra);
/*
 * The BPF programs loaded now: their symbols and JIT lengths, added to
 * bpf-TAG, and their starts told the plugin in place of the last window's.
 */
void guest_prof_bpf_syms(uint32_t tag);
/* Module MODULE's symbols, as loaded now, added to bpf-TAG. */
void guest_prof_mod_syms(uint32_t tag, const char *module);

/*
 * The profile's windows as an instrument (instr/instrument.h): each timed
 * syscall counts only what the test-run timer times (between its reads of
 * ktime_get), a whole window everything until its end, which says how many
 * elements the window processed. The hook calls them outside the caller's
 * own clock reads.
 */
struct guest_prof {
	struct instrument in; /* first: the hook hands it back */
	uint32_t tag;
};
/* P, making the windows that follow windows of TAG, into the hook; nothing for tag 0. */
void guest_prof_add(struct guest_prof *p, uint32_t tag);

/* A range of kernel code the call graph knows: its VMPROF_*_HI op says what it is. */
struct guest_prof_range {
	uint64_t lo, hi;
	int op;
};

/*
 * What guest_prof_arm() sends: ktime_get, [start, next symbol) of each timer
 * function, and for the call graph every function's start (the kernel's and
 * its modules', from the padding where a function has one) and the ranges
 * of its entry points and thunks.
 */
#define GUEST_PROF_MAX_SITES 16
struct guest_prof_sites {
	uint64_t ktime;
	int n;
	uint64_t lo[GUEST_PROF_MAX_SITES], hi[GUEST_PROF_MAX_SITES];
	uint64_t *fn; /* sorted */
	size_t nfn;
	struct guest_prof_range *r;
	size_t nr;
};
/*
 * From /proc/kallsyms text (the timer in the kernel's own symbols): 0,
 * -ENOENT without ktime_get or any timer function, -EPERM when the
 * addresses are hidden (all zero), -ENOMEM. S is freed by guest_prof_sites_free().
 */
int guest_prof_parse_sites(FILE *f, struct guest_prof_sites *s);
void guest_prof_sites_free(struct guest_prof_sites *s);

#endif
