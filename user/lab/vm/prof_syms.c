// SPDX-License-Identifier: GPL-2.0
/* The symbols of one boot for an instruction profile. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vm/prof_build.h"
#include "sys/util.h"

/* The kernel's own code among the modules: "[__builtin__ftrace]", "[__builtin__kprobes]" */
#define BUILTIN "__builtin__"

/* One line of kallsyms, pointing into the table's copy of the text. */
struct ksym {
	uint64_t addr;
	char type;
	const char *name, *module; /* module NULL: the kernel's own */
};

struct kmod {
	const char *name;
	uint64_t base, size;
};

int prof_by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static char *keep(struct prof_syms *s, const char *text)
{
	char *copy;

	if (array_grow((void **)&s->strings, &s->capstrings, s->nstrings, sizeof(*s->strings)))
		return NULL;
	copy = strdup(text);
	if (copy)
		s->strings[s->nstrings++] = copy;
	return copy;
}

static bool is_text(char type)
{
	return type == 't' || type == 'T' || type == 'W';
}

const char *prof_fn_name(const char *name)
{
	if ((!strncmp(name, "__pfx_", 6) || !strncmp(name, "__cfi_", 6)) && name[6])
		return name + 6;
	return name;
}

/* "bpf_prog_<16 hex digits>_NAME" -> NAME: the tag changes with the program's bytes. */
static const char *bpf_name(const char *name)
{
	const char *p = name + strlen("bpf_prog_");

	if (strncmp(name, "bpf_prog_", strlen("bpf_prog_")) ||
	    strspn(p, "0123456789abcdef") != 16 || p[16] != '_' || !p[17])
		return name;
	return p + 17;
}

int prof_split_words(char *line, char **w, int max)
{
	int n = 0;

	for (char *save, *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save))
		if (n < max)
			w[n++] = t;
		else
			return max + 1;
	return n;
}

static int parse_hex(const char *s, uint64_t *out)
{
	if (!strncmp(s, "0x", 2))
		s += 2;
	if (!*s || strspn(s, "0123456789abcdefABCDEF") != strlen(s) || strlen(s) > 16)
		return -EINVAL;
	*out = strtoull(s, NULL, 16);
	return 0;
}

/* "ADDR TYPE NAME [MODULE]" into K; 0, 1 for a blank line, or -EINVAL. */
static int parse_ksym(char *line, struct ksym *k)
{
	char *w[5];
	int n = prof_split_words(line, w, 4);
	size_t ml;

	if (!n)
		return 1;
	if (n < 3 || n > 4 || parse_hex(w[0], &k->addr) || strlen(w[1]) != 1)
		return -EINVAL;
	k->type = w[1][0];
	k->name = w[2];
	k->module = NULL;
	if (n == 4) {
		ml = strlen(w[3]);
		if (ml < 3 || w[3][0] != '[' || w[3][ml - 1] != ']')
			return -EINVAL;
		w[3][ml - 1] = '\0';
		k->module = w[3] + 1;
	}
	return 0;
}

struct list {
	struct ksym *k;
	size_t n, cap;
};

/* A program's JIT length ("len ADDRESS BYTES" in bpf-TAG). */
struct jitlen {
	uint64_t addr, bytes;
};

struct lens {
	struct jitlen *l;
	size_t n, cap;
};

static int list_add(struct list *l, const struct ksym *k)
{
	if (array_grow((void **)&l->k, &l->cap, l->n, sizeof(*l->k)))
		return -ENOMEM;
	l->k[l->n++] = *k;
	return 0;
}

/* Every line of TEXT (copied into S) as a ksym, "len" lines into LENS. */
static int read_lines(struct prof_syms *s, const char *text, const char *label, struct list *syms,
		      struct lens *lens, char *err, size_t errlen)
{
	char *copy = keep(s, text), *save, *line;
	size_t no = 0;

	if (!copy)
		return -ENOMEM;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char shown[80];
		struct ksym k;
		char *w[4];
		int ret;

