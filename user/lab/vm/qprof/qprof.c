// SPDX-License-Identifier: GPL-2.0
/*
 * qprof: the qemu TCG plugin of `ppbench vm --profile`
 * (qemu-system-x86_64 ... -icount shift=0 -plugin qprof-v1.so,out=FILE). It counts every
 * translation block's (TB's) executions inside the windows the guest marks (include/vmprof.h)
 * and writes them at qemu's exit in the format vm/prof_capture.h reads.
 *
 * One source, two builds (QPROF_API): qemu loads a plugin only when its qemu_plugin_version
 * lies in qemu's [min, cur] (vm_profile.c picks by release); the declarations below are
 * ours, from the documented ABI. Slots never move (API 1's inline op holds a raw pointer); a
 * retranslated TB with the same address and bytes gets its old slot back. Under -icount one
 * vCPU runs at a time and a TB runs whole, so the counts are exact. qemu 10.0's per-vCPU
 * inline ops break -icount with two or more vCPUs ("Bad icount read"): API 3 counts there
 * with a callback per TB execution.
 *
 * A timer window counts the spans between the test-run timer's calls of ktime_get (found
 * in the SITE ranges; a call ends its TB, so the count at the call is exact). ARM
 * retranslates everything so that TBs translated earlier get instrumented. The call graph
 * (x86-64; qpstack.h): a kernel TB with an event gets a callback on its last instruction, a
 * clock of instructions added inline says how many ran since the vCPU's last event. With one
 * clock for all vCPUs (API 1) those between two vCPUs' events go to the first (a switch,
 * counted). Callbacks run on the one thread -icount allows: they take no lock. A
 * rep-prefixed string instruction runs one iteration per execution of its TB under -icount.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vm/qprof/qprof_logic.h"
#include "vmprof.h"

#ifndef QPROF_API
#define QPROF_API 1
#endif
#if QPROF_API != 1 && QPROF_API != 3
#error "QPROF_API: 1 or 3 (user/lab/vm/vm_profile.c)"
#endif

#define QP_EXPORT __attribute__((visibility("default")))

/* ---- qemu's plugin API, as far as we use it --------------------------------- */
typedef uint64_t qp_id;

/* What qemu_plugin_install() receives (qemu_info_t). */
struct qp_info {
	const char *target_name;
	struct {
		int min, cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus, max_vcpus;
		} system;
	};
};

struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_plugin_scoreboard;

typedef void (*qp_exec_cb)(unsigned int vcpu, void *udata);

enum { QP_CB_NO_REGS = 0 }; /* enum qemu_plugin_cb_flags */
enum { QP_INLINE_ADD = 0 }; /* enum qemu_plugin_op: add an immediate to a u64 */

void qemu_plugin_register_vcpu_tb_trans_cb(qp_id id, void (*cb)(qp_id, struct qemu_plugin_tb *));
void qemu_plugin_register_atexit_cb(qp_id id, void (*cb)(qp_id, void *), void *udata);
void qemu_plugin_reset(qp_id id, void (*cb)(qp_id));
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, qp_exec_cb cb, int flags,
					    void *udata);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qp_exec_cb cb, int flags,
					  void *udata);
#if QPROF_API == 1
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, int op, void *ptr,
					      uint64_t imm);
#else
/* A scoreboard entry: OFFSET bytes into each vCPU's element (qemu_plugin_u64). */
struct qp_u64 {
	struct qemu_plugin_scoreboard *score;
	size_t offset;
};
size_t qemu_plugin_insn_data(const struct qemu_plugin_insn *insn, void *dest, size_t len);
struct qemu_plugin_scoreboard *qemu_plugin_scoreboard_new(size_t element_size);
void *qemu_plugin_scoreboard_find(struct qemu_plugin_scoreboard *score, unsigned int vcpu);
int qemu_plugin_num_vcpus(void);
void qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(struct qemu_plugin_tb *tb, int op,
						       struct qp_u64 entry, uint64_t imm);
#endif

QP_EXPORT int qemu_plugin_version = QPROF_API;
QP_EXPORT int qemu_plugin_install(qp_id id, const struct qp_info *info, int argc, char **argv);

/* ---- state ------------------------------------------------------------------ */
#define SLOTS_PER_CHUNK 4096
#define MAX_INSN 16  /* bytes: x86-64's longest instruction is 15 */
#define MAX_SITES 64 /* ranges of QPR_SITE */

