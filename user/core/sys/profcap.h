/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's side of `ppbench vm --profile`: what ppbench tells the qemu
 * plugin (include/vmprof.h, through sys/vmmark.h) and the files it leaves for
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
#ifndef PPBENCH_PROFCAP_H
#define PPBENCH_PROFCAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

bool profcap_active(void);

/*
 * Once per process: tells the plugin ktime_get's address, the functions of
 * the test-run timer and the call graph's symbols (from /proc/kallsyms),
 * then arms it (the plugin retranslates what it translated before). A
 * kernel whose symbols it cannot read gets a warning, and its timer windows
 * count nothing.
 */
void profcap_arm(void);

/* A new tag, unique in this boot (the tags file's next line); 0 when not profiling. */
uint32_t profcap_tag(const char *kind, const char *name, const char *extra);
/*
 * The BPF programs loaded now: their symbols and JIT lengths, added to
 * bpf-TAG, and their starts told the plugin in place of the last window's.
 */
void profcap_bpf_syms(uint32_t tag);
/* Module MODULE's symbols, as loaded now, added to bpf-TAG. */
void profcap_mod_syms(uint32_t tag, const char *module);

/*
 * Windows, placed outside the caller's own clock reads. BEGIN_TIMER counts
 * only what the test-run timer times (between its reads of ktime_get);
 * BEGIN_WHOLE counts everything until END. END says how many elements the
 * window processed. Tag 0 does nothing.
 */
void profcap_begin_timer(uint32_t tag);
void profcap_begin_whole(uint32_t tag);
void profcap_end(uint32_t tag, uint64_t elems);

/* A range of kernel code the call graph knows: its VMPROF_*_HI op says what it is. */
struct profcap_range {
	uint64_t lo, hi;
	int op;
};

/*
 * What profcap_arm() sends: ktime_get, [start, next symbol) of each timer
 * function, and for the call graph every function's start (the kernel's and
 * its modules', from the padding where a function has one) and the ranges
 * of its entry points and thunks.
 */
#define PROFCAP_MAX_SITES 16
struct profcap_sites {
	uint64_t ktime;
	int n;
	uint64_t lo[PROFCAP_MAX_SITES], hi[PROFCAP_MAX_SITES];
	uint64_t *fn; /* sorted */
	size_t nfn;
	struct profcap_range *r;
	size_t nr;
};
/*
 * From /proc/kallsyms text (the timer in the kernel's own symbols): 0,
 * -ENOENT without ktime_get or any timer function, -EPERM when the
 * addresses are hidden (all zero), -ENOMEM. S is freed by profcap_sites_free().
 */
int profcap_parse_sites(FILE *f, struct profcap_sites *s);
void profcap_sites_free(struct profcap_sites *s);

#endif
