// SPDX-License-Identifier: GPL-2.0
/* Flame graphs' frames from folded stacks: merging, order, places, labels. */
#include <errno.h>
#include <stdlib.h>
#include "plot/plot_svg.h"
#include "unit.h"

static int add(struct flame *fl, const char *line, int side)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s", line);
	return flame_add_line(fl, buf, side);
}

/* The frame of FL named NAME whose parent is named PARENT, or FLAME_NONE. */
static size_t find(const struct flame *fl, const char *parent, const char *name)
{
	for (size_t i = 1; i < fl->n; i++)
		if (!strcmp(fl->f[i].name, name) && !strcmp(fl->f[fl->f[i].parent].name, parent))
			return i;
	return FLAME_NONE;
}

void test_flame_frames_merged_and_placed(void)
{
	struct flame fl;
	size_t a, b, c, ab;

	if (!ASSERT_OK(flame_init(&fl), "init"))
		return;
	ASSERT_OK(add(&fl, "a;c 30", FLAME_NEW), "a line");
	ASSERT_OK(add(&fl, "a;b;c 10", FLAME_NEW), "a deeper one");
	ASSERT_OK(add(&fl, "a 5", FLAME_NEW), "a's own");
	ASSERT_OK(add(&fl, "a;b 2.5", FLAME_NEW), "a count with decimals");
	ASSERT_OK(add(&fl, "a;c 20", FLAME_OLD), "the old side's");
	ASSERT_OK(add(&fl, "", FLAME_NEW), "an empty line is none");
	ASSERT_OK(flame_layout(&fl), "layout");
	a = find(&fl, "all", "a");
	ab = find(&fl, "a", "b");
	c = find(&fl, "a", "c");
	b = find(&fl, "b", "c");
	if (!ASSERT_TRUE(a != FLAME_NONE && ab != FLAME_NONE && c != FLAME_NONE && b != FLAME_NONE,
			 "each path a frame, merged where it repeats"))
		goto out;
	ASSERT_EQ(fl.n, 5, "all, a, a;b, a;b;c, a;c");
	ASSERT_EQ(fl.depth, 3, "the deepest frame's depth");
	ASSERT_NEAR(fl.f[0].total[FLAME_NEW], 47.5, 1e-9, "all: every line");
	ASSERT_NEAR(fl.f[a].total[FLAME_NEW], 47.5, 1e-9, "a with all it calls");
	ASSERT_NEAR(fl.f[a].self[FLAME_NEW], 5, 1e-9, "a's own");
	ASSERT_NEAR(fl.f[ab].total[FLAME_NEW], 12.5, 1e-9, "b below a: its own and c's");
	ASSERT_NEAR(fl.f[c].total[FLAME_OLD], 20, 1e-9, "the old side kept apart");
	ASSERT_EQ(fl.f[a].child, ab, "a's frames above it by name: b first");
	ASSERT_NEAR(fl.f[ab].x, 0, 1e-9, "b at a's start");
	ASSERT_NEAR(fl.f[c].x, 12.5, 1e-9, "c after b");
	ASSERT_NEAR(fl.f[b].x, 0, 1e-9, "b's c at b's start");
	fl.scale[FLAME_NEW] = 0.1;
	ASSERT_NEAR(flame_total(&fl, c, FLAME_NEW), 3, 1e-9, "per element: scaled");
	ASSERT_NEAR(flame_self(&fl, ab, FLAME_NEW), 0.25, 1e-9, "its own too");
out:
	flame_free(&fl);
}

void test_flame_bad_lines(void)
{
	const char *bad[] = { "a;b", "a;b x", "a;b -1", "a;;b 3", " 3", "a;b 3x", "a;b nan" };
	struct flame fl;

	if (!ASSERT_OK(flame_init(&fl), "init"))
		return;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		if (add(&fl, bad[i], FLAME_NEW) != -EINVAL)
			UNIT_FAIL("a bad line", "'%s' taken", bad[i]);
	flame_free(&fl);
}

void test_flame_labels_clipped(void)
{
	char buf[64];

	ASSERT_STREQ(flame_label("page_pool_put_unrefed_netmem", 1000, buf, sizeof(buf)),
		     "page_pool_put_unrefed_netmem", "room for all of it");
	/* (60 - 6) / 6.6: 8 characters, the last two of them the dots */
	ASSERT_STREQ(flame_label("page_pool_put_unrefed_netmem", 60, buf, sizeof(buf)), "page_p..",
		     "clipped to the frame's width");
	ASSERT_STREQ(flame_label("abcdefgh", 6 + 8 * 6.6, buf, sizeof(buf)), "abcdefgh",
		     "exactly as wide");
	ASSERT_STREQ(flame_label("page_pool", 20, buf, sizeof(buf)), "", "too narrow for any");
}
