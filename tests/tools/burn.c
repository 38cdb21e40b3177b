// SPDX-License-Identifier: GPL-2.0
/*
 * ppb-burn NS -- COMMAND [ARGS]: run COMMAND while every page a page_pool
 * releases to the page allocator costs about NS more nanoseconds (a tp_btf
 * program on page_pool_state_release runs a loop calibrated to that long).
 * NS 0 attaches the same program without the loop: the reference that
 * carries the tracepoint's own cost. The program is a bpf_link of this
 * process: it goes when the process does, however it ends. Prints the
 * calibration and how often it fired; exits with COMMAND's status.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "burn.skel.h"

#define CALIB_RUNS 7

static int silent(enum libbpf_print_level l, const char *fmt, va_list ap)
{
	return l == LIBBPF_WARN ? vfprintf(stderr, fmt, ap) : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ns per loop iteration: the median of CALIB_RUNS timed loops in the kernel. */
static double calibrate(struct burn_bpf *skel)
{
	LIBBPF_OPTS(bpf_test_run_opts, o);
	int fd = bpf_program__fd(skel->progs.ppb_burn_calibrate);
	double per[CALIB_RUNS];

	for (int i = 0; i < CALIB_RUNS; i++) {
		if (bpf_prog_test_run_opts(fd, &o))
			return NAN;
		per[i] = (double)skel->bss->calib_ns / skel->rodata->calib_iters;
	}
	qsort(per, CALIB_RUNS, sizeof(per[0]), cmp_double);
	return per[CALIB_RUNS / 2];
}

static int load(struct burn_bpf **out, unsigned long ns, double *ns_per_iter, __u32 *iters)
{
	struct burn_bpf *skel = burn_bpf__open();
	int err;

	if (!skel)
		return -errno;
	/* First load: calibrate; the tp_btf program's loop count is then read-only data. */
	err = burn_bpf__load(skel);
	*ns_per_iter = err ? NAN : calibrate(skel);
	burn_bpf__destroy(skel);
	if (err || !isfinite(*ns_per_iter) || *ns_per_iter <= 0)
		return err ?: -EIO;
	*iters = (__u32)lround(ns / *ns_per_iter);
	skel = burn_bpf__open();
	if (!skel)
		return -errno;
	skel->rodata->burn_iters = *iters;
	err = burn_bpf__load(skel) ?: burn_bpf__attach(skel);
	if (err) {
		burn_bpf__destroy(skel);
		return err;
	}
	*out = skel;
	return 0;
}

int main(int argc, char **argv)
{
	struct burn_bpf *skel = NULL;
	double per = NAN;
	__u32 iters = 0;
	char *end;
	unsigned long ns;
	int status, err;
	pid_t pid;

	if (argc < 4 || strcmp(argv[2], "--")) {
		fprintf(stderr, "usage: ppb-burn NS -- COMMAND [ARGS]\n");
		return 2;
	}
	errno = 0;
	ns = strtoul(argv[1], &end, 10);
	if (errno || *end || !*argv[1] || ns > 2000) {
		fprintf(stderr, "ppb-burn: NS '%s': expected 0..2000\n", argv[1]);
		return 2;
	}
	libbpf_set_print(silent);
	err = load(&skel, ns, &per, &iters);
	if (err) {
		fprintf(stderr,
			"ppb-burn: cannot calibrate or attach tp_btf/page_pool_state_release: %s\n",
			strerror(-err));
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		execvp(argv[3], argv + 3);
		fprintf(stderr, "ppb-burn: %s: %s\n", argv[3], strerror(errno));
		_exit(127);
	}
	signal(SIGINT, SIG_IGN); /* the command gets it and ends; then we do */
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		status = 1 << 8;
	fprintf(stderr,
		"ppb-burn: %lu ns per release asked: %u iterations of %.3f ns (calibrated) = %.1f "
		"ns; "
		"fired %llu times\n",
		ns, iters, per, iters * per, (unsigned long long)skel->bss->fired);
	burn_bpf__destroy(skel);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
