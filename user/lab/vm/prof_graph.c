// SPDX-License-Identifier: GPL-2.0
/* A profile's call graph from the plugin's trees. */
#include <errno.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vm/prof_build.h"
#include "sys/util.h"

/* (A, B) -> V, in a tree of tsearch(). */
struct pair {
	uint64_t a, b;
	size_t v;
};

static int by_pair(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

/* The index of (A, B), or NEW's when it is not there (then added); SIZE_MAX without memory. */
static size_t pair_get(void **root, uint64_t a, uint64_t b, size_t new)
{
	struct pair key = { a, b, new }, *k, **f = tfind(&key, root, by_pair);

	if (f)
		return (*f)->v;
	k = malloc(sizeof(*k));
	if (k)
		*k = key;
	if (!k || !tsearch(k, root, by_pair)) {
		free(k);
		return SIZE_MAX;
	}
	return new;
}

struct build {
	const struct capture *c;
	struct prof_graph *g;
	void *fns;   /* (symbol or bucket, kind) -> function */
	void *nodes; /* (parent, function) -> node */
	size_t capfn, capnode;
};

static uint64_t name_hash(const char *module, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const char *p = module ? module : ""; *p; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
	h = (h ^ 0xff) * 0x100000001b3ull;
	for (const char *p = name; *p; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
	return h;
}

/*
 * The function of symbol F or, without one, of ADDR's bucket ("[user]",
 * "[unmapped]"): one per kind, module and name, as the flat profile's.
 */
static size_t fn_of(struct build *b, const struct prof_sym *f, uint64_t addr)
{
	enum prof_kind k = f ? f->kind : prof_addr_kind(addr);
	const char *name = f ? f->name : k == PK_USER ? "[user]" : "[unmapped]";
	const char *module = f ? f->module : NULL;
	struct prof_graph *g = b->g;
	size_t i = pair_get(&b->fns, name_hash(module, name), k, g->nfn);
	struct pg_fn *fn;

	if (i != g->nfn) /* (known, or SIZE_MAX) */
		return i;
	if (array_grow((void **)&g->fn, &b->capfn, g->nfn, sizeof(*g->fn)))
		return SIZE_MAX;
	fn = &g->fn[g->nfn++];
	*fn = (struct pg_fn){ .kind = k, .name = strdup(name) };
	fn->module = module ? strdup(module) : NULL;
	return fn->name && (!module || fn->module) ? i : SIZE_MAX;
}

/* The child of PARENT in function FN, made if new. */
static size_t child(struct build *b, size_t parent, size_t fn)
{
	struct prof_graph *g = b->g;
	size_t i = pair_get(&b->nodes, parent, fn, g->nnode);

	if (i != g->nnode)
		return i;
	if (array_grow((void **)&g->node, &b->capnode, g->nnode, sizeof(*g->node)))
		return SIZE_MAX;
	g->node[g->nnode++] = (struct pg_node){ .parent = parent, .fn = fn };
	return i;
}

/* Tag Q's nodes into the graph, each as the path of functions it is, its self times W. */
static int add_tag(struct build *b, const struct qp_tag *q, uint64_t w)
{
	const struct qprof *qp = &b->c->q;
	int bpf = prof_syms_bpf_set(&b->c->syms, q->tag);
	size_t *map = calloc(qp->nnode + 1, sizeof(*map)), user;
	int ret = 0;

	if (!map)
		return -ENOMEM;
	/* (a node comes after its parent: one pass names them all; map[0], the root, is 0) */
	for (size_t k = 1; !ret && k < qp->nnode; k++) {
		uint64_t key = qp->node[k].key;
		size_t fn = fn_of(b, prof_syms_find(&b->c->syms, bpf, key), key);

		map[k] = fn == SIZE_MAX ? SIZE_MAX : child(b, map[qp->node[k].parent], fn);
		ret = map[k] == SIZE_MAX ? -ENOMEM : 0;
	}
	/* what ran with no kernel frame, the root's own: user space */
	user = ret ? SIZE_MAX : fn_of(b, NULL, 0);
	map[0] = user == SIZE_MAX ? SIZE_MAX : child(b, 0, user);
	ret = ret ?: map[0] == SIZE_MAX ? -ENOMEM : 0;
	for (size_t k = 0; !ret && k < q->ns; k++)
		b->g->node[map[q->s[k].node]].self += (int64_t)(q->s[k].self * w);
	free(map);
	return ret;
}

/* Each node's total (itself and below), each function's self and children. */
static void totals(struct prof_graph *g)
{
	for (size_t i = g->nnode; i-- > 1;) { /* (children after parents) */
		g->node[i].total += g->node[i].self;
		g->node[g->node[i].parent].total += g->node[i].total;
	}
	for (size_t i = 1; i < g->nnode; i++) {
		struct pg_fn *f = &g->fn[g->node[i].fn];
		size_t a = g->node[i].parent;

		f->self += g->node[i].self;
		while (a && g->node[a].fn != g->node[i].fn)
			a = g->node[a].parent;
		if (!a) /* (not below itself: counted once) */
			f->children += g->node[i].total;
	}
}

static const char *label_of(struct build *b, int bpf, uint64_t addr)
{
	const struct prof_sym *f = prof_syms_find(&b->c->syms, bpf, addr);

	if (f)
		return f->name;
	return !addr ? "[none]" : prof_addr_kind(addr) == PK_USER ? "[user]" : "[unmapped]";
}

static int cmp_cause(const void *x, const void *y)
{
	const struct pg_cause *a = x, *b = y;

	if (a->insns != b->insns)
		return a->insns > b->insns ? -1 : 1;
	return a->count > b->count ? -1 : a->count < b->count;
}

/* Tag Q's recoveries; their causes by function, one line per pair. */
static int add_causes(struct build *b, const struct qp_tag *q)
{
	struct prof_graph *g = b->g;
	int bpf = prof_syms_bpf_set(&b->c->syms, q->tag);

	g->recoveries += q->recoveries;
	g->unmatched += q->unmatched;
	g->fallthroughs += q->fallthroughs;
	g->switches += q->switches;
	g->recovered += q->recovered;
	g->insns += q->insns;
	for (size_t k = 0; k < q->nrc; k++) {
		const char *at = label_of(b, bpf, q->rc[k].site);
		const char *frame = label_of(b, bpf, q->rc[k].expected);
		struct pg_cause *c = NULL;

		for (size_t i = 0; !c && i < g->ncause; i++)
			if (g->cause[i].unmatched == q->rc[k].unmatched &&
			    !strcmp(g->cause[i].at, at) && !strcmp(g->cause[i].frame, frame))
				c = &g->cause[i];
		if (!c) {
			c = realloc(g->cause, (g->ncause + 1) * sizeof(*c));
			if (!c)
				return -ENOMEM;
			g->cause = c;
			c = &c[g->ncause++];
			*c = (struct pg_cause){ .unmatched = q->rc[k].unmatched,
						.at = strdup(at),
						.frame = strdup(frame) };
			if (!c->at || !c->frame)
				return -ENOMEM;
		}
		c->count += q->rc[k].count;
		c->insns += q->rc[k].insns;
	}
	return 0;
}

int prof_graph_build(const struct capture *c, const uint64_t *w, struct prof_graph **out)
{
	struct build b = { .c = c, .capnode = 1024 };
	bool any = false;
	int ret = 0;

	*out = NULL;
	for (size_t i = 0; i < c->q.ntags; i++)
		any |= w[i] && c->q.tags[i].has_cg;
	if (!any)
		return 0;
	b.g = calloc(1, sizeof(*b.g));
	if (!b.g || !(b.g->node = calloc(b.capnode, sizeof(*b.g->node)))) {
		free(b.g);
		return -ENOMEM;
	}
	b.g->nnode = 1; /* the root */
	for (size_t i = 0; !ret && i < c->q.ntags; i++)
		if (w[i] && c->q.tags[i].has_cg)
			ret = add_tag(&b, &c->q.tags[i], w[i]) ?: add_causes(&b, &c->q.tags[i]);
	tdestroy(b.fns, free);
	tdestroy(b.nodes, free);
	if (ret) {
		prof_graph_free(b.g);
		return ret;
	}
	totals(b.g);
	if (b.g->ncause)
		qsort(b.g->cause, b.g->ncause, sizeof(*b.g->cause), cmp_cause);
	*out = b.g;
	return 0;
}

void prof_graph_free(struct prof_graph *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->nfn; i++) {
		free(g->fn[i].name);
		free(g->fn[i].module);
	}
	for (size_t i = 0; i < g->ncause; i++) {
		free(g->cause[i].at);
		free(g->cause[i].frame);
	}
	free(g->fn);
	free(g->node);
	free(g->cause);
	free(g);
}

char *prof_graph_chain(const struct prof_graph *g, size_t n, const char *sep, bool leaf_first)
{
	size_t len = 1, depth = 0, k = 0;
	const char **names;
	char *out, *p;

	for (size_t i = n; i; i = g->node[i].parent, depth++)
		len += strlen(g->fn[g->node[i].fn].name) + strlen(sep);
	names = calloc(depth + 1, sizeof(*names));
	out = malloc(len);
	if (!names || !out) {
		free(names);
		free(out);
		return NULL;
	}
	for (size_t i = n; i; i = g->node[i].parent)
		names[leaf_first ? k++ : depth - 1 - k++] = g->fn[g->node[i].fn].name;
	p = out;
	*p = '\0';
	for (size_t i = 0; i < depth; i++)
		p += sprintf(p, "%s%s", i ? sep : "", names[i]);
	free(names);
	return out;
}
