// SPDX-License-Identifier: GPL-2.0
/* vm --against-*: the result files' names and the run's status (model/abpair.h). */
#include <stdlib.h>
#include "model/abpair.h"
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

void test_ab_status(void)
{
	/* both results: compare decides */
	ASSERT_EQ(ab_status(false, 0, true, 0, true), -1, "both");
	ASSERT_EQ(ab_status(true, 1, true, 1, true), -1, "both, a bench that skipped a scenario");
	/* the kernel under test did not boot or run */
	ASSERT_EQ(ab_status(true, 0, true, 2, false), AB_SKIP, "bisect: b failed: skip");
	ASSERT_EQ(ab_status(false, 0, true, 2, false), 2, "b failed: its status");
	ASSERT_EQ(ab_status(false, 0, true, 0, false), 1, "b exited 0 without a file: 1");
	/* the baseline did not */
	ASSERT_EQ(ab_status(true, 2, false, 0, true), AB_STOP, "bisect: a failed: stop");
	ASSERT_EQ(ab_status(true, 1, false, 1, false), AB_SKIP, "bisect: both failed: b's skip");
	ASSERT_EQ(ab_status(false, 1, false, 0, true), 1, "a failed: its status");
	/* a signal stays a signal */
	ASSERT_EQ(ab_status(true, 143, false, 143, false), 143, "SIGTERM");
	ASSERT_EQ(ab_status(true, 0, true, 130, false), 130, "SIGINT in b");
}
