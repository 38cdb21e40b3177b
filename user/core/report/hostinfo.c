// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "report/report.h"
#include "sys/cpufeat.h"
#include "sys/cpus.h"
#include "sys/kconfig.h"
#include "sys/util.h"

/* Options that change what page_pool paths cost, or how a figure is taken. */
const char *const host_config_options[] = {
	"PAGE_POOL_STATS",
	"PREEMPT_RT",
	"PREEMPT_DYNAMIC",
	"PREEMPT",
	"PREEMPT_NONE",
	"PREEMPT_VOLUNTARY",
	"HZ",
	"NUMA",
	"DEBUG_NET",
	"KASAN",
	"PROVE_LOCKING",
	"DEBUG_PAGEALLOC",
	"SLUB_DEBUG_ON",
	"INIT_ON_ALLOC_DEFAULT_ON",
	"INIT_ON_FREE_DEFAULT_ON",
	"DEBUG_LIST", /* list checks on every page the allocator takes or frees */
	"LIST_HARDENED",
	"MEMCG",	   /* the free path uncharges each page */
	"CC_VERSION_TEXT", /* what inlines where */
	"MITIGATION_RETPOLINE",
	"RETPOLINE",
	"BPF_JIT_ALWAYS_ON",
	NULL,
};

static void json_mitigations(struct json *j)
{
	const char *dir = "/sys/devices/system/cpu/vulnerabilities";
	char path[512], val[256];
	struct dirent *e;
	DIR *d = opendir(dir);

	json_obj_begin(j, "mitigations");
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (read_file_str(path, val, sizeof(val)) >= 0)
			json_str(j, e->d_name, val);
	}
	if (d)
		closedir(d);
	json_obj_end(j);
}

static void json_config(struct json *j)
{
	json_obj_begin(j, "config");
	for (int i = 0; host_config_options[i]; i++) {
		const char *v = kconfig_get(host_config_options[i]);

		if (v)
			json_str(j, host_config_options[i], v);
	}
	json_obj_end(j);
}

#define VIRTIO_BALLOON_F_REPORTING 5

/* Whether virtio_balloon reports free pages to the host. */
static void json_balloon(struct json *j)
{
	char feat[256];
	bool known = false;
	glob_t g;

	if (!glob("/sys/bus/virtio/drivers/virtio_balloon/virtio*/features", 0, NULL, &g)) {
		/* one character per feature bit, bit 0 first */
		known = read_file_str(g.gl_pathv[0], feat, sizeof(feat)) >= 0 &&
			strlen(feat) > VIRTIO_BALLOON_F_REPORTING;
		globfree(&g);
	}
	if (known)
		json_bool(j, "free_page_reporting", feat[VIRTIO_BALLOON_F_REPORTING] == '1');
	else
		json_none(j, "free_page_reporting");
}

static void json_reporting_order(struct json *j)
{
	const char *path = "/sys/module/page_reporting/parameters/page_reporting_order";
	char v[32];

	if (read_file_str(path, v, sizeof(v)) < 0)
		json_none(j, "page_reporting_order");
	else
		json_u64(j, "page_reporting_order", strtoull(v, NULL, 10));
}

/* "cpu  user nice system idle iowait irq softirq steal ...": the 8th number, USER_HZ ticks
 * since boot, all CPUs. */
static void json_steal(struct json *j)
{
	unsigned long long steal;
	FILE *f = fopen("/proc/stat", "r");
	int n = f ? fscanf(f, "cpu %*u %*u %*u %*u %*u %*u %*u %llu", &steal) : 0;

	if (f)
		fclose(f);
	if (n == 1)
		json_u64(j, "steal_ticks", steal);
	else
		json_none(j, "steal_ticks");
}

static bool kdamond_runs(void)
{
	char path[300], comm[32];
	DIR *d = opendir("/proc");
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		found = read_file_str(path, comm, sizeof(comm)) >= 0 &&
			!strncmp(comm, "kdamond", 7);
	}
	if (d)
		closedir(d);
	return found;
}

/* What the guest sees of a host that may run it on levels; null where not exposed. */
static void json_environment(struct json *j)
{
	json_obj_begin(j, "environment");
	json_balloon(j);
	json_reporting_order(j);
	json_steal(j);
	json_bool(j, "damon_kdamond", kdamond_runs());
	json_obj_end(j);
}

void json_clock(struct json *j)
{
	const struct inst_clock *c = inst_clock();

	json_obj_begin(j, "clock");
	json_str(j, "kind", inst_clock_kind(c));
	json_str(j, "unit", inst_clock_unit(c));
	if (c->icount || c->tcg) {
		struct cpu_feat f;

		json_str(j, "qemu", c->qemu);
		/* which qemu, and the CPU it emulated: compare gates only like with like */
		if (c->qemu_version[0])
			json_str(j, "qemu_version", c->qemu_version);
		cpu_feat_read(&f);
		if (f.digest[0]) {
			json_str(j, "cpu_features", f.digest);
			json_str(j, "cpu_feature_words", f.words);
		}
	}
	if (!c->tsc) { /* arm64: the generic timer, recorded as a timer */
		json_str(j, "counter", c->counter);
		json_double(j, "counter_hz", c->counter_hz);
	}
	json_obj_end(j);
}

/* V, a value read back, written as it is. */
static void json_value(struct json *j, const char *key, const json_t *v)
{
	const char *k;
	json_t *m;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		json_obj_begin(j, key);
		json_object_foreach((json_t *)v, k, m)
			json_value(j, k, m);
		json_obj_end(j);
		break;
	case JSON_ARRAY:
		json_arr_begin(j, key);
		json_array_foreach(v, i, m)
			json_value(j, NULL, m);
		json_arr_end(j);
		break;
	case JSON_STRING:
		json_str(j, key, json_string_value(v));
		break;
	case JSON_INTEGER:
		json_i64(j, key, json_integer_value(v));
		break;
	case JSON_REAL:
		json_double_exact(j, key, json_real_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		json_bool(j, key, json_is_true(v));
		break;
	default:
		json_none(j, key);
	}
}

void json_host_copy(struct json *j, const json_t *host, const struct result_clock *clock)
{
	const char *k;
	json_t *v;

	json_obj_begin(j, "host");
	json_object_foreach((json_t *)host, k, v)
		if (strcmp(k, "clock"))
			json_value(j, k, v);
	json_obj_begin(j, "clock");
	json_str(j, "kind", clock->kind);
	json_str(j, "unit", clock->unit);
	json_object_foreach(json_object_get(host, "clock"), k, v)
		if (strcmp(k, "kind") && strcmp(k, "unit"))
			json_value(j, k, v);
	json_obj_end(j);
	json_obj_end(j);
}

void json_host(struct json *j, const struct tsc_info *tsc, bool fentry, bool live_frames)
{
	char host[256] = "";
	struct utsname u;

	uname(&u);
	gethostname(host, sizeof(host) - 1);
	json_obj_begin(j, "host");
	json_str(j, "kernel", u.release);
	json_str(j, "kernel_version", u.version); /* the build: same release, other kernel */
	json_str(j, "hostname", host);
	json_str(j, "cpu_model", tsc->cpu_model);
	json_u64(j, "nr_cpus", nr_online_cpus());
	json_double(j, "tsc_hz", tsc->hz);
	json_str(j, "clocksource", tsc->clocksource);
	json_mitigations(j);
	json_config(j);
	json_str(j, "config_source", kconfig_source());
	json_bool(j, "fentry", fentry);
	json_bool(j, "live_frames", live_frames);
	json_environment(j);
	json_clock(j);
	json_obj_end(j);
}
