// SPDX-License-Identifier: GPL-2.0
/* Does a driver module hold page_pools? Its BTF says (drvpool.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include "loader/drvpool.h"
#include "loader/kfeatures.h"

/* Through typedefs and qualifiers to the type id a member's type names. */
static const struct btf_type *skip_mods(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, t->type);
	return t;
}

static bool points_to_page_pool(const struct btf *btf, __u32 type)
{
	const struct btf_type *t = skip_mods(btf, type);

	if (!t || !btf_is_ptr(t))
		return false;
	t = skip_mods(btf, t->type);
	return t && btf_is_struct(t) && !strcmp(btf__name_by_offset(btf, t->name_off), "page_pool");
}

int ppb_driver_page_pool(const char *driver, char *member, size_t len)
{
	struct btf *base = ppb_vmlinux_btf(), *mod;
	char path[256];
	int found = 0;

	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", driver);
	mod = base ? btf__parse_split(path, base) : NULL;
	if (!mod)
		return -ENOENT;
	/* the module's own types follow the kernel's in a split BTF */
	for (__u32 id = btf__type_cnt(base); id < btf__type_cnt(mod) && !found; id++) {
		const struct btf_type *t = btf__type_by_id(mod, id);
		const struct btf_member *m;

		if (!btf_is_struct(t))
			continue;
		m = btf_members(t);
		for (int i = 0; i < btf_vlen(t); i++, m++) {
			if (!points_to_page_pool(mod, m->type))
				continue;
			snprintf(member, len, "%s.%s", btf__name_by_offset(mod, t->name_off),
				 btf__name_by_offset(mod, m->name_off));
			found = 1;
			break;
		}
	}
	btf__free(mod);
	return found;
}
