// SPDX-License-Identifier: GPL-2.0
/* The bench scenarios and the candidate recipes of each, in the order they are tried. */
#include <string.h>
#include "model/scenario.h"

const struct scenario_def scenario_defs[NR_SCENARIOS] = {
	[SC_RING] = { "ring",
		      "alloc from the cache (ring refill), return to the ptr_ring, one CPU",
		      2000000,
		      { { RCP_LF_DROP, 0, 0, 64 }, { RCP_LF_VETH, 0, 0, 64 } },
		      2 },
	[SC_RING_XCPU] = { "ring-xcpu",
			   "return into the origin pool's ptr_ring from another CPU",
			   1000000,
			   { { RCP_XCPU, 256, 0, 64 } },
			   1 },
	[SC_FAST] = { "fast",
		      "alloc from the cache, direct recycle into it (NAPI-local)",
		      100000,
		      { { RCP_NIC_DROP, 0, 0, 0 },
			{ RCP_LF_FASTPASS, 0, 0, 0 },
			{ RCP_GENERIC_FRAGS, 0, 0, 1500 },
			{ RCP_LF_DROP, 0, 0, 64 } },
		      4 },
	[SC_SLOW] = { "slow",
		      "alloc from and release to the page allocator",
		      256000,
		      { { RCP_LF_DROP, 1, CAND_REPEAT_REFILL, 64 }, { RCP_VETH_TX, 0, 0, 1500 } },
		      2 },
};

int scenario_by_name(const char *name)
{
	for (int i = 0; i < NR_SCENARIOS; i++)
		if (!strcmp(scenario_defs[i].name, name))
			return i;
	return -1;
}
