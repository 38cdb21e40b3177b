#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The sources follow .clang-format (kernel style, 100 columns): `make format`
# applies it, this test checks it (`make format-check`).

test_sources_clang_formatted() {
	command -v clang-format >/dev/null ||
		skip "no clang-format (scripts/install-deps.sh --tests installs it)"
	make -s -C "$TOP" --no-print-directory format-check >"$TMPD/out" 2>&1 && return 0
	grep -oE '^[^ :]+:[0-9]+:[0-9]+: ' "$TMPD/out" | cut -d: -f1 | sort | uniq -c | sed 's/^/    /'
	fail "sources not formatted as .clang-format says: run 'make format'"
}
