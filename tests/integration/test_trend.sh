#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ppbench trend: over real bench results made with --label (short runs), and
# over series crafted from tests/data/base.json with jq, whose answers are
# known: a step in slow, host levels that come and go, bad input.

DATA=$TOP/tests/data

need_tool() { # name: build a tests/tools helper if the Makefile has not yet
	[ -x "$TOP/build/tests/$1" ] || make -s -C "$TOP" "build/tests/$1" >/dev/null ||
		fail "cannot build build/tests/$1"
}

# craft DIR N AT STEP [LEVELS]: results labelled 1..N (one a minute); from
# label AT+1 on, slow costs STEP times as much. Unless LEVELS is 0, every
# third result sits on a level 1.6x higher (all scenarios, as the VM's levels
# do). Each carries up to +-0.9 % of noise that repeats every 7 results.
craft() {
	local dir=$1 n=$2 i=0 line
	mkdir -p "$dir"
	jq -c --argjson n "$n" --argjson at "$3" --argjson step "$4" --argjson lv "${5:-1}" '
		def scale($k): .runs |= map(. * $k) | .median *= $k | .min *= $k | .mean *= $k;
		. as $base | range(1; $n + 1) as $i |
		((if $lv == 1 and $i % 3 == 0 then 1.6 else 1 end) *
		 (1 + 0.003 * (($i * 37) % 7 - 3))) as $f |
		(if $i > $at then $step else 1 end) as $s |
		$base | .label = "\($i)" |
		.created = "2026-12-01T10:\(if $i < 10 then "0" else "" end)\($i):00Z" |
		.scenarios |= map(. as $sc | if .status == "ok" then
			.cycles_per_elem |= scale($f * (if $sc.name == "slow" then $s else 1 end))
			else . end)' "$DATA/base.json" >"$dir/all.ndjson" || fail "jq"
	while IFS= read -r line; do
		i=$((i + 1))
		printf '%s\n' "$line" >"$dir/r$i.json"
	done <"$dir/all.ndjson"
	rm "$dir/all.ndjson"
}

# jq over trend's JSON: the series of one scenario and figure.
fig() { # file scenario figure filter
	jq_get "$1" ".series[] | select(.scenario == \"$2\" and .figure == \"$3\") | $4"
}

test_trend_step_gated() {
	craft "$TMPD/s" 24 12 1.10
	expect_exit 3 "$PPBENCH" trend --fail-on-regression 5 --window 12 --json "$TMPD/t.json" \
		"$TMPD/s"
	assert_match "$LAST_OUT" '^slow cycles/elem: step between "12" and "13" \(p [0-9.]+\): \+10\.[0-9]%' \
		"the step, where it is"
	assert_match "$LAST_OUT" '^ +[0-9.]+ +±[0-9.]+% +\+10\.[0-9]% +[0-9.]+ +±[0-9.]+% +[0-9]+/[0-9]+ +1 \(' \
		"LKP-style row of the low level"
	assert_match "$LAST_OUT" '^ +---- slow: step \+10\.[0-9]% ----$' "rule in the series"
	assert_match "$LAST_ERR" '^ppbench trend: regression: slow cycles/elem \+10\.[0-9]% .* between "12" and "13"' \
		"named on stderr"
	assert_eq "$(jq_get "$TMPD/t.json" .schema)" ppbench-trend/1 "schema"
	assert_eq "$(jq_get "$TMPD/t.json" '.points | length')" 24 "points"
	assert_eq "$(fig "$TMPD/t.json" slow cycles .status)" changed "slow changed"
	assert_eq "$(fig "$TMPD/t.json" slow cycles '.change_points[0].before_label')" 12 "before"
	assert_eq "$(fig "$TMPD/t.json" slow cycles '.change_points[0].kind')" step "kind"
	assert_eq "$(fig "$TMPD/t.json" ring cycles '.change_points | length')" 0 "none in ring"
	assert_eq "$(fig "$TMPD/t.json" ring cycles '.levels | length')" 2 "ring: two levels"
	assert_eq "$(fig "$TMPD/t.json" ring cycles .status)" stable "ring stable"
	assert_eq "$(jq_get "$TMPD/t.json" .gate.fired)" true "gate in the JSON"
	# the step is 12 results old: a window of 8 does not see it; no gate, no exit 3
	expect_exit 0 "$PPBENCH" trend --fail-on-regression 5 --window 8 "$TMPD/s"
	expect_exit 0 "$PPBENCH" trend --fail-on-regression 15 --window 12 "$TMPD/s"
	expect_exit 0 "$PPBENCH" trend "$TMPD/s"
}

