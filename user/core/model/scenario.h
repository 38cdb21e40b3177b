/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_SCENARIO_H
#define PPBENCH_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The recipes bench can choose from (engine/recipe_run.c runs them). */
enum recipe_id {
	RCP_LF_DROP,	      /* live frames, XDP_DROP (test-run pool) */
	RCP_LF_VETH,	      /* live frames -> veth a, XDP_DROP on peer b */
	RCP_VETH_TX,	      /* UDP a -> b, native XDP_TX on b (veth rq pool, skb path) */
	RCP_GENERIC_FRAGS,    /* UDP a -> b, generic xdp.frags XDP_DROP on b (system pool) */
	RCP_XCPU,	      /* live frames -> cpumap on another CPU, remote XDP_DROP */
	RCP_NIC_DROP,	      /* native XDP_DROP of an existing interface's own traffic */
	RCP_LF_FASTPASS,      /* live frames PASSed, copied into the system pool, dropped */
	RCP_LF_FASTPASS_TWIN, /* the same without the copy: the page returns to its ring */
	NR_RECIPES,
};

/* The bench scenarios (ppbench-bench(8), "Scenarios"), in the order they run. */
enum scenario_id { SC_RING, SC_RING_XCPU, SC_FAST, SC_SLOW, NR_SCENARIOS };

/*
 * candidate.repeat: as many frames per syscall as one slow allocation brings
 * pages (PP_ALLOC_CACHE_REFILL), so that each frame takes one of the allocator's.
 */
#define CAND_REPEAT_REFILL UINT32_MAX

/* A candidate recipe for a scenario: the runner proves which path it takes. */
struct candidate {
	enum recipe_id recipe;
	uint32_t batch;	 /* 0: the --batch value */
	uint32_t repeat; /* frames per syscall; 0: all the loops in one syscall */
	uint32_t size;	 /* frame size; 0: one whose copy takes a page (pkt_page_copy_size) */
};

struct scenario_def {
	const char *name;
	const char *isolates; /* the path, for the output */
	uint64_t default_loops;
	struct candidate cand[4];
	int nr_cand;
};
extern const struct scenario_def scenario_defs[NR_SCENARIOS];
int scenario_by_name(const char *name);
/* "ring, ring-xcpu, fast, slow": the table's names, for messages and option help. */
const char *scenario_name_list(void);
/* The names of the comma-separated LIST into WANT (NULL: only checked); -EINVAL and ERR. */
int scenario_list_parse(const char *list, bool *want, char *err, size_t len);

#endif
