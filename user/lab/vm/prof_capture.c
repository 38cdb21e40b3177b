// SPDX-License-Identifier: GPL-2.0
/* A capture directory of ppbench vm --profile, read and checked. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include "vm/prof_build.h"
#include "sys/util.h"

struct qp_parse {
	struct qprof *q;
	const char *label;
	size_t line;
	char *err;
	size_t errlen;
	bool ended, begun;
	size_t captb, captag, capc, capnode, caps, caprc;
};

__attribute__((format(printf, 2, 3))) static int bad(struct qp_parse *p, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s:%zu: %s", p->label, p->line, msg);
	return -EINVAL;
}

static bool u64_of(const char *s, int base, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	*out = strtoull(s, &end, base);
	return !*end && !errno;
}

/* REP: "-" or "0,3": the indices of rep-prefixed string instructions. */
static int parse_rep(struct qp_parse *p, struct qp_block *b, char *rep)
{
	if (!strcmp(rep, "-"))
		return 0;
	b->rep = calloc(strlen(rep) / 2 + 1, sizeof(*b->rep));
	if (!b->rep)
		return -ENOMEM;
	for (char *save, *t = strtok_r(rep, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint64_t i;

		if (!u64_of(t, 10, &i) || i >= b->ninsns)
			return bad(p, "tb %llu: rep index '%s' is not one of its %u instructions",
				   (unsigned long long)b->slot, t, b->ninsns);
		b->rep[b->nrep++] = (uint32_t)i;
	}
	return 0;
}

/* "tb SLOT VADDR NINSNS LENS REP" */
static int parse_tb(struct qp_parse *p, char **w, int n)
{
	struct qprof *q = p->q;
	struct qp_block *b;
	uint64_t ni;

	if (n != 6)
		return bad(p, "expected 'tb SLOT VADDR NINSNS LENS REP'");
	if (array_grow((void **)&q->tb, &p->captb, q->ntb, sizeof(*q->tb)))
		return -ENOMEM;
	b = memset(&q->tb[q->ntb], 0, sizeof(*b));
	if (!u64_of(w[1], 10, &b->slot) || !u64_of(w[2], 16, &b->vaddr) || !u64_of(w[3], 10, &ni) ||
	    !ni || ni > 65536)
		return bad(p, "expected 'tb SLOT VADDR NINSNS LENS REP' (decimal, hex, decimal)");
	b->ninsns = (uint32_t)ni;
	q->ntb++; /* (from here freed with the rest) */
	if (strlen(w[4]) != ni)
		return bad(p, "tb %llu: %zu lengths for %u instructions",
			   (unsigned long long)b->slot, strlen(w[4]), b->ninsns);
	b->len = malloc(ni);
	if (!b->len)
		return -ENOMEM;
	for (uint32_t i = 0; i < ni; i++) {
		char digit[2] = { w[4][i] };

		if (!strchr("123456789abcdefABCDEF", digit[0]))
			return bad(p, "tb %llu: length '%c' is not a hex digit 1-f",
				   (unsigned long long)b->slot, w[4][i]);
		b->len[i] = (uint8_t)strtoul(digit, NULL, 16);
	}
	return parse_rep(p, b, w[5]);
}

/* W[0], W[2]... are KEYS and W[1], W[3]... their decimal values, into V. */
static bool pairs(char **w, const char *const *keys, uint64_t **v, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(w[2 * i], keys[i]) || !u64_of(w[2 * i + 1], 10, v[i]))
			return false;
	return true;
}

