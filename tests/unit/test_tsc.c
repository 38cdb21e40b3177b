// SPDX-License-Identifier: GPL-2.0
/* /proc/cpuinfo's reader (sys/tsc_clock.c), fed text. */
#include <stdlib.h>
#include "sys/cpufeat.h"
#include "sys/tsc_clock.h"
#include "unit.h"

static void parse(const char *text, size_t len, struct tsc_info *t)
{
	FILE *f = fmemopen((void *)text, len, "r");

	memset(t, 0, sizeof(*t));
	if (!ASSERT_TRUE(f, "fmemopen"))
		return;
	tsc_parse_cpuinfo(f, t);
	fclose(f);
}

void test_tsc_cpuinfo(void)
{
	static const char text[] = "processor\t: 0\nmodel name\t: AMD EPYC 7B13\n"
				   "flags\t\t: fpu tsc constant_tsc nonstop_tsc\n";
	struct tsc_info t;

	parse(text, sizeof(text) - 1, &t);
	ASSERT_STREQ(t.cpu_model, "AMD EPYC 7B13", "model");
	ASSERT_TRUE(t.constant && t.nonstop, "flags");
}

/*
 * Found with the hostinfo fuzz target: the model was taken two bytes after
 * the colon, also when the line ended at the colon; where fgets cut a long
 * line just after it, that was past the end of the line buffer (a stack
 * overflow under ASan).
 */
void test_tsc_cpuinfo_line_ends_at_colon(void)
{
	size_t len = 10 + 4084 + 1 + 5;
	char *text = malloc(len + 1);
	struct tsc_info t;

	if (!ASSERT_TRUE(text, "malloc"))
		return;
	snprintf(text, len + 1, "model name%0*d:tail\n", 4084, 0);
	parse(text, len, &t);
	ASSERT_STREQ(t.cpu_model, "", "a model cut at its colon is empty");
	parse("model name\t:\n", 13, &t);
	ASSERT_STREQ(t.cpu_model, "", "no model after the colon");
	parse("model name\t:X Y\n", 16, &t);
	ASSERT_STREQ(t.cpu_model, "X Y", "no space after the colon");
	free(text);
}

/* What the figures count on each kind of CPU and clock (sys/tsc_clock.c). */
void test_clock_kind_and_unit(void)
{
	struct inst_clock x86 = { .tsc = true, .counter = "TSC" };
	struct inst_clock arm = { .counter = "CNTVCT_EL0", .counter_hz = 25e6 };
	struct inst_clock vm = arm;

	vm.icount = true;
	ASSERT_STREQ(inst_clock_kind(&x86), "tsc", "x86-64");
	ASSERT_STREQ(inst_clock_unit(&x86), "cycles", "x86-64 unit");
	ASSERT_STREQ(inst_clock_kind(&arm), "ktime", "arm64: no cycle counter");
	ASSERT_STREQ(inst_clock_unit(&arm), "ns", "arm64 unit: ns, never timer ticks");
	ASSERT_STREQ(inst_clock_kind(&vm), "icount", "arm64 under icount");
	ASSERT_STREQ(inst_clock_unit(&vm), "instructions", "arm64 under icount unit");
}

/*
 * bench's header on arm64 hardware: ns of the kernel's clock, with the
 * counter's frequency (CNTFRQ_EL0) as a timer's, never its ticks as cycles.
 */
void test_clock_describe_arm64(void)
{
	struct inst_clock arm = { .counter = "CNTVCT_EL0", .counter_hz = 25e6 };
	char buf[384];

	inst_clock_describe(&arm, 0, buf, sizeof(buf));
	ASSERT_STREQ(buf,
		     "no cycle counter: cycles(tsc) and cycles below are ns of the kernel's clock "
		     "(CNTVCT_EL0 at 25.000 MHz, a tick per 40.0 ns, not CPU cycles)",
		     "arm64 hardware");
	ASSERT_FALSE(strstr(buf, "GHz"), "no cycle rate");
	arm.icount = true;
	arm.counter_hz = 62.5e6;
	snprintf(arm.qemu, sizeof(arm.qemu), "-icount shift=0,sleep=off");
	inst_clock_describe(&arm, 0, buf, sizeof(buf));
	ASSERT_STREQ(buf,
		     "instruction clock (qemu -icount shift=0,sleep=off): the kernel's clock "
		     "advances one ns per guest instruction (CNTVCT_EL0 at 62.500 MHz, a tick per "
		     "16 instructions), so cycles(tsc) and ns below count instructions",
		     "arm64 under icount");
}

