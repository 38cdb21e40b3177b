/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_EXPORTFIG_H
#define PPBENCH_EXPORTFIG_H

#include <stdbool.h>
#include <stddef.h>
#include "model/result.h"

/*
 * The figures of a result file as `ppbench export` hands them to other
 * systems: per scenario its cycles (or instructions: whatever host.clock
 * counts) and ns per element (cycle files only) with the setups' range, the
 * path figures (bench's, and a profile's where vm --profile put one) and
 * the purity. One source for their names and units, so that every format
 * says the same thing: a file of qemu's instruction clock exports
 * "instructions_per_elem", never "cycles_per_elem", and a path figure of
 * fentry's "path_fentry_...": never one name for two methods.
 */
enum xfig_kind { XFIG_CYCLES, XFIG_NS, XFIG_PATH, XFIG_PPATH, XFIG_PURITY, NR_XFIGS };

struct xfig {
	enum xfig_kind kind;
	bool has;	 /* a value: false for a skipped scenario, or a path figure that is n/a */
	const char *why; /* !has: the skip reason, or how the path figure would be derived */
	double value;	 /* median over the setups; path, purity: the file's one value */
	double lo, hi;	 /* least and largest setup; path, purity: the value */
	double cv;	 /* between the setups; 0 for path and purity */
	size_t n;	 /* setups behind value; 1 for path and purity */
	const char *method; /* path figures: their method's name (path_method_name()) */
};

/*
 * Whether a file counting UNIT exports figure KIND. Under qemu's instruction
 * clock the guest's ns advance one per instruction: its ns figures are the
 * instructions again, not a time, so no export names them ns.
 */
bool xfig_exported(enum xfig_kind kind, const char *unit);
/* Figure KIND of scenario SC (purity in percent). */
void xfig_get(const struct result_scenario *sc, enum xfig_kind kind, struct xfig *out);
/*
 * The name of figure KIND when the file counts UNIT (host.clock.unit,
 * "cycles" or "instructions"), its words joined by SEP: "cycles_per_elem",
 * "ns_per_elem", "path_fentry_instructions_per_elem" (a path figure of
 * METHOD, as xfig_key_part() spells it; NULL: none), "purity_percent";
 * with '-' "cycles-per-elem".
 */
const char *xfig_name(enum xfig_kind kind, const char *unit, const char *method, char sep,
		      char *buf, size_t len);
/* The unit of a value of KIND: "cycles/elem", "instructions/elem", "ns/elem", "%". */
const char *xfig_unit(enum xfig_kind kind, const char *unit, char *buf, size_t len);
/* NAME with every character outside [a-z0-9_] as '_' (LKP's keys): "ring-xcpu" -> "ring_xcpu". */
const char *xfig_key_part(const char *name, char *buf, size_t len);

#endif