/* "tag TAG windows W spans S elems E errors X insns N" */
static int parse_tag(struct qp_parse *p, char **w, int n)
{
	static const char *const keys[] = { "windows", "spans", "elems", "errors", "insns" };
	struct qprof *q = p->q;
	struct qp_tag *t;

	if (n != 12)
		return bad(p, "expected 'tag TAG windows W spans S elems E errors X insns N'");
	for (size_t i = 0; i < q->ntags; i++)
		if (!strcmp(q->tags[i].tag, w[1]))
			return bad(p, "tag %s appears twice", w[1]);
	if (array_grow((void **)&q->tags, &p->captag, q->ntags, sizeof(*q->tags)))
		return -ENOMEM;
	t = memset(&q->tags[q->ntags], 0, sizeof(*t));
	if (!pairs(w + 2, keys,
		   (uint64_t *[]){ &t->windows, &t->spans, &t->elems, &t->errors, &t->insns }, 5))
		return bad(p, "expected 'tag TAG windows W spans S elems E errors X insns N'");
	t->tag = strdup(w[1]);
	if (!t->tag)
		return -ENOMEM;
	q->ntags++;
	p->capc = p->caps = p->caprc = 0;
	return 0;
}

/* The index of node ID among the nodes listed so far (0: the root), or -1. */
static ssize_t node_index(const struct qprof *q, uint64_t id)
{
	const struct qp_gnode *g =
		q->nnode ? bsearch(&id, q->node, q->nnode, sizeof(*q->node), prof_by_u64) : NULL;

	return g ? g - q->node : -1;
}

/* "n NODE PARENT KEY", before any tag, in increasing order, each after its parent */
static int parse_node(struct qp_parse *p, char **w, int n)
{
	struct qprof *q = p->q;
	uint64_t id, parent, key;
	ssize_t pi;

	if (n != 4 || !u64_of(w[1], 10, &id) || !u64_of(w[2], 10, &parent) ||
	    !u64_of(w[3], 16, &key) || !id)
		return bad(p, "expected 'n NODE PARENT KEY' (decimal, decimal, hex)");
	if (q->ntags)
		return bad(p, "node %llu after a tag", (unsigned long long)id);
	if (!q->nnode) { /* the root */
		q->node = calloc(1, sizeof(*q->node));
		if (!q->node)
			return -ENOMEM;
		q->nnode = p->capnode = 1;
	}
	if (id <= q->node[q->nnode - 1].id)
		return bad(p, "node %llu out of order", (unsigned long long)id);
	pi = node_index(q, parent);
	if (pi < 0)
		return bad(p, "node %llu: its parent %llu is not listed before it",
			   (unsigned long long)id, (unsigned long long)parent);
	if (array_grow((void **)&q->node, &p->capnode, q->nnode, sizeof(*q->node)))
		return -ENOMEM;
	q->node[q->nnode++] = (struct qp_gnode){ id, key, (size_t)pi };
	return 0;
}

/* "s NODE SELF", of the last tag */
static int parse_s(struct qp_parse *p, char **w, int n)
{
	struct qp_tag *t = &p->q->tags[p->q->ntags - 1];
	uint64_t id, self;
	ssize_t i;

	if (n != 3 || !u64_of(w[1], 10, &id) || !u64_of(w[2], 10, &self))
		return bad(p, "expected 's NODE SELF'");
	i = id ? node_index(p->q, id) : 0;
	if (i < 0)
		return bad(p, "s %llu: no node %llu ('n %llu ...')", (unsigned long long)id,
			   (unsigned long long)id, (unsigned long long)id);
	if (array_grow((void **)&t->s, &p->caps, t->ns, sizeof(*t->s)))
		return -ENOMEM;
	t->s[t->ns++] = (struct qp_self){ (size_t)i, self };
	return 0;
}

/* "cg recoveries R unmatched U fallthroughs F recovered I switches W", of the last tag */
static int parse_cg(struct qp_parse *p, char **w, int n)
{
	static const char *const keys[] = { "recoveries", "unmatched", "fallthroughs", "recovered",
					    "switches" };
	struct qp_tag *t = &p->q->tags[p->q->ntags - 1];
	uint64_t *v[] = { &t->recoveries, &t->unmatched, &t->fallthroughs, &t->recovered,
			  &t->switches };

	if (n != 11 || t->has_cg)
		return bad(p,
			   t->has_cg ? "a second 'cg' line for tag %s"
				     : "expected 'cg recoveries R unmatched U fallthroughs F "
				       "recovered I switches W'",
			   t->tag);
	if (!pairs(w + 1, keys, v, 5))
		return bad(p, "expected 'cg recoveries R unmatched U fallthroughs F recovered I "
			      "switches W'");
	t->has_cg = true;
	return 0;
}

