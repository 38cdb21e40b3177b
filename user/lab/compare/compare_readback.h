/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_CMPDOC_H
#define PPBENCH_CMPDOC_H

#include <stdbool.h>
#include <stddef.h>
#include "model/jsonparse.h"

/* A `compare --json` document read back for export kcidb: its verdicts, never decided again. */
#define CMPDOC_SCHEMA "ppbench-compare/1"

struct readback_side {
	size_t n;
	double mean, median;
};

struct readback_row {
	/* figure: "cycles", "ns", "path", "profile_path", "purity", "cpu" */
	const char *scenario, *figure, *label;
	/* path rows: the method (NULL: none in the file); where two differ, DIFFER */
	const char *method, *differ[2];
	double change_pct;   /* NAN: none (old was 0) */
	double floor_pct, p; /* NAN: none */
	bool testable, real, unstable, regression, gated;
	struct readback_side old, new;
};

struct readback_cmp {
	const json_t *old, *new; /* arrays of file names */
	const char *noise;	 /* "files", "profile" or "setups" */
	bool verdict;		 /* the noise between invocations was known */
	const char *unit;	 /* "cycles" or "instructions"; "cycles" in older documents */
	struct readback_row *rows;
	size_t nrows;
};

struct compare_readback {
	bool gate;	    /* compare ran with --fail-above */
	const char *metric; /* the gate's figure */
	double fail_above;  /* percent */
	struct readback_cmp *cmps;
	size_t ncmps;
	json_t *doc; /* the strings above point into it */
};

/*
 * Loads PATH: 0; -ENOMSG, ERR untouched, for JSON of another schema; -EINVAL
 * with one line in ERR naming the file and the field.
 */
int readback_load(const char *path, struct compare_readback *d, char *err, size_t errlen);
void readback_free(struct compare_readback *d);

#endif
