/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's side of `ppbench vm --profile`: markers to the qemu plugin
 * (include/vmprof.h) and the files the host analyses, in $PPBENCH_PROF_DIR:
 *   tags     one line per tag: "TAG KIND NAME [KEY=VALUE...]"; KIND scenario
 *            (recipe=NAME), reference (a scenario's reference recipe), recipe
 *            or module (the upstream module's test; scenario=NAME loops=N)
 *   bpf-TAG  the lines of /proc/kallsyms of [bpf] (or of the tag's module)
 *            taken while the tag's programs were loaded, and "len ADDR BYTES",
 *            the JIT length of each program and subprogram then loaded
 * Only in a guest booted with ppbench.profile=1, on x86-64 or arm64;
 * elsewhere these calls do nothing.
 */
#ifndef PPBENCH_GUEST_PROFILE_H
#define PPBENCH_GUEST_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "instr/instrument.h"

/* Whether a kernel command line has ppbench.profile=1 as a word of its own. */
bool marker_cmdline(const char *cmdline);
/* Markers on or off whatever the command line says (tests run them on the host). */
void marker_set_active(bool on);
/* OP (enum vmprof_op) with VALUE: 16 nibbles, then the op. */
void marker_send(int op, uint64_t value);
void marker_op(int op);

/*
 * Once per process: tells the plugin ktime_get, the test-run timer's
 * functions and the call graph's symbols (/proc/kallsyms), then arms it.
 */
void guest_prof_arm(void);
/* A new tag, unique in this boot (the tags file's next line); 0 when not profiling. */
uint32_t guest_prof_tag(const char *kind, const char *name, const char *extra);
/* The BPF programs loaded now into bpf-TAG, their starts told the plugin. */
void guest_prof_bpf_syms(uint32_t tag);
/* Module MODULE's symbols, as loaded now, into bpf-TAG. */
void guest_prof_mod_syms(uint32_t tag, const char *module);

/*
 * The profile's windows as an instrument: a timed syscall counts what the
 * test-run timer times, a whole window everything until its end.
 */
struct guest_prof {
	struct instrument in; /* first: the hook hands it back */
	uint32_t tag;
};
/* P, its windows those of TAG, into the hook; nothing for tag 0. */
void guest_prof_add(struct guest_prof *p, uint32_t tag);

/* A range of kernel code the call graph knows: its VMPROF_*_HI op says what it is. */
struct guest_prof_range {
	uint64_t lo, hi;
	int op;
};

/*
 * What guest_prof_arm() sends: ktime_get, [start, next symbol) of each timer
 * function, every function's start (from its padding where it has one) and
 * the ranges of the entry points and thunks.
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
 * From /proc/kallsyms text: 0, -ENOENT without ktime_get or any timer
 * function, -EPERM when the addresses are hidden (all zero), -ENOMEM.
 */
int guest_prof_parse_sites(FILE *f, struct guest_prof_sites *s);
void guest_prof_sites_free(struct guest_prof_sites *s);

#endif
