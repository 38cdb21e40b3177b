/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_REAPER_H
#define PPBENCH_REAPER_H

#include <stdint.h>
#include <sys/types.h>

/*
 * libxdp attaches through netlink, not through a bpf_link, so the kernel
 * keeps its program on the interface when ppbench dies. A child process
 * waits on a pipe that only ppbench holds open: when the pipe reads EOF
 * (ppbench exited, however: even SIGKILL) it removes the program from the
 * interface if it is still ours. It ignores SIGINT/SIGTERM/SIGHUP and runs
 * in its own session, so a Ctrl-C or a group kill reaches ppbench only.
 */
struct reaper {
	pid_t pid;
	int fd; /* write end of the pipe */
};

int reaper_start(struct reaper *r, int ifindex, uint32_t prog_id);
/* After a normal detach: the child finds nothing of ours and exits. */
void reaper_stop(struct reaper *r);

#endif