struct slot {
	uint64_t vaddr, hash;
	uint32_t ninsns;
	char *lens;	  /* one hex digit per instruction */
	char *rep;	  /* "i,j" or NULL */
	struct qp_ev *ev; /* its event (NULL: none), as the symbols of generation GEN make it */
	uint32_t gen;
};

/* A recovery's cause: where, and what the frame in force was. */
#define MAX_CAUSES 64
struct cause {
	enum qp_note kind;
	uint64_t site, expected, count, insns;
};

/* The call graph's counts of a span, or of a tag's spans. */
struct cgcount {
	uint64_t notes[QPN_FALLTHROUGH + 1], recovered, switches;
};

struct tag {
	uint64_t tag, windows, spans, elems, errors;
	uint64_t *acc; /* per slot */
	size_t nacc;
	uint64_t *self; /* per node */
	size_t nself;
	struct cgcount cg;
	struct cause cause[MAX_CAUSES];
	size_t ncause;
};

/* A vCPU's shadow stack, and its clock where each vCPU has one. */
struct vcpu {
	struct qp_stack stack;
	uint64_t clock, last;
};

static struct {
	qp_id id;
	bool x86; /* else aarch64 */
	char *out, target[32];
	int api_min, api_cur;
	pthread_mutex_t lock;

	struct slot *slots;
	size_t nslots, cap;
	uint32_t *table; /* open addressing: slot + 1, 0 empty */
	size_t tcap;
	/* the counters: plain arrays, or (API 3, inline) per-vCPU scoreboards */
	bool scoreboards;
	uint64_t **plain;
	struct qemu_plugin_scoreboard **sb;
	size_t nchunks;

	uint64_t ktime;
	struct qp_proto proto;
	struct qp_win win;
	struct tag *tags;
	size_t ntags;
	uint64_t *snap; /* counts at the span's start */
	size_t nsnap;
	uint64_t translations, resets, proto_errors, calls_found;

	/* the call graph */
	struct qp_syms syms;
	bool armed;	  /* the kernel's symbols are in: FN_AT adds a program's */
	uint32_t gen;	  /* bumped at each ARM: the slots' events are made again */
	uint64_t fn_last; /* FN_NEXT's base */
	struct qp_cg cg;
	struct vcpu **vcpu;
	size_t nvcpu;
	/* the clock: API 1's, one for all (then LAST and LAST_VCPU are the events'), or per vCPU */
	bool one_clock;
	uint64_t clock, last;
	unsigned int last_vcpu;
	struct qemu_plugin_scoreboard *clock_sb;
	/* the open span's charges, the tag's once the span ends whole */
	uint64_t *span_self;
	size_t nspan_self;
	uint32_t *touched;
	size_t ntouched, captouched;
	struct cgcount span;
	struct qp_ev *evs; /* events are never freed: a flushed TB may still run one */
	size_t nevs;
	uint64_t events;
} g = { .lock = PTHREAD_MUTEX_INITIALIZER, .last_vcpu = UINT32_MAX };

/* qemu cannot go on without its plugin's counts: stop it. */
static void __attribute__((noreturn)) oom(void)
{
	fprintf(stderr, "qprof: out of memory\n");
	abort();
}

/* P, of OLD elements of SIZE, grown to N: the new ones zero. */
static void *xgrow(void *p, size_t old, size_t n, size_t size)
{
	char *q = realloc(p, n ? n * size : 1);

	if (!q)
		oom();
	memset(q + old * size, 0, (n - old) * size);
	return q;
}

