// SPDX-License-Identifier: GPL-2.0
/* The TSC: its frequency, and which clock it runs on (the kernel command line says). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "sys/tsc_clock.h"
#include "sys/util.h"

#define CLOCK_PARAM "ppbench.clock=icount"
#define TCG_PARAM "ppbench.clock=tcg"
#define QEMU_PARAM "ppbench.qemu="

/* WORD on the command line at the start of a word (the line's, or after a
 * blank), ending it (at a blank, the end or a ':') unless PREFIX; NULL if not. */
static const char *find_word(const char *cmdline, const char *word, bool prefix)
{
	const char *p = cmdline;
	size_t n = strlen(word);

	while ((p = strstr(p, word))) {
		if ((p == cmdline || p[-1] == ' ') &&
		    (prefix || !p[n] || p[n] == ' ' || p[n] == ':'))
			return p;
		p += n;
	}
	return NULL;
}

void inst_clock_parse(const char *cmdline, struct inst_clock *c)
{
	size_t n = strlen(CLOCK_PARAM);
	const char *p;

	memset(c, 0, sizeof(*c));
	p = find_word(cmdline, QEMU_PARAM, true); /* "ppbench.qemu=10.0.2" */
	if (p) {
		p += strlen(QEMU_PARAM);
		snprintf(c->qemu_version, sizeof(c->qemu_version), "%.*s", (int)strcspn(p, " \n"),
			 p);
	}
	if (find_word(cmdline, TCG_PARAM, false)) {
		c->tcg = true;
		snprintf(c->qemu, sizeof(c->qemu), "-accel tcg");
		return;
	}
	p = find_word(cmdline, CLOCK_PARAM, false);
	if (!p)
		return;
	c->icount = true;
	p += n;
	if (*p == ':')
		snprintf(c->qemu, sizeof(c->qemu), "-icount %.*s", (int)strcspn(p + 1, " \n"),
			 p + 1);
	else
		snprintf(c->qemu, sizeof(c->qemu), "-icount");
}

/* This CPU's counter: the TSC, or arm64's generic timer and its frequency. */
static void read_counter(struct inst_clock *c)
{
#if defined(__aarch64__)
	uint64_t hz;

	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(hz));
	c->tsc = false;
	c->counter = "CNTVCT_EL0";
	c->counter_hz = (double)hz;
#else
	c->tsc = true;
	c->counter = "TSC";
#endif
}

const struct inst_clock *inst_clock(void)
{
	static struct inst_clock c;
	static bool read;
	char line[4096];

	if (!read) {
		read = true;
		if (read_file_str("/proc/cmdline", line, sizeof(line)) >= 0)
			inst_clock_parse(line, &c);
		read_counter(&c);
	}
	return &c;
}

const char *inst_clock_kind(const struct inst_clock *c)
{
	return c->icount ? "icount" : c->tcg ? "tcg" : c->tsc ? "tsc" : "ktime";
}

const char *inst_clock_unit(const struct inst_clock *c)
{
	return c->icount ? "instructions" : c->tsc ? "cycles" : "ns";
}

/* " (CNTVCT_EL0 at 62.500 MHz, a tick per 16 instructions)", or "" without a rate. */
static void timer_note(const struct inst_clock *c, const char *per, char *buf, size_t len)
{
	if (c->counter_hz > 0)
		snprintf(buf, len, " (%s at %.3f MHz, a tick per %.*f %s%s)", c->counter,
			 c->counter_hz / 1e6, c->icount ? 0 : 1, 1e9 / c->counter_hz, per,
			 c->icount ? "" : ", not CPU cycles");
	else
		snprintf(buf, len, "%s", "");
}

