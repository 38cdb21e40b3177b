// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "sys/tsc.h"
#include "sys/util.h"

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
		if (!t->cpu_model[0] && !strncmp(line, "model name", 10)) {
			char *v = strchr(line, ':');

			if (v) {
				/* ": value"; a line may end at the colon (fgets cut it) */
				v += v[1] == ' ' ? 2 : 1;
				v[strcspn(v, "\n")] = '\0';
				snprintf(t->cpu_model, sizeof(t->cpu_model), "%s", v);
			}
		}
		if (!strncmp(line, "flags", 5)) {
			t->constant = strstr(line, " constant_tsc") != NULL;
			t->nonstop = strstr(line, " nonstop_tsc") != NULL;
			break;
		}
	}
}

static void read_cpuinfo(struct tsc_info *t)
{
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return;
	tsc_parse_cpuinfo(f, t);
	fclose(f);
}

int tsc_calibrate(struct tsc_info *t)
{
	double v[3], tmp;

	memset(t, 0, sizeof(*t));
	read_cpuinfo(t);
	if (read_file_str("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			  t->clocksource, sizeof(t->clocksource)) < 0)
		snprintf(t->clocksource, sizeof(t->clocksource), "unknown");
	if (!rdtsc())
		return -1; /* not x86: no TSC; callers report ns only */
	for (int i = 0; i < 3; i++)
		v[i] = measure_once(50 * 1000 * 1000);
	/* median of three 50 ms windows: robust to one preemption */
	if (v[0] > v[1])
		tmp = v[0], v[0] = v[1], v[1] = tmp;
	if (v[1] > v[2])
		tmp = v[1], v[1] = v[2], v[2] = tmp;
	if (v[0] > v[1])
		tmp = v[0], v[0] = v[1], v[1] = tmp;
	t->hz = v[1];
	return 0;
}

double tsc_ns_to_cycles(const struct tsc_info *t, double ns)
{
	return t->hz > 0 ? ns * t->hz / 1e9 : ns;
}
