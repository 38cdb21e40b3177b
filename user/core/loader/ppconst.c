// SPDX-License-Identifier: GPL-2.0
/* page_pool's page-size dependent constants from the kernel's BTF (ppconst.h). */
#include <string.h>
#include <bpf/btf.h>
#include "loader/kfeatures.h"
#include "loader/ppconst.h"

/* Elements of the array member NAME of struct STRUCT (0: not found). */
static uint32_t array_len(const char *strct, const char *name)
{
	const struct btf *btf = ppb_vmlinux_btf();
	const struct btf_member *m;
	const struct btf_type *t;
	int id;

	id = btf ? btf__find_by_name_kind(btf, strct, BTF_KIND_STRUCT) : -1;
	if (id <= 0)
		return 0;
	t = btf__type_by_id(btf, id);
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const struct btf_type *a;

		if (strcmp(btf__name_by_offset(btf, m->name_off), name))
			continue;
		a = btf__type_by_id(btf, m->type);
		return a && btf_is_array(a) ? btf_array(a)->nelems : 0;
	}
	return 0;
}

uint32_t ppb_pool_cache_size(void)
{
	static uint32_t n;

	if (!n)
		n = array_len("pp_alloc_cache", "cache") ?: 128;
	return n;
}

uint32_t ppb_pool_refill(void)
{
	return ppb_pool_cache_size() / 2;
}
