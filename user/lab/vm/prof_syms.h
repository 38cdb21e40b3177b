/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROF_SYMS_H
#define PPBENCH_PROF_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The symbols of one boot, for an instruction profile: every guest address
 * an instruction ran at gets a function, or a bucket. KASLR moves the
 * kernel and its modules from boot to boot, so only that boot's own
 * /proc/kallsyms maps them.
 *
 * - kernel: the text symbols (t, T, W) between _stext and _etext and of the
 *   init text (_sinittext.._einittext); each ends at the next symbol;
 * - module: a module's text symbols, each ending at the module's next
 *   symbol and within the module's memory ([base, base + size) of
 *   /proc/modules);
 * - bpf: a program's JIT code ("bpf_prog_TAG_NAME [bpf]", and the
 *   trampolines and dispatchers kallsyms lists under [bpf]), each ending
 *   after its JIT length where it is known, else at the next symbol, and
 *   within 64 KiB. The programs of a window are the ones loaded while it
 *   ran: each set of them (bpf-TAG) is looked up before the rest, and so is
 *   a module loaded and unloaded inside a window (bench --upstream-module);
 * - user: an address below the kernel's half (the top bit clear);
 * - unmapped: any other address. Counted and shown, never dropped.
 *
 * A function's padding (__pfx_NAME, __cfi_NAME: the 16 bytes before it that
 * x86's call thunks and FineIBT execute) counts as NAME's own code, and a
 * BPF program is named by its name without the program tag.
 */
enum prof_kind { PK_KERNEL, PK_MODULE, PK_BPF, PK_USER, PK_UNMAPPED };

/* One address range and the function it belongs to. */
struct prof_sym {
	uint64_t start, end;
	const char *name;   /* normalised (above) */
	const char *module; /* the module ("veth", "bpf"), NULL in the kernel */
	enum prof_kind kind;
};

struct prof_symset {
	char *tag; /* the window's tag of a bpf-TAG set, NULL for the boot's own */
	struct prof_sym *sym;
	size_t n;
};

struct prof_syms {
	struct prof_symset base; /* kernel, modules, [bpf] of the final kallsyms */
	struct prof_symset *bpf; /* per window tag */
	size_t nbpf;
	uint64_t text; /* the kernel's _text, where KASLR put it (has_text) */
	bool has_text;
	char **strings; /* every name, freed with the table */
	size_t nstrings, capstrings;
};

/* The largest range a symbol without a known end may cover. */
#define PROF_SYM_MAX_LEN 65536
/* The smallest page of any kernel: the page size of a capture that does not name its own. */
#define PROF_SYM_PAGE_MIN 4096

/*
 * Builds the table from the text of /proc/kallsyms and /proc/modules
 * (MODULES may be NULL) of a kernel whose pages are PAGE_SIZE bytes: its
 * own code in the modules' area ends at the end of its page at most.
 * LABEL names the files in errors. 0, or -EINVAL with one line in ERR
 * ("kallsyms:3: no address in 'xyz'", "kallsyms holds no addresses: it was
 * read without the right to see them").
 */
int prof_syms_load(struct prof_syms *s, const char *kallsyms, const char *modules,
		   uint64_t page_size, char *err, size_t errlen);
/*
 * Adds the programs loaded during window TAG: kallsyms lines ("ADDR t NAME
 * [bpf]") and "len ADDR BYTES" lines, as bpf-TAG holds them, and a module
 * loaded for the window only ("ADDR t NAME [MODULE]": its text symbols, each
 * ending at the next, within 64 KiB).
 */
int prof_syms_add_bpf(struct prof_syms *s, const char *tag, const char *text, const char *label,
		      char *err, size_t errlen);
/* The set of window TAG's programs (its index), or -1. */
int prof_syms_bpf_set(const struct prof_syms *s, const char *tag);
/*
 * The symbol at ADDR, looking in bpf set BPF (-1: none) first, or NULL:
 * then prof_addr_kind() says user or unmapped.
 */
const struct prof_sym *prof_syms_find(const struct prof_syms *s, int bpf, uint64_t addr);
enum prof_kind prof_addr_kind(uint64_t addr);
void prof_syms_free(struct prof_syms *s);
/* NAME without its padding's prefix: __pfx_ and __cfi_ are the function's own entry. */
const char *prof_fn_name(const char *name);
/* Room in *ARR (*CAP elements of SIZE bytes) for element N, doubling it; 0 or -ENOMEM. */
int prof_grow(void **arr, size_t *cap, size_t n, size_t size);
/* Splits LINE into its blank-separated words, in place: their number, or MAX + 1 past MAX. */
int prof_split_words(char *line, char **w, int max);

#endif
