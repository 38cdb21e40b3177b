// SPDX-License-Identifier: GPL-2.0
/* Output helpers shared by watch, recipe, bench and load. */
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <string.h>
#include <sys/stat.h>
#include "model/pathfig.h"
#include "model/spread.h"
#include "report/report.h"

static void maybe_u64(struct json *j, const char *key, uint64_t v, bool known)
{
	if (known)
		json_u64(j, key, v);
	else
		json_none(j, key);
}

/* The classes FIRST to END of C by their names, null where KNOWN leaves one out. */
static void json_class_counts(struct json *j, const struct ppb_pool_counts *c, int first, int end,
			      unsigned known)
{
	for (int i = first; i < end; i++)
		maybe_u64(j, class_name(i), c->cls[i].calls, class_known(i, known));
}

void json_path(struct json *j, const char *key, const struct ppb_pool_counts *c, unsigned known)
{
	json_obj_begin(j, key);
	json_obj_begin(j, class_side(0));
	json_class_counts(j, c, 0, PPB_NR_ALLOC_CLASSES, known);
	json_u64(j, "slow_pages", c->slow_pages);
	maybe_u64(j, "refill_pages", c->refill_pages, known & KNOWN_RING);
	json_obj_end(j);
	json_obj_begin(j, class_side(PPB_NR_ALLOC_CLASSES));
	json_class_counts(j, c, PPB_NR_ALLOC_CLASSES, PPB_NR_CLASSES, known);
	json_u64(j, "unclassified", c->unclassified);
	json_obj_end(j);
	json_obj_begin(j, "release");
	json_u64(j, "refcnt", c->rel_refcnt);
	json_u64(j, "other", c->rel_other);
	json_u64(j, "teardown", c->rel_teardown);
	json_obj_end(j);
	json_u64(j, "elems", c->elems);
	json_u64(j, "samples", c->samples);
	json_obj_end(j);
}

void fprint_wrapped(FILE *f, const char *prefix, const char *text)
{
	fprint_wrapped_at(f, prefix, text, 100);
}

void fprint_wrapped_at(FILE *f, const char *prefix, const char *text, int width)
{
	int col = fprintf(f, "%s", prefix), indent = col;

	text += strspn(text, " ");
	while (*text) {
		int w = strcspn(text, " ");

		if (col > indent && col + 1 + w > width)
			col = fprintf(f, "\n%*s", indent, "") - 1;
		else if (col > indent)
			col += fprintf(f, " ");
		col += fprintf(f, "%.*s", w, text);
		text += w;
		text += strspn(text, " ");
	}
	fprintf(f, "\n");
}

const char *fmt_count(uint64_t v, char *buf, size_t len)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v), o = 0;

	for (int i = 0; i < n && o < (int)len - 1; i++) {
		if (i && (n - i) % 3 == 0 && o < (int)len - 2)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

static uint32_t my_netns(void)
{
	static uint32_t ino;
	struct stat st;

	if (!ino && !stat("/proc/thread-self/ns/net", &st))
		ino = st.st_ino;
	return ino;
}

/* A device is ours to name only if it lives in our network namespace. */
bool pool_same_netns(const struct ppb_pool_info *pi)
{
	return !pi->netns_ino || pi->netns_ino == my_netns();
}

static void pool_dev_name(const struct ppb_pool_info *pi, char *buf, size_t len)
{
	char name[IF_NAMESIZE];

	if (!pi->ifindex)
		snprintf(buf, len, "-");
	else if (pool_same_netns(pi) && if_indextoname(pi->ifindex, name))
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "if%d@ns", pi->ifindex); /* another namespace */
}

static int32_t pool_inflight(const struct ppb_pool_info *pi)
{
	if (pi->flags & PPB_POOL_F_DYING)
		return pi->final_inflight;
	return (int32_t)(pi->last.hold - pi->last.release);
}

