// SPDX-License-Identifier: GPL-2.0
/*
 * A profile per source line (vm/prof_lines.c): a tiny "vmlinux" with DWARF
 * that the test builds (gcc -g -O1), its functions' addresses from nm, a
 * boot that KASLR moved, and each counted instruction charged to the line
 * DWARF gives it: a function's own line, an inlined callee's line, none for
 * a function outside the path; a boot that is not the vmlinux's is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vm/prof_build.h"
#include "unit.h"

/* Where KASLR put the boot's _text; the vmlinux's is 0x400000. */
#define BOOT_TEXT 0xffffffff8a000000ull
#define ELF_TEXT 0x400000ull

/* Each function on one line, so that every byte of it is that line's (but the inlined square's). */
static const char tiny_c[] = "static inline int pp_sq(int x) { return x * x; }\n"
			     "int page_pool_a(int x) { return x * 3 + 1; }\n"
			     "int page_pool_b(int x) { return pp_sq(x) ^ 5; }\n"
			     "int ktime_get(int x) { return x - 1; }\n";

struct tiny_fn {
	const char *name;
	unsigned long long addr, size; /* the vmlinux's */
};

/* Builds DIR/net/core/page_pool.c into DIR/vmlinux and reads its functions; 0 or -1. */
static int build_tiny(const char *dir, struct tiny_fn *fn, size_t n)
{
	char cmd[1024], name[64], l[256];
	unsigned long long a, s;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/net/core", dir);
	if (system(cmd))
		return -1;
	snprintf(cmd, sizeof(cmd), "%s/net/core/page_pool.c", dir);
	f = fopen(cmd, "w");
	if (!f || fputs(tiny_c, f) < 0 || fclose(f))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "cd %s && gcc -g -O1 -nostdlib -static -no-pie -Wl,-e,page_pool_a "
		 "-Wl,--defsym,_text=0x%llx -o vmlinux net/core/page_pool.c && nm -S vmlinux",
		 dir, ELF_TEXT);
	f = popen(cmd, "r");
	while (f && fgets(l, sizeof(l), f)) /* (a symbol without a size has 3 words) */
		for (size_t i = 0; sscanf(l, "%llx %llx %*s %63s", &a, &s, name) == 3 && i < n; i++)
			if (!strcmp(name, fn[i].name)) {
				fn[i].addr = a;
				fn[i].size = s;
			}
	return f && !pclose(f) ? 0 : -1;
}

static unsigned long long boot(unsigned long long addr)
{
	return addr - ELF_TEXT + BOOT_TEXT;
}

/*
 * The boot's kallsyms and the plugin's counts: each function a block of
 * one-byte "instructions" over all its bytes, page_pool_a's run 100 times,
 * page_pool_b's 10, ktime_get's 50; OFF moves page_pool_b from where the
 * vmlinux has it (a boot of another build).
 */
static int tiny_capture(struct capture *c, const struct tiny_fn *fn, unsigned long long off,
			char *err, size_t errlen)
{
	static const unsigned counts[] = { 100, 10, 50 };
	char *k = NULL, *q = NULL, ones[256];
	size_t nk = 0, nq = 0;
	FILE *fk = open_memstream(&k, &nk), *fq = open_memstream(&q, &nq);
	unsigned long long insns = 0, end = 0;
	int ret;

	fprintf(fk, "%016llx T _text\n%016llx T _stext\n", BOOT_TEXT, BOOT_TEXT);
	fprintf(fq, "qprof 1\napi 1 0 1\ntarget x86_64\n");
	for (int i = 0; i < 3; i++) {
		unsigned long long at = boot(fn[i].addr) + (i == 1 ? off : 0);

		fprintf(fk, "%016llx T %s\n", at, fn[i].name);
		memset(ones, '1', fn[i].size);
		ones[fn[i].size] = '\0';
		fprintf(fq, "tb %d %llx %llu %s -\n", i + 1, at, fn[i].size, ones);
		insns += counts[i] * fn[i].size;
		end = at + fn[i].size > end ? at + fn[i].size : end;
	}
	fprintf(fk, "%016llx T _etext\n", end + 16);
	fprintf(fq, "tag 7 windows 1 spans 1 elems 10 errors 0 insns %llu\n", insns);
	for (int i = 0; i < 3; i++)
		fprintf(fq, "c %d %u\n", i + 1, counts[i]);
	fprintf(fq, "end\n");
	fclose(fk);
	fclose(fq);
	ret = capture_parse(c, q, k, NULL, "7 scenario ring\n", NULL, err, errlen);
	free(k);
	free(q);
	return ret;
}

static const struct prof_line *line_at(const struct prof_lines *l, const char *at)
{
	for (size_t i = 0; i < l->nline; i++)
		if (!strcmp(l->line[i].at, at))
			return &l->line[i];
	return NULL;
}