void test_clock_describe_x86(void)
{
	struct inst_clock x86 = { .tsc = true, .counter = "TSC" };
	char buf[384];

	inst_clock_describe(&x86, 2.445e9, buf, sizeof(buf));
	ASSERT_STREQ(buf, "TSC 2.445 GHz", "x86-64");
	x86.icount = true;
	snprintf(x86.qemu, sizeof(x86.qemu), "-icount shift=0,sleep=off");
	inst_clock_describe(&x86, 1e9, buf, sizeof(buf));
	ASSERT_STREQ(buf,
		     "instruction clock (qemu -icount shift=0,sleep=off): one TSC tick per guest "
		     "instruction, so cycles(tsc) and ns below count instructions",
		     "x86-64 under icount");
}

/* arm64's /proc/cpuinfo: no model name, no flags; the core by its numbers. */
void test_tsc_cpuinfo_arm64(void)
{
	static const char text[] = "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\n"
				   "CPU implementer\t: 0x41\nCPU architecture: 8\n"
				   "CPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n\n"
				   "processor\t: 1\nCPU implementer\t: 0x42\nCPU part\t: 0xd40\n";
	struct tsc_info t;

	parse(text, sizeof(text) - 1, &t);
	ASSERT_STREQ(t.cpu_model, "arm64 implementer 0x41 part 0xd0c", "the first CPU's core");
	ASSERT_FALSE(t.constant || t.nonstop, "no TSC flags");
}

/* What the kernel command line says of the clock, as ppbench vm writes it. */
void test_inst_clock_parse(void)
{
	struct inst_clock c;

	inst_clock_parse("console=ttyS0 quiet ppbench.clock=icount:shift=0,sleep=off", &c);
	ASSERT_TRUE(c.icount && !c.tcg, "icount");
	ASSERT_STREQ(c.qemu, "-icount shift=0,sleep=off", "its options");
	ASSERT_STREQ(c.qemu_version, "", "no qemu release said");
	inst_clock_parse("quiet ppbench.clock=icount:shift=0,sleep=off ppbench.qemu=10.0.2\n", &c);
	ASSERT_STREQ(c.qemu_version, "10.0.2", "the qemu release vm said");
	inst_clock_parse("ppbench.qemu=7.2.22 ppbench.clock=icount", &c);
	ASSERT_STREQ(c.qemu_version, "7.2.22", "at the start of the line");
	inst_clock_parse("xppbench.qemu=7.2.22 ppbench.clock=icount", &c);
	ASSERT_STREQ(c.qemu_version, "", "only a word of its own");
	inst_clock_parse(
		"xppbench.qemu=7.2.22 ppbench.qemu=10.0.2 ppbench.clock=icount:shift=0,sleep=off",
		&c);
	ASSERT_STREQ(c.qemu_version, "10.0.2", "the word of its own after another's");
	c.tsc = true;
	ASSERT_STREQ(inst_clock_kind(&c), "icount", "kind");
	ASSERT_STREQ(inst_clock_unit(&c), "instructions", "unit");
	inst_clock_parse("ppbench.clock=tcg panic=-1", &c);
	ASSERT_TRUE(c.tcg && !c.icount, "plain emulation");
	ASSERT_STREQ(c.qemu, "-accel tcg", "its qemu");
	c.tsc = true;
	ASSERT_STREQ(inst_clock_kind(&c), "tcg", "a kind of its own: never compared with a host's");
	ASSERT_STREQ(inst_clock_unit(&c), "cycles", "the emulated TSC's");
	inst_clock_parse("xppbench.clock=tcg ppbench.clock=icountx", &c);
	ASSERT_TRUE(!c.tcg && !c.icount, "only whole words");
	c.tsc = true;
	ASSERT_STREQ(inst_clock_kind(&c), "tsc", "a host's TSC");
}

/* The CPU's feature words name themselves by a digest that any one word moves. */
void test_cpu_feat_digest(void)
{
	const char *a = "1.ecx=f6fa3203 1.edx=0f8bfbff 7.0.edx=00000000";
	const char *b = "1.ecx=f6fa3203 1.edx=0f8bfbff 7.0.edx=00000010"; /* + FSRM */
	char da[24], db[24], again[24];
	struct cpu_feat f;

	cpu_feat_digest(a, da, sizeof(da));
	cpu_feat_digest(b, db, sizeof(db));
	cpu_feat_digest(a, again, sizeof(again));
	ASSERT_EQ(strlen(da), 16, "16 hex digits");
	ASSERT_STREQ(da, again, "the same words, the same digest");
	ASSERT_TRUE(strcmp(da, db), "one bit more, another digest");
	cpu_feat_digest("", da, sizeof(da));
	ASSERT_STREQ(da, "cbf29ce484222325", "FNV-1a 64's offset basis for no words");
	cpu_feat_read(&f);
#if defined(__x86_64__)
	ASSERT_TRUE(!strncmp(f.words, "1.ecx=", 6), "x86-64: CPUID's words");
	cpu_feat_digest(f.words, da, sizeof(da));
	ASSERT_STREQ(f.digest, da, "the digest of the words read");
#endif
}
