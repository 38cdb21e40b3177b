// SPDX-License-Identifier: GPL-2.0
/*
 * The exports' pure parts: figure names that carry the file's unit, LKP's
 * stats lines, compare documents read back, the Org table's printed digits.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "compare/compare_readback.h"
#include "export/export_formats.h"
#include "compare/compare_report.h"
#include "unit.h"

struct fake {
	struct result r;
	struct result_scenario sc[2];
	double runs[3];
};

/* ring measured (3 setups, no path figure), ring-xcpu skipped; UNIT as host.clock says. */
static void fake_result(struct fake *f, const char *kind, const char *unit)
{
	memset(f, 0, sizeof(*f));
	f->runs[0] = 200;
	f->runs[1] = 210.5;
	f->runs[2] = 190;
	f->r.path = "r.json";
	f->r.host = (struct result_host){ .kernel = "6.18", .hostname = "vm", .cpu_model = "cpu" };
	f->r.host.clock = (struct result_clock){ .kind = kind, .unit = unit };
	f->sc[0] = (struct result_scenario){ .name = "ring",
					     .status = "ok",
					     .ok = true,
					     .purity = 0.995,
					     .loops = 2000000,
					     .repeat = 3,
					     .path_cost_method = "not derivable here" };
	f->sc[0].cycles = (struct result_stat){
		.min = 190, .median = 200, .mean = 200.17, .cv = 0.05, .runs = f->runs, .nruns = 3
	};
	f->sc[0].ns = f->sc[0].cycles;
	f->sc[1] = (struct result_scenario){ .name = "ring-xcpu",
					     .status = "skipped",
					     .reason = "needs 2 online CPUs" };
	f->r.sc = f->sc;
	f->r.nr_sc = 2;
}

void test_export_names_carry_unit(void)
{
	char b[64];

	ASSERT_STREQ(xfig_name(XFIG_CYCLES, "cycles", NULL, '_', b, sizeof(b)), "cycles_per_elem",
		     "cycles");
	ASSERT_STREQ(xfig_name(XFIG_CYCLES, "instructions", NULL, '-', b, sizeof(b)),
		     "instructions-per-elem", "instructions, BMF's dashes");
	ASSERT_STREQ(xfig_name(XFIG_PATH, "instructions", "fentry", '_', b, sizeof(b)),
		     "path_fentry_instructions_per_elem", "path: its method in the name");
	ASSERT_STREQ(xfig_name(XFIG_PPATH, "instructions", "profile", '-', b, sizeof(b)),
		     "path-profile-instructions-per-elem", "the profile's path figure");
	ASSERT_STREQ(xfig_name(XFIG_PATH, "cycles", "Odd one.", '_', b, sizeof(b)),
		     "path_odd_one__cycles_per_elem", "a method of another name, as a key");
	ASSERT_STREQ(xfig_name(XFIG_PATH, "cycles", NULL, '_', b, sizeof(b)),
		     "path_cycles_per_elem", "no method");
	ASSERT_STREQ(xfig_name(XFIG_NS, "instructions", NULL, '_', b, sizeof(b)), "ns_per_elem",
		     "ns");
	ASSERT_STREQ(xfig_name(XFIG_PURITY, "cycles", NULL, '_', b, sizeof(b)), "purity_percent",
		     "purity");
	ASSERT_STREQ(xfig_unit(XFIG_CYCLES, "instructions", b, sizeof(b)), "instructions/elem",
		     "KCIDB unit");
	ASSERT_STREQ(xfig_unit(XFIG_PURITY, "cycles", b, sizeof(b)), "%", "purity unit");
	ASSERT_STREQ(xfig_key_part("ring-xcpu", b, sizeof(b)), "ring_xcpu", "LKP key");
	ASSERT_STREQ(xfig_key_part("Ab.c", b, sizeof(b)), "ab_c", "LKP key, odd name");
	/* the guest's ns under the instruction clock are instructions, no time */
	ASSERT_TRUE(xfig_exported(XFIG_NS, "cycles"), "ns of a TSC file");
	ASSERT_TRUE(!xfig_exported(XFIG_NS, "instructions"), "no ns of an instructions file");
	ASSERT_TRUE(xfig_exported(XFIG_CYCLES, "instructions"), "its instructions");
}