/* ---- slots and their counters ----------------------------------------------- */
static uint64_t fnv(uint64_t h, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static size_t table_pos(uint64_t vaddr, uint64_t hash)
{
	return (size_t)((vaddr * 0x9e3779b97f4a7c15ull) ^ hash) & (g.tcap - 1);
}

static void table_grow(void)
{
	size_t n = g.tcap ? g.tcap * 2 : 1 << 16;

	free(g.table);
	g.table = xgrow(NULL, 0, n, sizeof(*g.table));
	g.tcap = n;
	for (size_t s = 0; s < g.nslots; s++) {
		size_t i = table_pos(g.slots[s].vaddr, g.slots[s].hash);

		while (g.table[i])
			i = (i + 1) & (g.tcap - 1);
		g.table[i] = s + 1;
	}
}

static void chunk_add(void)
{
	if (g.scoreboards) {
#if QPROF_API != 1
		g.sb = xgrow(g.sb, g.nchunks, g.nchunks + 1, sizeof(*g.sb));
		g.sb[g.nchunks] = qemu_plugin_scoreboard_new(SLOTS_PER_CHUNK * sizeof(uint64_t));
#endif
	} else {
		g.plain = xgrow(g.plain, g.nchunks, g.nchunks + 1, sizeof(*g.plain));
		g.plain[g.nchunks] = xgrow(NULL, 0, SLOTS_PER_CHUNK, sizeof(uint64_t));
	}
	g.nchunks++;
}

/* The slot of a TB: its old one when the same bytes at the same address come back. */
static size_t slot_get(uint64_t vaddr, uint64_t hash, uint32_t ninsns, const char *lens,
		       const char *rep)
{
	struct slot *s;
	size_t i;

	if (2 * (g.nslots + 1) > g.tcap)
		table_grow();
	for (i = table_pos(vaddr, hash); g.table[i]; i = (i + 1) & (g.tcap - 1)) {
		s = &g.slots[g.table[i] - 1];
		if (s->vaddr == vaddr && s->hash == hash && s->ninsns == ninsns &&
		    !strcmp(s->lens, lens))
			return g.table[i] - 1;
	}
	if (g.nslots == g.cap) {
		g.cap = g.cap ? 2 * g.cap : 1 << 14;
		g.slots = xgrow(g.slots, g.nslots, g.cap, sizeof(*g.slots));
	}
	if (g.nslots == g.nchunks * SLOTS_PER_CHUNK)
		chunk_add();
	s = &g.slots[g.nslots];
	*s = (struct slot){ .vaddr = vaddr,
			    .hash = hash,
			    .ninsns = ninsns,
			    .lens = strdup(lens),
			    .rep = rep[0] ? strdup(rep) : NULL };
	if (!s->lens || (rep[0] && !s->rep))
		oom();
	g.table[i] = ++g.nslots;
	return g.nslots - 1;
}

static struct vcpu *vcpu_of(unsigned int i);

#if QPROF_API != 1
/* A TB executed (API 3 with several vCPUs): UDATA is its slot. */
static void tb_exec(unsigned int vcpu, void *udata)
{
	size_t slot = (uintptr_t)udata;

	g.plain[slot / SLOTS_PER_CHUNK][slot % SLOTS_PER_CHUNK]++;
	(vcpu < g.nvcpu ? g.vcpu[vcpu] : vcpu_of(vcpu))->clock += g.slots[slot].ninsns;
}
#endif

/* The TB's executions into its slot, and its instructions onto the clock. */
static void count_tb(struct qemu_plugin_tb *tb, size_t slot, uint32_t ninsns)
{
	size_t c = slot / SLOTS_PER_CHUNK, o = slot % SLOTS_PER_CHUNK;

#if QPROF_API == 1
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QP_INLINE_ADD, &g.plain[c][o], 1);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QP_INLINE_ADD, &g.clock, ninsns);
#else
	if (g.scoreboards) {
		struct qp_u64 e = { g.sb[c], o * sizeof(uint64_t) }, k = { g.clock_sb, 0 };

		qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QP_INLINE_ADD, e, 1);
		qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QP_INLINE_ADD, k, ninsns);
	} else {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QP_CB_NO_REGS,
						     (void *)(uintptr_t)slot);
	}
#endif
}

/* Every slot's executions so far (all vCPUs) into OUT[0 .. nslots). */
static void read_counts(uint64_t *out)
{
	for (size_t c = 0; c < g.nchunks; c++) {
		size_t base = c * SLOTS_PER_CHUNK;
		size_t n = g.nslots - base < SLOTS_PER_CHUNK ? g.nslots - base : SLOTS_PER_CHUNK;

		if (!g.scoreboards) {
			memcpy(out + base, g.plain[c], n * sizeof(uint64_t));
			continue;
		}
#if QPROF_API != 1
		memset(out + base, 0, n * sizeof(uint64_t));
		for (int v = 0; v < qemu_plugin_num_vcpus(); v++) {
			const uint64_t *p = qemu_plugin_scoreboard_find(g.sb[c], v);

			for (size_t i = 0; i < n; i++)
				out[base + i] += p[i];
		}
#endif
	}
}

/* ---- windows ---------------------------------------------------------------- */
static struct tag *tag_of(uint64_t tag)
{
	for (size_t i = 0; i < g.ntags; i++)
		if (g.tags[i].tag == tag)
			return &g.tags[i];
	g.tags = xgrow(g.tags, g.ntags, g.ntags + 1, sizeof(*g.tags));
	g.tags[g.ntags].tag = tag;
	return &g.tags[g.ntags++];
}