/* "rc KIND SITE EXPECTED COUNT INSNS", of the last tag */
static int parse_rc(struct qp_parse *p, char **w, int n)
{
	struct qp_tag *t = &p->q->tags[p->q->ntags - 1];
	struct qp_cause c = { 0 };

	if (n != 6 || (strcmp(w[1], "recover") && strcmp(w[1], "unmatched")) ||
	    !u64_of(w[2], 16, &c.site) || !u64_of(w[3], 16, &c.expected) ||
	    !u64_of(w[4], 10, &c.count) || !u64_of(w[5], 10, &c.insns))
		return bad(p, "expected 'rc recover|unmatched SITE EXPECTED COUNT INSNS'");
	c.unmatched = !strcmp(w[1], "unmatched");
	if (array_grow((void **)&t->rc, &p->caprc, t->nrc, sizeof(*t->rc)))
		return -ENOMEM;
	t->rc[t->nrc++] = c;
	return 0;
}

/* The call graph's lines: version 2, and but for nodes, of a tag. */
static int parse_graph(struct qp_parse *p, char **w, int n)
{
	if (p->q->version < 2)
		return bad(p, "a '%s' line in version %d, which has no call graph", w[0],
			   p->q->version);
	if (!strcmp(w[0], "n"))
		return parse_node(p, w, n);
	if (!p->q->ntags)
		return bad(p, "a '%s' line before any 'tag' line", w[0]);
	if (!strcmp(w[0], "s"))
		return parse_s(p, w, n);
	return !strcmp(w[0], "cg") ? parse_cg(p, w, n) : parse_rc(p, w, n);
}

/* "c SLOT COUNT", of the last tag */
static int parse_c(struct qp_parse *p, char **w, int n)
{
	struct qp_tag *t = p->q->ntags ? &p->q->tags[p->q->ntags - 1] : NULL;
	struct qp_count c = { 0 };

	if (!t)
		return bad(p, "a 'c' line before any 'tag' line");
	if (n != 3 || !u64_of(w[1], 10, &c.slot) || !u64_of(w[2], 10, &c.count))
		return bad(p, "expected 'c SLOT COUNT'");
	if (array_grow((void **)&t->c, &p->capc, t->nc, sizeof(*t->c)))
		return -ENOMEM;
	t->c[t->nc++] = c;
	return 0;
}

/* "api CUR MIN BUILT" and "target NAME": checked, read by no one */
static int parse_head(struct qp_parse *p, char **w, int n)
{
	int v;

	if (!strcmp(w[0], "api")) {
		if (n != 4 || sscanf(w[1], "%d", &v) != 1 || sscanf(w[2], "%d", &v) != 1 ||
		    sscanf(w[3], "%d", &v) != 1)
			return bad(p, "expected 'api CUR MIN BUILT'");
		return 0;
	}
	return n != 2 ? bad(p, "expected 'target NAME'") : 0;
}

static int parse_line(struct qp_parse *p, char *line)
{
	char *w[13];
	int n;

	line[strcspn(line, "#")] = '\0';
	n = prof_split_words(line, w, 12);
	if (!n)
		return 0;
	if (p->ended)
		return bad(p, "'%s' after the 'end' line", w[0]);
	if (!p->begun || !strcmp(w[0], "qprof")) {
		if (p->begun || n != 2 || strcmp(w[0], "qprof"))
			return bad(p, "not the plugin's output: the first line is not 'qprof 1'");
		p->begun = true;
		if (strcmp(w[1], "1") && strcmp(w[1], "2"))
			return bad(p, "version %s: this ppbench reads versions 1 and 2", w[1]);
		p->q->version = w[1][0] - '0';
		return 0;
	}
	if (!strcmp(w[0], "tb"))
		return parse_tb(p, w, n);
	if (!strcmp(w[0], "tag"))
		return parse_tag(p, w, n);
	if (!strcmp(w[0], "c"))
		return parse_c(p, w, n);
	if (!strcmp(w[0], "n") || !strcmp(w[0], "s") || !strcmp(w[0], "cg") || !strcmp(w[0], "rc"))
		return parse_graph(p, w, n);
	if (!strcmp(w[0], "api") || !strcmp(w[0], "target"))
		return parse_head(p, w, n);
	if (!strcmp(w[0], "end") && n == 1) {
		p->ended = true;
		return 0;
	}
	return bad(p, "unknown line '%s'", w[0]);
}

