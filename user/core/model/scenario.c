// SPDX-License-Identifier: GPL-2.0
/* The bench scenarios and the candidate recipes of each, in the order they are tried. */
#include <errno.h>
#include <stdio.h>
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

const char *scenario_name_list(void)
{
	static char names[64];
	size_t n = 0;

	if (names[0])
		return names;
	for (int i = 0; i < NR_SCENARIOS && n < sizeof(names); i++)
		n += snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
			      scenario_defs[i].name);
	return names;
}

int scenario_list_parse(const char *list, bool *want, char *err, size_t len)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int id = scenario_by_name(tok);

		if (id < 0) {
			snprintf(err, len, "unknown scenario '%s' (%s)", tok, scenario_name_list());
			return -EINVAL;
		}
		if (want)
			want[id] = true;
	}
	return 0;
}