/* ---- the call graph ----------------------------------------------------------- */
static struct vcpu *vcpu_of(unsigned int i)
{
	while (g.nvcpu <= i) {
		g.vcpu = xgrow(g.vcpu, g.nvcpu, g.nvcpu + 1, sizeof(*g.vcpu));
		g.vcpu[g.nvcpu++] = xgrow(NULL, 0, 1, sizeof(**g.vcpu));
	}
	return g.vcpu[i];
}

/* The vCPUs the clocks know: API 3 says how many there are, API 1 those seen. */
static size_t nvcpus(void)
{
#if QPROF_API != 1
	vcpu_of((unsigned int)qemu_plugin_num_vcpus() - 1);
#endif
	return g.nvcpu;
}

static uint64_t clock_of(unsigned int vcpu)
{
#if QPROF_API != 1
	if (g.scoreboards)
		return *(uint64_t *)qemu_plugin_scoreboard_find(g.clock_sb, vcpu);
	if (!g.one_clock)
		return vcpu_of(vcpu)->clock;
#endif
	(void)vcpu;
	return g.clock;
}

static void charge(void *ctx, uint32_t node, uint64_t n, bool suspect)
{
	(void)ctx;
	if (node >= g.nspan_self) {
		size_t cap = node + 1 > 2 * g.nspan_self ? node + 1 : 2 * g.nspan_self;

		g.span_self = xgrow(g.span_self, g.nspan_self, cap, sizeof(*g.span_self));
		g.nspan_self = cap;
	}
	if (!g.span_self[node]) {
		if (g.ntouched == g.captouched) {
			g.captouched = g.captouched ? 2 * g.captouched : 4096;
			g.touched = xgrow(g.touched, g.ntouched, g.captouched, sizeof(*g.touched));
		}
		g.touched[g.ntouched++] = node;
	}
	g.span_self[node] += n;
	if (suspect)
		g.span.recovered += n;
}

static void note(void *ctx, enum qp_note kind, uint64_t site, uint64_t expected, uint64_t n)
{
	struct tag *t;
	size_t i;

	(void)ctx;
	if (!g.win.span)
		return;
	g.span.notes[kind]++;
	if (kind == QPN_FALLTHROUGH)
		return;
	if (kind == QPN_RECOVER) /* (an unmatched one's are a suspect node's) */
		g.span.recovered += n;
	t = tag_of(g.win.tag);
	for (i = 0; i < t->ncause; i++)
		if (t->cause[i].kind == kind && t->cause[i].site == site &&
		    t->cause[i].expected == expected)
			break;
	if (i == MAX_CAUSES)
		return; /* (counted above, not named) */
	if (i == t->ncause)
		t->cause[t->ncause++] = (struct cause){ kind, site, expected, 0, 0 };
	t->cause[i].count++;
	t->cause[i].insns += n;
}

/* The open span's charges dropped (a span that did not end whole). */
static void span_clear(void)
{
	for (size_t i = 0; i < g.ntouched; i++)
		g.span_self[g.touched[i]] = 0;
	g.ntouched = 0;
	memset(&g.span, 0, sizeof(g.span));
}

/* A span starts: every vCPU's instructions count from now. */
static void graph_open(void)
{
	span_clear();
	g.last = g.clock;
	for (size_t i = 0; i < nvcpus(); i++)
		g.vcpu[i]->last = clock_of(i);
}

/* A span ends whole: every vCPU's instructions since its last event, then the tag's. */
static void graph_close(struct tag *t)
{
	for (size_t i = 0; i < nvcpus(); i++) {
		uint64_t d = g.one_clock ? (i == g.last_vcpu ? g.clock - g.last : 0)
					 : clock_of(i) - g.vcpu[i]->last;

		qp_cg_flush(&g.cg, &g.vcpu[i]->stack, d);
	}
	if (g.one_clock && g.last_vcpu >= g.nvcpu) /* (no event yet: no stack) */
		charge(NULL, 0, g.clock - g.last, false);
	if (t->nself < g.nspan_self) {
		t->self = xgrow(t->self, t->nself, g.nspan_self, sizeof(*t->self));
		t->nself = g.nspan_self;
	}
	for (size_t i = 0; i < g.ntouched; i++)
		t->self[g.touched[i]] += g.span_self[g.touched[i]];
	for (int k = 0; k <= QPN_FALLTHROUGH; k++)
		t->cg.notes[k] += g.span.notes[k];
	t->cg.recovered += g.span.recovered;
	t->cg.switches += g.span.switches;
	span_clear();
}

