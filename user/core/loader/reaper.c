// SPDX-License-Identifier: GPL-2.0
/* Remove a libxdp-attached program when ppbench dies (see reaper.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xdp/libxdp.h>
#include "loader/reaper.h"
#include "sys/log.h"

/* Our program, if it is still on the interface: as its only program
 * (libxdp's legacy fallback) or as one of its dispatcher's. */
static void remove_if_ours(int ifindex, uint32_t prog_id)
{
	struct xdp_multiprog *mp = xdp_multiprog__get_from_ifindex(ifindex);
	struct xdp_program *p = NULL;
	int err = -ENOENT;

	if (libxdp_get_error(mp))
		return;
	if (xdp_multiprog__is_legacy(mp)) {
		p = xdp_multiprog__main_prog(mp);
		if (p && xdp_program__id(p) == prog_id)
			err = xdp_multiprog__detach(mp);
	} else {
		while ((p = xdp_multiprog__next_prog(p, mp)) && xdp_program__id(p) != prog_id)
			;
		if (p)
			err = xdp_program__detach(p, ifindex, xdp_multiprog__attach_mode(mp), 0);
	}
	if (!err)
		pr_warn("removed XDP program %u that a dead ppbench left on ifindex %d\n", prog_id,
			ifindex);
	else if (err != -ENOENT)
		pr_err("cannot remove XDP program %u that a dead ppbench left on ifindex %d: %s\n",
		       prog_id, ifindex, strerror(-err));
	xdp_multiprog__close(mp);
}

static void __attribute__((noreturn)) reaper_main(int rfd, int ifindex, uint32_t prog_id)
{
	char c;

	setsid();
	prctl(PR_SET_NAME, "ppbench-reaper");
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	/* Hold nothing of ppbench's: its maps, links and the pipe's write end. */
	if (dup2(rfd, 3) < 0)
		_exit(1);
	close_range(4, ~0U, 0);
	while (read(3, &c, 1) < 0 && errno == EINTR)
		;
	remove_if_ours(ifindex, prog_id);
	_exit(0);
}

int reaper_start(struct reaper *r, int ifindex, uint32_t prog_id)
{
	int p[2];

	r->pid = -1;
	r->fd = -1;
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	r->pid = fork();
	if (r->pid < 0) {
		close(p[0]);
		close(p[1]);
		return -errno;
	}
	if (r->pid == 0)
		reaper_main(p[0], ifindex, prog_id);
	close(p[0]);
	r->fd = p[1];
	return 0;
}

void reaper_stop(struct reaper *r)
{
	if (r->fd >= 0)
		close(r->fd);
	if (r->pid > 0)
		while (waitpid(r->pid, NULL, 0) < 0 && errno == EINTR)
			;
	r->fd = -1;
	r->pid = -1;
}