		no++;
		snprintf(shown, sizeof(shown), "%s", line);
		if (lens && !strncmp(line, "len ", 4)) {
			uint64_t bytes;

			if (prof_split_words(line, w, 3) != 3 || parse_hex(w[1], &k.addr) ||
			    sscanf(w[2], "%llu", (unsigned long long *)&bytes) != 1) {
				snprintf(err, errlen, "%s:%zu: '%s': expected 'len ADDRESS BYTES'",
					 label, no, shown);
				return -EINVAL;
			}
			if (array_grow((void **)&lens->l, &lens->cap, lens->n, sizeof(*lens->l)))
				return -ENOMEM;
			lens->l[lens->n++] = (struct jitlen){ k.addr, bytes };
			continue;
		}
		ret = parse_ksym(line, &k);
		if (ret > 0)
			continue;
		if (ret < 0) {
			snprintf(err, errlen, "%s:%zu: '%s': expected 'ADDRESS TYPE NAME [MODULE]'",
				 label, no, shown);
			return -EINVAL;
		}
		if (list_add(syms, &k))
			return -ENOMEM;
	}
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x < y ? -1 : x > y; /* (qsort is not stable: keep the file's order) */
}

/* Of two names at one address, the one a reader knows: fewer leading '_', shorter. */
static bool better_name(const char *a, const char *b)
{
	size_t ua = strspn(a, "_"), ub = strspn(b, "_");

	if (ua != ub)
		return ua < ub;
	if (strlen(a) != strlen(b))
		return strlen(a) < strlen(b);
	return strcmp(a, b) < 0;
}

struct ranges {
	struct prof_sym *r;
	size_t n, cap;
};

static int range_add(struct ranges *rs, uint64_t start, uint64_t end, const char *name,
		     const char *module, enum prof_kind kind)
{
	if (end <= start)
		return 0;
	if (array_grow((void **)&rs->r, &rs->cap, rs->n, sizeof(*rs->r)))
		return -ENOMEM;
	rs->r[rs->n++] = (struct prof_sym){ start, end, name, module, kind };
	return 0;
}

/*
 * Ranges of the text symbols among K[0..N) (sorted, one module or the
 * kernel): one per address, named by its best name, ending at the next
 * address of any symbol, at LIMIT, and at most MAXLEN after it (0: no such bound);
 * with PAGE (a page size, 0: none) also at the end of its page.
 */
static int text_ranges(struct ranges *rs, const struct ksym *k, size_t n, uint64_t lo, uint64_t hi,
		       uint64_t maxlen, uint64_t page, enum prof_kind kind)
{
	for (size_t i = 0; i < n;) {
		size_t j = i;
		const char *best = NULL;
		uint64_t end;

		for (; j < n && k[j].addr == k[i].addr; j++) {
			const char *name =
				kind == PK_BPF ? bpf_name(k[j].name) : prof_fn_name(k[j].name);

			if (is_text(k[j].type) && (!best || better_name(name, best)))
				best = name;
		}
		if (best && k[i].addr >= lo && k[i].addr < hi) {
			end = j < n && k[j].addr < hi ? k[j].addr : hi;
			if (maxlen && end - k[i].addr > maxlen)
				end = k[i].addr + maxlen;
			if (page && end > (k[i].addr | (page - 1)) + 1)
				end = (k[i].addr | (page - 1)) + 1;
			if (range_add(rs, k[i].addr, end, best, k[i].module, kind))
				return -ENOMEM;
		}
		i = j;
	}
	return 0;
}

/* NAME's address into *ADDR: whether K has it. */
static bool find_addr(const struct ksym *k, size_t n, const char *name, uint64_t *addr)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(k[i].name, name)) {
			*addr = k[i].addr;
			return true;
		}
	return false;
}

/* The kernel's own text: _stext.._etext and the init text. */
static int kernel_ranges(struct ranges *rs, struct ksym *k, size_t n, char *err, size_t errlen)
{
	uint64_t stext, etext, sinit, einit;
	bool init = find_addr(k, n, "_sinittext", &sinit) &&
		    find_addr(k, n, "_einittext", &einit) && einit > sinit;

	if (!find_addr(k, n, "_stext", &stext) || !find_addr(k, n, "_etext", &etext) ||
	    etext <= stext) {
		snprintf(err, errlen, "kallsyms: no _stext and _etext: not a kernel's symbol list");
		return -EINVAL;
	}
	if (n)
		qsort(k, n, sizeof(*k), by_addr);
	if (text_ranges(rs, k, n, stext, etext, 0, 0, PK_KERNEL))
		return -ENOMEM;
	return init && text_ranges(rs, k, n, sinit, einit, 0, 0, PK_KERNEL) ? -ENOMEM : 0;
}

