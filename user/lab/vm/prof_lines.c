// SPDX-License-Identifier: GPL-2.0
/* A profile per source line, from the kernel's DWARF line table. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vm/prof_build.h"
#include "sys/util.h"

/* A symbol of the vmlinux: where the boot's functions are checked against it. */
struct dsym {
	uint64_t addr;
	const char *name; /* in the ELF's string table */
};

struct prof_dbg {
	char *path;
	int fd;
	Elf *elf;
	Dwarf *dw;
	struct dsym *sym; /* by address */
	size_t nsym;
	uint64_t text; /* the vmlinux's _text */
	bool has_text;
	int64_t slide;	      /* the boot's _text less it */
	signed char *path_of; /* per symbol of the boot: 1 of the path, -1 not, 0 not yet known */
};

/* The functions (and _text) of the symbol table in section SCN. */
static int read_symtab(struct prof_dbg *d, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	d->sym = calloc(n + 1, sizeof(*d->sym));
	if (!d->sym)
		return -ENOMEM;
	for (size_t i = 0; data && i < n; i++) {
		GElf_Sym s;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &s) || s.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(d->elf, sh->sh_link, s.st_name);
		type = GELF_ST_TYPE(s.st_info);
		if (!name || !*name || (type != STT_FUNC && type != STT_NOTYPE))
			continue;
		if (!strcmp(name, "_text")) {
			d->text = s.st_value;
			d->has_text = true;
		}
		d->sym[d->nsym++] = (struct dsym){ s.st_value, name };
	}
	if (d->nsym)
		qsort(d->sym, d->nsym, sizeof(*d->sym), prof_by_u64);
	return 0;
}

static int find_symtab(struct prof_dbg *d)
{
	for (Elf_Scn *scn = elf_nextscn(d->elf, NULL); scn; scn = elf_nextscn(d->elf, scn)) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			return read_symtab(d, scn, &sh);
	}
	return -ENOENT;
}

