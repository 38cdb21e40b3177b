// SPDX-License-Identifier: GPL-2.0
/* Instruction profiles from a capture: functions, groups, per element (prof_build.h). */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vm/prof_build.h"
#include "sys/util.h"

const struct prof_group_def prof_groups[PG_NR] = {
	[PG_PAGE_POOL] = { "page_pool", PCLS_PATH },
	[PG_PTR_RING] = { "ptr_ring", PCLS_PATH },
	[PG_PAGE_ALLOC] = { "page allocator", PCLS_PATH },
	[PG_XDP] = { "xdp", PCLS_FRAME },
	[PG_TEST_RUN] = { "test_run", PCLS_FRAME },
	[PG_SKB] = { "skb", PCLS_FRAME },
	[PG_BPF] = { "bpf", PCLS_BPF },
	[PG_OTHER] = { "other", PCLS_OTHER },
	[PG_USER] = { "user", PCLS_USER },
	[PG_UNMAPPED] = { "unmapped", PCLS_UNMAPPED },
};

/*
 * The first rule that matches a name gives its group; BPF code, user space
 * and unmapped addresses have theirs by kind, any other name is "other".
 * The order matters: xdp_test_run_batch is the test run's loop, not XDP's;
 * page_pool_put_unrefed_netmem is page_pool's. ppbench-vm(8) lists these
 * rules (a unit test holds the page to them).
 */
const struct prof_rule prof_rules[] = {
	/* the recipe's frame: BPF_PROG_RUN's test-run loop and its clock reads */
	{ "bpf_test_*", PG_TEST_RUN },
	{ "bpf_prog_test_run*", PG_TEST_RUN },
	{ "xdp_test_run_*", PG_TEST_RUN },
	/*
	 * the upstream module's timed loop (bench --upstream-module), with what
	 * the compiler inlined into it: the frame its page_pool calls run in
	 */
	{ "time_bench_*", PG_TEST_RUN },
	/* the path's own code */
	{ "*ptr_ring*", PG_PTR_RING },
	{ "*page_pool*", PG_PAGE_POOL },
	{ "*netmem*", PG_PAGE_POOL },
	{ "napi_pp_put_page", PG_PAGE_POOL },
	{ "__alloc_pages*", PG_PAGE_ALLOC },
	{ "alloc_pages*", PG_PAGE_ALLOC },
	{ "__alloc_frozen_pages*", PG_PAGE_ALLOC },
	{ "get_page_from_freelist", PG_PAGE_ALLOC },
	{ "rmqueue*", PG_PAGE_ALLOC },
	{ "__rmqueue*", PG_PAGE_ALLOC },
	{ "prep_new_page", PG_PAGE_ALLOC },
	{ "post_alloc_hook", PG_PAGE_ALLOC },
	{ "__free_pages*", PG_PAGE_ALLOC },
	{ "free_pages_prepare", PG_PAGE_ALLOC },
	{ "free_pcp_prepare", PG_PAGE_ALLOC },
	{ "*free_frozen_page*", PG_PAGE_ALLOC },
	{ "free_unref_*", PG_PAGE_ALLOC },
	{ "__folio_put", PG_PAGE_ALLOC },
	{ "free_pcppages_bulk", PG_PAGE_ALLOC },
	{ "free_one_page", PG_PAGE_ALLOC },
	{ "__free_one_page", PG_PAGE_ALLOC },
	{ "__zone_watermark_ok", PG_PAGE_ALLOC },
	{ "clear_page*", PG_PAGE_ALLOC },
	{ "clear_highpage*", PG_PAGE_ALLOC },
	{ "kernel_init_*pages", PG_PAGE_ALLOC },
	{ "get_pfnblock_*", PG_PAGE_ALLOC },
	{ "__mod_zone_page_state", PG_PAGE_ALLOC },
	{ "should_fail_alloc_page", PG_PAGE_ALLOC },
	/* BPF's own machinery before XDP's name catches its dispatcher */
	{ "bpf_dispatcher_*", PG_BPF },
	{ "bpf_trampoline_*", PG_BPF },
	{ "__bpf_prog_*", PG_BPF },
	/* the recipe's frame: XDP and the skb of a passed frame */
	{ "*xdp*", PG_XDP },
	{ "*skb*", PG_SKB },
	{ "__netif_receive*", PG_SKB },
	{ "netif_receive*", PG_SKB },
	{ "eth_type_trans", PG_SKB },
	/* BPF helpers and maps */
	{ "bpf_*", PG_BPF },
	{ "__bpf_*", PG_BPF },
	{ "*_map_lookup_elem", PG_BPF },
	{ "*_map_update_elem", PG_BPF },
	{ "htab_*", PG_BPF },
	{ "__htab_*", PG_BPF },
	{ "lookup_nulls_elem_raw", PG_BPF },
};
const size_t prof_nrules = ARRAY_SIZE(prof_rules);