/* /proc/modules: "NAME SIZE REFS DEPS STATE ADDR [TAINTS]" (address 0: not shown to us). */
static int parse_modules(struct prof_syms *s, const char *text, struct kmod **out, size_t *nout,
			 char *err, size_t errlen)
{
	char *copy = text ? keep(s, text) : NULL, *save, *line;
	size_t no = 0, cap = 0;

	*out = NULL;
	*nout = 0;
	if (text && !copy)
		return -ENOMEM;
	for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *w[8];
		int nw = prof_split_words(line, w, 7);
		struct kmod m;

		no++;
		if (!nw)
			continue;
		if (nw < 6 || sscanf(w[1], "%llu", (unsigned long long *)&m.size) != 1 ||
		    parse_hex(w[5], &m.base)) {
			snprintf(err, errlen,
				 "modules:%zu: expected 'NAME SIZE REFS DEPS STATE ADDRESS'", no);
			return -EINVAL;
		}
		m.name = w[0];
		if (array_grow((void **)out, &cap, *nout, sizeof(**out)))
			return -ENOMEM;
		(*out)[(*nout)++] = m;
	}
	return 0;
}

static int by_module(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	int c = strcmp(x->module, y->module);

	return c ? c : by_addr(a, b);
}

/* Each module's text, within [base, base + size) where /proc/modules shows it. */
static int module_ranges(struct ranges *rs, struct ksym *k, size_t n, const struct kmod *mods,
			 size_t nmods, uint64_t page_size)
{
	if (n)
		qsort(k, n, sizeof(*k), by_module);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		const struct kmod *m = NULL;
		bool bpf = !strcmp(k[i].module, "bpf"), builtin;
		uint64_t lo = 0, hi = UINT64_MAX;

		while (j < n && !strcmp(k[j].module, k[i].module))
			j++;
		for (size_t x = 0; !m && x < nmods; x++)
			m = strcmp(mods[x].name, k[i].module) ? NULL : &mods[x];
		if (m && m->base && m->size) {
			lo = m->base;
			hi = m->base + m->size;
		}
		/*
		 * The kernel's own code in the modules' area (ftrace's and kprobes'
		 * trampolines, "[__builtin__ftrace]"): no /proc/modules line bounds
		 * it, but each lies in pages of its own, and the page after may be
		 * a module's loaded and gone before kallsyms was read, whose code
		 * a range up to the next symbol would charge to the trampoline.
		 */
		builtin = !m && !strncmp(k[i].module, BUILTIN, sizeof(BUILTIN) - 1);
		if (text_ranges(rs, k + i, j - i, lo, hi, hi == UINT64_MAX ? PROF_SYM_MAX_LEN : 0,
				builtin ? page_size : 0, bpf ? PK_BPF : PK_MODULE))
			return -ENOMEM;
		i = j;
	}
	return 0;
}

/* Sorted, and each range cut where the next begins: a lookup finds the nearest one. */
static void finish(struct prof_symset *set, struct ranges *rs)
{
	if (rs->n)
		qsort(rs->r, rs->n, sizeof(*rs->r), prof_by_u64);
	for (size_t i = 0; i + 1 < rs->n; i++)
		if (rs->r[i].end > rs->r[i + 1].start)
			rs->r[i].end = rs->r[i + 1].start;
	set->sym = rs->r;
	set->n = rs->n;
}

int prof_syms_load(struct prof_syms *s, const char *kallsyms, const char *modules,
		   uint64_t page_size, char *err, size_t errlen)
{
	struct list all = { 0 }, core = { 0 }, mods = { 0 };
	struct ranges rs = { 0 };
	struct kmod *km = NULL;
	size_t nkm = 0;
	bool zero = true;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = read_lines(s, kallsyms, "kallsyms", &all, NULL, err, errlen);
	for (size_t i = 0; i < all.n; i++)
		zero &= !all.k[i].addr;
	if (!ret && zero) {
		snprintf(err, errlen,
			 all.n ? "kallsyms holds no addresses: it was read without the right to "
				 "see them (kptr_restrict)"
			       : "kallsyms is empty");
		ret = -EINVAL;
	}
	ret = ret ?: parse_modules(s, modules, &km, &nkm, err, errlen);
	for (size_t i = 0; !ret && i < all.n; i++)
		ret = list_add(all.k[i].module ? &mods : &core, &all.k[i]);
	ret = ret ?: kernel_ranges(&rs, core.k, core.n, err, errlen);
	if (!ret)
		s->has_text = find_addr(core.k, core.n, "_text", &s->text);
	ret = ret ?: module_ranges(&rs, mods.k, mods.n, km, nkm, page_size);
	if (!ret)
		finish(&s->base, &rs);
	else
		free(rs.r);
	free(all.k);
	free(core.k);
	free(mods.k);
	free(km);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "kallsyms: out of memory");
	if (ret)
		prof_syms_free(s);
	return ret;
}