int prof_dbg_open(const char *path, struct prof_dbg **out, char *err, size_t errlen)
{
	struct prof_dbg *d = calloc(1, sizeof(*d));
	const char *why = NULL;
	int ret = -EINVAL;

	if (!d || !(d->path = strdup(path))) {
		free(d);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	elf_version(EV_CURRENT);
	d->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (d->fd < 0) {
		ret = errno == ENOENT ? -ENOENT : -EINVAL;
		why = strerror(errno);
	} else if (!(d->elf = elf_begin(d->fd, ELF_C_READ_MMAP, NULL)) ||
		   elf_kind(d->elf) != ELF_K_ELF) {
		why = "not an ELF file (a vmlinux, not a bzImage)";
	} else if (!(d->dw = dwarf_begin_elf(d->elf, DWARF_C_READ, NULL))) {
		why = "no DWARF (a vmlinux built without CONFIG_DEBUG_INFO, or stripped)";
	} else if (find_symtab(d) == -ENOENT) {
		why = "no symbol table (stripped)";
	} else if (!d->sym) {
		why = "out of memory";
	} else if (!d->has_text) {
		why = "no _text symbol: not a kernel";
	} else {
		*out = d;
		return 0;
	}
	snprintf(err, errlen, "%s: %s", path, why);
	prof_dbg_close(d);
	return ret;
}

void prof_dbg_close(struct prof_dbg *d)
{
	if (!d)
		return;
	dwarf_end(d->dw); /* (both take NULL) */
	elf_end(d->elf);
	if (d->fd >= 0)
		close(d->fd);
	free(d->sym);
	free(d->path_of);
	free(d->path);
	free(d);
}

const char *prof_dbg_path(const struct prof_dbg *d)
{
	return d->path;
}

int64_t prof_dbg_slide(const struct prof_dbg *d)
{
	return d->slide;
}

/* Whether the vmlinux has a symbol NAME (its padding's counts) at ADDR. */
static bool has_sym(const struct prof_dbg *d, uint64_t addr, const char *name)
{
	size_t lo = prof_bound(d->sym, d->nsym, sizeof(*d->sym), addr, false);

	for (; lo < d->nsym && d->sym[lo].addr == addr; lo++)
		if (!strcmp(prof_fn_name(d->sym[lo].name), name))
			return true;
	return false;
}

/* Whether F is a kernel function of the path (remembered per symbol of the boot). */
static bool of_path(const struct prof_dbg *d, const struct prof_syms *s, const struct prof_sym *f)
{
	size_t i = f ? (size_t)(f - s->base.sym) : 0;

	if (!f || f->kind != PK_KERNEL || f < s->base.sym || i >= s->base.n)
		return false;
	if (!d->path_of[i])
		d->path_of[i] =
			prof_groups[prof_group_of(f->kind, f->name)].cls == PCLS_PATH ? 1 : -1;
	return d->path_of[i] > 0;
}

int prof_dbg_match(struct prof_dbg *d, const struct capture *c, char *why, size_t len)
{
	const struct prof_syms *s = &c->syms;

	if (!s->has_text) {
		snprintf(why, len, "the boot's kallsyms has no _text");
		return -EINVAL;
	}
	d->slide = (int64_t)(s->text - d->text);
	free(d->path_of);
	d->path_of = calloc(s->base.n + 1, sizeof(*d->path_of));
	if (!d->path_of) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	for (size_t t = 0; t < c->q.ntags; t++)
		for (size_t k = 0; k < c->q.tags[t].nc; k++) {
			const struct prof_sym *f =
				prof_syms_find(s, -1, c->q.tags[t].c[k].b->vaddr);
			uint64_t at = f ? f->start - (uint64_t)d->slide : 0;

			if (!f || d->path_of[f - s->base.sym] || !of_path(d, s, f) ||
			    has_sym(d, at, f->name))
				continue;
			snprintf(why, len,
				 "%s is not the booted kernel's vmlinux: no %s at 0x%llx (the "
				 "boot's less its KASLR slide)",
				 d->path, f->name, (unsigned long long)at);
			return -EINVAL;
		}
	return 0;
}

/* FILE relative to the build's directory DIR: "net/core/page_pool.c". */
static const char *relative(const char *file, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	if (n && !strncmp(file, dir, n) && file[n] == '/')
		file += n + 1;
	while (!strncmp(file, "./", 2))
		file += 2;
	return file;
}

int prof_dbg_line(const struct prof_dbg *d, uint64_t addr, const char **file, int *line)
{
	Dwarf_Addr a = addr - (uint64_t)d->slide;
	Dwarf_Attribute attr;
	Dwarf_Die cu;
	Dwarf_Line *l;
	const char *src;

	if (!dwarf_addrdie(d->dw, a, &cu) || !(l = dwarf_getsrc_die(&cu, a)) ||
	    !(src = dwarf_linesrc(l, NULL, NULL)) || dwarf_lineno(l, line) || *line <= 0)
		return -ENOENT;
	*file = relative(src, dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &attr)));
	return 0;
}

/* ---- the lines of a profile ----------------------------------------------------- */

/* An instruction's address, its function and what it ran (weighted). */
struct hit {
	uint64_t addr;
	const char *fn;
	int64_t insns;
};

struct hits {
	struct hit *h;
	size_t n, cap;
};

/* Each instruction of TAG's blocks in a kernel function of the path, counted W times. */
static int tag_hits(struct hits *hs, const struct capture *c, const struct qp_tag *q, uint64_t w)
{
	int bpf = prof_syms_bpf_set(&c->syms, q->tag);

	for (size_t k = 0; k < q->nc; k++) {
		const struct qp_block *b = q->c[k].b;
		const struct prof_sym *f = NULL;
		uint64_t addr = b->vaddr;
		bool path = false;

		for (uint32_t i = 0; i < b->ninsns; addr += b->len[i++]) {
			if (!f || addr < f->start || addr >= f->end) {
				f = prof_syms_find(&c->syms, bpf, addr);
				path = of_path(c->dbg, &c->syms, f);
			}
			if (!path)
				continue;
			if (array_grow((void **)&hs->h, &hs->cap, hs->n, sizeof(*hs->h)))
				return -ENOMEM;
			hs->h[hs->n++] =
				(struct hit){ addr, f->name, (int64_t)(q->c[k].count * w) };
		}
	}
	return 0;
}