void test_export_figures_of_a_result(void)
{
	struct fake f;
	struct xfig x;

	fake_result(&f, "tsc", "cycles");
	xfig_get(&f.sc[0], XFIG_CYCLES, &x);
	ASSERT_TRUE(x.has, "ring cycles");
	ASSERT_NEAR(x.value, 200, 0, "median");
	ASSERT_NEAR(x.lo, 190, 0, "least setup");
	ASSERT_NEAR(x.hi, 210.5, 0, "largest setup");
	ASSERT_EQ(x.n, 3, "setups");
	xfig_get(&f.sc[0], XFIG_PATH, &x);
	ASSERT_FALSE(x.has, "no path figure");
	ASSERT_STREQ(x.why, "not derivable here", "why: the method");
	xfig_get(&f.sc[0], XFIG_PURITY, &x);
	ASSERT_NEAR(x.value, 99.5, 1e-9, "purity in percent");
	xfig_get(&f.sc[1], XFIG_CYCLES, &x);
	ASSERT_FALSE(x.has, "skipped scenario");
	ASSERT_STREQ(x.why, "needs 2 online CPUs", "why: the skip reason");
}

/* LKP's rule for a stats line: ^[a-z0-9_.]+: -?[0-9.e+-]+$, or a perf-profile row */
static bool lkp_lines_ok(const char *text, size_t *nlines)
{
	regex_t re;
	char line[512];
	const char *p = text;
	bool ok = true;

	*nlines = 0;
	if (regcomp(&re,
		    "^[a-z0-9_.]+(\\.perf-profile\\.(calltrace|children|self)\\.instructions-pp"
		    "\\.[A-Za-z0-9_.-]+)?: -?[0-9.e+-]+$",
		    REG_EXTENDED | REG_NOSUB))
		return false;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		if (regexec(&re, line, 0, NULL, 0)) {
			UNIT_FAIL("lkp line", "'%s' is no stats line", line);
			ok = false;
		}
		(*nlines)++;
		p += n + (e ? 1 : 0);
	}
	regfree(&re);
	return ok;
}

static char *lkp_text(const struct result *r, bool prefix)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	lkp_write(f, r, prefix);
	fclose(f);
	return buf;
}

void test_export_lkp_lines(void)
{
	struct fake f;
	size_t n;
	char *t;

	fake_result(&f, "icount", "instructions");
	t = lkp_text(&f.r, true);
	if (!ASSERT_TRUE(t, "lkp text"))
		return;
	ASSERT_TRUE(lkp_lines_ok(t, &n), "every line a stats line");
	ASSERT_EQ(
		n, 6,
		"ring: 4 of instructions, purity, workload; no ns, no path, nothing of ring-xcpu");
	ASSERT_HAS_SUBSTR(t, "ppbench.ring.workload: 6000000\n",
			  "workload: the elements of the timed runs, loops x setups");
	ASSERT_HAS_SUBSTR(t, "ppbench.ring.instructions_per_elem: 200\n", "the median, its unit");
	ASSERT_HAS_SUBSTR(t, "ppbench.ring.instructions_per_elem.max: 210.5\n", "largest setup");
	ASSERT_HAS_SUBSTR(t, "ppbench.ring.instructions_per_elem.stddev_percent: 5\n", "CV");
	ASSERT_HAS_SUBSTR(t, "ppbench.ring.purity_percent: 99.5\n", "purity");
	ASSERT_FALSE(strstr(t, "cycles"), "no cycles in a file of instructions");
	ASSERT_FALSE(strstr(t, ".ns_per_elem"), "no ns: the guest's ns are its instructions");
	ASSERT_FALSE(strstr(t, "ring_xcpu"), "no line for a skipped scenario");
	free(t);
	t = lkp_text(&f.r, false);
	if (ASSERT_TRUE(t, "lkp text without prefix"))
		ASSERT_TRUE(!strncmp(t, "ring.instructions_per_elem: ", 28), "LKP adds ppbench.");
	free(t);
}

/*
 * The table's diff and % are the TBLFM's arithmetic on the printed figures:
 * 100.4 -> 100.6 cycles prints 100 and 101, so the diff is 1 (not 0.2
 * rounded to 0); 1.0004 -> 2.0006 ns prints 1.000 and 2.001, diff 1.001
 * (not 1.0002 rounded to 1.000), change 1.001 / 1.000, 100.1 %.
 */
