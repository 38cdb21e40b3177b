// SPDX-License-Identifier: GPL-2.0
/* Per-program run time of our BPF programs, from the kernel's run-time stats. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "loader/progcost.h"

int progcost_enable(struct prog_costs *pc)
{
	memset(pc, 0, sizeof(*pc));
	pc->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (pc->stats_fd < 0)
		return -errno;
	pc->on = true;
	return 0;
}

void progcost_add(struct prog_costs *pc, struct bpf_object *obj)
{
	struct bpf_program *p;

	if (!obj)
		return;
	bpf_object__for_each_program(p, obj) {
		if (bpf_program__fd(p) < 0 || pc->n >= PROGCOST_MAX)
			continue;
		pc->fd[pc->n] = bpf_program__fd(p);
		snprintf(pc->first[pc->n].name, sizeof(pc->first[0].name), "%s",
			 bpf_program__name(p));
		pc->n++;
	}
}

static int read_one(int fd, struct prog_cost *c)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	c->run_ns = info.run_time_ns;
	c->runs = info.run_cnt;
	return 0;
}

int progcost_start(struct prog_costs *pc)
{
	for (int i = 0; i < pc->n; i++)
		if (read_one(pc->fd[i], &pc->first[i]))
			return -EIO;
	return 0;
}

int progcost_read(const struct prog_costs *pc, struct prog_cost *out)
{
	for (int i = 0; i < pc->n; i++) {
		struct prog_cost now;

		if (read_one(pc->fd[i], &now))
			return -EIO;
		out[i] = pc->first[i];
		out[i].run_ns = now.run_ns - pc->first[i].run_ns;
		out[i].runs = now.runs - pc->first[i].runs;
	}
	return 0;
}

void progcost_close(struct prog_costs *pc)
{
	if (pc->on)
		close(pc->stats_fd);
	pc->on = false;
}