const char *prof_class_name(enum prof_class c)
{
	static const char *const names[] = { "path", "frame", "bpf", "other", "user", "unmapped" };

	return names[c];
}

const char *prof_kind_name(enum prof_kind k)
{
	static const char *const names[] = { "kernel", "module", "bpf", "user", "unmapped" };

	return names[k];
}

enum prof_group prof_group_named(const char *name)
{
	for (int g = 0; g < PG_NR; g++)
		if (!strcmp(prof_groups[g].name, name))
			return g;
	return PG_NR;
}

enum prof_group prof_group_of(enum prof_kind kind, const char *name)
{
	if (kind == PK_BPF)
		return PG_BPF;
	if (kind == PK_USER)
		return PG_USER;
	if (kind == PK_UNMAPPED)
		return PG_UNMAPPED;
	for (size_t i = 0; i < prof_nrules; i++)
		if (!fnmatch(prof_rules[i].pattern, name, 0))
			return prof_rules[i].group;
	return PG_OTHER;
}

const struct prof *prof_find(const struct prof *p, size_t n, const char *kind, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(p[i].kind, kind) && !strcmp(p[i].name, name))
			return &p[i];
	return NULL;
}

double prof_per_elem(const struct prof *p, int64_t count)
{
	return p->elems ? (double)count / p->elems : NAN;
}

double prof_path_per_elem(const struct prof *p)
{
	int64_t sum = 0;

	for (int g = 0; g < PG_NR; g++)
		if (prof_groups[g].cls == PCLS_PATH)
			sum += p->group_insns[g];
	return prof_per_elem(p, sum);
}

/* ---- counting --------------------------------------------------------------- */

/*
 * One slot per symbol of the boot (the base set, then each bpf set) and two
 * for user space and unmapped addresses.
 */
struct tally {
	const struct prof_syms *s;
	size_t *off; /* where each bpf set's slots begin */
	size_t n;
	uint64_t *insns, *rep;
};

static int tally_init(struct tally *t, const struct prof_syms *s)
{
	t->s = s;
	t->off = calloc(s->nbpf + 1, sizeof(*t->off));
	if (!t->off)
		return -ENOMEM;
	t->n = s->base.n;
	for (size_t i = 0; i < s->nbpf; i++) {
		t->off[i] = t->n;
		t->n += s->bpf[i].n;
	}
	t->n += 2;
	t->insns = calloc(t->n, sizeof(*t->insns));
	t->rep = calloc(t->n, sizeof(*t->rep));
	return t->insns && t->rep ? 0 : -ENOMEM;
}

/* The slot of symbol F (of bpf set BPF or of the base), or of ADDR's bucket. */
static size_t slot_of(const struct tally *t, int bpf, const struct prof_sym *f, uint64_t addr)
{
	const struct prof_syms *s = t->s;

	if (!f)
		return t->n - (prof_addr_kind(addr) == PK_USER ? 2 : 1);
	if (f >= s->base.sym && f < s->base.sym + s->base.n)
		return f - s->base.sym;
	return t->off[bpf] + (f - s->bpf[bpf].sym);
}

/*
 * Window TAG's counts: each instruction of each block counted at its
 * address, W times (1, or -1 to subtract: the tally's unsigned sums wrap, and
 * read as signed they are the difference).
 */
