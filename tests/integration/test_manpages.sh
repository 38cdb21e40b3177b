#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The manual pages: one per command (build/ppbench-CMD.8, from the command's
# table and its prose, user/cmd/CMD.md, through lowdown), each rendered by
# man(1) without a troff warning, and 'ppbench help CMD' showing the same text
# as the page.

# The commands 'ppbench --help' lists.
commands() {
	"$PPBENCH" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF && !/Commands:/ {print $1}'
}

# A page as man shows it at 80 columns, without its layout: the text alone.
man_words() { # page
	MANWIDTH=80 LC_ALL=C.UTF-8 man -l "$1" 2>/dev/null | col -bx | tr -d ' \n'
}

test_man_page_per_command() {
	local c page miss opts n=0
	for c in $(commands); do
		page=$TOP/build/ppbench-$c.8
		[ -f "$page" ] || fail "no manual page for '$c' ($page; make builds it)"
		MANWIDTH=80 LC_ALL=C.UTF-8 man -l --warnings=w "$page" 2>"$TMPD/warn" >"$TMPD/page"
		[ ! -s "$TMPD/warn" ] || fail "ppbench-$c.8: man warns: $(head -3 "$TMPD/warn")"
		# -k: preconv, as man(1) runs it (the pages are UTF-8)
		LC_ALL=C.UTF-8 groff -k -man -ww -z -Tutf8 "$page" 2>"$TMPD/warn"
		[ ! -s "$TMPD/warn" ] || fail "ppbench-$c.8: troff warns: $(head -3 "$TMPD/warn")"
		col -bx <"$TMPD/page" >"$TMPD/text"
		miss=$(absent -x "$TMPD/text" NAME SYNOPSIS DESCRIPTION OPTIONS EXAMPLES 'EXIT STATUS' 'SEE ALSO')
		[ -z "$miss" ] || fail "ppbench-$c.8 has no ${miss//$'\n'/, } section"
		grep -q "^ *ppbench-$c - " "$TMPD/text" || fail "ppbench-$c.8: NAME is not ppbench-$c"
		# every option of --help is in the page
		mapfile -t opts < <(options_of "$c")
		miss=$(absent "$TMPD/text" "${opts[@]}")
		[ -z "$miss" ] || fail "ppbench-$c.8 lacks ${miss//$'\n'/ }"
		n=$((n + 1))
	done
	[ "$n" -ge 11 ] || fail "only $n commands have pages"
}

# Without a terminal 'ppbench help CMD' prints the page as text: the same words
# in the same order as man shows (line breaks and indentation aside).
test_help_cmd_is_the_page() {
	local c
	for c in $(commands); do
		"$PPBENCH" help "$c" >"$TMPD/help" 2>"$TMPD/err" || fail "ppbench help $c failed"
		[ ! -s "$TMPD/err" ] || fail "ppbench help $c wrote to stderr: $(head -1 "$TMPD/err")"
		tr -d ' \n' <"$TMPD/help" >"$TMPD/help.w"
		man_words "$TOP/build/ppbench-$c.8" >"$TMPD/man.w"
		if ! cmp -s "$TMPD/help.w" "$TMPD/man.w"; then
			local at
			at=$(cmp "$TMPD/help.w" "$TMPD/man.w" | grep -oE 'byte [0-9]+' | grep -oE '[0-9]+')
			at=$((${at:-1} > 20 ? ${at:-1} - 20 : 1))
			fail "ppbench help $c is not ppbench-$c.8: '$(tail -c +$at "$TMPD/help.w" |
				head -c 60)' against '$(tail -c +$at "$TMPD/man.w" | head -c 60)'"
		fi
	done
	expect_exit 2 "$PPBENCH" help frobnicate
	expect_one_line_error "unknown command 'frobnicate'"
	expect_exit 2 "$PPBENCH" help bench extra
	expect_one_line_error "expected one command"
	# the page the build writes is the one the binary prints
	"$PPBENCH" help --man bench | cmp -s - "$TOP/build/ppbench-bench.8" ||
		fail "build/ppbench-bench.8 is not 'ppbench help --man bench' (stale build?)"
}

