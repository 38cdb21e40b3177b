// SPDX-License-Identifier: GPL-2.0
/* Result-file loader: a valid document, then one defect at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/result.h"
#include "unit.h"

static const char good[] =
	"{\"schema\": \"ppbench/1\", \"tool\": {\"name\": \"ppbench\", \"version\": \"0.1.0\"},\n"
	" \"created\": \"2026-11-30T12:00:00Z\", \"command\": \"ppbench bench --repeat 2\",\n"
	" \"extra\": {\"anything\": [1, 2]},\n"
	" \"host\": {\"kernel\": \"6.18.44\", \"hostname\": \"vm\", \"cpu_model\": \"AMD EPYC\",\n"
	"  \"nr_cpus\": 2, \"tsc_hz\": 2596000000.0, \"clocksource\": \"tsc\",\n"
	"  \"mitigations\": {\"spectre_v2\": \"Mitigation: Retpolines\"},\n"
	"  \"config\": {\"PAGE_POOL_STATS\": \"n\"}, \"fentry\": false, \"live_frames\": true},\n"
	" \"scenarios\": [\n"
	"  {\"name\": \"ring\", \"status\": \"ok\", \"recipe\": \"r\", \"method\": \"m\",\n"
	"   \"cpus\": [0, 1], \"loops\": 1000, \"repeat\": 2, \"batch\": 64,\n"
	"   \"cycles_per_elem\": {\"min\": 10, \"median\": 11, \"mean\": 11, \"stddev\": 1.4,\n"
	"     \"cv\": 0.13, \"runs\": [10, 12]},\n"
	"   \"ns_per_elem\": {\"min\": 4, \"median\": 4.5, \"mean\": 4.5, \"stddev\": 0.7,\n"
	"     \"cv\": 0.16, \"runs\": [4, 5]},\n"
	"   \"path\": {\"alloc\": {\"cache\": 990, \"refill\": 10, \"slow\": 0},\n"
	"     \"ret\": {\"cache\": 0, \"ring\": 1000, \"release\": 0}},\n"
	"   \"purity\": 0.99, \"path_cost_cycles\": {\"value\": null, \"method\": \"none\"},\n"
	"   \"per_cpu\": [{\"cpu\": 1, \"role\": \"consumer\", \"elems\": 1000,\n"
	"     \"cycles_per_elem\": {\"min\": 1, \"median\": 1, \"mean\": 1, \"stddev\": 0,\n"
	"       \"cv\": 0, \"runs\": [1, 1]}}]},\n"
	"  {\"name\": \"slow\", \"status\": \"skipped\", \"reason\": \"no live frames\"}]}\n";

/* Writes TEXT with FROM replaced by TO (once) to a temporary file and loads it. */
static int load_variant(const char *from, const char *to, struct result *r, char *err,
			size_t errlen)
{
	char path[] = "/tmp/ppbench-result-XXXXXX";
	const char *hit = from ? strstr(good, from) : NULL;
	int fd = mkstemp(path), ret;
	FILE *f;

	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (hit)
		fprintf(f, "%.*s%s%s", (int)(hit - good), good, to, hit + strlen(from));
	else if (from)
		fprintf(f, "%s", to); /* FROM not in the text: TO is the whole file */
	else
		fputs(good, f);
	fclose(f);
	ret = result_load(path, r, err, errlen);
	unlink(path);
	/* the file name is random: keep only what follows it */
	if (ret && !strncmp(err, path, strlen(path)))
		memmove(err, err + strlen(path), strlen(err + strlen(path)) + 1);
	return ret;
}

void test_result_load_good(void)
{
	const struct result_scenario *s;
	struct result r;
	char err[256] = "";

	if (!ASSERT_OK(load_variant(NULL, NULL, &r, err, sizeof(err)), err))
		return;
	ASSERT_STREQ(r.schema, "ppbench/1", "schema");
	ASSERT_STREQ(r.host.cpu_model, "AMD EPYC", "cpu_model");
	ASSERT_NEAR(r.host.tsc_hz, 2596000000.0, 0, "tsc_hz");
	ASSERT_STREQ(json_string_value(json_object_get(r.host.config, "PAGE_POOL_STATS")), "n",
		     "config");
	ASSERT_EQ(r.nr_sc, 2, "scenarios");
	s = result_find(&r, "ring");
	if (!ASSERT_TRUE(s && s->ok, "ring ok"))
		goto out;
	ASSERT_EQ(s->repeat, 2, "repeat");
	ASSERT_EQ(s->cycles.nruns, 2, "runs");
	ASSERT_NEAR(s->cycles.runs[1], 12, 0, "runs[1]");
	ASSERT_NEAR(s->ns.mean, 4.5, 0, "ns mean");
	ASSERT_NEAR(s->path.cls[PPB_RET_RING], 1000, 0, "path");
	ASSERT_FALSE(s->has_path_cost, "null path cost");
	ASSERT_EQ(s->nr_per_cpu, 1, "per_cpu");
	ASSERT_STREQ(s->per_cpu[0].role, "consumer", "role");
	s = result_find(&r, "slow");
	ASSERT_TRUE(s && !s->ok && !strcmp(s->reason, "no live frames"), "skipped");
	ASSERT_TRUE(!result_find(&r, "fast"), "absent scenario");
out:
	result_free(&r);
}