/* The lines of a profile built from the tiny boot, against its vmlinux. */
static void check_lines(const struct tiny_fn *fn, const struct prof_lines *l)
{
	const struct prof_line *a = line_at(l, "net/core/page_pool.c:2"),
			       *sq = line_at(l, "net/core/page_pool.c:1"),
			       *b = line_at(l, "net/core/page_pool.c:3");

	ASSERT_EQ(l->insns, 100 * fn[0].size + 10 * fn[1].size, "the path's instructions");
	ASSERT_EQ(l->no_line, 0, "every one has a line");
	if (ASSERT_TRUE(a, "page_pool_a's line")) {
		ASSERT_EQ(a->insns, 100 * fn[0].size, "all of page_pool_a at its line");
		ASSERT_STREQ(a->fn, "page_pool_a", "named by its function");
	}
	/* the square inlined into page_pool_b counts at its own line */
	if (ASSERT_TRUE(sq && b, "page_pool_b's lines: the inlined callee's and its own")) {
		ASSERT_EQ(sq->insns + b->insns, 10 * fn[1].size, "page_pool_b's, all");
		ASSERT_STREQ(sq->fn, "page_pool_b", "the callee's line, of the function it ran in");
	}
	ASSERT_FALSE(line_at(l, "net/core/page_pool.c:4"), "ktime_get is not the path's");
	ASSERT_EQ(l->line[0].insns, 100 * fn[0].size, "the most first");
}

void test_prof_lines(void)
{
	struct tiny_fn fn[] = { { "page_pool_a" }, { "page_pool_b" }, { "ktime_get" } };
	char dir[] = "/tmp/ppb-lines.XXXXXX", path[300], err[120], rm[400];
	struct prof *p = NULL;
	const char *file;
	struct capture c;
	size_t n = 0;
	int line;

	if (system("command -v gcc >/dev/null && command -v nm >/dev/null")) {
		unit_skip_reason = "no gcc or nm to build a vmlinux with DWARF";
		return;
	}
	if (!ASSERT_TRUE(mkdtemp(dir), "mkdtemp") ||
	    !ASSERT_OK(build_tiny(dir, fn, 3), "gcc -g -O1 and nm") ||
	    !ASSERT_TRUE(fn[0].size && fn[1].size && fn[2].size && fn[1].size < 256, "nm -S"))
		goto out;
	snprintf(path, sizeof(path), "%s/vmlinux", dir);
	if (!ASSERT_OK(tiny_capture(&c, fn, 0, err, sizeof(err)), err))
		goto out;
	if (!ASSERT_OK(prof_dbg_open(path, &c.dbg, err, sizeof(err)), err) ||
	    !ASSERT_OK(prof_dbg_match(c.dbg, &c, err, sizeof(err)), err))
		goto free;
	ASSERT_EQ(prof_dbg_slide(c.dbg), (long long)(BOOT_TEXT - ELF_TEXT), "the KASLR slide");
	if (ASSERT_OK(prof_dbg_line(c.dbg, boot(fn[0].addr) + 1, &file, &line), "a boot address")) {
		ASSERT_STREQ(file, "net/core/page_pool.c", "relative to the build's directory");
		ASSERT_EQ(line, 2, "page_pool_a's line");
	}
	ASSERT_ERR(prof_dbg_line(c.dbg, fn[0].addr, &file, &line), "the vmlinux's own address");
	if (ASSERT_OK(prof_build(&c, &p, &n, err, sizeof(err)), err) && ASSERT_EQ(n, 1, "one") &&
	    ASSERT_TRUE(p[0].lines, "a profile with lines"))
		check_lines(fn, p[0].lines);
	prof_free_all(p, n);
free:
	capture_free(&c);
	/* a boot of another build: page_pool_b 16 bytes off where this vmlinux has it */
	if (ASSERT_OK(tiny_capture(&c, fn, 16, err, sizeof(err)), err) &&
	    ASSERT_OK(prof_dbg_open(path, &c.dbg, err, sizeof(err)), err)) {
		ASSERT_ERR(prof_dbg_match(c.dbg, &c, err, sizeof(err)), "another build");
		ASSERT_HAS_SUBSTR(err, "is not the booted kernel's vmlinux: no page_pool_b at",
				  "says so");
	}
	capture_free(&c);
	ASSERT_ERR(prof_dbg_open(dir, &c.dbg, err, sizeof(err)), "a directory");
	snprintf(path, sizeof(path), "%s/net/core/page_pool.c", dir);
	ASSERT_ERR(prof_dbg_open(path, &c.dbg, err, sizeof(err)), "a C file");
	ASSERT_HAS_SUBSTR(err, "page_pool.c: not an ELF file", "one line naming it");
out:
	snprintf(rm, sizeof(rm), "rm -rf %s", dir);
	if (system(rm))
		UNIT_FAIL("rm", "%s", rm);
}
