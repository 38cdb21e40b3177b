// SPDX-License-Identifier: GPL-2.0
/* The markers of vm --profile (markers.h). */
#include <string.h>
#include "instr/markers.h"
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

bool marker_active(void)
{
	char cmdline[4096];

	if (active < 0)
		active = HAVE_MARKERS &&
			 read_file_str("/proc/cmdline", cmdline, sizeof(cmdline)) >= 0 &&
			 marker_cmdline(cmdline);
	return active;
}

void marker_send(int op, uint64_t value)
{
	if (!marker_active())
		return;
	/* all 16: whatever a killed sender left in the plugin's value shifts out */
	for (int i = 60; i >= 0; i -= 4)
		mark(VMPROF_NIBBLE + (int)((value >> i) & 0xf));
	mark(op);
}

void marker_send_short(int op, uint64_t value)
{
	int i = 60;

	if (!marker_active())
		return;
	while (i > 0 && !(value >> i))
		i -= 4;
	for (; i >= 0; i -= 4)
		mark(VMPROF_NIBBLE + (int)((value >> i) & 0xf));
	mark(op);
}

void marker_op(int op)
{
	if (marker_active())
		mark(op);
}