/* VCPU's instructions since its last event, 0 outside a span (one clock: see the top). */
static uint64_t take(unsigned int vcpu, struct vcpu *v, const struct qp_ev *ev)
{
	uint64_t now = clock_of(vcpu), d, own;

	if (!g.one_clock) {
		d = now - v->last;
		v->last = now;
		return g.win.span ? d : 0;
	}
	d = now - g.last;
	g.last = now;
	if (g.win.span && vcpu != g.last_vcpu && g.last_vcpu < g.nvcpu) {
		own = ev->ninsns < d ? ev->ninsns : d;
		qp_cg_charge(&g.cg, &g.vcpu[g.last_vcpu]->stack, d - own);
		g.span.switches++;
		d = own;
	}
	g.last_vcpu = vcpu;
	return g.win.span ? d : 0;
}

static void site(void);

/* A block with an event ran to its last instruction: UDATA is the event. */
static void ev_exec(unsigned int vcpu, void *udata)
{
	struct qp_ev *ev = udata;
	struct vcpu *v;

	if (!g.win.open)
		return;
	v = vcpu_of(vcpu);
	if (qp_cg_event(&g.cg, &v->stack, ev, take(vcpu, v, ev)))
		oom();
	if (ev->flags & QPE_F_SITE)
		site();
}

static struct qp_ev *ev_new(void)
{
	if (!g.nevs) {
		g.evs = xgrow(NULL, 0, 4096, sizeof(*g.evs));
		g.nevs = 4096;
	}
	g.nevs--;
	return g.evs++;
}

static void span_start(void)
{
	if (g.nsnap < g.nslots)
		g.snap = xgrow(g.snap, g.nsnap, g.nslots, sizeof(*g.snap));
	g.nsnap = g.nslots;
	read_counts(g.snap);
}

static void span_add(struct tag *t)
{
	uint64_t *now = xgrow(NULL, 0, g.nslots, sizeof(*now));

	read_counts(now);
	if (t->nacc < g.nslots) {
		t->acc = xgrow(t->acc, t->nacc, g.nslots, sizeof(*t->acc));
		t->nacc = g.nslots;
	}
	/* slots made during the span started at 0 */
	for (size_t s = 0; s < g.nslots; s++)
		t->acc[s] += now[s] - (s < g.nsnap ? g.snap[s] : 0);
	t->spans++;
	free(now);
}

static void act(enum qp_act a)
{
	struct tag *t = tag_of(g.win.tag);

	switch (a) {
	case QP_SNAP:
		span_start();
		graph_open();
		break;
	case QP_ADD:
		span_add(t);
		graph_close(t);
		break;
	case QP_DROP:
		t->errors++;
		span_clear();
		break;
	case QP_NONE:
		break;
	}
}

/* A call of ktime_get from the test-run timer's code is about to execute. */
static void site(void)
{
	if (g.win.open)
		act(qp_win_site(&g.win));
}

/* ERR: the window ends without its END. */
static void window_end(uint64_t elems, bool err)
{
	struct tag *t;

	if (!g.win.open) {
		g.proto_errors++;
		return;
	}
	t = tag_of(g.win.tag);
	t->errors += err;
	act(qp_win_end(&g.win));
	t->windows++;
	t->elems += elems;
}

/* ---- callbacks -------------------------------------------------------------- */
static void tb_trans(qp_id id, struct qemu_plugin_tb *tb);
static void at_exit(qp_id id, void *udata);

/* A reset drops every callback of ours: take them back (and count the flush). */
static void after_reset(qp_id id)
{
	pthread_mutex_lock(&g.lock);
	g.resets++;
	pthread_mutex_unlock(&g.lock);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
}

