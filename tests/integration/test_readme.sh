#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# README.md says nothing the program contradicts: its sample output has the
# lines of a real run, in the same order, with the same words (numbers aside),
# and its command table lists the commands the program has.

README=$TOP/README.md

# The first code block after the heading "What the output means".
readme_sample() {
	awk '/^## What the output means/ { h = 1 }
	     h && /^```/ { if (in_block) exit; in_block = 1; next }
	     in_block { print }' "$README"
}

test_readme_sample_is_real_output() {
	readme_sample >"$TMPD/sample"
	[ "$(grep -c '^Type:ppbench_' "$TMPD/sample")" -ge 1 ] ||
		fail "no sample output (Type: lines) under 'What the output means' in README.md"
	expect_exit 0 "$PPBENCH" bench --quiet --loops 2000 --repeat 2 --json "$TMPD/r.json"
	if grep -q ' skipped: ' "$LAST_OUT"; then
		skip "a scenario was skipped here, the sample has all four: $(grep -m1 ' skipped: ' "$LAST_OUT")"
	fi
	bench_shape <"$TMPD/sample" >"$TMPD/sample.shape"
	bench_shape <"$LAST_OUT" >"$TMPD/run.shape"
	diff "$TMPD/sample.shape" "$TMPD/run.shape" >"$TMPD/diff" ||
		fail "README.md's sample is not what 'ppbench bench --quiet --json F' prints: $(grep -m2 '^[<>]' "$TMPD/diff" | tr '\n' ' ')"
}

test_readme_short_and_lists_every_command() {
	local n c
	n=$(wc -l <"$README")
	[ "$n" -le 300 ] || fail "README.md has $n lines (at most 300: the rest goes to the man pages)"
	for c in $("$PPBENCH" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF && !/Commands:/ {print $1}'); do
		grep -q "^| \`ppbench $c[ \`]" "$README" || fail "README.md's command table lacks '$c'"
	done
}