test_trend_levels_no_change() {
	craft "$TMPD/a" 24 24 1
	expect_exit 0 "$PPBENCH" trend --fail-on-regression 1 --json - "$TMPD/a"
	assert_eq "$(jq -r '[.series[] | .change_points | length] | add' "$LAST_OUT")" 0 \
		"no change point in an A/A series"
	assert_eq "$(jq -r '[.series[] | select(.figure == "cycles") | .levels | length] | min' \
		"$LAST_OUT")" 2 "every scenario on two levels"
}

test_trend_order() {
	local f files=()
	craft "$TMPD/s" 16 8 1.10
	for f in $(seq 16 -1 1); do files+=("$TMPD/s/r$f.json"); done
	expect_exit 0 "$PPBENCH" trend "${files[@]}"
	assert_match "$LAST_OUT" '^slow cycles/elem: step between "9" and "8" .*: -9\.' "given order"
	expect_exit 0 "$PPBENCH" trend --by label "${files[@]}"
	assert_match "$LAST_OUT" '^slow cycles/elem: step between "8" and "9" .*: \+10\.' "--by label"
	expect_exit 0 "$PPBENCH" trend --by created "${files[@]}"
	assert_match "$LAST_OUT" '^slow cycles/elem: step between "8" and "9"' "--by created"
	# a directory is its files in name order (r1 r2 ... r10, not r1 r10 r11)
	expect_exit 0 "$PPBENCH" trend --json - "$TMPD/s"
	assert_eq "$(jq -r '[.points[].label] | join(",")' "$LAST_OUT")" \
		"$(seq -s, 1 16)" "directory order"
}

test_trend_formats() {
	command -v rsvg-convert >/dev/null || skip "rsvg-convert missing (scripts/install-deps.sh --tests)"
	need_tool png_check
	craft "$TMPD/s" 24 12 1.10
	expect_exit 0 "$PPBENCH" trend --markdown --svg "$TMPD/t.svg" -t "trend & co" "$TMPD/s"
	assert_match "$LAST_OUT" '^\| before \| ±%stddev \| %change \| after \| ±%stddev \| points \| level \|$' \
		"Markdown change-point table"
	assert_match "$LAST_OUT" '^\*\*slow cycles/elem: step between "12" and "13"' "Markdown title"
	local svg=$TMPD/t.svg s
	assert_eq "$(grep -c '<g class="scenario">' "$svg")" 4 "a panel per scenario"
	for s in ring ring-xcpu fast slow; do
		assert_match "$svg" ">$s</text>" "panel $s"
	done
	assert_eq "$(grep -c '<g class="change-point">' "$svg")" 1 "one change point marked"
	assert_match "$svg" '>\+10\.[0-9]% step</text>' "its size"
	assert_match "$svg" '>trend &amp; co</text>' "title, escaped"
	assert_match "$svg" '>L2 ~' "levels named"
	assert_eq "$(grep -c '<g class="point"' "$svg")" 96 "24 points in 4 panels"
	rsvg-convert -o "$TMPD/t.png" "$svg" || fail "rsvg-convert cannot render the SVG"
	"$TOP/build/tests/png_check" "$TMPD/t.png" --color 0072b2 --color e69f00 --color d62728 ||
		fail "rendered picture is blank or misses the levels' or the change point's colour"
}