static void expect_bad(const char *from, const char *to, const char *want)
{
	struct result r;
	char err[256] = "";

	if (!ASSERT_ERR(load_variant(from, to, &r, err, sizeof(err)), want))
		result_free(&r);
	ASSERT_STREQ(err, want, from);
}

void test_result_load_errors(void)
{
	expect_bad("\"ppbench/1\"", "\"ppbench/2\"",
		   ": schema: \"ppbench/2\" is not supported (this ppbench reads \"ppbench/1\")");
	expect_bad("\"schema\": \"ppbench/1\",", "",
		   ": no 'schema' field: not a ppbench result (expected schema \"ppbench/1\")");
	expect_bad("\"tsc_hz\": 2596000000.0", "\"tsc_hz\": \"fast\"",
		   ": host.tsc_hz: expected a number, got a string");
	expect_bad("\"kernel\": \"6.18.44\", ", "", ": host: missing field 'kernel'");
	expect_bad("\"runs\": [10, 12]", "\"runs\": [10]",
		   ": scenarios[0].cycles_per_elem.runs: has 1 values, expected 2 "
		   "(the scenario's repeat)");
	expect_bad("\"runs\": [4, 5]", "\"runs\": [4, null]",
		   ": scenarios[0].ns_per_elem.runs[1]: expected a number, got null");
	expect_bad("\"purity\": 0.99", "\"purity\": 99",
		   ": scenarios[0].purity: 99 is out of range (0..1)");
	expect_bad("\"loops\": 1000", "\"loops\": 10.5",
		   ": scenarios[0].loops: expected a whole number, got 10.5");
	expect_bad("\"status\": \"ok\"", "\"status\": \"done\"",
		   ": scenarios[0]: status \"done\" is neither \"ok\" nor \"skipped\"");
	expect_bad(", \"reason\": \"no live frames\"", "",
		   ": scenarios[1]: missing field 'reason'");
	expect_bad("\"PAGE_POOL_STATS\": \"n\"", "\"PAGE_POOL_STATS\": false",
		   ": host.config.PAGE_POOL_STATS: expected a string, got a boolean");
	expect_bad("\"value\": null, ", "",
		   ": scenarios[0].path_cost_cycles: missing field 'value' "
		   "(a number, or null when not derivable)");
	expect_bad("\"role\": \"consumer\"", "\"role\": 3",
		   ": scenarios[0].per_cpu[0].role: expected a string, got a number");
	expect_bad("\"name\": \"slow\"", "\"name\": \"ring\"",
		   ": scenarios[1]: scenario \"ring\" appears twice (also scenarios[0])");
	expect_bad("{\"name\": \"slow\", \"status\": \"skipped\", \"reason\": \"no live frames\"}",
		   "7", ": scenarios[1]: expected an object, got a number");
	expect_bad("2026-11-30T12:00:00Z", "30/11/2026",
		   ": created: \"30/11/2026\" is not a UTC ISO 8601 time (2026-11-30T12:00:00Z)");
	expect_bad("no such text", "[1, 2]",
		   ": expected a JSON object at the top level, got an array");
	expect_bad("no such text", "{\"schema\": \"ppbench/1\",\n \"host\" {}}",
		   ": line 2, column 9: ':' expected near '{'");
	expect_bad("no such text", "", ": file is empty");
}

/*
 * Found by fuzzing: errors quote strings of the file, and a newline in one
 * (an escaped "\n") split the one-line error; an escape sequence would have
 * reached the terminal. Control characters are shown as '?'.
 */
void test_result_error_quotes_one_line(void)
{
	expect_bad("\"ppbench/1\"", "\"a\\nb\\u001b[31m\"",
		   ": schema: \"a?b?[31m\" is not supported (this ppbench reads \"ppbench/1\")");
	expect_bad("\"Mitigation: Retpolines\"", "7",
		   ": host.mitigations.spectre_v2: expected a string, got a number");
	expect_bad("\"spectre_v2\": \"Mitigation: Retpolines\"", "\"a\\tb\": 1",
		   ": host.mitigations.a?b: expected a string, got a number");
}

