#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The manual pages: one per command (build/ppbench-CMD.8, from the command's
# table and its prose, user/core/cmd/CMD.md or user/lab/CMD/CMD.md, through lowdown), each rendered by
# man(1) without a troff warning, and 'ppbench help CMD' showing the same text
# as the page.

# The commands 'ppbench --help' lists.
commands() {
	"$PPBENCH" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF && !/Commands:/ {print $1}'
}

# man(1)'s text of a page at 80 columns, without its layout codes, kept under
# build/man-text/ beside a copy of the page it was made of: man takes 0.15 s
# or more a page, and more than one test reads a page's text. A page rebuilt
# with other content is rendered again.
MAN_TEXT=$TOP/build/man-text

# PAGE through man, its warnings to WARN: prints the path of its text.
man_render() { # page warn
	local t=$MAN_TEXT/${1##*/}
	[ -d "$MAN_TEXT" ] || mkdir -p "$MAN_TEXT"
	rm -f "$t" # no copy of a page while its text is being written
	MANWIDTH=80 LC_ALL=C.UTF-8 man -l --warnings=w "$1" 2>"$2" | col -bx >"$t.txt"
	# a failed man's text is not kept: it would outlive the failure
	[ "${PIPESTATUS[0]}" != 0 ] || cp "$1" "$t"
	echo "$t.txt"
}

# man's text of PAGE: the kept one if it was made of this very page.
man_text() { # page
	local t=$MAN_TEXT/${1##*/}
	if cmp -s "$1" "$t"; then
		echo "$t.txt"
	else
		man_render "$1" /dev/null
	fi
}

# Every page rendered now (not taken from build/man-text/, so that a new man or
# groff is checked too), without a warning from man or troff.
test_man_page_per_command() {
	local c page text miss opts n=0
	for c in $(commands); do
		page=$TOP/build/ppbench-$c.8
		[ -f "$page" ] || fail "no manual page for '$c' ($page; make builds it)"
		text=$(man_render "$page" "$TMPD/warn")
		[ ! -s "$TMPD/warn" ] || fail "ppbench-$c.8: man warns: $(head -3 "$TMPD/warn")"
		# -k: preconv, as man(1) runs it (the pages are UTF-8)
		LC_ALL=C.UTF-8 groff -k -man -ww -z -Tutf8 "$page" 2>"$TMPD/warn"
		[ ! -s "$TMPD/warn" ] || fail "ppbench-$c.8: troff warns: $(head -3 "$TMPD/warn")"
		miss=$(absent -x "$text" NAME SYNOPSIS DESCRIPTION OPTIONS EXAMPLES 'EXIT STATUS' \
			'SEE ALSO')
		[ -z "$miss" ] || fail "ppbench-$c.8 has no ${miss//$'\n'/, } section"
		grep -q "^ *ppbench-$c - " "$text" || fail "ppbench-$c.8: NAME is not ppbench-$c"
		# every option of --help is in the page
		mapfile -t opts < <(options_of "$c")
		miss=$(absent "$text" "${opts[@]}")
		[ -z "$miss" ] || fail "ppbench-$c.8 lacks ${miss//$'\n'/ }"
		n=$((n + 1))
	done
	[ "$n" -ge 11 ] || fail "only $n commands have pages"
}

# 'ppbench help CMD' gives man(1) the page the build wrote, and without a
# terminal man prints it as text: the same words in the same order as man
# shows the page (line breaks and indentation aside). What ppbench gives man
# is checked for every command through a stand-in man that keeps it; the
# text, which is man's own doing, through the real man for one page (with
# UTF-8 in it), as man takes 0.15 s or more a page.
test_help_cmd_is_the_page() {
	local c args at
	mkdir "$TMPD/bin"
	printf '#!/bin/sh\necho "$*" >"%s"\nexec cat >"%s"\n' "$TMPD/man.args" "$TMPD/man.in" \
		>"$TMPD/bin/man"
	chmod +x "$TMPD/bin/man"
	for c in $(commands); do
		rm -f "$TMPD/man.args" "$TMPD/man.in"
		PATH=$TMPD/bin:$PATH "$PPBENCH" help "$c" >"$TMPD/help" 2>"$TMPD/err" ||
			fail "ppbench help $c failed"
		[ ! -s "$TMPD/err" ] || fail "ppbench help $c wrote to stderr: $(head -1 "$TMPD/err")"
		# what it prints is man's: the stand-in prints nothing
		[ ! -s "$TMPD/help" ] ||
			fail "ppbench help $c prints beside man: $(head -c 60 "$TMPD/help")"
		args=
		[ ! -f "$TMPD/man.args" ] || read -r args <"$TMPD/man.args"
		[ "$args" = "-l -" ] || fail "ppbench help $c ran not 'man -l -' but 'man $args'"
		cmp -s "$TMPD/man.in" "$TOP/build/ppbench-$c.8" ||
			fail "ppbench help $c does not give man build/ppbench-$c.8 (stale build?)"
	done
	c=bench
	"$PPBENCH" help "$c" >"$TMPD/help" 2>"$TMPD/err" ||
		fail "ppbench help $c through the real man failed"
	[ ! -s "$TMPD/err" ] ||
		fail "ppbench help $c through the real man wrote to stderr: $(head -1 "$TMPD/err")"
	tr -d ' \n' <"$TMPD/help" >"$TMPD/help.w"
	tr -d ' \n' <"$(man_text "$TOP/build/ppbench-$c.8")" >"$TMPD/man.w"
	if ! cmp -s "$TMPD/help.w" "$TMPD/man.w"; then
		at=$(cmp "$TMPD/help.w" "$TMPD/man.w" | grep -oE 'byte [0-9]+' | grep -oE '[0-9]+')
		at=$((${at:-1} > 20 ? ${at:-1} - 20 : 1))
		fail "ppbench help $c is not ppbench-$c.8: '$(tail -c +$at "$TMPD/help.w" |
			head -c 60)' against '$(tail -c +$at "$TMPD/man.w" | head -c 60)'"
	fi
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
# (its words, whatever the wrapping), prefixed with its name; a page's text is
# man's, which 'ppbench help CMD' shows ('ppbench help' is --help's text).
test_gating_rule_stated_once() {
	local c page all=$TMPD/all
	for c in ppbench $(commands); do
		page=$TOP/build/ppbench-$c.8
		[ "$c" != ppbench ] || page=$TOP/build/ppbench.8
		tr -s ' \n' '  ' <"$(man_text "$page")" | sed "s/^/$c: /; s/\$/\n/" >>"$all"
	done
	"$PPBENCH" help | tr -s ' \n' '  ' | sed 's/^/help: /; s/$/\n/' >>"$all"
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
	local page=$TOP/user/core/cmd/bench.md
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

# The sentences of page FILE that report a measurement, one a line (FILE:LINE: the words
# around it): a figure before and after (300.76 -> 300.58), a figure "here" or "on one of
# ours", a run that "took" so long, boots of a release that gave or agreed, a figure in
# instructions or cycles or one set against another, a spread from one per cent to another.
# By paragraph, outside code blocks, blanks as one: a figure may span a line break.
measured_figures() { # file
	awk -v pats='[0-9][0-9][0-9]+(\.[0-9]+)? ?(→|->) ?[0-9]
[0-9] ?(%|s|ms|min|frames/s)[^.;]* here([^a-z]|$)
on one of ours
(^| )took [0-9]
[0-9] (s|min) instead of
[0-9] [a-z/]+ worked
(^|[.] )Measured (on|under|in) 
 boots? of [0-9]+\.[0-9]+\.[0-9]+
[0-9] [0-9][0-9][0-9](\.[0-9]+)? (instructions|cycles|ns)([^a-z]|$)
 against [0-9]
[0-9.]+ to [0-9.]+ ?% apart
[0-9.]+ ?% to [0-9.]+ ?%
to about [0-9.]+ ?%' '
		function check(   i) {
			for (i = 1; i <= n; i++)
				if (p != "" && match(p, pat[i])) {
					print FILENAME ":" l ": " substr(p, RSTART > 30 ? RSTART - 30 : 1, 90)
					return
				}
		}
		BEGIN { n = split(pats, pat, "\n") }
		/^```/ { b = !b; next }
		b { next }
		/^[ \t]*$/ { check(); p = ""; next }
		{ gsub(/[ \t]+/, " "); sub(/^ /, ""); if (p == "") l = FNR; p = p (p == "" ? "" : " ") $0 }
		END { check() }' "$1"
}

# The pages describe: no dated measurement, no lab notebook (outside the code
# blocks, whose sample outputs carry their files' times), no measured figure
# (the README's Measured table holds them, the commit log their history), and
# bench(8) and vm(8) are read in one sitting.
test_pages_describe() {
	local f n
	for f in "$TOP"/user/core/cmd/*.md "$TOP"/user/lab/*/*.md "$TOP"/user/core/cli/ppbench.md; do
		awk '/^```/ { b = !b; next } !b { print FILENAME ":" FNR ": " $0 }' "$f" |
			grep -E '[0-9]{4}-[0-9]{2}-[0-9]{2}|development VM|this VM|not explained|^[^:]*:[0-9]+: # MEASURED' &&
			fail "a page keeps a dated measurement or a lab note: ${f#"$TOP"/}"
		measured_figures "$f" | grep . && fail "a page keeps a measured figure: ${f#"$TOP"/}"
	done
	n=$(wc -l <"$TOP/user/core/cmd/bench.md")
	[ "$n" -lt 350 ] || fail "user/core/cmd/bench.md has $n lines (under 350)"
	n=$(wc -l <"$TOP/user/lab/vm/vm.md")
	[ "$n" -le 300 ] || fail "user/lab/vm/vm.md has $n lines (300 at most)"
}
