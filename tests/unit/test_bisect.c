// SPDX-License-Identifier: GPL-2.0
/* git bisect run's statuses (model/bisect_status.h) and compare --limit's checks
 * (compare/hardlimit.h). */
#include <errno.h>
#include <string.h>
#include "compare/bisect_status.h"
#include "compare/hardlimit.h"
#include "unit.h"

/* A file with ring (ok, no path figure) and slow (ok with a path figure, or skipped). */
struct bfile {
	struct result r;
	struct result_scenario sc[2];
};

static void bfile_init(struct bfile *f, const char *path, bool slow_ok, const char *unit)
{
	memset(f, 0, sizeof(*f));
	f->r.path = path;
	f->r.host.clock = (struct result_clock){ .kind = unit ? "icount" : NULL, .unit = unit };
	f->sc[0] = (struct result_scenario){ .name = "ring", .status = "ok", .ok = true };
	f->sc[0].cycles.median = 300.5;
	f->sc[1] = (struct result_scenario){ .name = "slow",
					     .status = slow_ok ? "ok" : "skipped",
					     .ok = slow_ok,
					     .reason = slow_ok ? NULL : "no recipe",
					     .has_path_cost = slow_ok,
					     .path_cost = 826.4 };
	f->sc[1].cycles.median = 999.2;
	f->sc[1].ns.median = 999.2;
	f->r.sc = f->sc;
	f->r.nr_sc = 2;
}

static enum cmp_outcome figures(struct bfile *o, struct bfile *n, enum fig metric, char *why)
{
	struct comparison c = { .old = &o->r, .nold = 1, .new = &n->r, .nnew = 1 };

	return bisect_figures(&c, metric, why, 256);
}

void test_bisect_compare_status(void)
{
	ASSERT_EQ(bisect_compare_status(CMP_PASS), 0, "no gate fired: good");
	ASSERT_EQ(bisect_compare_status(CMP_GATED), 1, "a gate fired: bad");
	ASSERT_EQ(bisect_compare_status(CMP_NO_FIGURE), 125, "new lacks the figure: skip");
	ASSERT_EQ(bisect_compare_status(CMP_BAD_NEW), 125, "new file missing or invalid: skip");
	ASSERT_EQ(bisect_compare_status(CMP_NO_BASELINE_FIG), 128, "baseline lacks it: stop");
	ASSERT_EQ(bisect_compare_status(CMP_BAD_USAGE), 128, "a usage error: stop");
	ASSERT_EQ(bisect_compare_status(CMP_FAILED), 128, "a runtime error: stop");
}

static int step(enum bisect_stage at, int status, bool have_result)
{
	return bisect_step_status(at, status, have_result, false);
}

void test_bisect_step_status(void)
{
	ASSERT_EQ(step(BISECT_AT_CONFIG, 1, false), 125, "config fails: skip");
	ASSERT_EQ(step(BISECT_AT_BUILD, 2, false), 125, "build fails: skip");
	ASSERT_EQ(step(BISECT_AT_BUILD, 0, false), 0, "build ok: go on");
	ASSERT_EQ(bisect_step_status(BISECT_AT_CONFIG, 2, false, true), 128,
		  "config fails for this machine (a command not found): stop");
	ASSERT_EQ(bisect_step_status(BISECT_AT_BUILD, 2, false, true), 128,
		  "build fails for this machine: stop");
	ASSERT_EQ(step(BISECT_AT_BUILD, 127, false), 128, "make not found: stop");
	ASSERT_EQ(step(BISECT_AT_CONFIG, 126, false), 128, "merge_config.sh cannot run: stop");
	ASSERT_EQ(step(BISECT_AT_BUILD, -ENOMEM, false), 128, "make could not start: stop");
	ASSERT_EQ(step(BISECT_AT_BUILD, 137, false), 137, "make killed: a signal stops");
	/* the boot is the guest's end (vm_run()), with or without its result file */
	ASSERT_EQ(step(BISECT_AT_BOOT, 2, false), 125, "the kernel did not boot: skip");
	ASSERT_EQ(step(BISECT_AT_BOOT, 1, false), 125, "bench failed in the kernel: skip");
	ASSERT_EQ(bisect_step_status(BISECT_AT_BOOT, 1, false, true), 128,
		  "this machine could not boot it: stop");
	ASSERT_EQ(step(BISECT_AT_BOOT, 130, false), 130, "vm interrupted: stop");
	ASSERT_EQ(step(BISECT_AT_BOOT, -ENOMEM, false), 128, "no guest ran: stop");
	ASSERT_EQ(step(BISECT_AT_BOOT, 0, false), 125, "no result file: skip");
	ASSERT_EQ(step(BISECT_AT_BOOT, 0, true), 0, "booted and benched: go on");
	ASSERT_STREQ(bisect_status_name(0), "good", "name good");
	ASSERT_STREQ(bisect_status_name(1), "bad", "name bad");
	ASSERT_STREQ(bisect_status_name(125), "skip", "name skip");
	ASSERT_STREQ(bisect_status_name(128), "stop", "name stop");
}

