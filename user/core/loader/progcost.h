/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What our BPF programs cost per run, from the kernel's BPF run-time stats
 * (BPF_ENABLE_STATS: on while the returned fd is open, so they go off when
 * the process ends, however it ends).
 */
#ifndef PPBENCH_PROGCOST_H
#define PPBENCH_PROGCOST_H

#include <stdbool.h>
#include <stdint.h>
#include <bpf/libbpf.h>
#include "model/load_types.h"

#define PROGCOST_MAX 32

struct prog_costs {
	bool on; /* stats_fd holds the stats on */
	int stats_fd;
	int n;
	int fd[PROGCOST_MAX];
	struct prog_cost first[PROGCOST_MAX]; /* at progcost_start() */
};

/* Turn the stats on; -errno if the kernel refuses. */
int progcost_enable(struct prog_costs *pc);
/* Follow every loaded program of obj. */
void progcost_add(struct prog_costs *pc, struct bpf_object *obj);
/* The counters now, as the baseline. */
int progcost_start(struct prog_costs *pc);
/* Each program's runs and time since progcost_start(), into out[pc->n]. */
int progcost_read(const struct prog_costs *pc, struct prog_cost *out);
void progcost_close(struct prog_costs *pc);

#endif