/* The symbols and ranges of code (a range's message alone has B, its end above A). */
static int graph_msg(const struct qp_msg *m)
{
	static const enum qp_rkind range[VMPROF_NR_OPS] = {
		[VMPROF_ENTRY_HI] = QPR_ENTRY,
		[VMPROF_RETTHUNK_HI] = QPR_RETTHUNK,
		[VMPROF_INDTHUNK_HI] = QPR_INDTHUNK,
		[VMPROF_SITE_HI] = QPR_SITE,
	};

	if (m->b && m->op == VMPROF_SITE_HI && g.syms.nr[QPR_SITE] == 2 * MAX_SITES) {
		g.proto_errors++;
		return 0;
	}
	if (m->b)
		return qp_syms_add_range(&g.syms, range[m->op], m->a, m->b);
	switch (m->op) {
	case VMPROF_FN_AT:
		g.fn_last = m->a;
		return qp_syms_add_fn(&g.syms, m->a, g.armed);
	case VMPROF_FN_NEXT:
		g.fn_last += m->a;
		return qp_syms_add_fn(&g.syms, g.fn_last, g.armed);
	case VMPROF_BPF_CLEAR:
		g.syms.nbpf = 0;
		return 0;
	}
	return 0;
}

/* A marker executed (in user space): UDATA is its op. */
static void marker_exec(unsigned int vcpu, void *udata)
{
	struct qp_msg m;
	bool arm = false;
	int r;

	(void)vcpu;
	pthread_mutex_lock(&g.lock);
	r = qp_proto_feed(&g.proto, (int)(uintptr_t)udata, &m);
	if (r < 0)
		g.proto_errors++;
	if (r <= 0)
		goto out;
	switch (m.op) {
	case VMPROF_KTIME:
		g.ktime = m.a;
		break;
	case VMPROF_ARM:
		arm = true;
		qp_syms_sort(&g.syms);
		g.armed = true;
		g.gen++;
		break;
	case VMPROF_BEGIN_TIMER:
	case VMPROF_BEGIN_WHOLE:
		if (g.win.open) /* no END: the window ends here */
			window_end(0, true);
		for (size_t i = 0; i < g.nvcpu; i++) /* (in user space: no kernel frame) */
			g.vcpu[i]->stack.depth = 0;
		act(qp_win_begin(&g.win, m.a, m.op == VMPROF_BEGIN_WHOLE));
		break;
	case VMPROF_END:
		window_end(m.a, false);
		break;
	default:
		if (graph_msg(&m))
			oom();
		break;
	}
out:
	pthread_mutex_unlock(&g.lock);
	/* (asynchronous: qemu flushes its TBs when this vCPU next leaves its loop) */
	if (arm)
		qemu_plugin_reset(g.id, after_reset);
}

/* What one instruction asks for: a marker's op (>= 0), and whether it calls ktime_get. */
static int insn_kind(uint64_t va, const uint8_t *b, size_t len, bool *ktime_call)
{
	uint64_t target;
	bool call;

	*ktime_call = false;
	if (g.x86) {
		if (!(va >> 63))
			return vmprof_x86_op(b, len);
		call = qp_x86_call(b, len, va, &target);
	} else {
		uint32_t w;

		if (len != 4)
			return -1;
		w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
		    (uint32_t)b[3] << 24;
		if (!(va >> 63))
			return vmprof_a64_op(w);
		call = qp_a64_bl(w, va, &target);
	}
	*ktime_call = call && qp_syms_in(&g.syms, QPR_SITE, va) && qp_calls_ktime(target, g.ktime);
	return -1;
}

/* Whether the call graph has what it needs: x86-64, and the kernel's functions. */
static bool graph_on(void)
{
	return g.x86 && g.syms.nfn;
}

/* Slot S's event (NULL: none) per generation of the symbols; KTIME: it calls ktime_get. */
static struct qp_ev *slot_event(struct slot *s, uint64_t site, const uint8_t *last, size_t len,
				bool ktime)
{
	struct qp_ev ev = { .ninsns = s->ninsns, .block = s->vaddr, .site = site };

	if (s->gen == g.gen)
		return s->ev;
	s->gen = g.gen;
	s->ev = NULL;
	if (graph_on() && s->vaddr >> 63)
		qp_syms_classify(&g.syms, s->vaddr, s->ninsns, site, last, len, &ev);
	if (ktime)
		ev.flags |= QPE_F_SITE;
	if (ev.kind == QPE_NONE && !ev.flags)
		return NULL;
	s->ev = ev_new();
	*s->ev = ev;
	g.events++;
	return s->ev;
}

