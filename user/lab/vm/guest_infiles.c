// SPDX-License-Identifier: GPL-2.0
/* The inputs of vm's guest command line (vm/guest_infiles.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vm/guest_infiles.h"

/* WORD with its value from AT replaced by input N's guest path. */
static char *guest_word(const char *word, size_t at, int n)
{
	const char *val = word + at, *slash = strrchr(val, '/');
	char *s;

	if (asprintf(&s, "%.*s" VM_IN_DIR "/%d/%s", (int)at, word, n, slash ? slash + 1 : val) < 0)
		return NULL;
	return s;
}

void vm_in_free(int argc, char *const *argv, char **out)
{
	for (int i = 0; i < argc; i++)
		if (out[i] != argv[i]) {
			free(out[i]);
			out[i] = argv[i];
		}
}

int vm_in_rewrite(int argc, char *const *argv, const struct vm_in_arg *a, int n, char **out,
		  const char **host)
{
	memcpy(out, argv, argc * sizeof(*out));
	out[argc] = NULL;
	for (int k = 0; k < n; k++) {
		char *w = guest_word(argv[a[k].argi], a[k].at, k + 1);

		if (!w) {
			vm_in_free(argc, argv, out);
			return -ENOMEM;
		}
		host[k] = argv[a[k].argi] + a[k].at;
		out[a[k].argi] = w;
	}
	return 0;
}