void test_bisect_figures_missing_side(void)
{
	struct bfile o, n;
	char why[256];

	bfile_init(&o, "base.json", true, "instructions");
	bfile_init(&n, "new.json", true, "instructions");
	ASSERT_EQ(figures(&o, &n, FIG_CYCLES, why), CMP_PASS, "both sides have both");
	ASSERT_EQ(figures(&o, &n, FIG_PATH, why), CMP_PASS,
		  "ring has no path figure on either side: not gated");

	n.r.nr_sc = 1; /* the step benched ring only: slow is not gated */
	ASSERT_EQ(figures(&o, &n, FIG_CYCLES, why), CMP_PASS, "slow not benched: not gated");
	ASSERT_EQ(figures(&o, &n, FIG_PATH, why), CMP_NO_BASELINE_FIG,
		  "only ring benched, no path figure anywhere: nothing to decide");

	bfile_init(&n, "new.json", false, "instructions");
	ASSERT_EQ(figures(&o, &n, FIG_CYCLES, why), CMP_NO_FIGURE, "slow skipped in new: skip");
	ASSERT_STREQ(why, "slow: skipped in new.json: no recipe", "why names the side");

	bfile_init(&n, "new.json", true, "instructions");
	o.r.nr_sc = 1; /* the baseline has no slow */
	ASSERT_EQ(figures(&o, &n, FIG_CYCLES, why), CMP_NO_BASELINE_FIG,
		  "slow missing from the baseline: stop");
	ASSERT_STREQ(why, "slow: not in base.json", "why names the baseline");

	bfile_init(&n, "new.json", false, "instructions");
	ASSERT_EQ(figures(&o, &n, FIG_CYCLES, why), CMP_PASS,
		  "slow on neither side, ring on both: ring decides");
	n.r.sc = &n.sc[1];
	n.r.nr_sc = 1;
	ASSERT_EQ(figures(&o, &n, FIG_CYCLES, why), CMP_NO_BASELINE_FIG,
		  "only slow benched, on neither side: the baseline cannot decide");
	n.r.nr_sc = 0;
	ASSERT_EQ(figures(&o, &n, FIG_CYCLES, why), CMP_NO_FIGURE, "new names nothing: skip");
}

void test_hard_limit_parse(void)
{
	struct hard_limit l;
	char err[256];

	if (ASSERT_OK(hard_limit_parse("fast:path=70", &l, err, sizeof(err)), "fast:path=70")) {
		ASSERT_STREQ(l.scenario, "fast", "scenario");
		ASSERT_EQ(l.fig, FIG_PATH, "figure");
		ASSERT_NEAR(l.max, 70, 0, "max");
	}
	if (ASSERT_OK(hard_limit_parse("ring-xcpu=5.5", &l, err, sizeof(err)), "default figure"))
		ASSERT_EQ(l.fig, FIG_CYCLES, "cycles by default");
	ASSERT_OK(hard_limit_parse("slow:ns=1e3", &l, err, sizeof(err)), "ns");
	ASSERT_ERR(hard_limit_parse("fast:path", &l, err, sizeof(err)), "no =");
	ASSERT_ERR(hard_limit_parse("fastest=70", &l, err, sizeof(err)), "unknown scenario");
	ASSERT_STREQ(err,
		     "--limit 'fastest=70': no scenario 'fastest' (ring, ring-xcpu, fast, slow)",
		     "one line naming it");
	ASSERT_ERR(hard_limit_parse("fast:purity=70", &l, err, sizeof(err)), "purity no limit");
	ASSERT_ERR(hard_limit_parse("fast=", &l, err, sizeof(err)), "no number");
	ASSERT_ERR(hard_limit_parse("fast=-1", &l, err, sizeof(err)), "negative");
	ASSERT_ERR(hard_limit_parse("fast=70x", &l, err, sizeof(err)), "trailing junk");
	ASSERT_ERR(hard_limit_parse(":path=70", &l, err, sizeof(err)), "no scenario");
}

void test_hard_limit_check(void)
{
	struct hard_limit above = { "slow", FIG_CYCLES, 999.3 },
			  below = { "slow", FIG_CYCLES, 999.1 };
	struct hard_limit path = { "slow", FIG_PATH, 826.5 }, ring = { "ring", FIG_PATH, 100 };
	struct limit_check c;
	struct bfile f;
	char why[256];

	bfile_init(&f, "r.json", true, "instructions");
	ASSERT_OK(hard_limit_exact(&f.r, why, sizeof(why)), "instruction files take limits");
	hard_limit_check(&above, &f.r, &c);
	ASSERT_TRUE(c.has_value && !c.exceeded, "a limit just above the figure holds");
	hard_limit_check(&below, &f.r, &c);
	ASSERT_TRUE(c.has_value && c.exceeded, "a limit just below it is exceeded");
	ASSERT_NEAR(c.value, 999.2, 1e-9, "the file's median");
	hard_limit_check(&path, &f.r, &c);
	ASSERT_TRUE(c.has_value && !c.exceeded && c.value == 826.4, "the path figure");
	hard_limit_check(&ring, &f.r, &c);
	ASSERT_FALSE(c.has_value, "no path figure: a gap");
	ASSERT_STREQ(c.gap, "ring: no path figure in r.json (n/a)", "the gap's reason");
	bfile_init(&f, "r.json", false, "instructions");
	hard_limit_check(&above, &f.r, &c);
	ASSERT_FALSE(c.has_value, "skipped: a gap");
	bfile_init(&f, "host.json", true, NULL);
	ASSERT_EQ(hard_limit_exact(&f.r, why, sizeof(why)), -EXDEV, "host cycles refused");
	ASSERT_TRUE(strstr(why, "host.json counts cycles of the tsc clock"),
		    "names file and clock");
}