static void tb_trans(qp_id id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), slot, rl = 0, len = 0;
	uint64_t hash = 0xcbf29ce484222325ull, va = 0;
	char lens[n + 1], rep[8 * n + 1];
	uint8_t buf[MAX_INSN];
	struct qemu_plugin_insn *in = NULL;
	struct qp_ev *ev;
	int ops[n + 1];
	bool ktime = false;

	(void)id;
	if (!n)
		return;
	rep[0] = '\0';
	pthread_mutex_lock(&g.lock);
	g.translations++;
	for (size_t i = 0; i < n; i++) {
		in = qemu_plugin_tb_get_insn(tb, i);
		len = qemu_plugin_insn_size(in);
		va = qemu_plugin_insn_vaddr(in);
		memset(buf, 0, sizeof(buf));
#if QPROF_API == 1
		memcpy(buf, qemu_plugin_insn_data(in), len < MAX_INSN ? len : MAX_INSN);
#else
		qemu_plugin_insn_data(in, buf, sizeof(buf));
#endif
		if (len > 15)
			len = 15;
		hash = fnv(hash, buf, len);
		lens[i] = "0123456789abcdef"[len];
		ops[i] = insn_kind(va, buf, len, &ktime);
		if (g.x86 && qp_x86_rep(buf, len))
			rl += snprintf(rep + rl, sizeof(rep) - rl, "%s%zu", rl ? "," : "", i);
	}
	lens[n] = '\0';
	slot = slot_get(qemu_plugin_tb_vaddr(tb), hash, n, lens, rep);
	count_tb(tb, slot, n);
	for (size_t i = 0; i < n; i++)
		if (ops[i] >= 0)
			qemu_plugin_register_vcpu_insn_exec_cb(qemu_plugin_tb_get_insn(tb, i),
							       marker_exec, QP_CB_NO_REGS,
							       (void *)(uintptr_t)ops[i]);
	/* (a call ends its TB: the timer's call of ktime_get is the last instruction) */
	g.calls_found += ktime;
	ev = slot_event(&g.slots[slot], va, buf, len, ktime);
	if (ev)
		qemu_plugin_register_vcpu_insn_exec_cb(in, ev_exec, QP_CB_NO_REGS, ev);
	pthread_mutex_unlock(&g.lock);
}

/* ---- output ----------------------------------------------------------------- */
/* The nodes some tag charged, and their ancestors, listed parent first. */
static void write_nodes(FILE *f)
{
	const struct qp_cct *c = &g.cg.cct;
	bool *used = xgrow(NULL, 0, c->nn + 1, sizeof(*used));

	for (size_t t = 0; t < g.ntags; t++)
		for (uint32_t n = 0; n < g.tags[t].nself && n < c->nn; n++)
			for (uint32_t k = n; g.tags[t].self[n] && k && !used[k]; k = c->n[k].parent)
				used[k] = true;
	/* (a child is made after its parent: its number is higher) */
	for (uint32_t n = 1; n < c->nn; n++)
		if (used[n])
			fprintf(f, "n %" PRIu32 " %" PRIu32 " %" PRIx64 "\n", n, c->n[n].parent,
				c->n[n].key);
	free(used);
}

static void write_graph(FILE *f, const struct tag *t)
{
	static const char *const kind[] = {
		[QPN_RECOVER] = "recover", [QPN_UNMATCHED] = "unmatched"
	};

	for (size_t n = 0; n < t->nself; n++)
		if (t->self[n])
			fprintf(f, "s %zu %" PRIu64 "\n", n, t->self[n]);
	fprintf(f,
		"cg recoveries %" PRIu64 " unmatched %" PRIu64 " fallthroughs %" PRIu64
		" recovered %" PRIu64 " switches %" PRIu64 "\n",
		t->cg.notes[QPN_RECOVER], t->cg.notes[QPN_UNMATCHED], t->cg.notes[QPN_FALLTHROUGH],
		t->cg.recovered, t->cg.switches);
	for (size_t i = 0; i < t->ncause; i++)
		fprintf(f, "rc %s %" PRIx64 " %" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
			kind[t->cause[i].kind], t->cause[i].site, t->cause[i].expected,
			t->cause[i].count, t->cause[i].insns);
}