/* "12.3k" style rate, or n/a. */
static const char *rate(double v, bool known, char *buf)
{
	if (!known)
		return "n/a";
	if (v >= 1e6)
		snprintf(buf, 16, "%.2fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, 16, "%.1fk", v / 1e3);
	else
		snprintf(buf, 16, "%.0f", v);
	return buf;
}

static const char *share(uint64_t part, uint64_t whole, bool known, char *buf)
{
	if (!known || !whole)
		return known ? "-" : "n/a";
	snprintf(buf, 16, "%.0f%%", 100.0 * part / whole);
	return buf;
}

const char *fmt_classes(char *buf, size_t len, const struct ppb_pool_counts *c, unsigned known,
			bool teardown)
{
	size_t n = 0;

	for (int i = 0; i < PPB_NR_CLASSES && n < len; i++) {
		if (i == 0 || i == PPB_NR_ALLOC_CLASSES)
			n += snprintf(buf + n, len - n, "%s%s", i ? " | " : "", class_side(i));
		if (class_known(i, known))
			n += snprintf(buf + n, len - n, " %s %llu", class_name(i),
				      (unsigned long long)c->cls[i].calls);
		else
			n += snprintf(buf + n, len - n, " %s n/a", class_name(i));
		if (i == PPB_ALLOC_SLOW && n < len)
			n += snprintf(buf + n, len - n, " (%llu pages)",
				      (unsigned long long)c->slow_pages);
		if (i == PPB_RET_RELEASE && teardown && n < len)
			n += snprintf(buf + n, len - n, " (teardown %llu)",
				      (unsigned long long)c->rel_teardown);
	}
	return buf;
}

void pool_header(void)
{
	char col[PPB_NR_CLASSES][8];

	/* "a:cach refill slow | r:cach ring releas": each class's name in 6 columns */
	for (int i = 0; i < PPB_NR_CLASSES; i++)
		snprintf(col[i], sizeof(col[i]), "%s%.*s",
			 i == 0			     ? "a:"
			 : i == PPB_NR_ALLOC_CLASSES ? "r:"
						     : "",
			 i == 0 || i == PPB_NR_ALLOC_CLASSES ? 4 : 6, class_name(i));
	printf("%-6s %-5s %-8s %-10s %6s %6s %6s | %6s %6s %6s | %5s %4s %4s %4s\n", "time", "pool",
	       "kind", "dev", col[0], col[1], col[2], col[3], col[4], col[5], "infl", "fast",
	       "ring", "slow");
	printf("%-6s %-5s %-8s %-10s %20s | %20s | %5s %14s\n", "", "", "", "", "allocations/s",
	       "returns/s", "pages", "returns on");
}

void pool_row(const char *when, const char *pool, const struct ppb_pool_info *pi,
	      const struct ppb_pool_counts *c, double secs, unsigned known)
{
	/* the returns' shares need every return known */
	bool all = (known & KNOWN_ALL) == KNOWN_ALL;
	uint64_t rets = counts_returns(c);
	char dev[IF_NAMESIZE + 4], r[PPB_NR_CLASSES][16], s[PPB_NR_CLASSES][16];
	const char *rt[PPB_NR_CLASSES], *sh[PPB_NR_CLASSES];

	for (int i = 0; i < PPB_NR_CLASSES; i++) {
		rt[i] = rate(c->cls[i].calls / secs, class_known(i, known), r[i]);
		sh[i] = share(c->cls[i].calls, rets, all, s[i]);
	}
	pool_dev_name(pi, dev, sizeof(dev));
	printf("%-6s %-5s %-8.8s %-10.10s %6s %6s %6s | %6s %6s %6s | %5d %4s %4s %4s\n", when,
	       pool, pool_kind_name(pi->kind), dev, rt[0], rt[1], rt[2], rt[3], rt[4], rt[5],
	       pool_inflight(pi), sh[PPB_RET_CACHE], sh[PPB_RET_RING], sh[PPB_RET_RELEASE]);
}

/*
 * The member at OFF of every class of C, as an object per side named
 * SIDE SUFFIX ("alloc_ns", "ret_ns") with a member per class.
 */
static void json_class_field(struct json *j, const char *suffix, const struct ppb_pool_counts *c,
			     size_t off)
{
	char side[16];

	for (int i = 0; i < PPB_NR_CLASSES; i++) {
		if (i == 0 || i == PPB_NR_ALLOC_CLASSES) {
			if (i)
				json_obj_end(j);
			snprintf(side, sizeof(side), "%s%s", class_side(i), suffix);
			json_obj_begin(j, side);
		}
		json_u64(j, class_name(i), *(const __u64 *)((const char *)&c->cls[i] + off));
	}
	json_obj_end(j);
}

/*
 * fentry only: the ns inside the timed calls of each class (probe overhead
 * included), the clean calls' counts and ns apart, and the pool's path figure
 * computed as bench computes its own, with its allocations as the elements:
 * null where not derivable.
 */
void json_timing(struct json *j, const struct ppb_pool_counts *c, double probe_ns)
{
	double path;
	int err;

	json_obj_begin(j, "timing");
	json_class_field(j, "_ns", c, offsetof(struct ppb_class_count, ns));
	json_u64(j, "nested_calls", c->nested_calls);
	json_u64(j, "irq_ns", c->irq_ns);
	json_obj_begin(j, "clean_calls");
	json_class_field(j, "", c, offsetof(struct ppb_class_count, clean));
	json_obj_end(j);
	json_obj_begin(j, "clean_ns");
	json_class_field(j, "", c, offsetof(struct ppb_class_count, clean_ns));
	json_obj_end(j);
	err = pool_path_ns(c, probe_ns, counts_allocs(c), &path);
	json_double(j, "path_ns_per_elem", err ? NAN : path);
	/* Timed calls that took no longer than the probe window measured apart:
	 * the probes' noise is larger than the path itself (emulation). */
	if (err == -ERANGE)
		json_str(j, "path_ns_none", "calls within the probe overhead");
	json_obj_end(j);
}

void json_pool(struct json *j, const struct pool_snap *p, bool fentry, bool per_cpu, int nr_cpus,
	       double probe_ns)
{
	unsigned known = path_known(fentry, p->info.flags);
	char flags[128], dev[IF_NAMESIZE + 4];

	pool_flags_str(&p->info, fentry ? OBS_FENTRY : OBS_TRACEPOINT, flags, sizeof(flags));
	pool_dev_name(&p->info, dev, sizeof(dev));
	json_obj_begin(j, NULL);
	if (p->folded || p->retired) {
		json_none(j, "id");
		json_u64(j, "pools", p->folded);
		json_bool(j, "retired", p->retired);
	} else {
		json_u64(j, "id", p->info.id);
		json_bool(j, "freed", snap_gone(p));
	}
	json_str(j, "kind", pool_kind_name(p->info.kind));
	json_i64(j, "ifindex", p->info.ifindex);
	json_u64(j, "netns", p->info.netns_ino);
	json_str(j, "dev", dev);
	json_i64(j, "inflight", pool_inflight(&p->info));
	json_str(j, "flags", flags);
	json_path(j, "path", &p->total, known);
	if (fentry)
		json_timing(j, &p->total, probe_ns);
	if (per_cpu)
		json_per_cpu_paths(j, p->percpu, nr_cpus, known);
	json_obj_end(j);
}

void json_levels(struct json *j, const char *key, const struct mode *m, size_t n, const char *count)
{
	json_arr_begin(j, key);
	for (size_t i = 0; i < n; i++) {
		json_obj_begin(j, NULL);
		json_double(j, "median", m[i].median);
		json_double(j, "min", m[i].lo);
		json_double(j, "max", m[i].hi);
		json_u64(j, count, m[i].count);
		json_obj_end(j);
	}
	json_arr_end(j);
}

void json_per_cpu_paths(struct json *j, const struct ppb_pool_counts *percpu, int nr_cpus,
			unsigned known)
{
	json_arr_begin(j, "per_cpu");
	for (int c = 0; c < nr_cpus; c++) {
		if (counts_zero(&percpu[c]))
			continue;
		json_obj_begin(j, NULL);
		json_u64(j, "cpu", c);
		json_path(j, "path", &percpu[c], known);
		json_obj_end(j);
	}
	json_arr_end(j);
}

int report_json_open(struct json **j, const char *path)
{
	*j = path ? json_open_stream(path, false) : NULL;
	return path && !*j ? -1 : 0;
}

int report_json_close(struct json **j)
{
	int err = json_close(*j);

	*j = NULL;
	return err;
}

void report_prog_misses(struct json *j, const char *indent, uint64_t n)
{
	if (n)
		printf("%sMISSED: the kernel skipped the observer's programs %llu times (its "
		       "recursion guard: a hooked call came while the same program ran): those "
		       "calls are not counted (ppbench-watch(8))\n",
		       indent, (unsigned long long)n);
	if (j)
		json_u64(j, "prog_misses", n);
}

void report_untracked(struct json *j, const char *indent, uint64_t pools, uint64_t events,
		      int capacity)
{
	if (pools && indent)
		printf("%sUNTRACKED: %llu pool%s and %llu of %s events not counted: the "
		       "observer's table (room for %d pools) was full (ppbench-watch(8))\n",
		       indent, (unsigned long long)pools, pools == 1 ? "" : "s",
		       (unsigned long long)events, pools == 1 ? "its" : "their", capacity);
	if (!j)
		return;
	json_obj_begin(j, "untracked");
	json_u64(j, "pools", pools);
	json_u64(j, "events", events);
	json_obj_end(j);
}

void env_report_up(const char *const ifname[2], const char *const ip[2], const char *const ns[2])
{
	printf("private environment up (Ctrl-C to remove it):\n");
	for (int i = 0; i < 2; i++)
		printf("  %s  %s  nsenter --net=%s\n", ifname[i], ip[i], ns[i]);
	/* a script reads these lines while we wait */
	fflush(stdout);
}