/* A tag's call graph charges its instructions, each once. */
static int resolve_graph(struct qp_parse *p, const struct qp_tag *t)
{
	unsigned __int128 sum = 0;

	if (!t->ns && !t->has_cg)
		return 0;
	for (size_t k = 0; k < t->ns; k++)
		sum += t->s[k].self;
	if (sum == t->insns && t->has_cg)
		return 0;
	snprintf(p->err, p->errlen,
		 t->has_cg ? "%s: tag %s: its call graph charges %llu instructions, its 'insns' "
			     "says %llu"
			   : "%s: tag %s: a call graph without its 'cg' line",
		 p->label, t->tag, (unsigned long long)sum, (unsigned long long)t->insns);
	return -EINVAL;
}

/* Every count's block, and each tag's insns: the sum of COUNT x NINSNS. */
static int resolve(struct qp_parse *p)
{
	struct qprof *q = p->q;

	if (q->ntb) /* (no blocks: no array at all) */
		qsort(q->tb, q->ntb, sizeof(*q->tb), prof_by_u64);
	for (size_t i = 1; i < q->ntb; i++)
		if (q->tb[i].slot == q->tb[i - 1].slot) {
			snprintf(p->err, p->errlen, "%s: block %llu is listed twice", p->label,
				 (unsigned long long)q->tb[i].slot);
			return -EINVAL;
		}
	for (size_t i = 0; i < q->ntags; i++) {
		struct qp_tag *t = &q->tags[i];
		unsigned __int128 sum = 0;

		for (size_t k = 0; k < t->nc; k++) {
			t->c[k].b = q->ntb ? bsearch(&t->c[k].slot, q->tb, q->ntb, sizeof(*q->tb),
						     prof_by_u64)
					   : NULL;
			if (!t->c[k].b) {
				snprintf(p->err, p->errlen,
					 "%s: tag %s counts block %llu, which no 'tb' line lists",
					 p->label, t->tag, (unsigned long long)t->c[k].slot);
				return -EINVAL;
			}
			sum += (unsigned __int128)t->c[k].count * t->c[k].b->ninsns;
		}
		if (sum != t->insns) {
			snprintf(p->err, p->errlen,
				 "%s: tag %s: its blocks sum to %llu instructions, its 'insns' "
				 "says %llu",
				 p->label, t->tag, (unsigned long long)sum,
				 (unsigned long long)t->insns);
			return -EINVAL;
		}
		if (resolve_graph(p, t))
			return -EINVAL;
	}
	return 0;
}

static void qprof_free(struct qprof *q)
{
	for (size_t i = 0; i < q->ntb; i++) {
		free(q->tb[i].len);
		free(q->tb[i].rep);
	}
	for (size_t i = 0; i < q->ntags; i++) {
		free(q->tags[i].tag);
		free(q->tags[i].c);
		free(q->tags[i].s);
		free(q->tags[i].rc);
	}
	free(q->tb);
	free(q->node);
	free(q->tags);
	memset(q, 0, sizeof(*q));
}

int qprof_parse(const char *text, size_t len, const char *label, struct qprof *q, char *err,
		size_t errlen)
{
	struct qp_parse p = { .q = q, .label = label, .err = err, .errlen = errlen };
	char *copy = malloc(len + 1), *line, *next;
	int ret = 0;

	memset(q, 0, sizeof(*q));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, text, len);
	copy[len] = '\0';
	for (line = copy; !ret && line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		p.line++;
		if (strlen(line) != (size_t)((next ? next - 1 : copy + len) - line))
			ret = bad(&p, "a NUL byte in the line");
		else
			ret = parse_line(&p, line);
	}
	free(copy);
	if (!ret && !p.begun) {
		snprintf(err, errlen, "%s is empty", label);
		ret = -EINVAL;
	}
	if (!ret && !p.ended) {
		snprintf(err, errlen,
			 "%s ends before its 'end' line: the plugin's output was cut short", label);
		ret = -EINVAL;
	}
	ret = ret ?: resolve(&p);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", label);
	if (ret)
		qprof_free(q);
	return ret;
}