/* A line's share of one function: sorted by line, then function. */
struct part {
	char *at;
	const char *fn;
	int64_t insns;
};

static int by_part(const void *a, const void *b)
{
	const struct part *x = a, *y = b;
	int c = strcmp(x->at, y->at);

	return c ? c : strcmp(x->fn, y->fn);
}

static int by_insns(const void *a, const void *b)
{
	const struct prof_line *x = a, *y = b;

	if (x->insns != y->insns)
		return x->insns > y->insns ? -1 : 1;
	return strcmp(x->at, y->at);
}

/* The hits (sorted, one per address) as parts of lines, into P; those without a line into L. */
static int parts_of(const struct prof_dbg *d, const struct hits *hs, struct part *p, size_t *np,
		    struct prof_lines *l)
{
	for (size_t i = 0; i < hs->n; i++) {
		const struct hit *h = &hs->h[i];
		const char *file;
		int line;

		l->insns += h->insns;
		if (prof_dbg_line(d, h->addr, &file, &line)) {
			l->no_line += h->insns;
			continue;
		}
		if (asprintf(&p[*np].at, "%s:%d", file, line) < 0)
			return -ENOMEM;
		p[*np].fn = h->fn;
		p[(*np)++].insns = h->insns;
	}
	return 0;
}

/* Sums the parts (sorted) per line into L's lines, each named by its function that ran most. */
static int merge_parts(const struct part *p, size_t np, struct prof_lines *l)
{
	l->line = calloc(np + 1, sizeof(*l->line));
	if (!l->line)
		return -ENOMEM;
	for (size_t i = 0; i < np;) {
		struct prof_line *pl = &l->line[l->nline++];
		const char *at = p[i].at, *best = NULL;
		int64_t most = 0;

		while (i < np && !strcmp(p[i].at, at)) {
			const char *fn = p[i].fn;
			int64_t sum = 0;

			for (; i < np && !strcmp(p[i].at, at) && !strcmp(p[i].fn, fn); i++)
				sum += p[i].insns;
			pl->insns += sum;
			if (!best || sum > most) {
				best = fn;
				most = sum;
			}
		}
		pl->at = strdup(at);
		pl->fn = strdup(best);
		if (!pl->at || !pl->fn)
			return -ENOMEM;
	}
	if (l->nline)
		qsort(l->line, l->nline, sizeof(*l->line), by_insns);
	return 0;
}

/* The hits sorted by address, one per address. */
static void unique(struct hits *hs)
{
	size_t n = 0;

	if (hs->n)
		qsort(hs->h, hs->n, sizeof(*hs->h), prof_by_u64);
	for (size_t i = 0; i < hs->n; i++) {
		if (n && hs->h[n - 1].addr == hs->h[i].addr)
			hs->h[n - 1].insns += hs->h[i].insns;
		else
			hs->h[n++] = hs->h[i];
	}
	hs->n = n;
}

int prof_lines_build(const struct capture *c, const uint64_t *w, struct prof_lines **out)
{
	struct prof_lines *l = calloc(1, sizeof(*l));
	struct hits hs = { 0 };
	struct part *p = NULL;
	size_t np = 0;
	int ret = l ? 0 : -ENOMEM;

	for (size_t i = 0; !ret && i < c->q.ntags; i++)
		if (w[i])
			ret = tag_hits(&hs, c, &c->q.tags[i], w[i]);
	if (!ret) {
		unique(&hs);
		p = calloc(hs.n + 1, sizeof(*p));
		ret = p ? parts_of(c->dbg, &hs, p, &np, l) : -ENOMEM;
	}
	if (!ret && np)
		qsort(p, np, sizeof(*p), by_part);
	ret = ret ?: merge_parts(p, np, l);
	for (size_t i = 0; i < np; i++)
		free(p[i].at);
	free(p);
	free(hs.h);
	if (ret) {
		prof_lines_free(l);
		return ret;
	}
	*out = l;
	return 0;
}

void prof_lines_free(struct prof_lines *l)
{
	for (size_t i = 0; l && i < l->nline; i++) {
		free(l->line[i].at);
		free(l->line[i].fn);
	}
	if (l)
		free(l->line);
	free(l);
}