static void write_tags(FILE *f)
{
	for (size_t s = 0; s < g.nslots; s++) {
		bool used = false;

		for (size_t t = 0; t < g.ntags; t++)
			used |= s < g.tags[t].nacc && g.tags[t].acc[s];
		if (used)
			fprintf(f, "tb %zu %" PRIx64 " %" PRIu32 " %s %s\n", s, g.slots[s].vaddr,
				g.slots[s].ninsns, g.slots[s].lens,
				g.slots[s].rep ? g.slots[s].rep : "-");
	}
	if (graph_on())
		write_nodes(f);
	for (size_t i = 0; i < g.ntags; i++) {
		struct tag *t = &g.tags[i];
		uint64_t insns = 0;

		for (size_t s = 0; s < t->nacc; s++)
			insns += t->acc[s] * g.slots[s].ninsns;
		fprintf(f,
			"tag %" PRIu64 " windows %" PRIu64 " spans %" PRIu64 " elems %" PRIu64
			" errors %" PRIu64 " insns %" PRIu64 "\n",
			t->tag, t->windows, t->spans, t->elems, t->errors, insns);
		for (size_t s = 0; s < t->nacc; s++)
			if (t->acc[s])
				fprintf(f, "c %zu %" PRIu64 "\n", s, t->acc[s]);
		if (graph_on())
			write_graph(f, t);
	}
}

static void at_exit(qp_id id, void *udata)
{
	char tmp[4096];
	FILE *f;

	(void)id;
	(void)udata;
	pthread_mutex_lock(&g.lock);
	if (g.win.open) /* the guest ended inside a window */
		window_end(0, true);
	snprintf(tmp, sizeof(tmp), "%s.tmp", g.out);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "qprof: cannot write %s: %s\n", tmp, strerror(errno));
		goto out;
	}
	fprintf(f, "qprof 2\n");
	fprintf(f, "# ppbench vm --profile: TB executions inside the guest's windows\n");
	fprintf(f,
		"# functions %zu programs %zu entries %zu thunks %zu %zu events %" PRIu64
		" nodes %" PRIu32 "\n",
		g.syms.nfn, g.syms.nbpf, g.syms.nr[QPR_ENTRY] / 2, g.syms.nr[QPR_RETTHUNK] / 2,
		g.syms.nr[QPR_INDTHUNK] / 2, g.events, g.cg.cct.nn);
	fprintf(f,
		"# slots %zu translations %" PRIu64 " resets %" PRIu64 " protocol_errors %" PRIu64
		" ktime_calls %" PRIu64 "\n",
		g.nslots, g.translations, g.resets, g.proto_errors, g.calls_found);
	fprintf(f, "# ktime %" PRIx64 " counting %s\n", g.ktime,
		QPROF_API == 1	? "inline"
		: g.scoreboards ? "inline per vCPU"
				: "callback per TB");
	for (size_t i = 0; i < g.syms.nr[QPR_SITE]; i += 2)
		fprintf(f, "# site %" PRIx64 " %" PRIx64 "\n", g.syms.r[QPR_SITE][i],
			g.syms.r[QPR_SITE][i + 1]);
	fprintf(f, "api %d %d %d\n", g.api_cur, g.api_min, QPROF_API);
	fprintf(f, "target %s\n", g.target);
	write_tags(f);
	fprintf(f, "end\n");
	if (fclose(f) || rename(tmp, g.out))
		fprintf(stderr, "qprof: cannot write %s: %s\n", g.out, strerror(errno));
out:
	pthread_mutex_unlock(&g.lock);
}

QP_EXPORT int qemu_plugin_install(qp_id id, const struct qp_info *info, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			g.out = argv[i] + 4;
			continue;
		}
		fprintf(stderr, "qprof: unknown argument '%s' (out=FILE)\n", argv[i]);
		return -1;
	}
	if (!g.out) {
		fprintf(stderr, "qprof: no output file (out=FILE)\n");
		return -1;
	}
	if (!info->system_emulation) {
		fprintf(stderr, "qprof: counts a guest system, not a user-mode program\n");
		return -1;
	}
	g.x86 = !strcmp(info->target_name, "x86_64");
	if (!g.x86 && strcmp(info->target_name, "aarch64")) {
		fprintf(stderr, "qprof: target %s: only x86_64 and aarch64\n", info->target_name);
		return -1;
	}
	snprintf(g.target, sizeof(g.target), "%s", info->target_name);
	g.scoreboards = QPROF_API != 1 && info->system.smp_vcpus == 1;
	g.one_clock = QPROF_API == 1;
#if QPROF_API != 1
	if (g.scoreboards)
		g.clock_sb = qemu_plugin_scoreboard_new(sizeof(uint64_t));
#endif
	g.cg.charge = charge;
	g.cg.note = note;
	if (qp_cg_init(&g.cg))
		oom();
	g.id = id;
	g.api_min = info->version.min;
	g.api_cur = info->version.cur;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