static void count_tag(struct tally *t, const struct qp_tag *q, int bpf, uint64_t w)
{
	for (size_t k = 0; k < q->nc; k++) {
		const struct qp_block *b = q->c[k].b;
		const struct prof_sym *f = NULL;
		uint64_t addr = b->vaddr, n = q->c[k].count;
		size_t slot = 0;
		uint32_t r = 0;

		for (uint32_t i = 0; i < b->ninsns; addr += b->len[i++]) {
			/* (a block's instructions mostly share a function) */
			if (!f || addr < f->start || addr >= f->end) {
				f = prof_syms_find(t->s, bpf, addr);
				slot = slot_of(t, bpf, f, addr);
			}
			t->insns[slot] += n * w;
			for (r = 0; r < b->nrep; r++)
				if (b->rep[r] == i)
					t->rep[slot] += n * w;
		}
	}
}

/* Slot I's function: its symbol, or user space, or unmapped. */
static void slot_fn(const struct tally *t, size_t i, struct prof_fn *fn)
{
	const struct prof_syms *s = t->s;
	const struct prof_sym *f = NULL;

	memset(fn, 0, sizeof(*fn));
	if (i < s->base.n)
		f = &s->base.sym[i];
	for (size_t b = 0; !f && b < s->nbpf; b++)
		if (i >= t->off[b] && i < t->off[b] + s->bpf[b].n)
			f = &s->bpf[b].sym[i - t->off[b]];
	if (f) {
		fn->name = (char *)f->name;
		fn->module = (char *)f->module;
		fn->kind = f->kind;
	} else {
		fn->kind = i == t->n - 2 ? PK_USER : PK_UNMAPPED;
		fn->name = fn->kind == PK_USER ? "[user]" : "[unmapped]";
	}
	fn->group = prof_group_of(fn->kind, fn->name);
	fn->insns = (int64_t)t->insns[i];
	fn->rep = (int64_t)t->rep[i];
}

static int by_key(const void *x, const void *y)
{
	const struct prof_fn *a = x, *b = y;
	int c = (int)a->kind - (int)b->kind;

	if (c)
		return c;
	c = strcmp(a->module ? a->module : "", b->module ? b->module : "");
	return c ? c : strcmp(a->name, b->name);
}

static int by_insns(const void *a, const void *b)
{
	const struct prof_fn *x = a, *y = b;

	if (x->insns != y->insns)
		return x->insns > y->insns ? -1 : 1;
	return by_key(x, y);
}

/* The tally's counted slots, one function per name (a name's ranges add up). */
static int collect(const struct tally *t, struct prof *p)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < t->n; i++)
		n += t->insns[i] != 0;
	p->fn = calloc(n + 1, sizeof(*p->fn));
	if (!p->fn)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++)
		if (t->insns[i])
			slot_fn(t, i, &p->fn[k++]);
	qsort(p->fn, n, sizeof(*p->fn), by_key);
	for (size_t i = 0; i < n; i++) {
		struct prof_fn *f = &p->fn[i];

		if (p->nfn && !by_key(&p->fn[p->nfn - 1], f)) {
			p->fn[p->nfn - 1].insns += f->insns;
			p->fn[p->nfn - 1].rep += f->rep;
			continue;
		}
		p->fn[p->nfn++] = *f;
	}
	qsort(p->fn, p->nfn, sizeof(*p->fn), by_insns);
	for (size_t i = 0; i < p->nfn; i++) {
		struct prof_fn *f = &p->fn[i];

		p->group_insns[f->group] += f->insns;
		p->group_rep[f->group] += f->rep;
		p->rep += f->rep;
		/* the names live in the capture: the profile keeps its own */
		char *name = strdup(f->name), *module = f->module ? strdup(f->module) : NULL;

		if (!name || (f->module && !module)) {
			free(name);
			free(module);
			p->nfn = i; /* (the rest name the capture's strings) */
			return -ENOMEM;
		}
		f->name = name;
		f->module = module;
	}
	return 0;
}

static void prof_free_one(struct prof *p)
{
	for (size_t k = 0; k < p->nfn; k++) {
		free(p->fn[k].name);
		free(p->fn[k].module);
	}
	free(p->fn);
	prof_graph_free(p->graph);
	prof_lines_free(p->lines);
	free(p->nolines);
	free(p->kind);
	free(p->name);
	free(p->extra);
	memset(p, 0, sizeof(*p));
}

static bool of(const struct capture *c, const struct qp_tag *q, const struct cap_tag *t)
{
	const struct cap_tag *ct = capture_tag(c, q->tag);

	return !strcmp(ct->kind, t->kind) && !strcmp(ct->name, t->name);
}