test_trend_bad_input() {
	craft "$TMPD/s" 24 12 1.10
	head -c -2 "$TMPD/s/r17.json" >"$TMPD/r17.json" && mv "$TMPD/r17.json" "$TMPD/s/r17.json"
	expect_exit 2 "$PPBENCH" trend --svg "$TMPD/x.svg" "$TMPD/s"
	expect_one_line_error '/s/r17\.json: truncated: line 1, column [0-9]+: .* expected near end of file'
	[ -e "$TMPD/x.svg" ] && fail "a failed trend left its SVG behind"
	craft "$TMPD/h" 8 8 1
	cp "$DATA/otherhost.json" "$TMPD/h/r9.json"
	expect_exit 2 "$PPBENCH" trend "$TMPD/h"
	expect_one_line_error '/h/r9\.json: another host than .*/h/r1\.json: CPU model .*--force'
	expect_exit 0 "$PPBENCH" trend --force "$TMPD/h"
	assert_match "$LAST_OUT" '^1 file from another host \(--force\)$' "forced file counted"
	rm "$TMPD/h/r9.json" "$TMPD/h/r8.json"
	expect_exit 2 "$PPBENCH" trend "$TMPD/h"
	expect_one_line_error '^ppbench trend: error: 7 results \(last .*/h/r7\.json\): change points need at least 8 \(2 x --min-run 4\)$'
	expect_exit 0 "$PPBENCH" trend --min-run 3 "$TMPD/h"
	jq '.label = "4"' "$TMPD/h/r5.json" >"$TMPD/h/r5b.json" && mv "$TMPD/h/r5b.json" "$TMPD/h/r5.json"
	expect_exit 2 "$PPBENCH" trend --min-run 3 "$TMPD/h"
	expect_one_line_error '/h/r5\.json: label "4" is also the label of .*/h/r4\.json'
	mkdir "$TMPD/empty"
	expect_exit 2 "$PPBENCH" trend "$TMPD/empty"
	expect_one_line_error 'no \*\.json files in the directory'
	expect_exit 2 "$PPBENCH" trend "$TMPD/missing.json"
	expect_one_line_error 'missing\.json: cannot open'
	expect_exit 2 "$PPBENCH" trend --window 5 "$TMPD/h"
	expect_one_line_error '--window is the gate'
	expect_exit 2 "$PPBENCH" trend --fail-on-regression 5 --window 3 "$TMPD/h"
	expect_one_line_error 'shorter than --min-run'
	expect_exit 2 "$PPBENCH" trend --scenario warp "$TMPD/s/r1.json"
	expect_exit 2 "$PPBENCH" trend
	expect_one_line_error 'no result files'
	expect_exit 0 "$PPBENCH" trend --help
	local o
	for o in by min-run alpha permutations scenario metric fail-on-regression window force \
		markdown json svg title; do
		assert_match "$LAST_OUT" "^ +(-[a-z], )?--$o( |$)" "--help lists --$o"
	done
	assert_match "$LAST_OUT" 'Matteson and James' "--help cites the method"
}

# Real results: four short bench runs labelled v1..v4, given out of order.
test_trend_real_bench() {
	needs_host live-frames
	local i files=()
	for i in 3 1 4 2; do
		expect_exit 0 "$PPBENCH" bench --scenario ring,slow --loops 20000 --repeat 1 --quiet \
			--label "v$i" --json "$TMPD/b$i.json"
		assert_eq "$(jq_get "$TMPD/b$i.json" .label)" "v$i" "bench --label in the JSON"
		files+=("$TMPD/b$i.json")
	done
	expect_exit 0 "$PPBENCH" trend --min-run 2 --by label --json "$TMPD/t.json" \
		--svg "$TMPD/t.svg" "${files[@]}"
	assert_match "$LAST_OUT" '^trend: 4 results from "v1" to "v4" \(order label\)' "header"
	assert_eq "$(jq -r '[.points[].label] | join(",")' "$TMPD/t.json")" v1,v2,v3,v4 "--by label"
	assert_eq "$(fig "$TMPD/t.json" ring cycles '.values | length')" 4 "ring's 4 points"
	assert_eq "$(fig "$TMPD/t.json" slow cycles '.values | length')" 4 "slow's 4 points"
	assert_eq "$(grep -c '<g class="scenario">' "$TMPD/t.svg")" 2 "ring and slow panels"
	for i in 1 2 3 4; do
		assert_match "$TMPD/t.svg" ">v$i</text>" "x label v$i"
	done
	if command -v rsvg-convert >/dev/null; then
		rsvg-convert -o "$TMPD/t.png" "$TMPD/t.svg" || fail "rsvg-convert cannot render the SVG"
	fi
	expect_exit 2 "$PPBENCH" bench --scenario ring --label v1
	expect_one_line_error '--label names the JSON result'
}