# Where man(1) is not installed, 'ppbench help CMD' is lowdown's text of the
# page: its NAME, its prose and every option of --help with its text.
test_help_without_man() {
	local c miss opts
	for c in $(commands); do
		PATH=/nonexistent "$PPBENCH" help "$c" >"$TMPD/help" 2>"$TMPD/err" ||
			fail "ppbench help $c without man failed: $(head -1 "$TMPD/err")"
		grep -q "^ *ppbench-$c - " "$TMPD/help" || fail "ppbench help $c without man: no NAME"
		! grep -q -e '^\.' -e '\\f[BIR]' "$TMPD/help" || fail "ppbench help $c without man is troff"
		grep -q '^EXIT STATUS$' "$TMPD/help" || fail "ppbench help $c without man: no prose"
		mapfile -t opts < <(options_of "$c")
		miss=$(absent "$TMPD/help" "${opts[@]}")
		[ -z "$miss" ] || fail "ppbench help $c without man lacks ${miss//$'\n'/ }"
	done
	grep -q -- "$("$PPBENCH" bench --help | grep -oE 'more messages; .*')" "$TMPD/help" ||
		fail "the text of --verbose differs from --help's"
}

# The gating rule is stated once, in ppbench-compare(8); README.md and the
# other pages refer to it and state no rule of their own: no other text says
# when a gate leaves a figure out or takes it in. Each text is one line here
# (its words, whatever the wrapping), prefixed with its name.
test_gating_rule_stated_once() {
	local c all=$TMPD/all
	for c in ppbench $(commands); do
		{ if [ "$c" = ppbench ]; then "$PPBENCH" help; else "$PPBENCH" help "$c"; fi; } |
			col -bx | tr -s ' \n' '  ' | sed "s/^/$c: /; s/\$/\n/" >>"$all"
	done
	{ printf 'README.md: '; tr -s ' \n' '  ' <"$TOP/README.md"; echo; } >>"$all"
	assert_eq "$(grep -o 'one rule for both: a gate fires on a real regression' "$all" | wc -l)" 1 \
		"the rule, once"
	grep -q '^compare: .*one rule for both: a gate fires' "$all" || fail "not in ppbench-compare(8)"
	for c in trend README.md; do
		grep -q "^$c: .*The gating rule" "$all" || fail "$c does not refer to The gating rule"
	done
	# where compare and trend apply it differently, each does so under its own name
	grep -q '^compare: .*Rows on two levels (compare)' "$all" &&
		grep -q '^compare: .*Unstable series (trend)' "$all" ||
		fail "ppbench-compare(8) does not name each gate's way with levels"
	grep -q '^trend: .*"Unstable series"' "$all" || fail "trend does not refer to Unstable series"
	if grep -oE ".{40}((does|do|is) not gated? |never gate|gated? unless|gates? like the others|(on|of) a stable figure).{40}" \
		"$all"; then
		fail "a gating rule stated outside ppbench-compare(8)'s"
	fi
}

# ppbench-bench(8)'s OUTPUT sample has the lines of a real run of the command
# under it, in the same order, with the same words (numbers aside).
test_bench_page_output() {
	local page=$TOP/user/cmd/bench.md
	awk '/^# OUTPUT/ { h = 1 } h && /^```/ { if (b) exit; b = 1; next } b' "$page" >"$TMPD/sample"
	grep -q '^Type:ppbench_ring ' "$TMPD/sample" || fail "no sample under OUTPUT in $page"
	expect_exit 0 "$PPBENCH" bench --scenario ring,slow --loops 20000 --repeat 3 \
		--json "$TMPD/r.json"
	jq -e '[.scenarios[] | .recipe | startswith("lf-drop;")] | all' "$TMPD/r.json" >/dev/null ||
		skip "another recipe here than the sample's: $(jq -c '[.scenarios[].recipe]' "$TMPD/r.json")"
	bench_shape <"$TMPD/sample" >"$TMPD/sample.shape"
	bench_shape <"$LAST_OUT" >"$TMPD/run.shape"
	diff "$TMPD/sample.shape" "$TMPD/run.shape" >"$TMPD/diff" ||
		fail "bench(8)'s OUTPUT is not what its command prints: $(grep -m2 '^[<>]' "$TMPD/diff" | tr '\n' ' ')"
}

# The pages describe: no dated measurement, no lab notebook (outside the code
# blocks, whose sample outputs carry their files' times), and bench(8) is read
# in one sitting.
test_pages_describe() {
	local f n
	for f in "$TOP"/user/cmd/*.md "$TOP"/user/judge/cmd/*.md "$TOP"/user/cli/ppbench.md; do
		awk '/^```/ { b = !b; next } !b { print FILENAME ":" FNR ": " $0 }' "$f" |
			grep -E '[0-9]{4}-[0-9]{2}-[0-9]{2}|development VM|this VM|not explained|^[^:]*:[0-9]+: # MEASURED' &&
			fail "a page keeps a dated measurement or a lab note: ${f#"$TOP"/}"
	done
	n=$(wc -l <"$TOP/user/cmd/bench.md")
	[ "$n" -lt 350 ] || fail "user/cmd/bench.md has $n lines (under 350)"
}
