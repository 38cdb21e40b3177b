// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "model/snapshot.h"

void pool_flags_str(const struct ppb_pool_info *pi, enum obs_backend b, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
#define ADD(cond, word)                                                                            \
	do {                                                                                       \
		if ((cond) && n < len)                                                             \
			n += snprintf(buf + n, len - n, "%s%s", n ? "," : "", word);               \
	} while (0)
	ADD(b == OBS_TRACEPOINT && !(pi->flags & PPB_POOL_F_ELEMS), "no-elems");
	ADD(b == OBS_TRACEPOINT && (pi->flags & PPB_POOL_F_COARSE), "coarse");
	ADD(b == OBS_TRACEPOINT && (pi->flags & PPB_POOL_F_WRAP_RISK), "wrap-risk");
	ADD(b == OBS_TRACEPOINT && !(pi->flags & PPB_POOL_F_DENSE), "sparse");
	ADD(b == OBS_TRACEPOINT && (pi->flags & PPB_POOL_F_TINY_RING), "tiny-ring");
	ADD(b == OBS_TRACEPOINT && (pi->flags & PPB_POOL_F_INCONSISTENT), "inconsistent");
	ADD(b == OBS_TRACEPOINT && (pi->flags & PPB_POOL_F_MULTI_CPU), "multi-cpu");
	ADD(pi->flags & PPB_POOL_F_FRAG, "frag");
	ADD(pi->flags & PPB_POOL_F_DYING, "destroyed");
#undef ADD
}
