// SPDX-License-Identifier: GPL-2.0
/* Path figures from per-call timing and the method's error (see pathfig.h). */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "model/pathfig.h"

int path_ns_per_elem(const struct call_class *cls, size_t n, double probe_ns, uint64_t elems,
		     double *out)
{
	double ns = 0;

	if (!elems || !isfinite(probe_ns))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(cls[i].ns))
			return -EINVAL;
		ns += cls[i].ns - probe_ns * cls[i].calls;
	}
	*out = ns / elems;
	return ns > 0 ? 0 : -ERANGE;
}

double class_ns(uint64_t ns, uint64_t calls, uint64_t clean, uint64_t clean_ns)
{
	if (!clean || clean > calls)
		return (double)ns;
	return (double)clean_ns / clean * calls;
}

/* The pool's classes with each one's time estimated (class_ns()). */
static void pool_classes(const struct ppb_pool_counts *c, struct call_class cls[PPB_NR_CLASSES])
{
	for (int i = 0; i < PPB_NR_CLASSES; i++) {
		const struct ppb_class_count *k = &c->cls[i];

		cls[i] = (struct call_class){ class_ns(k->ns, k->calls, k->clean, k->clean_ns),
					      k->calls, k->calls };
	}
}

int pool_path_ns(const struct ppb_pool_counts *c, double probe_ns, uint64_t elems, double *out)
{
	struct call_class cls[PPB_NR_CLASSES];

	pool_classes(c, cls);
	return path_ns_per_elem(cls, PPB_NR_CLASSES, probe_ns, elems, out);
}

unsigned int scenario_path_classes(enum scenario_id sc)
{
	switch (sc) {
	case SC_FAST:
		return PATH_CLASS(PPB_ALLOC_CACHE) | PATH_CLASS(PPB_RET_CACHE);
	case SC_RING:
	case SC_RING_XCPU:
		return PATH_CLASS(PPB_ALLOC_CACHE) | PATH_CLASS(PPB_ALLOC_REFILL) |
		       PATH_CLASS(PPB_RET_RING);
	case SC_SLOW:
		return PATH_CLASS(PPB_ALLOC_CACHE) | PATH_CLASS(PPB_ALLOC_SLOW) |
		       PATH_CLASS(PPB_RET_RING) | PATH_CLASS(PPB_RET_RELEASE);
	default:
		return 0;
	}
}

/* One side's classes of CLASSES (FIRST to END): their ns and calls. */
static void side_sum(const struct call_class *cls, int first, int end, unsigned int classes,
		     double *ns, uint64_t *calls)
{
	*ns = 0;
	*calls = 0;
	for (int i = first; i < end; i++) {
		if (!(classes & PATH_CLASS(i)))
			continue;
		*ns += cls[i].ns;
		*calls += cls[i].calls;
	}
}

int scenario_path_ns(const struct ppb_pool_counts *c, unsigned int classes, double probe_ns,
		     double *out)
{
	struct call_class cls[PPB_NR_CLASSES];
	double ans, rns;
	uint64_t an, rn;

	if (!isfinite(probe_ns))
		return -EINVAL;
	pool_classes(c, cls);
	side_sum(cls, 0, PPB_NR_ALLOC_CLASSES, classes, &ans, &an);
	side_sum(cls, PPB_NR_ALLOC_CLASSES, PPB_NR_CLASSES, classes, &rns, &rn);
	if (!an || !rn)
		return -EINVAL;
	*out = (ans / an - probe_ns) + (rns / rn - probe_ns);
	return *out > 0 ? 0 : -ERANGE;
}

double bulk_ns_per_elem(double call_ns, uint64_t count, double probe_ns)
{
	return count ? (call_ns - probe_ns) / count : NAN;
}

double method_error(double ppbench_figure, double module_figure)
{
	if (!(ppbench_figure > 0) || !(module_figure > 0))
		return NAN;
	return ppbench_figure / module_figure - 1;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

const char *path_method_name(const char *text)
{
	static const char older[] = " (scenario medians)";
	size_t n = text ? strlen(text) : 0;

	if (!text)
		return NULL;
	if (starts(text, PATH_TEXT_FENTRY))
		return "fentry";
	if (starts(text, PATH_TEXT_REFERENCE))
		return "reference";
	if (starts(text, PATH_TEXT_TWIN))
		return "twin";
	if (!strcmp(text, PATH_TEXT_PROFILE))
		return "profile";
	if (strstr(text, " minus ") && n > strlen(older) &&
	    !strcmp(text + n - strlen(older), older))
		return "difference";
	return text;
}

bool path_methods_agree(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}
