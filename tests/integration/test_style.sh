#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The sources follow .clang-format (kernel style, 100 columns): `make format`
# applies it, this test checks it (`make format-check`). A file's name says
# what it holds, so no two files under user/ share a base name.

test_sources_clang_formatted() {
	command -v clang-format >/dev/null ||
		skip "no clang-format (scripts/install-deps.sh --tests installs it)"
	make -s -C "$TOP" --no-print-directory format-check >"$TMPD/out" 2>&1 && return 0
	grep -oE '^[^ :]+:[0-9]+:[0-9]+: ' "$TMPD/out" | cut -d: -f1 | sort | uniq -c | sed 's/^/    /'
	fail "sources not formatted as .clang-format says: run 'make format'"
}

test_user_file_names_unique() {
	local dups name
	dups=$(find "$TOP/user" -type f -printf '%f\n' | sort | uniq -d)
	[ -z "$dups" ] && return 0
	for name in $dups; do
		find "$TOP/user" -type f -name "$name" | sed "s|^$TOP/|    |"
	done
	fail "file names shared under user/: $(echo $dups)"
}