# A step as large as the ratio between two levels: with the VM's alternating
# levels both sides show both, moved together: a step, gated where it is.
# Without them, a noise profile that knows the ratio makes it 'level' (the
# host may have moved to its other level): unstable, named, not gated.
test_trend_level_sized_step() {
	[ -f "$DATA/profile.json" ] || skip "no tests/data/profile.json (the noise profile's test data)"
	craft "$TMPD/a" 24 12 1.6
	expect_exit 3 "$PPBENCH" trend --fail-on-regression 5 --window 12 "$TMPD/a"
	assert_match "$LAST_OUT" '^slow cycles/elem: step between "12" and "13" \(p [0-9.]+\): \+60\.[0-9]%' \
		"every level moved: a step, where it is"
	assert_match "$LAST_ERR" '^ppbench trend: regression: slow cycles/elem \+60\.[0-9]% .* between "12" and "13"' \
		"gated"
	jq '.scenarios |= map(if .name == "slow" then .cycles_per_elem.levels =
		[{"median": 410, "min": 400, "max": 420, "invocations": 8},
		 {"median": 656, "min": 640, "max": 670, "invocations": 4}] else . end)' \
		"$DATA/profile.json" >"$TMPD/p2.json" || fail "jq"
	craft "$TMPD/s" 24 12 1.6 0
	expect_exit 3 "$PPBENCH" trend --fail-on-regression 5 --window 12 "$TMPD/s"
	assert_match "$LAST_OUT" '^slow cycles/elem: step between "12" and "13"' "no profile: a step"
	expect_exit 0 "$PPBENCH" trend --noise "$TMPD/p2.json" --fail-on-regression 5 --window 12 \
		"$TMPD/s"
	assert_match "$LAST_OUT" "^noise profile .*/p2\.json: 12 invocations" "profile named"
	assert_match "$LAST_OUT" '^slow cycles/elem: level between "12" and "13" \(p ' "a level, not a step"
	assert_match "$LAST_OUT" '^slow cycles: unstable: .*ratio between the host.s levels' "why"
	assert_eq "$(grep -B1 '^slow cycles: unstable' "$LAST_OUT" | head -1)" "" \
		"a blank line between the table and its first reason, of a later figure"
	assert_match "$LAST_ERR" '^ppbench trend: unstable, not gated: slow cycles/elem \+60' \
		"named, not gated"
	# a 10 % step is no level: gated, with the profile's single-pair floor beside it
	craft "$TMPD/t" 24 12 1.10
	expect_exit 3 "$PPBENCH" trend --noise "$TMPD/p2.json" --fail-on-regression 5 --window 12 \
		"$TMPD/t"
	assert_match "$LAST_OUT" "step between \"12\" and \"13\" .*one pair's floor [0-9.]+%" "floor"
	jq '.host.cpu_model = "Xeon"' "$TMPD/p2.json" >"$TMPD/p3.json"
	expect_exit 2 "$PPBENCH" trend --noise "$TMPD/p3.json" "$TMPD/t"
	expect_one_line_error 'p3\.json: a profile of another host than .*: CPU model'
	expect_exit 2 "$PPBENCH" trend --noise "$DATA/base.json" "$TMPD/t"
	expect_one_line_error 'base\.json: schema: "ppbench/1" is not supported'
}
