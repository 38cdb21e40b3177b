// SPDX-License-Identifier: GPL-2.0
/*
 * schema_check FILE...: validate ppbench result files (schema "ppbench/1")
 * with the same loader `ppbench compare` and `ppbench plot` use, so the
 * bench tests check its output against the documented schema. Files whose
 * schema is a noise profile's ("ppbench-noise/1") go to the profile loader.
 * Exit 0 when every file is valid, 1 when one is not, 2 on usage errors.
 */
#include <stdio.h>
#include <string.h>
#include "model/noise.h"
#include "model/result.h"

/* A noise profile, by its schema field: checked by the loader compare --noise uses. */
static int check_profile(const char *path, bool *is_profile)
{
	struct noise_profile p;
	char err[512];
	json_t *doc = jparse_file(path, err, sizeof(err));

	*is_profile = doc && !strncmp(json_string_value(json_object_get(doc, "schema")) ?: "",
				      "ppbench-noise/", 14);
	json_decref(doc);
	if (!*is_profile)
		return 0;
	if (noise_load(path, &p, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	printf("%s: ok, schema %s, %zu scenarios\n", path, NOISE_SCHEMA, p.nr_sc);
	noise_free(&p);
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"Usage: schema_check RESULT.json...\n"
			"Checks ppbench bench --json files against schema \"%s\" (noise\n"
			"profiles of ppbench calibrate against \"%s\").\n"
			"Exit status: 0 all valid, 1 a file is invalid, 2 usage error.\n",
			RESULT_SCHEMA, NOISE_SCHEMA);
		return argc < 2 ? 2 : 0;
	}
	for (int i = 1; i < argc; i++) {
		struct result r;
		char err[512];
		bool profile;

		bad |= check_profile(argv[i], &profile);
		if (profile)
			continue;
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
