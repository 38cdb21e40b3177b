// SPDX-License-Identifier: GPL-2.0
/* The guest's side of vm --profile (guest_profile.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "instr/guest_profile.h"
#include "sys/log.h"
#include "sys/util.h"
#include "vmprof.h"

#if defined(__x86_64__)
#define MARK(op) asm volatile(".byte 0x0f, 0x1f, 0x80, %c0, 0x42, 0x42, 0x50" ::"i"(op) : "memory")
#define HAVE_MARKERS 1
#elif defined(__aarch64__)
#define MARK(op) asm volatile(".inst %c0" ::"i"(VMPROF_A64_WORD(op)) : "memory")
#define HAVE_MARKERS 1
#else
#define MARK(op) ((void)(op))
#define HAVE_MARKERS 0
#endif

/* A marker's op must be an immediate: one instruction per op. */
#define CASE(op)                                                                                   \
	case op:                                                                                   \
		MARK(op);                                                                          \
		break

static void mark(int op)
{
	switch (op) {
		CASE(0x00);
		CASE(0x01);
		CASE(0x02);
		CASE(0x03);
		CASE(0x04);
		CASE(0x05);
		CASE(0x06);
		CASE(0x07);
		CASE(0x08);
		CASE(0x09);
		CASE(0x0a);
		CASE(0x0b);
		CASE(0x0c);
		CASE(0x0d);
		CASE(0x0e);
		CASE(0x0f);
		CASE(VMPROF_KTIME);
		CASE(VMPROF_SITE_LO);
		CASE(VMPROF_SITE_HI);
		CASE(VMPROF_ARM);
		CASE(VMPROF_BEGIN_TIMER);
		CASE(VMPROF_BEGIN_WHOLE);
		CASE(VMPROF_END);
		CASE(VMPROF_ENTRY_HI);
		CASE(VMPROF_RETTHUNK_HI);
		CASE(VMPROF_INDTHUNK_HI);
		CASE(VMPROF_FN_AT);
		CASE(VMPROF_FN_NEXT);
		CASE(VMPROF_BPF_CLEAR);
	default:
		break;
	}
}