/* ---- tags, meta, the directory ------------------------------------------------- */

static int parse_tags(struct capture *c, const char *text, char *err, size_t errlen)
{
	char *copy = strdup(text), *save, *line;
	size_t no = 0;
	int ret = copy ? 0 : -ENOMEM;

	for (line = copy ? strtok_r(copy, "\n", &save) : NULL; !ret && line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *w[3], *rest, *s = line;
		struct cap_tag *t;
		int n = 0;

		no++;
		while (n < 3 && (s += strspn(s, " \t\r"), *s)) {
			w[n++] = s;
			s += strcspn(s, " \t\r");
			if (*s)
				*s++ = '\0';
		}
		if (!n)
			continue;
		rest = s + strspn(s, " \t\r");
		rest[strcspn(rest, "\r")] = '\0';
		if (n < 3 || capture_tag(c, w[0])) {
			snprintf(err, errlen,
				 n < 3 ? "tags:%zu: expected 'TAG KIND NAME [KEY=VALUE...]'"
				       : "tags:%zu: tag %s appears twice",
				 no, w[0]);
			ret = -EINVAL;
			break;
		}
		t = realloc(c->tags, (c->ntags + 1) * sizeof(*t));
		if (!t) {
			ret = -ENOMEM;
			break;
		}
		c->tags = t;
		t = &t[c->ntags];
		*t = (struct cap_tag){ strdup(w[0]), strdup(w[1]), strdup(w[2]), strdup(rest) };
		c->ntags++;
		if (!t->tag || !t->kind || !t->name || !t->extra)
			ret = -ENOMEM;
	}
	free(copy);
	return ret;
}

static int parse_meta(struct capture *c, const char *text)
{
	char *copy = strdup(text), *save, *line;

	if (!copy)
		return -ENOMEM;
	for (line = strtok_r(copy, "\n", &save); line && c->nmeta < 8;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t k = strcspn(line, " \t");

		if (!k)
			continue;
		c->meta[c->nmeta][0] = strndup(line, k);
		c->meta[c->nmeta][1] = strdup(line + k + strspn(line + k, " \t"));
		c->nmeta++;
	}
	free(copy);
	return 0;
}

const char *capture_meta(const struct capture *c, const char *key)
{
	for (size_t i = 0; i < c->nmeta; i++)
		if (c->meta[i][0] && !strcmp(c->meta[i][0], key))
			return c->meta[i][1];
	return NULL;
}

uint64_t capture_page_size(const struct capture *c)
{
	const char *v = capture_meta(c, "page_size");
	char *end;
	unsigned long long n = v ? strtoull(v, &end, 10) : 0;

	/* a page is a power of two: anything else is not the guest's word */
	if (!v || *end || n < PROF_SYM_PAGE_MIN || (n & (n - 1)))
		return PROF_SYM_PAGE_MIN;
	return n;
}

const struct cap_tag *capture_tag(const struct capture *c, const char *tag)
{
	for (size_t i = 0; i < c->ntags; i++)
		if (!strcmp(c->tags[i].tag, tag))
			return &c->tags[i];
	return NULL;
}

int capture_parse(struct capture *c, const char *qprof, const char *kallsyms, const char *modules,
		  const char *tags, const char *meta, char *err, size_t errlen)
{
	int ret;

	memset(c, 0, sizeof(*c));
	ret = qprof_parse(qprof, strlen(qprof), "qprof.txt", &c->q, err, errlen);
	ret = ret ?: parse_meta(c, meta ? meta : "");
	ret = ret ?: prof_syms_load(&c->syms, kallsyms, modules, capture_page_size(c), err, errlen);
	ret = ret ?: parse_tags(c, tags ? tags : "", err, errlen);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return ret;
}

