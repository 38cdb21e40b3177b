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

int pmu_counter_by_name(const char *name)
{
	for (int i = 0; name && i < NR_PMU_COUNTERS; i++)
		if (!strcmp(name, counters[i].name))
			return i;
	return -1;
}

bool pmu_counter_instructions(enum pmu_counter i)
{
	return counters[i].config == PERF_COUNT_HW_INSTRUCTIONS;
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
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
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

enum pmu_window pmu_window_add(const uint64_t *v, uint64_t acc[NR_PMU_COUNTERS])
{
	if (!v[2])
		return PMU_UNSCHEDULED;
	if (v[2] < v[1])
		return PMU_MULTIPLEXED;
	for (uint64_t i = 0; i < v[0] && i < NR_PMU_COUNTERS; i++)
		acc[i] += v[3 + i];
	return PMU_WHOLE;
}

int pmu_stop(struct pmu *p, uint64_t acc[NR_PMU_COUNTERS])
{
	uint64_t v[3 + NR_PMU_COUNTERS] = { 0 };
	ssize_t n;

	if (ioctl(p->fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP))
		return -errno;
	n = read(p->fd[0], v, sizeof(v));
	if (n < (ssize_t)(3 * sizeof(uint64_t)))
		return n < 0 ? -errno : -EIO;
	p->enabled = v[1];
	p->running = v[2];
	return pmu_window_add(v, acc);
}

int pmu_trial(struct pmu *p, char *why, size_t len)
{
	static const char *const words[] = { "", "multiplexed with other events",
					     "never scheduled" };
	uint64_t acc[NR_PMU_COUNTERS] = { 0 };
	int ret = pmu_start(p);

	getppid();
	ret = ret ?: pmu_stop(p, acc);
	if (ret > 0) {
		snprintf(why, len,
			 "the CPU's counters were %s (counted %llu of %llu ns): their sums would "
			 "read low; free the PMU (other perf users, the NMI watchdog)",
			 words[ret], (unsigned long long)p->running,
			 (unsigned long long)p->enabled);
		return -EBUSY;
	}
	if (ret < 0)
		snprintf(why, len, "the CPU's counters cannot be read: %s", strerror(-ret));
	return ret;
}
