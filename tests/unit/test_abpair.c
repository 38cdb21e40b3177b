// SPDX-License-Identifier: GPL-2.0
/* vm --against-* and --bisect: the result files' names and the run's status (vm/vm.c). */
#include <errno.h>
#include <stdlib.h>
#include "compare/bisect_status.h"
#include "vm/vm.h"
#include "unit.h"

static void tagged_is(const char *path, const char *tag, const char *want)
{
	char *got = ab_tagged_path(path, tag);

	ASSERT_STREQ(got, want, path);
	free(got);
}

void test_ab_tagged_path(void)
{
	tagged_is("r.json", "a", "r.a.json");
	tagged_is("/tmp/x.y/r.json", "b", "/tmp/x.y/r.b.json");
	tagged_is("out/keep", "a", "out/keep.a");
	tagged_is("dir.d/keep", "b", "dir.d/keep.b");
	tagged_is(".hidden", "a", ".hidden.a");
	tagged_is("r.old.json", "a", "r.old.a.json");
}

static int st(bool bisect, int rc_a, bool have_a, bool stop_a, int rc_b, bool have_b, bool stop_b)
{
	struct ab_end a = { rc_a, have_a, stop_a }, b = { rc_b, have_b, stop_b };

	return ab_status(bisect, &a, &b);
}

void test_ab_status(void)
{
	/* both results: compare decides */
	ASSERT_EQ(st(false, 0, true, false, 0, true, false), -1, "both");
	ASSERT_EQ(st(true, 1, true, false, 1, true, false), -1,
		  "both, a bench that skipped a scenario");
	/* the kernel under test did not boot or run; a was stopped for it */
	ASSERT_EQ(st(true, 1, false, true, 2, false, false), BISECT_SKIP, "bisect: b failed: skip");
	ASSERT_EQ(st(true, 0, true, false, 2, false, false), BISECT_SKIP,
		  "bisect: b failed after a");
	ASSERT_EQ(st(false, 1, false, true, 2, false, false), 2, "b failed: its status");
	ASSERT_EQ(st(false, 0, true, false, 0, false, false), 1, "b exited 0 without a file: 1");
	/* the baseline did not; b was stopped for it */
	ASSERT_EQ(st(true, 2, false, false, 1, false, true), BISECT_STOP, "bisect: a failed: stop");
	ASSERT_EQ(st(true, 2, false, false, 0, true, false), BISECT_STOP,
		  "bisect: a failed after b");
	ASSERT_EQ(st(false, 2, false, false, 1, false, true), 2, "a failed: its status");
	ASSERT_EQ(st(true, 1, false, false, 1, false, false), BISECT_SKIP,
		  "bisect: both failed on their own: b's skip");
	/* a signal stays a signal */
	ASSERT_EQ(st(true, 143, false, false, 143, false, false), 143, "SIGTERM");
	ASSERT_EQ(st(true, 0, true, false, 130, false, false), 130, "SIGINT in b");
}

/* A guest that failed for this machine (the script's hosterror) stops a bisection, whichever. */
void test_ab_status_host(void)
{
	struct ab_end a = { 0, true, false, false }, b = { 1, false, false, true };

	ASSERT_EQ(ab_status(true, &a, &b), BISECT_STOP,
		  "b failed for this machine: stop, not skip");
	ASSERT_EQ(ab_status(false, &a, &b), 1, "without --bisect: its status");
	b.host = false;
	ASSERT_EQ(ab_status(true, &a, &b), BISECT_SKIP, "b's kernel failed: skip");
}

/* vm --bisect with one kernel: the guest's end (compare/bisect_status.h). */
void test_bisect_guest_status(void)
{
	ASSERT_EQ(bisect_guest_status(0, false), 0, "the command exited 0");
	ASSERT_EQ(bisect_guest_status(3, false), BISECT_SKIP,
		  "the command failed in the kernel: skip");
	ASSERT_EQ(bisect_guest_status(2, false), BISECT_SKIP, "the kernel did not boot: skip");
	ASSERT_EQ(bisect_guest_status(2, true), BISECT_STOP, "this machine failed: stop");
	ASSERT_EQ(bisect_guest_status(143, true), 143, "a signal stays a signal");
	ASSERT_EQ(bisect_guest_status(-ENOMEM, false), BISECT_STOP, "no guest ran: stop");
}
