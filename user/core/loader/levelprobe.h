/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_LEVELPROBE_H
#define PPBENCH_LEVELPROBE_H

/*
 * The host's level, as guest kernel-side work sees it: ns per run of a
 * trivial XDP program (returns XDP_DROP) under non-live BPF_PROG_RUN, so no
 * page_pool code. On a VM whose host runs guest kernel work on levels, this
 * loop moves with them while user-space loops do not. A call takes the
 * median of LEVEL_ROUNDS syscalls of LEVEL_REPEAT runs, each timed as the
 * kernel times its loop (time given up to other tasks is not counted).
 */
#define LEVEL_ROUNDS 5
#define LEVEL_REPEAT 100000

/* ns per run, or NAN where the program cannot load or run. */
double level_probe_ns(void);
/* Unloads the program (level_probe_ns() loads it again when called). */
void level_probe_close(void);

#endif