/*
 * The weight of each of KIND NAME's windows in W (indexed as c->q.tags): 1,
 * or for a module loop's two loads 1 and -1 (prof_build.h). 0, or 1 when a
 * module loop has not two loads of different lengths.
 */
static int weights(const struct capture *c, const struct cap_tag *t, uint64_t *w)
{
	size_t n = 0, hi = 0, lo = 0;

	for (size_t i = 0; i < c->q.ntags; i++) {
		w[i] = of(c, &c->q.tags[i], t);
		if (!w[i] || strcmp(t->kind, "module"))
			continue;
		if (n && c->q.tags[i].elems > c->q.tags[hi].elems)
			hi = i;
		else if (n)
			lo = i;
		else
			hi = lo = i;
		n++;
	}
	if (strcmp(t->kind, "module"))
		return 0;
	if (n != 2 || c->q.tags[hi].elems == c->q.tags[lo].elems)
		return 1;
	w[lo] = (uint64_t)-1;
	return 0;
}

/* The profile of KIND NAME (T's): every qprof tag of it counted into one tally. */
static int build_one(const struct capture *c, const struct cap_tag *t, struct prof *p)
{
	uint64_t *w = calloc(c->q.ntags + 1, sizeof(*w));
	struct tally tl = { 0 };
	int ret = w ? tally_init(&tl, &c->syms) : -ENOMEM;

	p->kind = strdup(t->kind);
	p->name = strdup(t->name);
	p->extra = strdup(t->extra);
	if (!p->kind || !p->name || !p->extra)
		ret = -ENOMEM;
	else if (!strcmp(t->kind, "module") && strstr(p->extra, " loops="))
		*strstr(p->extra, " loops=") = '\0'; /* (each load's own: the profile is both) */
	ret = ret ?: weights(c, t, w);
	for (size_t i = 0; !ret && i < c->q.ntags; i++) {
		const struct qp_tag *q = &c->q.tags[i];

		if (!w[i])
			continue;
		count_tag(&tl, q, prof_syms_bpf_set(&c->syms, q->tag), w[i]);
		p->elems += q->elems * w[i];
		p->windows += q->windows;
		p->spans += q->spans;
		p->errors += q->errors;
		p->insns += (int64_t)(q->insns * w[i]);
	}
	ret = ret ?: collect(&tl, p);
	ret = ret ?: prof_graph_build(c, w, &p->graph);
	if (!ret && c->dbg)
		ret = prof_lines_build(c, w, &p->lines);
	else if (!ret && c->nolines)
		ret = (p->nolines = strdup(c->nolines)) ? 0 : -ENOMEM;
	free(tl.off);
	free(tl.insns);
	free(tl.rep);
	free(w);
	return ret;
}

int prof_build(const struct capture *c, struct prof **out, size_t *n, char *err, size_t errlen)
{
	struct prof *p = calloc(c->ntags + 1, sizeof(*p));
	size_t np = 0;
	int ret = p ? 0 : -ENOMEM;

	for (size_t i = 0; !ret && i < c->q.ntags; i++)
		if (!capture_tag(c, c->q.tags[i].tag)) {
			snprintf(err, errlen, "qprof.txt counts tag %s, which 'tags' does not list",
				 c->q.tags[i].tag);
			ret = -EINVAL;
		}
	for (size_t i = 0; !ret && i < c->ntags; i++) {
		const struct cap_tag *t = &c->tags[i];
		bool counted = false;

		for (size_t k = 0; k < c->q.ntags && !counted; k++)
			counted = !strcmp(c->q.tags[k].tag, t->tag);
		if (!counted || prof_find(p, np, t->kind, t->name))
			continue; /* (a window never opened; a kind and name already built) */
		ret = build_one(c, t, &p[np++]);
		if (ret == 1) { /* (a module loop not differenced: no profile) */
			prof_free_one(&p[--np]);
			ret = 0;
		}
	}
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (ret) {
		prof_free_all(p, np);
		return ret;
	}
	*out = p;
	*n = np;
	return 0;
}

void prof_free_all(struct prof *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++)
		prof_free_one(&p[i]);
	free(p);
}