void inst_clock_describe(const struct inst_clock *c, double tsc_hz, char *buf, size_t len)
{
	char t[128];

	if (c->icount && c->tsc) {
		snprintf(buf, len,
			 "instruction clock (qemu %s): one TSC tick per guest instruction, so "
			 "cycles(tsc) and ns below count instructions",
			 c->qemu);
	} else if (c->icount) {
		timer_note(c, "instructions", t, sizeof(t));
		snprintf(buf, len,
			 "instruction clock (qemu %s): the kernel's clock advances one ns per "
			 "guest instruction%s, so cycles(tsc) and ns below count instructions",
			 c->qemu, t);
	} else if (c->tcg) {
		snprintf(buf, len,
			 "plain qemu emulation (%s): cycles(tsc) and ns below are the emulator's "
			 "pace and mean nothing (ppbench vm --clock icount counts instructions)",
			 c->qemu);
	} else if (c->tsc && tsc_hz > 0) {
		snprintf(buf, len, "TSC %.3f GHz", tsc_hz / 1e9);
	} else {
		timer_note(c, "ns", t, sizeof(t));
		snprintf(buf, len,
			 "no cycle counter: cycles(tsc) and cycles below are ns of the kernel's "
			 "clock%s",
			 t);
	}
}

static double measure_once(uint64_t window_ns)
{
	uint64_t t0, t1, c0, c1;

	t0 = now_ns();
	c0 = rdtsc();
	/* Busy-wait: a sleep could migrate us to a CPU whose TSC is not in sync. */
	do {
		t1 = now_ns();
	} while (t1 - t0 < window_ns);
	c1 = rdtsc();
	return (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
}

/* ": 0x41" -> "0x41" (at most LEN - 1 characters); "" when the line has no value. */
static void cpuinfo_value(const char *line, char *out, size_t len)
{
	const char *v = strchr(line, ':');

	v = v ? v + 1 + (v[1] == ' ') : "";
	snprintf(out, len, "%.*s", (int)strcspn(v, "\n"), v);
}

/*
 * arm64's /proc/cpuinfo has no model name: the implementer and part numbers
 * of the first CPU name its core ("arm64 implementer 0x41 part 0xd0c").
 */
static void arm64_model(FILE *f, struct tsc_info *t, const char *first)
{
	char line[4096], impl[16] = "", part[16] = "";

	snprintf(line, sizeof(line), "%s", first);
	do {
		if (!strncmp(line, "CPU implementer", 15) && !impl[0])
			cpuinfo_value(line, impl, sizeof(impl));
		else if (!strncmp(line, "CPU part", 8) && !part[0])
			cpuinfo_value(line, part, sizeof(part));
	} while ((!impl[0] || !part[0]) && fgets(line, sizeof(line), f));
	if (impl[0] && part[0])
		snprintf(t->cpu_model, sizeof(t->cpu_model), "arm64 implementer %s part %s", impl,
			 part);
}

void tsc_parse_cpuinfo(FILE *f, struct tsc_info *t)
{
	char line[4096];

	while (fgets(line, sizeof(line), f)) {
		if (!t->cpu_model[0] && !strncmp(line, "CPU implementer", 15)) {
			arm64_model(f, t, line);
			break;
		}
		if (!t->cpu_model[0] && !strncmp(line, "model name", 10))
			cpuinfo_value(line, t->cpu_model, sizeof(t->cpu_model));
		if (!strncmp(line, "flags", 5)) {
			t->constant = strstr(line, " constant_tsc") != NULL;
			t->nonstop = strstr(line, " nonstop_tsc") != NULL;
			break;
		}
	}
}

int tsc_calibrate(struct tsc_info *t)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	double v[3];

	memset(t, 0, sizeof(*t));
	if (f) {
		tsc_parse_cpuinfo(f, t);
		fclose(f);
	}
	if (read_file_str("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			  t->clocksource, sizeof(t->clocksource)) < 0)
		snprintf(t->clocksource, sizeof(t->clocksource), "unknown");
	if (!rdtsc())
		return -1; /* not x86: no TSC; callers report ns only */
	for (int i = 0; i < 3; i++)
		v[i] = measure_once(50 * 1000 * 1000);
	/* median of three 50 ms windows: robust to one preemption */
	t->hz = fmax(fmin(v[0], v[1]), fmin(fmax(v[0], v[1]), v[2]));
	return 0;
}

double tsc_ns_to_cycles(const struct tsc_info *t, double ns)
{
	return t->hz > 0 ? ns * t->hz / 1e9 : ns;
}
