// SPDX-License-Identifier: GPL-2.0
/* The CPU's instruction and cycle counters around a window (pmu.h). */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "sys/pmu.h"
#include "sys/util.h"

static const struct {
	const char *name, *words;
	uint64_t config;
	bool kernel;
} counters[NR_PMU_COUNTERS] = {
	[PMU_INSTR_KERNEL] = { "kernel_instructions", "kernel instructions",
			       PERF_COUNT_HW_INSTRUCTIONS, true },
	[PMU_INSTR_USER] = { "user_instructions", "user instructions", PERF_COUNT_HW_INSTRUCTIONS,
			     false },
	[PMU_CYCLES_KERNEL] = { "kernel_cycles", "kernel cycles", PERF_COUNT_HW_CPU_CYCLES, true },
	[PMU_CYCLES_USER] = { "user_cycles", "user cycles", PERF_COUNT_HW_CPU_CYCLES, false },
};

const char *pmu_counter_name(enum pmu_counter i)
{
	return counters[i].name;
}

const char *pmu_counter_words(enum pmu_counter i)
{
	return counters[i].words;
}

int pmu_counter_by_name(const char *name)
{
	for (int i = 0; i < NR_PMU_COUNTERS; i++)
		if (!strcmp(name, counters[i].name))
			return i;
	return -1;
}

static int open_one(enum pmu_counter i, int group)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(a),
		.config = counters[i].config,
		.disabled = group < 0, /* the leader starts the group */
		.exclude_user = counters[i].kernel,
		.exclude_kernel = !counters[i].kernel,
		.exclude_hv = 1,
		.read_format = PERF_FORMAT_GROUP,
	};

	return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
}

static void explain(int err, enum pmu_counter i, char *why, size_t len)
{
	char p[16] = "?";

	read_file_str("/proc/sys/kernel/perf_event_paranoid", p, sizeof(p));
	if (err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV)
		snprintf(why, len,
			 "no hardware counter of %s here (perf_event_open: %s): this CPU, or the "
			 "hypervisor it runs under, exposes no PMU",
			 counters[i].words, strerror(-err));
	else if (err == -EACCES || err == -EPERM)
		snprintf(why, len,
			 "perf_event_open refused counting %s (%s; kernel.perf_event_paranoid is "
			 "%s: kernel counts need 1 or less, or CAP_PERFMON)",
			 counters[i].words, strerror(-err), p);
	else
		snprintf(why, len, "perf_event_open cannot count %s: %s", counters[i].words,
			 strerror(-err));
}

int pmu_open(struct pmu *p, bool cycles, char *why, size_t len)
{
	int n = cycles ? NR_PMU_COUNTERS : PMU_CYCLES_KERNEL;

	for (int i = 0; i < NR_PMU_COUNTERS; i++)
		p->fd[i] = -1;
	p->cycles = cycles;
	for (int i = 0; i < n; i++) {
		p->fd[i] = open_one(i, i ? p->fd[0] : -1);
		if (p->fd[i] < 0) {
			int err = -errno;

			explain(err, i, why, len);
			pmu_close(p);
			return err;
		}
	}
	return 0;
}

void pmu_close(struct pmu *p)
{
	for (int i = 0; i < NR_PMU_COUNTERS; i++) {
		if (p->fd[i] >= 0)
			close(p->fd[i]);
		p->fd[i] = -1;
	}
}

int pmu_start(struct pmu *p)
{
	if (ioctl(p->fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP) ||
	    ioctl(p->fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP))
		return -errno;
	return 0;
}

int pmu_stop(struct pmu *p, uint64_t acc[NR_PMU_COUNTERS])
{
	uint64_t v[1 + NR_PMU_COUNTERS] = { 0 }; /* nr, then the values in group order */
	ssize_t n;

	if (ioctl(p->fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP))
		return -errno;
	n = read(p->fd[0], v, sizeof(v));
	if (n < (ssize_t)sizeof(uint64_t))
		return n < 0 ? -errno : -EIO;
	for (uint64_t i = 0; i < v[0] && i < NR_PMU_COUNTERS; i++)
		acc[i] += v[1 + i];
	return 0;
}