int capture_add_bpf(struct capture *c, const char *tag, const char *text, char *err, size_t errlen)
{
	char label[96];

	snprintf(label, sizeof(label), "bpf-%s", tag);
	return prof_syms_add_bpf(&c->syms, tag, text, label, err, errlen);
}

/* DIR/NAME's (DIR NULL: NAME's) whole text in *OUT (NUL-terminated); -ENOENT if it is not there. */
static int slurp(const char *dir, const char *name, char **out, size_t *len, char *err,
		 size_t errlen)
{
	char path[4096], buf[65536];
	size_t n, r;
	FILE *f, *m;
	bool rerr, oom;

	snprintf(path, sizeof(path), "%s%s%s", dir ?: "", dir ? "/" : "", name);
	f = fopen(path, "re");
	if (!f) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return e == ENOENT ? -ENOENT : -EINVAL;
	}
	*out = NULL;
	m = open_memstream(out, &n);
	while (m && (r = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, r, m);
	rerr = ferror(f);
	oom = !m || fclose(m);
	fclose(f);
	if (oom || rerr) {
		snprintf(err, errlen, "%s: %s", path, oom ? "out of memory" : "read error");
		free(*out);
		*out = NULL;
		return -EINVAL;
	}
	if (len)
		*len = n;
	return 0;
}

/* Every bpf-TAG file of DIR; one naming no tag of 'tags' is an error. */
static int load_bpf(const char *dir, struct capture *c, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0;

	if (!d) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -EINVAL;
	}
	while (!ret && (e = readdir(d))) {
		char *text = NULL;

		if (strncmp(e->d_name, "bpf-", 4) || !e->d_name[4])
			continue;
		if (!capture_tag(c, e->d_name + 4)) {
			snprintf(err, errlen, "%s/%s: tag %s is not in %s/tags", dir, e->d_name,
				 e->d_name + 4, dir);
			ret = -EINVAL;
			break;
		}
		ret = slurp(dir, e->d_name, &text, NULL, err, errlen);
		ret = ret ?: capture_add_bpf(c, e->d_name + 4, text, err, errlen);
		free(text);
	}
	closedir(d);
	return ret;
}

int capture_load(const char *dir, struct capture *c, char *err, size_t errlen)
{
	static const char *const names[] = { "qprof.txt", "kallsyms", "modules", "tags", "meta" };
	char *text[5] = { 0 };
	char label[4200];
	int ret = 0;

	memset(c, 0, sizeof(*c));
	for (int i = 0; i < 5 && !ret; i++) {
		ret = slurp(dir, names[i], &text[i], NULL, err, errlen);
		/* without modules the last symbol of a module ends within 64 KiB */
		if (ret == -ENOENT && (!strcmp(names[i], "modules") || !strcmp(names[i], "meta")))
			ret = 0;
	}
	if (!ret) {
		ret = capture_parse(c, text[0], text[1], text[2], text[3], text[4], err, errlen);
		if (ret) { /* the parsers name the file only: say where it is */
			snprintf(label, sizeof(label), "%s/%s", dir, err);
			snprintf(err, errlen, "%s", label);
		}
	}
	ret = ret ?: load_bpf(dir, c, err, errlen);
	for (int i = 0; i < 5; i++)
		free(text[i]);
	if (ret)
		capture_free(c);
	return ret;
}

void capture_free(struct capture *c)
{
	qprof_free(&c->q);
	prof_syms_free(&c->syms);
	for (size_t i = 0; i < c->ntags; i++) {
		free(c->tags[i].tag);
		free(c->tags[i].kind);
		free(c->tags[i].name);
		free(c->tags[i].extra);
	}
	free(c->tags);
	prof_dbg_close(c->dbg);
	free(c->nolines);
	for (size_t i = 0; i < c->nmeta; i++) {
		free(c->meta[i][0]);
		free(c->meta[i][1]);
	}
	memset(c, 0, sizeof(*c));
}

int prof_read_file(const char *path, char **text, size_t *len)
{
	char err[80];

	return slurp(NULL, path, text, len, err, sizeof(err)) ? -EIO : 0;
}
