// SPDX-License-Identifier: GPL-2.0
/* Output helpers shared by watch, recipe, bench and load. */
#include <stdio.h>
#include "report.h"

static void maybe_u64(struct json *j, const char *key, uint64_t v, bool known)
{
	if (known)
		json_u64(j, key, v);
	else
		json_null(j, key);
}

unsigned path_known(bool fentry, uint32_t f)
{
	unsigned k = 0;

	if (fentry)
		return KNOWN_ALL;
	if (!(f & PPB_POOL_F_TINY_RING))
		k |= KNOWN_RING;
	if ((f & PPB_POOL_F_ELEMS) && !(f & PPB_POOL_F_TINY_RING))
		k |= KNOWN_CACHE;
	return k;
}

void json_path(struct json *j, const char *key, const struct ppb_pool_counts *c, unsigned known)
{
	bool cache = known & KNOWN_CACHE, ring = known & KNOWN_RING;

	json_obj_begin(j, key);
	json_obj_begin(j, "alloc");
	maybe_u64(j, "cache", c->alloc_cache, cache);
	maybe_u64(j, "refill", c->alloc_refill, cache);
	json_u64(j, "slow", c->alloc_slow);
	json_u64(j, "slow_pages", c->slow_pages);
	maybe_u64(j, "refill_pages", c->refill_pages, ring);
	json_obj_end(j);
	json_obj_begin(j, "ret");
	maybe_u64(j, "cache", c->ret_cache, cache);
	maybe_u64(j, "ring", c->ret_ring, ring);
	json_u64(j, "release", c->ret_release);
	json_u64(j, "unclassified", c->unclassified);
	json_obj_end(j);
	json_obj_begin(j, "release");
	json_u64(j, "refcnt", c->rel_refcnt);
	json_u64(j, "other", c->rel_other);
	json_u64(j, "teardown", c->rel_teardown);
	json_obj_end(j);
	json_u64(j, "elems", c->elems);
	json_u64(j, "samples", c->samples);
	json_obj_end(j);
}

const char *fmt_count(uint64_t v, char *buf, size_t len)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v), o = 0;

	for (int i = 0; i < n && o < (int)len - 1; i++) {
		if (i && (n - i) % 3 == 0 && o < (int)len - 2)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}
