// SPDX-License-Identifier: GPL-2.0
/*
 * schema_check FILE...: validate ppbench result files (schema "ppbench/1")
 * with the same loader `ppbench compare` and `ppbench plot` use, so the
 * bench tests check its output against the documented schema.
 * Exit 0 when every file is valid, 1 when one is not, 2 on usage errors.
 */
#include <stdio.h>
#include <string.h>
#include "model/result.h"

int main(int argc, char **argv)
{
	int bad = 0;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"Usage: schema_check RESULT.json...\n"
			"Checks ppbench bench --json files against schema \"%s\".\n"
			"Exit status: 0 all valid, 1 a file is invalid, 2 usage error.\n",
			RESULT_SCHEMA);
		return argc < 2 ? 2 : 0;
	}
	for (int i = 1; i < argc; i++) {
		struct result r;
		char err[512];

		if (result_load(argv[i], &r, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			bad = 1;
			continue;
		}
		printf("%s: ok, schema %s, %zu scenarios\n", argv[i], r.schema, r.nr_sc);
		result_free(&r);
	}
	return bad;
}
