// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "sys/cpus.h"
#include "sys/log.h"
#include "sys/util.h"

int nr_possible_cpus(void)
{
	static int n;

	if (!n) {
		n = libbpf_num_possible_cpus();
		if (n < 0)
			pr_err("cannot count the possible CPUs (/sys/devices/system/cpu/possible): "
			       "%s\n",
			       strerror(-n));
	}
	return n;
}

bool cpu_is_online(int cpu)
{
	char path[96], buf[8];

	if (cpu < 0 || cpu >= nr_possible_cpus())
		return false;
	if (cpu == 0)
		return true; /* cpu0 often has no "online" file: it cannot go offline */
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	if (read_file_str(path, buf, sizeof(buf)) < 0)
		return file_exists(path) ? false : true;
	return buf[0] == '1';
}

int nr_online_cpus(void)
{
	long v = sysconf(_SC_NPROCESSORS_ONLN);

	return v > 0 ? (int)v : 1;
}

int parse_online_cpu(const char *s, const char *what, int *out)
{
	uint32_t v;
	int err = parse_u32(s, what, 0, nr_possible_cpus() - 1, &v);

	if (err)
		return err;
	if (!cpu_is_online(v)) {
		pr_err("%s %u is offline\n", what, v);
		return -EINVAL;
	}
	*out = v;
	return 0;
}