bool marker_cmdline(const char *cmdline)
{
	const char *word = VMPROF_CMDLINE;
	size_t n = strlen(word);

	for (const char *p = strstr(cmdline, word); p; p = strstr(p + 1, word))
		if ((p == cmdline || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return true;
	return false;
}

static int active = -1;

void marker_set_active(bool on)
{
	active = HAVE_MARKERS && on;
}

static bool marker_active(void)
{
	char cmdline[4096];

	if (active < 0)
		active = HAVE_MARKERS &&
			 read_file_str("/proc/cmdline", cmdline, sizeof(cmdline)) >= 0 &&
			 marker_cmdline(cmdline);
	return active;
}

/* ALL 16 nibbles: whatever a killed sender left in the plugin's value shifts out. */
static void send_value(int op, uint64_t value, bool all)
{
	int i = 60;

	if (!marker_active())
		return;
	while (!all && i > 0 && !(value >> i))
		i -= 4;
	for (; i >= 0; i -= 4)
		mark(VMPROF_NIBBLE + (int)((value >> i) & 0xf));
	mark(op);
}

void marker_send(int op, uint64_t value)
{
	send_value(op, value, true);
}

void marker_op(int op)
{
	if (marker_active())
		mark(op);
}

/*
 * The functions of net/bpf/test_run.c that may hold the timer's calls of
 * ktime_get (the timer's own may be inlined into the runners), with any
 * suffix of a specialised copy (.isra.0).
 */
static const char *const timer_funcs[] = {
	"bpf_test_timer_enter", "bpf_test_timer_continue", "bpf_test_run_xdp_live",
	"bpf_test_run",		"bpf_prog_test_run_xdp",
};

static bool is_timer_func(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(timer_funcs); i++) {
		size_t n = strlen(timer_funcs[i]);

		if (!strncmp(name, timer_funcs[i], n) && (!name[n] || name[n] == '.'))
			return true;
	}
	return false;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/*
 * What the call graph needs to know of a kernel function by its name: the
 * entry points of interrupts, exceptions and syscalls (the stub TABLEs: any
 * block in them, their stubs having no entries of their own), the return
 * thunks and the indirect-branch thunks.
 */
static int range_op(const char *name, bool *table)
{
	static const char *const entries[] = {
		"asm_int80_emulation", "asm_fred_entrypoint_user", "asm_fred_entrypoint_kernel",
		"entry_SYSCALL_64",    "entry_SYSCALL_compat",	   "entry_SYSENTER_compat",
		"entry_INT80_compat",  "entry_SYSCALL32_ignore",
	};

	*table = !strcmp(name, "irq_entries_start") || !strcmp(name, "spurious_entries_start");
	if (*table || starts(name, "asm_exc_") || starts(name, "asm_sysvec_"))
		return VMPROF_ENTRY_HI;
	for (size_t i = 0; i < ARRAY_SIZE(entries); i++)
		if (!strcmp(name, entries[i]))
			return VMPROF_ENTRY_HI;
	if (ends(name, "return_thunk") || ends(name, "srso_safe_ret") ||
	    ends(name, "srso_alias_safe_ret"))
		return VMPROF_RETTHUNK_HI;
	if (starts(name, "__x86_indirect_") && strstr(name, "thunk"))
		return VMPROF_INDTHUNK_HI;
	return -1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The smallest of the N sorted addresses above ADDR, or 0. */
static uint64_t next_above(const uint64_t *addr, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (addr[mid] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n ? addr[lo] : 0;
}

/* A text symbol of the kernel or a module: where it is, and whose padding it is. */
struct tsym {
	uint64_t addr, name; /* name: a hash of the function's name */
	bool pad;	     /* __pfx_NAME, __cfi_NAME: NAME's padding, its true start */
};

static int by_tsym(const void *a, const void *b)
{
	const struct tsym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (int)y->pad - (int)x->pad;
}

static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 0x100000001b3ull;
	return h;
}

/* Every function's start, once: a function with padding starts at its padding. */
static int fn_starts(struct tsym *t, size_t n, struct guest_prof_sites *s)
{
	uint64_t pad_addr = 0, pad_name = 0, *skip = calloc(n + 1, sizeof(*skip));
	size_t k = 0, nskip = 0, j = 0;

	s->fn = calloc(n + 1, sizeof(*s->fn));
	if (!s->fn || !skip) {
		free(skip);
		return -ENOMEM;
	}
	if (n)
		qsort(t, n, sizeof(*t), by_tsym);
	for (size_t i = 0; i < n; i++) /* (pads sort first at an address) */
		if (t[i].pad) {
			pad_addr = t[i].addr;
			pad_name = t[i].name;
		} else if (t[i].name == pad_name && t[i].addr - pad_addr <= 64 &&
			   (!nskip || skip[nskip - 1] != t[i].addr)) {
			skip[nskip++] = t[i].addr;
		}
	for (size_t i = 0; i < n; i++) {
		while (j < nskip && skip[j] < t[i].addr)
			j++;
		if ((j < nskip && skip[j] == t[i].addr) || (k && s->fn[k - 1] == t[i].addr))
			continue;
		s->fn[k++] = t[i].addr;
	}
	s->nfn = k;
	free(skip);
	return 0;
}

struct parse {
	uint64_t *text; /* the kernel's own text symbols */
	size_t ntext, captext, captsym, caprange;
	struct tsym *tsym; /* and the modules' */
	size_t ntsym;
	uint64_t starts[GUEST_PROF_MAX_SITES];
	int nstarts;
	bool nonzero;
};

/* One line: "ADDR TYPE NAME" for the kernel's own, "ADDR TYPE NAME\t[MODULE]" else. */
static int parse_line(struct parse *p, struct guest_prof_sites *s, const char *line)
{
	char type, name[256];
	const char *fn = name;
	bool module = strchr(line, '[') != NULL, table;
	uint64_t a;
	int op;

	if (sscanf(line, "%" SCNx64 " %c %255s", &a, &type, name) != 3)
		return 0;
	p->nonzero |= a != 0;
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	if (module && strstr(line, "[bpf]"))
		return 0; /* (a window's programs, sent with the window) */
	if (array_grow((void **)&p->tsym, &p->captsym, p->ntsym, sizeof(*p->tsym)))
		return -ENOMEM;
	if (starts(name, "__pfx_") || starts(name, "__cfi_"))
		fn = name + 6;
	p->tsym[p->ntsym++] = (struct tsym){ a, name_hash(fn), fn != name };
	if (module)
		return 0;
	if (array_grow((void **)&p->text, &p->captext, p->ntext, sizeof(*p->text)))
		return -ENOMEM;
	p->text[p->ntext++] = a;
	if (!strcmp(name, "ktime_get"))
		s->ktime = a;
	else if (is_timer_func(name) && p->nstarts < GUEST_PROF_MAX_SITES)
		p->starts[p->nstarts++] = a;
	op = range_op(name, &table);
	if (op < 0 || (s->nr && s->r[s->nr - 1].lo == a && s->r[s->nr - 1].op == op))
		return 0; /* (an alias: __x86_indirect_thunk_array is _rax) */
	if (array_grow((void **)&s->r, &p->caprange, s->nr, sizeof(*s->r)))
		return -ENOMEM;
	/* (the end is found once all are read: 0 for an entry point alone) */
	s->r[s->nr++] =
		(struct guest_prof_range){ a, table || op != VMPROF_ENTRY_HI ? 0 : a + 1, op };
	return 0;
}

int guest_prof_parse_sites(FILE *f, struct guest_prof_sites *s)
{
	struct parse p = { 0 };
	char line[512];
	int err = 0;

	memset(s, 0, sizeof(*s));
	while (!err && fgets(line, sizeof(line), f))
		err = parse_line(&p, s, line);
	if (!err && !p.nonzero)
		err = -EPERM;
	if (err)
		goto out;
	qsort(p.text, p.ntext, sizeof(*p.text), cmp_u64);
	for (int i = 0; i < p.nstarts; i++) {
		uint64_t end = next_above(p.text, p.ntext, p.starts[i]);

		if (!end)
			continue;
		s->lo[s->n] = p.starts[i];
		s->hi[s->n++] = end;
	}
	for (size_t i = 0; i < s->nr; i++)
		if (!s->r[i].hi)
			s->r[i].hi = next_above(p.text, p.ntext, s->r[i].lo) ?: s->r[i].lo + 1;
	err = fn_starts(p.tsym, p.ntsym, s);
	if (!err && (!s->ktime || !s->n))
		err = -ENOENT;
out:
	free(p.text);
	free(p.tsym);
	if (err && err != -ENOENT)
		guest_prof_sites_free(s);
	return err;
}

void guest_prof_sites_free(struct guest_prof_sites *s)
{
	free(s->fn);
	free(s->r);
	memset(s, 0, sizeof(*s));
}

static bool armed, told; /* (told: the plugin has the kernel's symbols) */

void guest_prof_arm(void)
{
	struct guest_prof_sites s;
	FILE *f;
	int err;

	if (armed || !marker_active())
		return;
	armed = true;
	f = fopen("/proc/kallsyms", "re");
	err = f ? guest_prof_parse_sites(f, &s) : -errno;
	if (f)
		fclose(f);
	if (err) {
		pr_warn("profile: cannot find ktime_get and the test-run timer in /proc/kallsyms "
			"(%s): its timed runs count nothing\n",
			strerror(-err));
		guest_prof_sites_free(&s);
		return;
	}
	marker_send(VMPROF_KTIME, s.ktime);
	for (int i = 0; i < s.n; i++) {
		marker_send(VMPROF_SITE_LO, s.lo[i]);
		marker_send(VMPROF_SITE_HI, s.hi[i]);
	}
#if defined(__x86_64__) /* (the call graph is x86-64's) */
	for (size_t i = 0; i < s.nr; i++) {
		marker_send(VMPROF_SITE_LO, s.r[i].lo);
		marker_send(s.r[i].op, s.r[i].hi);
	}
	/* the first start whole, the others as the step from the one before */
	for (size_t i = 0; i < s.nfn; i++)
		send_value(i ? VMPROF_FN_NEXT : VMPROF_FN_AT, s.fn[i] - (i ? s.fn[i - 1] : 0), !i);
	told = true;
#endif
	marker_op(VMPROF_ARM);
	guest_prof_sites_free(&s);
}

/* DIR/NAME in $PPBENCH_PROF_DIR, opened to append; NULL when there is none. */
static FILE *prof_file(const char *name)
{
	const char *dir = getenv(VMPROF_DIR_ENV);
	char path[4096];

	if (!dir || !*dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, "a+e");
}

uint32_t guest_prof_tag(const char *kind, const char *name, const char *extra)
{
	static uint32_t last;
	uint32_t tag = 1;
	char line[512];
	FILE *f;

	if (!marker_active())
		return 0;
	guest_prof_arm();
	f = prof_file("tags");
	if (!f) /* no directory: tags of this process only */
		return ++last;
	/* another ppbench of this boot may add a tag at the same time */
	flock(fileno(f), LOCK_EX);
	rewind(f);
	while (fgets(line, sizeof(line), f))
		tag++;
	fprintf(f, "%" PRIu32 " %s %s%s%s\n", tag, kind, name, extra && *extra ? " " : "",
		extra ? extra : "");
	fclose(f);
	last = tag;
	return tag;
}

/* "len ADDR BYTES" for each JIT image (subprograms too) of program FD. */
static void prog_lens(FILE *out, int fd)
{
	struct bpf_prog_info info = {};
	uint32_t len = sizeof(info), n;
	uint64_t *addr;
	uint32_t *bytes;

	if (bpf_obj_get_info_by_fd(fd, &info, &len) || !info.nr_jited_ksyms)
		return;
	n = info.nr_jited_ksyms < info.nr_jited_func_lens ? info.nr_jited_ksyms
							  : info.nr_jited_func_lens;
	addr = calloc(n ? n : 1, sizeof(*addr));
	bytes = calloc(n ? n : 1, sizeof(*bytes));
	memset(&info, 0, sizeof(info));
	info.nr_jited_ksyms = info.nr_jited_func_lens = n;
	info.jited_ksyms = (uintptr_t)addr;
	info.jited_func_lens = (uintptr_t)bytes;
	len = sizeof(info);
	if (addr && bytes && n && !bpf_obj_get_info_by_fd(fd, &info, &len))
		for (uint32_t i = 0; i < n; i++)
			fprintf(out, "len %" PRIx64 " %" PRIu32 "\n", addr[i], bytes[i]);
	free(addr);
	free(bytes);
}

/* bpf-TAG, opened to append; NULL when not profiling. */
static FILE *syms_file(uint32_t tag)
{
	char name[32];

	if (!tag)
		return NULL;
	snprintf(name, sizeof(name), "bpf-%" PRIu32, tag);
	return prof_file(name);
}

/* The lines of /proc/kallsyms whose module is MODULE ("bpf", "veth"), into OUT. */
static void kallsyms_of(FILE *out, const char *module)
{
	char want[80], line[512];
	FILE *in = fopen("/proc/kallsyms", "re");
	size_t n;

	n = (size_t)snprintf(want, sizeof(want), "[%s]\n", module);
	while (in && fgets(line, sizeof(line), in)) {
		size_t len = strlen(line);

		/* "ADDR t NAME\t[MODULE]" */
		if (len > n && !strcmp(line + len - n, want) &&
		    (line[len - n - 1] == '\t' || line[len - n - 1] == ' '))
			fputs(line, out);
	}
	if (in)
		fclose(in);
}

/*
 * A module's symbols, kept as section and offset: reading /proc/kallsyms
 * under qemu's plugin costs seconds, and a load only moves the sections.
 */
#define MOD_SECS 64
struct mod_secs {
	char name[MOD_SECS][48];
	uint64_t base[MOD_SECS];
	int n;
};

struct mod_sym {
	int sec;
	uint64_t off;
	char *tail; /* the line after its address: " t NAME\t[MODULE]\n" */
};

static struct {
	char module[64];
	struct mod_secs secs; /* of the load the symbols were read in */
	struct mod_sym *sym;
	size_t n;
} mod_cache;

/* MODULE's section addresses now; 0, or -1 when they cannot be read. */
static int read_secs(const char *module, struct mod_secs *s)
{
	char dir[128], path[512], val[32];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "/sys/module/%s/sections", module);
	d = opendir(dir);
	s->n = 0;
	while (d && (e = readdir(d)) && s->n < MOD_SECS) {
		unsigned long long a;

		if (e->d_name[0] != '.' || !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    strlen(e->d_name) >= sizeof(s->name[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (read_file_str(path, val, sizeof(val)) < 0 || sscanf(val, "%llx", &a) != 1 || !a)
			continue;
		strcpy(s->name[s->n], e->d_name);
		s->base[s->n++] = a;
	}
	if (d)
		closedir(d);
	return s->n ? 0 : -1;
}

/* The section of S holding ADDR (the highest base at or below it), or -1. */
static int sec_of(const struct mod_secs *s, uint64_t addr)
{
	int best = -1;

	for (int i = 0; i < s->n; i++)
		if (s->base[i] <= addr && (best < 0 || s->base[i] > s->base[best]))
			best = i;
	return best;
}

static int sec_named(const struct mod_secs *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return i;
	return -1;
}

static void cache_free(void)
{
	for (size_t i = 0; i < mod_cache.n; i++)
		free(mod_cache.sym[i].tail);
	free(mod_cache.sym);
	memset(&mod_cache, 0, sizeof(mod_cache));
}

/* MODULE's kallsyms lines, as loaded now (sections SECS), into the cache. */
static int cache_fill(const char *module, const struct mod_secs *secs)
{
	char *text = NULL, *line, *save;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return -1;
	kallsyms_of(f, module);
	fclose(f);
	cache_free();
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long a;
		char *tail;
		struct mod_sym *m;
		int sec;

		if (sscanf(line, "%llx", &a) != 1 || (sec = sec_of(secs, a)) < 0)
			continue;
		tail = line + strcspn(line, " \t");
		m = realloc(mod_cache.sym, (mod_cache.n + 1) * sizeof(*m));
		if (!m || asprintf(&m[mod_cache.n].tail, "%s\n", tail) < 0)
			break;
		mod_cache.sym = m;
		m[mod_cache.n].sec = sec;
		m[mod_cache.n++].off = a - secs->base[sec];
	}
	free(text);
	snprintf(mod_cache.module, sizeof(mod_cache.module), "%s", module);
	mod_cache.secs = *secs;
	return 0;
}

void guest_prof_mod_syms(uint32_t tag, const char *module)
{
	FILE *out = syms_file(tag);
	struct mod_secs now;

	if (!out)
		return;
	if (read_secs(module, &now)) {
		kallsyms_of(out, module); /* (no sections to move the symbols by) */
		fclose(out);
		return;
	}
	if (strcmp(mod_cache.module, module))
		cache_fill(module, &now);
	for (size_t i = 0; i < mod_cache.n; i++) {
		const struct mod_sym *m = &mod_cache.sym[i];
		int sec = sec_named(&now, mod_cache.secs.name[m->sec]);

		if (sec >= 0)
			fprintf(out, "%016" PRIx64 "%s", now.base[sec] + m->off, m->tail);
	}
	fclose(out);
}

/* The programs of TEXT ([bpf] lines) told the plugin in place of the last window's. */
static void bpf_fns(const char *text)
{
	unsigned long long a;

	if (!told)
		return;
	marker_op(VMPROF_BPF_CLEAR);
	for (const char *l = text; *l; l += strcspn(l, "\n"), l += *l == '\n')
		if (sscanf(l, "%llx", &a) == 1)
			marker_send(VMPROF_FN_AT, a);
	marker_op(VMPROF_ARM); /* (blocks translated before are classified again) */
}

void guest_prof_bpf_syms(uint32_t tag)
{
	uint32_t id = 0;
	FILE *out = syms_file(tag), *m;
	char *text = NULL;
	size_t len = 0;

	if (!out)
		return;
	m = open_memstream(&text, &len);
	if (m) {
		kallsyms_of(m, "bpf");
		fclose(m);
	}
	if (text) {
		fputs(text, out);
		bpf_fns(text);
	}
	free(text);
	while (!bpf_prog_get_next_id(id, &id)) {
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;
		prog_lens(out, fd);
		close(fd);
	}
	fclose(out);
}

static int window_begin(struct instrument *in, enum instr_span span)
{
	marker_send(span == INSTR_TIMED ? VMPROF_BEGIN_TIMER : VMPROF_BEGIN_WHOLE,
		    ((struct guest_prof *)in)->tag);
	return 0;
}

static int window_end(struct instrument *in, enum instr_span span, uint64_t elems, int err)
{
	(void)in;
	(void)span;
	(void)err;
	marker_send(VMPROF_END, elems);
	return 0;
}

void guest_prof_add(struct guest_prof *p, uint32_t tag)
{
	*p = (struct guest_prof){ .in = { .spans = 1u << INSTR_TIMED | 1u << INSTR_WHOLE,
					  .begin = window_begin,
					  .end = window_end },
				  .tag = tag };
	if (tag)
		instr_add(&p->in);
}
