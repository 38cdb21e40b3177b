/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_GUESTIN_H
#define PPBENCH_GUESTIN_H

#include <stddef.h>

/*
 * The files ppbench vm carries into its guest: an option (--NAME) of the
 * command run there whose value, at ARGV[ARGI] + AT, is a file it reads
 * (CLI_F_INFILE). The guest has the K-th of them (from 1) at
 * /vm/in/K/BASENAME, BASENAME the last component of the value as given.
 */
struct vm_in_arg {
	const char *name;
	int argi;
	size_t at;
};

/* The guest's directory of the inputs (scripts/vm/run packs them there). */
#define VM_IN_DIR "/vm/in"

/*
 * ARGV (ARGC words) with the value of each of the N inputs A replaced by its
 * guest path, into OUT (ARGC + 1 words, NULL-terminated): a replaced word is
 * a new string ("--opt=d/x.ko" -> "--opt=/vm/in/1/x.ko"), the others are
 * ARGV's. HOST[K - 1] gets the K-th input's value as given (in ARGV). ARGV is
 * not changed. Returns 0, or -ENOMEM (OUT then holds no new string).
 */
int vm_in_rewrite(int argc, char *const *argv, const struct vm_in_arg *a, int n, char **out,
		  const char **host);
/* The words of OUT that vm_in_rewrite() made (those not in ARGV), freed. */
void vm_in_free(int argc, char *const *argv, char **out);

#endif