/* Found by fuzzing: a count out of range (a negative or huge nr_cpus, loops,
 * repeat) was refused, but cast to uint64_t first, which is undefined; UBSan
 * (make test runs this binary built with it) fails the run if that comes back. */
void test_result_count_out_of_range(void)
{
	expect_bad("\"nr_cpus\": 2", "\"nr_cpus\": 2.9e26",
		   ": host.nr_cpus: 2.9e+26 is out of range (1..9.0072e+15)");
	expect_bad("\"nr_cpus\": 2", "\"nr_cpus\": -1",
		   ": host.nr_cpus: -1 is out of range (1..9.0072e+15)");
}

/* host.clock: absent is the TSC; icount counts instructions; the pair must agree. */
void test_result_clock(void)
{
	static const char icount[] =
		"\"live_frames\": true, \"clock\": {\"kind\": \"icount\", \"unit\": "
		"\"instructions\", \"qemu\": \"-icount shift=0,sleep=off\"}}";
	struct result a, b;
	char err[256] = "", why[256] = "";

	if (!ASSERT_OK(load_variant(NULL, NULL, &a, err, sizeof(err)), err))
		return;
	ASSERT_STREQ(a.host.clock.kind, "tsc", "no clock: tsc");
	ASSERT_STREQ(a.host.clock.unit, "cycles", "no clock: cycles");
	if (!ASSERT_OK(load_variant("\"live_frames\": true}", icount, &b, err, sizeof(err)), err))
		goto out_a;
	ASSERT_STREQ(b.host.clock.unit, "instructions", "icount unit");
	ASSERT_STREQ(b.host.clock.qemu, "-icount shift=0,sleep=off", "qemu options");
	ASSERT_OK(result_same_clock(&a, &a, why, sizeof(why)), "same clock");
	ASSERT_ERR(result_same_clock(&a, &b, why, sizeof(why)), "tsc vs icount");
	ASSERT_HAS_SUBSTR(why, "counts cycles (tsc clock) and ", "why names both");
	ASSERT_HAS_SUBSTR(why, " instructions (icount clock)", "why names the unit");
	result_free(&b);
	ASSERT_ERR(load_variant("\"live_frames\": true}",
				"\"live_frames\": true, \"clock\": {\"kind\": \"icount\", "
				"\"unit\": \"cycles\"}}",
				&b, err, sizeof(err)),
		   "icount in cycles");
	ASSERT_HAS_SUBSTR(err, "host.clock.unit", "the field is named");
out_a:
	result_free(&a);
}

/*
 * bench's path figure and the profile's beside it, each with its method;
 * a file of an older vm --profile (the profile's figure in
 * path_cost_cycles, bench's in path_cost_fentry) reads the same.
 */
void test_result_path_methods(void)
{
	static const char profile[] = "{\"value\": 167.7, \"method\": \"profile\"}";
	static const char *const layouts[][2] = {
		{ "path_cost_cycles", "path_cost_profile" }, /* this ppbench's */
		{ "path_cost_fentry", "path_cost_cycles" },  /* an older vm --profile's */
	};
	const struct result_scenario *s;
	struct result r;
	char to[512], err[256] = "";

	for (size_t i = 0; i < 2; i++) {
		snprintf(to, sizeof(to),
			 "\"%s\": {\"value\": 141.8, \"method\": \"fentry/fexit per-call timing "
			 "of the proof run\"}, \"%s\": %s",
			 layouts[i][0], layouts[i][1], profile);
		if (!ASSERT_OK(load_variant("\"path_cost_cycles\": {\"value\": null, \"method\": "
					    "\"none\"}",
					    to, &r, err, sizeof(err)),
			       err))
			return;
		s = result_find(&r, "ring");
		ASSERT_TRUE(s->has_path_cost && s->path_cost == 141.8, layouts[i][0]);
		ASSERT_STREQ(s->path_method, "fentry", "bench's method, by name");
		ASSERT_TRUE(s->prof.has_path && s->prof.path == 167.7, "the profile's beside it");
		result_free(&r);
	}
	expect_bad(
		"\"path_cost_cycles\": {\"value\": null, \"method\": \"none\"}",
		"\"path_cost_cycles\": {\"value\": 1, \"method\": \"x\"}, \"path_cost_profile\": "
		"{\"value\": 2, \"method\": \"fentry\"}",
		": scenarios[0].path_cost_profile: method \"fentry\": a profile's path figure "
		"has method \"profile\"");
}