size_t prof_bound(const void *arr, size_t n, size_t size, uint64_t key, bool above)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k = *(const uint64_t *)((const char *)arr + mid * size);

		if (k < key || (above && k == key))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct prof_sym *lookup(const struct prof_symset *set, uint64_t addr)
{
	size_t i = prof_bound(set->sym, set->n, sizeof(*set->sym), addr, true);

	return i && addr < set->sym[i - 1].end ? &set->sym[i - 1] : NULL;
}

static int bpf_ranges(struct prof_syms *s, struct list *syms, const struct lens *lens,
		      struct ranges *rs)
{
	if (syms->n)
		qsort(syms->k, syms->n, sizeof(*syms->k), by_addr);
	for (size_t i = 0; i < syms->n; i++) {
		const struct ksym *k = &syms->k[i];
		uint64_t end = i + 1 < syms->n ? syms->k[i + 1].addr : UINT64_MAX;
		/* a module's own lines: a module loaded for this window only */
		bool sized = false, mod = k->module && strcmp(k->module, "bpf");

		if (i + 1 < syms->n && syms->k[i + 1].addr == k->addr)
			continue; /* (an alias: the last of them names it) */
		for (size_t j = 0; j < lens->n; j++)
			if (lens->l[j].addr == k->addr) {
				end = k->addr + lens->l[j].bytes;
				sized = true;
			}
		if (!sized) { /* (at most to the base's next symbol) */
			size_t next = prof_bound(s->base.sym, s->base.n, sizeof(*s->base.sym),
						 k->addr, true);

			if (next < s->base.n && s->base.sym[next].start < end)
				end = s->base.sym[next].start;
			if (end - k->addr > PROF_SYM_MAX_LEN)
				end = k->addr + PROF_SYM_MAX_LEN;
		}
		if (range_add(rs, k->addr, end, mod ? prof_fn_name(k->name) : bpf_name(k->name),
			      mod ? k->module : "bpf", mod ? PK_MODULE : PK_BPF))
			return -ENOMEM;
	}
	return 0;
}

/* A module's data symbols (its parameters, __this_module) run no code: out. */
static void keep_text(struct list *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		if (!l->k[i].module || !strcmp(l->k[i].module, "bpf") || is_text(l->k[i].type))
			l->k[n++] = l->k[i];
	l->n = n;
}

int prof_syms_add_bpf(struct prof_syms *s, const char *tag, const char *text, const char *label,
		      char *err, size_t errlen)
{
	struct list syms = { 0 };
	struct lens lens = { 0 };
	struct prof_symset *sets;
	struct ranges rs = { 0 };
	int ret;

	sets = realloc(s->bpf, (s->nbpf + 1) * sizeof(*sets));
	if (!sets)
		return -ENOMEM;
	s->bpf = sets;
	ret = read_lines(s, text, label, &syms, &lens, err, errlen);
	if (!ret)
		keep_text(&syms);
	ret = ret ?: bpf_ranges(s, &syms, &lens, &rs);
	if (!ret) {
		struct prof_symset *set = &s->bpf[s->nbpf];

		set->tag = keep(s, tag);
		finish(set, &rs);
		s->nbpf += set->tag != NULL;
		ret = set->tag ? 0 : -ENOMEM;
	}
	if (ret)
		free(rs.r);
	free(syms.k);
	free(lens.l);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", label);
	return ret;
}

int prof_syms_bpf_set(const struct prof_syms *s, const char *tag)
{
	for (size_t i = 0; i < s->nbpf; i++)
		if (!strcmp(s->bpf[i].tag, tag))
			return (int)i;
	return -1;
}

const struct prof_sym *prof_syms_find(const struct prof_syms *s, int bpf, uint64_t addr)
{
	const struct prof_sym *f = NULL;

	if (bpf >= 0 && (size_t)bpf < s->nbpf)
		f = lookup(&s->bpf[bpf], addr);
	return f ? f : lookup(&s->base, addr);
}

enum prof_kind prof_addr_kind(uint64_t addr)
{
	return addr >> 63 ? PK_UNMAPPED : PK_USER;
}

void prof_syms_free(struct prof_syms *s)
{
	free(s->base.sym);
	for (size_t i = 0; i < s->nbpf; i++)
		free(s->bpf[i].sym);
	free(s->bpf);
	for (size_t i = 0; i < s->nstrings; i++)
		free(s->strings[i]);
	free(s->strings);
	memset(s, 0, sizeof(*s));
}