void test_export_org_printed_digits(void)
{
	struct row rows[2] = { 0 };
	struct comparison c = { .rows = rows, .nrows = 2, .noise = NOISE_SETUPS };
	struct cmp_set set = { .cmps = &c, .n = 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!ASSERT_TRUE(f, "memstream"))
		return;
	rows[0] = (struct row){
		.scenario = "ring", .kind = FIG_CYCLES, .ofig = 100.4, .nfig = 100.6
	};
	rows[1] =
		(struct row){ .scenario = "ring", .kind = FIG_NS, .ofig = 1.0004, .nfig = 2.0006 };
	compare_print_org(f, &set, NULL);
	fclose(f);
	ASSERT_HAS_SUBSTR(buf,
			  "| ring       |      100 |      101 |      1 |     1.000 |     2.001 "
			  "|    1.001 |  100.1 |\n",
			  "row");
	ASSERT_HAS_SUBSTR(buf, "\n#+TBLFM: $4=$3-$2::$7=$6-$5;%.3f::$8=(($7/$5)*100);%.1f\n",
			  "TBLFM");
	ASSERT_HAS_SUBSTR(buf, "| Test name  |   Cycles |", "header names the unit");
	free(buf);
}

static int load_text(const char *text, struct compare_readback *d, char *err, size_t len)
{
	char path[] = "/tmp/ppbench-readback-XXXXXX";
	int fd = mkstemp(path), ret;
	FILE *f;

	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	ret = readback_load(path, d, err, len);
	unlink(path);
	return ret;
}

static const char cmp_good[] =
	"{\"schema\": \"ppbench-compare/1\", \"gate\": {\"metric\": \"cycles\", "
	"\"fail_above_pct\": 5},"
	" \"comparisons\": [{\"old\": [\"a.json\"], \"new\": [\"b.json\"], \"unit\": "
	"\"instructions\", \"noise\": {\"source\": \"profile\", \"verdict\": true},"
	" \"rows\": [{\"scenario\": \"ring\", \"figure\": \"cycles\", \"label\": \"ring "
	"cycles/elem\","
	" \"old\": {\"n\": 5, \"mean\": 100, \"median\": 100}, \"new\": {\"n\": 5, \"mean\": 110,"
	" \"median\": 110}, \"change_pct\": 10, \"testable\": true, \"p\": 0.001, \"floor_pct\": 8,"
	" \"real\": true, \"unstable\": false, \"regression\": true, \"gated\": %s}]}]}";

void test_export_cmpdoc(void)
{
	char text[2048], err[256] = "";
	struct compare_readback d;

	snprintf(text, sizeof(text), cmp_good, "true");
	if (!ASSERT_OK(load_text(text, &d, err, sizeof(err)), err))
		return;
	ASSERT_TRUE(d.gate, "gate");
	ASSERT_STREQ(d.metric, "cycles", "metric");
	ASSERT_NEAR(d.fail_above, 5, 0, "limit");
	ASSERT_EQ(d.ncmps, 1, "comparisons");
	ASSERT_STREQ(d.cmps[0].unit, "instructions", "unit");
	ASSERT_EQ(d.cmps[0].nrows, 1, "rows");
	ASSERT_TRUE(d.cmps[0].rows[0].gated, "gated, as compare decided");
	ASSERT_NEAR(d.cmps[0].rows[0].change_pct, 10, 0, "change");
	ASSERT_EQ(d.cmps[0].rows[0].new.n, 5, "new n");
	readback_free(&d);
	snprintf(text, sizeof(text), cmp_good, "\"yes\"");
	ASSERT_EQ(load_text(text, &d, err, sizeof(err)), -EINVAL, "a string for a boolean");
	ASSERT_HAS_SUBSTR(err, "comparisons[0].rows[0].gated: expected a boolean, got a string",
			  "the field named");
	ASSERT_EQ(load_text("{\"schema\": \"ppbench/1\"}", &d, err, sizeof(err)), -ENOMSG,
		  "a result file is no compare document");
	ASSERT_EQ(load_text("{\"schema\": \"ppbench-compare/1\", \"comp", &d, err, sizeof(err)),
		  -EINVAL, "truncated");
	ASSERT_HAS_SUBSTR(err, "line 1, column", "truncated: where");
}
