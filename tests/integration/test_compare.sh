#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ppbench compare and ppbench plot on crafted result files (tests/data/):
#   base.json       the reference: 5 runs per scenario, 0.4-1% noise
#   base2.json      a second run of it (for pooling)
#   regress.json    ring 10% slower, everything else equal
#   regress2.json   a second run of that
#   noise.json      every scenario +2% but with 4% noise
#   otherhost.json  another CPU model and TSC frequency
#   newkernel.json  another kernel release, config and mitigation; ring-xcpu skipped
#   profile.json    a noise profile (ppbench calibrate) of base.json's host: CV 2 % between
#                   invocations, floor 8 % (path: 3 %, 12 %)
#   compare-tables.txt  compare's text tables of base, regress and newkernel
# No BPF here: these run without privileges, but live with the other integration tests.

DATA=$TOP/tests/data
# shellcheck source=tests/formats.sh
. "$TOP/tests/formats.sh"

need_tool() { # name: build a tests/tools helper if the Makefile has not yet
	[ -x "$TOP/build/tests/$1" ] || make -s -C "$TOP" "build/tests/$1" >/dev/null ||
		fail "cannot build build/tests/$1"
}

# Table rows of the text output that carry the significance mark.
marked_rows() { # file
	grep -E '^ +[0-9.]+ .* [*] ' "$1" || true
}

test_compare_regression_gated() {
	local P=(--noise "$DATA/profile.json")
	expect_exit 0 "$PPBENCH" compare "$DATA/base.json" "$DATA/regress.json"
	assert_match "$LAST_OUT" '^ +142\.50 +±0\.4% +\+10\.0% \* +156\.75 +±0\.4%  ring cycles/elem$' \
		"ring cycles row, significant"
	assert_match "$LAST_OUT" "Welch's t-test" "test named"
	assert_match "$LAST_OUT" '^noise: only the setups inside each file' "noise named: setups"
	assert_eq "$(marked_rows "$LAST_OUT" | wc -l)" 2 "only ring cycles and ns are marked"
	# the profile's file name, whole, on the noise line or on its own after it when
	# the checkout's path makes it too long for the line's 100 columns; a deep copy
	# tries the second case from a checkout of any path
	local deep prof
	deep=$TMPD/$(printf 'd%.0s' {1..120})
	mkdir -p "$deep" && cp "$DATA/profile.json" "$deep/"
	for prof in "$deep/profile.json" "$DATA/profile.json"; do
		expect_exit 3 "$PPBENCH" compare --noise "$prof" --fail-above 5 "$DATA/base.json" \
			"$DATA/regress.json"
		grep -qE -- "(^| )${prof//./\\.}( |$)" "$LAST_OUT" ||
			fail "the profile's file name is not whole on a line: $(grep -A1 '^noise:' "$LAST_OUT")"
	done
	assert_match "$LAST_OUT" '^noise: between invocations, from the profile' "noise named: the profile"
	assert_match "$LAST_OUT" '^ +142\.50 +±0\.4% +\+10\.0% \* +156\.75 +±0\.4%  ring cycles/elem$' \
		"ring cycles row, real against the profile"
	assert_match "$LAST_ERR" 'regression: ring cycles/elem \+10\.0% \(limit 5%, floor 8\.0% from the profile' \
		"gated row named with its floor"
	# the same change below the limit passes the gate
	expect_exit 0 "$PPBENCH" compare "${P[@]}" --fail-above 15 "$DATA/base.json" "$DATA/regress.json"
	# ns gate: the ns row regressed too
	expect_exit 3 "$PPBENCH" compare "${P[@]}" --fail-above 5 --metric ns "$DATA/base.json" \
		"$DATA/regress.json"
	assert_match "$LAST_ERR" 'ring ns/elem' "ns row gated"
}

# One file a side: --fail-above needs the noise between invocations.
test_compare_one_file_needs_noise() {
	expect_exit 2 "$PPBENCH" compare --fail-above 5 "$DATA/base.json" "$DATA/regress.json"
	expect_one_line_error 'cannot decide with one file a side: .*--noise PROFILE .*ppbench calibrate.*two or more files a side'
	assert_eq "$(cat "$LAST_OUT")" "" "nothing printed"
	expect_exit 2 "$PPBENCH" compare --fail-above 5 --old "$DATA/base.json" \
		--new "$DATA/regress.json" "$DATA/regress2.json"
	expect_one_line_error 'cannot decide with one file on a side'
	# a gate on the profile: +2 % inside a 2 % CV between invocations is quiet
	expect_exit 0 "$PPBENCH" compare --noise "$DATA/profile.json" --fail-above 1 \
		"$DATA/base.json" "$DATA/noise.json"
	assert_eq "$(marked_rows "$LAST_OUT")" "" "no row real against the profile"
	# --json says which noise decided
	expect_exit 0 "$PPBENCH" compare --json - --noise "$DATA/profile.json" "$DATA/base.json" \
		"$DATA/regress.json"
	assert_eq "$(jq -r '.comparisons[0].noise.source' "$LAST_OUT")" profile "json: profile"
	assert_eq "$(jq -r '.comparisons[0].noise.verdict' "$LAST_OUT")" true "json: a verdict"
	expect_exit 0 "$PPBENCH" compare --json - "$DATA/base.json" "$DATA/regress.json"
	assert_eq "$(jq -r '.comparisons[0].noise.source' "$LAST_OUT")" setups "json: setups"
	assert_eq "$(jq -r '.comparisons[0].noise.verdict' "$LAST_OUT")" false "json: no verdict"
	expect_exit 0 "$PPBENCH" compare --bpp --noise "$DATA/profile.json" "$DATA/base.json" \
		"$DATA/regress.json"
	assert_match "$LAST_OUT" '^noise: between invocations, from the profile' "bpp names the noise"
	expect_exit 0 "$PPBENCH" compare --markdown "$DATA/base.json" "$DATA/regress.json"
	assert_match "$LAST_OUT" '^\*\*Noise:\*\* only the setups' "markdown names the noise"
}

# Bad profiles: one line, exit 2.
test_compare_bad_profile() {
	local p=$DATA/profile.json
	cd "$TMPD" || fail "cd"
	jq '.host.cpu_model = "Intel Xeon"' "$p" >cpu.json
	jq '.host.kernel = "6.19.0"' "$p" >kernel.json
	jq '.host.config.DEBUG_NET = "y"' "$p" >config.json
	jq '.host.kernel_version = "#1 SMP Debian 6.18.44-1 (2026-12-24)"' "$p" >future.json
	jq '.scenarios[0].cycles_per_elem.floor_pct = "wide"' "$p" >badtype.json
	jq '.schema = "ppbench-noise/9"' "$p" >schema.json
	head -c 200 "$p" >truncated.json
	expect_exit 2 "$PPBENCH" compare --noise cpu.json "$DATA/base.json" "$DATA/regress.json"
	expect_one_line_error 'noise profile cpu\.json is of another host .*base\.json: CPU model "Intel Xeon" vs'
	expect_exit 2 "$PPBENCH" compare --noise kernel.json "$DATA/base.json" "$DATA/regress.json"
	expect_one_line_error 'kernel 6\.19\.0 vs 6\.18\.44; run .ppbench calibrate.'
	expect_exit 2 "$PPBENCH" compare --noise config.json "$DATA/base.json" "$DATA/regress.json"
	expect_one_line_error 'config DEBUG_NET "y" vs "n"'
	expect_exit 2 "$PPBENCH" compare --noise future.json "$DATA/base.json" "$DATA/regress.json"
	expect_one_line_error 'future\.json: created: 2026-12-01 is older than the kernel it describes \(built 2026-12-24\)'
	expect_exit 2 "$PPBENCH" compare --noise badtype.json "$DATA/base.json" "$DATA/regress.json"
	expect_one_line_error 'scenarios\[0\]\.cycles_per_elem\.floor_pct: expected a number, got a string'
	expect_exit 2 "$PPBENCH" compare --noise schema.json "$DATA/base.json" "$DATA/regress.json"
	expect_one_line_error '"ppbench-noise/9" is not supported'
	expect_exit 2 "$PPBENCH" compare --noise truncated.json "$DATA/base.json" "$DATA/regress.json"
	expect_one_line_error 'truncated\.json: truncated: line [0-9]+, column [0-9]+'
	expect_exit 2 "$PPBENCH" compare --noise "$DATA/base.json" "$DATA/base.json" "$DATA/regress.json"
	expect_one_line_error 'not supported|not a noise profile'
	# --force uses another host's profile, with a warning
	expect_exit 3 "$PPBENCH" compare --force --noise cpu.json --fail-above 5 "$DATA/base.json" \
		"$DATA/regress.json"
	assert_match "$LAST_ERR" 'warning: noise profile cpu\.json is of another host' "--force warns"
}

test_compare_noise_not_flagged() {
	local t
	for t in welch mann-whitney; do
		expect_exit 0 "$PPBENCH" compare --test $t "$DATA/base.json" "$DATA/noise.json"
		assert_match "$LAST_OUT" '\+2\.0% +[0-9.]+ +±4\.0%  ring cycles/elem' "ring +2% in 4% noise"
		assert_eq "$(marked_rows "$LAST_OUT")" "" "$t: no row marked significant"
		[ -s "$LAST_ERR" ] && fail "$t: unexpected stderr: $(cat "$LAST_ERR")"
	done
	assert_match "$LAST_OUT" 'Mann-Whitney U test' "test named"
}

test_compare_hosts_refused() {
	expect_exit 2 "$PPBENCH" compare "$DATA/base.json" "$DATA/otherhost.json"
	expect_one_line_error 'base\.json and .*otherhost\.json come from different hosts: CPU model .*--force'
	expect_exit 0 "$PPBENCH" compare --force "$DATA/base.json" "$DATA/otherhost.json"
	assert_match "$LAST_ERR" 'warning: .*different hosts.*comparing anyway' "--force warns"
	assert_match "$LAST_OUT" 'cpu_model +AMD EPYC .* -> Intel' "CPU model difference listed"
	# TSC Hz: 0.5% apart is one host, 2% apart is not
	jq '.host.tsc_hz *= 1.005' "$DATA/base.json" >"$TMPD/tsc05.json"
	jq '.host.tsc_hz *= 1.02' "$DATA/base.json" >"$TMPD/tsc2.json"
	expect_exit 0 "$PPBENCH" compare "$DATA/base.json" "$TMPD/tsc05.json"
	assert_match "$LAST_OUT" 'tsc +2\.5960 GHz -> 2\.6090 GHz' "small TSC difference listed"
	expect_exit 2 "$PPBENCH" compare "$DATA/base.json" "$TMPD/tsc2.json"
	expect_one_line_error 'TSC 2596000000 Hz vs 2647920000 Hz \(2\.0% apart, more than 1%\)'
	# pooled sides are checked file by file
	expect_exit 2 "$PPBENCH" compare --old "$DATA/base.json" "$DATA/otherhost.json" \
		--new "$DATA/regress.json"
	expect_one_line_error 'different hosts'
}

test_compare_host_differences_shown() {
	# files under a long directory, as in a deep checkout: notes that name them still wrap
	local d=$TMPD/a-directory-as-deep-as-a-ci-checkout-of-ppbench/tests/data
	mkdir -p "$d" && cp "$DATA/base.json" "$DATA/newkernel.json" "$d/"
	expect_exit 0 "$PPBENCH" compare "$d/base.json" "$d/newkernel.json"
	assert_match "$LAST_OUT" '^host and recipe differences \(old -> new\):$' "heading"
	assert_match "$LAST_OUT" '^  kernel +6\.18\.44 -> 6\.19\.0-rc2$' "kernel"
	assert_match "$LAST_OUT" '^  config PAGE_POOL_STATS +n -> y$' "config"
	assert_match "$LAST_OUT" '^  mitigation spec_rstack_overflow +Mitigation: Safe RET -> Vulnerable$' \
		"mitigation"
	assert_match "$LAST_OUT" '^  ring-xcpu: skipped in new: needs 2 online CPUs$' "skipped note"
	# the differences come before the table
	local diff_line table_line
	diff_line=$(grep -n 'kernel ' "$LAST_OUT" | head -1 | cut -d: -f1)
	table_line=$(grep -n '%change' "$LAST_OUT" | head -1 | cut -d: -f1)
	assert_le "$diff_line" "$table_line" "differences above the table"
	# every line of the text output fits 100 columns (± is one column)
	local wide
	wide=$(sed 's/±/+/g' "$LAST_OUT" | awk 'length($0) > 100')
	assert_eq "$wide" "" "lines wider than 100 columns"
}

# expect_bad_file FILE PATTERN: compare and plot refuse FILE with one line; schema_check too.
expect_bad_file() {
	expect_exit 2 "$PPBENCH" compare "$DATA/base.json" "$1"
	expect_one_line_error "^ppbench compare: error: $(basename "$1"|sed 's/\./\\./g').*$2"
	grep -q "$1" "$LAST_ERR" || fail "error does not name the file $1"
	expect_exit 2 "$PPBENCH" plot "$1" -o "$TMPD/bad.svg"
	expect_one_line_error "$2"
	expect_exit 1 "$TOP/build/tests/schema_check" "$1"
	expect_one_line_error "$2"
}

test_compare_bad_files() {
	need_tool schema_check
	cd "$TMPD" || fail "cd"
	head -n -1 "$DATA/base.json" >truncated.json # the closing brace is gone
	printf '{"schema": "ppbench/1",\n  "host": {"kernel": "6.18" "x": 1}}\n' >malformed.json
	: >empty.json
	jq 'del(.host.tsc_hz)' "$DATA/base.json" >notsc.json
	jq '.schema = "ppbench/2"' "$DATA/base.json" >schema2.json
	jq 'del(.schema)' "$DATA/base.json" >noschema.json
	jq '.scenarios[0].cycles_per_elem.runs[2] = "fast"' "$DATA/base.json" >badtype.json
	jq '.scenarios[1].repeat = 6' "$DATA/base.json" >badrepeat.json
	expect_bad_file truncated.json "truncated: line [0-9]+, column 1: '}' expected near end of file"
	expect_bad_file malformed.json "line 2, column 31: '}' expected near '\"x\"'"
	expect_bad_file empty.json 'file is empty'
	expect_bad_file notsc.json "host: missing field 'tsc_hz'"
	expect_bad_file schema2.json 'schema: "ppbench/2" is not supported \(this ppbench reads "ppbench/1"\)'
	expect_bad_file noschema.json "no 'schema' field: not a ppbench result"
	expect_bad_file badtype.json 'scenarios\[0\]\.cycles_per_elem\.runs\[2\]: expected a number, got a string'
	expect_bad_file badrepeat.json 'scenarios\[1\]\.cycles_per_elem\.runs: has 5 values, expected 6'
	expect_exit 2 "$PPBENCH" compare "$DATA/base.json" "$TMPD/missing.json"
	expect_one_line_error 'missing\.json: cannot open: No such file or directory'
	# extra fields are fine (regress.json has one), and all crafted files are valid
	expect_exit 0 "$TOP/build/tests/schema_check" "$DATA"/*.json
}

test_compare_markdown() {
	expect_exit 0 "$PPBENCH" compare --markdown "$DATA/base.json" "$DATA/regress.json"
	assert_match "$LAST_OUT" '^#### ppbench compare: old `.*base\.json` vs new `.*regress\.json`$' "heading"
	assert_match "$LAST_OUT" '^\| figure \| old \| ±%stddev \| %change \| new \| ±%stddev \| p \|$' "header"
	assert_match "$LAST_OUT" '^\|:---\|---:\|---:\|---:\|---:\|---:\|---:\|$' "alignment row"
	assert_match "$LAST_OUT" '^\| ring cycles/elem \| 142\.50 \| 0\.4% \| \*\*\+10\.0%\*\* \| 156\.75 \| 0\.4% \| <0\.0001 \|$' \
		"significant row in bold"
	assert_match "$LAST_OUT" '^\| fast cycles/elem \| 31\.20 \| 0\.8% \| 0\.0% \| 31\.20 \| 0\.8% \| 1 \|$' \
		"unchanged row"
	assert_match "$LAST_OUT" "^- \*\*bold\*\*: real: significant by Welch's t-test on the setups" \
		"legend"
	# every table row has the 7 cells of the header
	local bad
	bad=$(grep '^|' "$LAST_OUT" | awk -F'|' 'NF != 9')
	assert_eq "$bad" "" "rows with another cell count"
}

test_compare_json() {
	expect_exit 3 "$PPBENCH" compare --json "$TMPD/cmp.json" --fail-above 5 \
		--noise "$DATA/profile.json" "$DATA/base.json" "$DATA/regress.json" "$DATA/newkernel.json"
	assert_match "$LAST_OUT" 'ring cycles/elem' "text still printed"
	assert_eq "$(jq_get "$TMPD/cmp.json" .schema)" "ppbench-compare/1" "schema"
	assert_eq "$(jq_get "$TMPD/cmp.json" .test.name)" "welch" "test"
	assert_eq "$(jq_get "$TMPD/cmp.json" '.comparisons | length')" 2 "one comparison per new file"
	assert_eq "$(jq_get "$TMPD/cmp.json" '.gate.fail_above_pct')" 5 "gate"
	assert_eq "$(jq_get "$TMPD/cmp.json" '.comparisons[1].noise.source')" profile "noise"
	local ring='.comparisons[0].rows[] | select(.label == "ring cycles/elem")'
	assert_eq "$(jq_get "$TMPD/cmp.json" "$ring | .significant")" true "significant"
	assert_eq "$(jq_get "$TMPD/cmp.json" "$ring | .gated")" true "gated"
	assert_eq "$(jq_get "$TMPD/cmp.json" "$ring | .old.n")" 5 "n"
	assert_eq "$(jq_get "$TMPD/cmp.json" "$ring | .change_pct | round")" 10 "change"
	assert_eq "$(jq_get "$TMPD/cmp.json" '[.comparisons[0].rows[] | select(.gated)] | length')" 1 \
		"one gated row"
	assert_eq "$(jq_get "$TMPD/cmp.json" '.comparisons[1].differences[0].new')" "6.19.0-rc2" "diff"
	assert_eq "$(jq -r '.comparisons[1].rows[] | select(.label == "ring purity %") | .p' \
		"$TMPD/cmp.json")" null "untestable p is null"
	# --json - prints nothing but the JSON document
	expect_exit 0 "$PPBENCH" compare --json - "$DATA/base.json" "$DATA/noise.json"
	jq -e '.comparisons[0].rows | length > 10' "$LAST_OUT" >/dev/null || fail "stdout is not the JSON"
	expect_exit 2 "$PPBENCH" compare --json - --markdown "$DATA/base.json" "$DATA/noise.json"
	expect_one_line_error 'cannot go with --markdown'
}

test_compare_bpp() {
	expect_exit 0 "$PPBENCH" compare --bpp "$DATA/base.json" "$DATA/regress.json"
	assert_match "$LAST_OUT" '^\| Test +\| cycles old \| cycles new \| +diff \| +ns old \| +ns new \| +diff \|$' \
		"header"
	assert_match "$LAST_OUT" '^\|-+\|-+:\|' "rule line (Markdown and org)"
	assert_match "$LAST_OUT" '^\| fast +\| +31 \| +31 \| +0\.0% \| +12\.018 \| +12\.018 \| +0\.0% \|$' "fast"
	assert_match "$LAST_OUT" '^\| ptr_ring \| +142 \| +157 \| +\+10\.0% \* \| +54\.892 \| +60\.381 \| +\+10\.0% \* \|$' \
		"ptr_ring"
	assert_match "$LAST_OUT" '^\| slow +\| +410 \| +410 \|' "slow"
	assert_eq "$(grep -c '^|' "$LAST_OUT")" 5 "header, rule and three rows"
	# a scenario missing on a side shows n/a
	jq 'del(.scenarios[] | select(.name == "slow"))' "$DATA/regress.json" >"$TMPD/noslow.json"
	expect_exit 0 "$PPBENCH" compare --bpp "$DATA/base.json" "$TMPD/noslow.json"
	assert_match "$LAST_OUT" '^\| slow +\| +n/a \|' "missing slow"
}

# The text tables byte for byte (the rows above allow any spacing), run in tests/data
# so that no path shows; after a deliberate change the file is what these print.
test_compare_tables_exact() {
	local f=(base.json regress.json)
	(cd "$DATA" && "$PPBENCH" compare "${f[@]}" && "$PPBENCH" compare "${f[@]}" newkernel.json &&
		"$PPBENCH" compare --bpp "${f[@]}" && "$PPBENCH" compare --org "${f[@]}" newkernel.json) \
		>"$TMPD/tables" 2>&1 || fail "compare: $(cat "$TMPD/tables")"
	diff -u "$DATA/compare-tables.txt" "$TMPD/tables" >"$TMPD/diff" ||
		fail "text tables differ from tests/data/compare-tables.txt: $(head -12 "$TMPD/diff")"
}

test_compare_pooled() {
	expect_exit 3 "$PPBENCH" compare --fail-above 5 --metric path --old "$DATA/base.json" \
		"$DATA/base2.json" --new "$DATA/regress.json" "$DATA/regress2.json"
	assert_match "$LAST_OUT" '^old: .*base\.json .*base2\.json$' "old side"
	assert_match "$LAST_OUT" '^new: .*regress\.json .*regress2\.json$' "new side"
	assert_match "$LAST_OUT" 'n = 2 old, 2 new files \(each its median of setups\)' "files the unit"
	assert_match "$LAST_OUT" '^noise: between invocations, from the files: .*\(2 old, 2 new$' \
		"noise named: files"
	assert_match "$LAST_OUT" '\+12\.7% \* .*ring path cycles/elem \(difference\)$' \
		"path figure tested when pooled, named by its method"
	assert_match "$LAST_ERR" 'regression: ring path cycles/elem \(difference\) .*floor [0-9.]+% from the files' \
		"path gate"
	# one file a side, a profile without path figures: untested, the gate says so
	jq '.scenarios[].path_cost_cycles = null' "$DATA/profile.json" >"$TMPD/nopath.json"
	expect_exit 0 "$PPBENCH" compare --noise "$TMPD/nopath.json" --fail-above 5 --metric path \
		"$DATA/base.json" "$DATA/regress.json"
	assert_match "$LAST_OUT" '\+12\.8% \? .*ring path cycles/elem \(difference\)$' "untested path row"
	assert_match "$LAST_ERR" 'no path figure could be tested' "gate warns"
}

test_compare_usage() {
	expect_exit 2 "$PPBENCH" compare "$DATA/base.json"
	expect_one_line_error 'needs at least two result files'
	expect_exit 2 "$PPBENCH" compare --old "$DATA/base.json"
	expect_one_line_error 'needs --new FILE too'
	expect_exit 2 "$PPBENCH" compare "$DATA/base.json" --new "$DATA/regress.json"
	expect_one_line_error 'comes before --new'
	expect_exit 2 "$PPBENCH" compare --metric speed "$DATA/base.json" "$DATA/regress.json"
	expect_one_line_error "--metric 'speed'"
	expect_exit 2 "$PPBENCH" compare --fail-above lots "$DATA/base.json" "$DATA/regress.json"
	expect_one_line_error "--fail-above 'lots' is not a number"
	expect_exit 2 "$PPBENCH" compare --alpha 0.7 "$DATA/base.json" "$DATA/regress.json"
	expect_one_line_error "--alpha '0.7'"
	expect_exit 0 "$PPBENCH" compare --help
	local o
	for o in old new force fail-above noise metric test alpha markdown bpp json; do
		assert_match "$LAST_OUT" "^ +(-[a-z], )?--$o( |$)" "--help lists --$o"
	done
	assert_match "$LAST_OUT" "Welch's" "--help names the test"
	assert_match "$LAST_OUT" '^Exit status: .*3 regression above --fail-above' "exit status"
	assert_match "$LAST_OUT" 'CI' "CI use"
}

test_plot_render() {
	command -v rsvg-convert >/dev/null || skip "rsvg-convert missing (scripts/install-deps.sh --tests)"
	need_tool png_check
	# a --label names the file after it, wherever the options stand
	expect_exit 0 "$PPBENCH" plot "$DATA/base.json" "$DATA/regress.json" -l "noisy run" \
		"$DATA/noise.json" -t "ppbench & page_pool" -o "$TMPD/p.svg"
	local svg=$TMPD/p.svg s
	for s in ring ring-xcpu fast slow; do
		assert_match "$svg" ">$s</text>" "x label $s"
	done
	assert_match "$svg" '>base</text>' "legend: default label"
	assert_match "$svg" '>regress</text>' "legend: second file"
	assert_match "$svg" '>noisy run</text>' "legend: --label"
	grep -q '>noise</text>' "$svg" && fail "--label did not replace the third name"
	assert_match "$svg" '>TSC cycles per element</text>' "y axis title"
	assert_match "$svg" '>ppbench &amp; page_pool</text>' "title, escaped"
	assert_match "$svg" '>400</text>' "y tick"
	# one panel and axis per scenario: fast (31 cycles here) gets ticks of its own
	assert_eq "$(grep -c '<g class="scenario">' "$svg")" 4 "four panels"
	assert_match "$svg" '>40</text>' "fast's own axis"
	rsvg-convert -o "$TMPD/p.png" "$svg" || fail "rsvg-convert cannot render the SVG"
	"$TOP/build/tests/png_check" "$TMPD/p.png" --color 0072b2 --color e69f00 --color 009e73 ||
		fail "rendered picture is blank or misses a file's colour"
	# --metric ns and --scenario
	expect_exit 0 "$PPBENCH" plot --metric ns --scenario slow,fast "$DATA/base.json" -o "$TMPD/ns.svg"
	assert_match "$TMPD/ns.svg" '>ns per element</text>' "ns axis"
	grep -q '>ring</text>' "$TMPD/ns.svg" && fail "--scenario did not leave ring out"
	rsvg-convert -o "$TMPD/ns.png" "$TMPD/ns.svg" || fail "rsvg-convert ns"
	"$TOP/build/tests/png_check" "$TMPD/ns.png" --color 0072b2 || fail "ns picture blank"
}

test_plot_usage() {
	expect_exit 2 "$PPBENCH" plot "$DATA/base.json"
	expect_one_line_error 'no output file: give -o FILE.svg'
	expect_exit 2 "$PPBENCH" plot --scenario nope "$DATA/base.json" -o "$TMPD/x.svg"
	expect_one_line_error "'nope' is not measured"
	expect_exit 2 "$PPBENCH" plot -l a -l b "$DATA/base.json" -o "$TMPD/x.svg"
	expect_one_line_error "--label 'a' and --label 'b' have no file between them"
	expect_exit 2 "$PPBENCH" plot "$DATA/base.json" -l a -o "$TMPD/x.svg"
	expect_one_line_error "--label 'a' has no file after it"
	expect_exit 2 "$PPBENCH" plot -o "$TMPD/x.svg"
	expect_one_line_error 'no result files'
	[ -e "$TMPD/x.svg" ] && fail "a failed plot left a file behind"
	expect_exit 0 "$PPBENCH" plot --help
	local o
	for o in output label title metric scenario; do
		assert_match "$LAST_OUT" "^ +(-[a-z], )?--$o( |$)" "--help lists --$o"
	done
}

# ring's setups in a copy of tests/data/base.json: ring_runs VALUE... >FILE
ring_runs() {
	jq --argjson r "[$(IFS=,; echo "$*")]" \
		'(.scenarios[] | select(.name == "ring") | .cycles_per_elem.runs) = $r' "$DATA/base.json"
}

# The gating rule (ppbench-compare(8), "The gating rule") through the binary,
# one file a side against tests/data/profile.json (ring 138.2 .. 148.2
# cycles, floor 8 %): a real regression of a figure on one level gates; the
# same median with 2 of 5 setups still on old's level (unstable: the levels
# explain it) is named, not gated, unless --gate-unstable; with both levels
# above old's it gates; a change from an old file on a level the profile
# never saw to a new one where the host's next run falls is '=', not gated.
test_compare_gating_rule() {
	local P=(--noise "$DATA/profile.json") base=$DATA/base.json
	ring_runs 600 601 600.5 599 600.2 >"$TMPD/high.json" || fail "jq"
	ring_runs 142 142.8 600 601 600.5 >"$TMPD/bimodal.json"
	ring_runs 300 301 600 601 600.5 >"$TMPD/both.json"
	ring_runs 125 125.2 124.9 125.1 125 >"$TMPD/low.json"
	ring_runs 165 165.2 164.9 165.1 165 >"$TMPD/beyond.json"
	expect_exit 3 "$PPBENCH" compare "${P[@]}" --fail-above 5 "$base" "$TMPD/high.json"
	assert_match "$LAST_ERR" '^ppbench compare: regression: ring cycles/elem \+32[0-9.]+% \(limit 5%' \
		"one level: gated"
	expect_exit 0 "$PPBENCH" compare "${P[@]}" --fail-above 5 "$base" "$TMPD/bimodal.json"
	assert_match "$LAST_OUT" ' u +[0-9.]+ +±[0-9.]+%  ring cycles/elem$' "marked u"
	assert_match "$LAST_OUT" '^u unstable: a file.s setups sit on two or more levels; real only between the nearest levels$' \
		"legend"
	assert_match "$LAST_ERR" '^ppbench compare: unstable, not gated: ring cycles/elem \+32[0-9.]+% \(2 levels: 2 at ~142, 3 at ~600 in new; between the nearest levels [-+]0\.[0-9]%, not real; --gate-unstable gates it\)' \
		"named, not gated"
	if grep -q 'regression:' "$LAST_ERR"; then
		fail "levels explain it, yet it gated: $(cat "$LAST_ERR")"
	fi
	expect_exit 0 "$PPBENCH" compare "${P[@]}" --fail-above 5 --ktap "$base" "$TMPD/bimodal.json"
	assert_match "$LAST_OUT" '^ok 1 ring cycles/elem: \+32[0-9.]+%, floor [0-9.]+%, limit 5%, unstable # SKIP unstable, not gated: [-+]0\.[0-9]% between the nearest levels, not real$' \
		"KTAP: a skip, with its reason"
	expect_exit 3 "$PPBENCH" compare "${P[@]}" --fail-above 5 --gate-unstable --json "$TMPD/u.json" \
		"$base" "$TMPD/bimodal.json"
	assert_match "$LAST_ERR" '^ppbench compare: regression: ring cycles/elem \+32[0-9.]+% \(.*; setups on 2 levels: 2 at ~142, 3 at ~600 in new, between the nearest levels [-+]0\.[0-9]%\)' \
		"--gate-unstable: gated on the medians, levels named"
	assert_eq "$(jq -r '.gate.gate_unstable' "$TMPD/u.json")" true "json: gate_unstable"
	assert_eq "$(jq -r '.comparisons[0].rows[] | select(.label == "ring cycles/elem") |
		"\(.unstable) \(.level_real) \(.gated)"' "$TMPD/u.json")" "true false true" \
		"json: unstable, levels not real, gated on request"
	# both levels above old's: no level explains it
	expect_exit 3 "$PPBENCH" compare "${P[@]}" --fail-above 5 "$base" "$TMPD/both.json"
	assert_match "$LAST_OUT" ' \* +[0-9.]+ +±[0-9.]+%  ring cycles/elem$' "marked real"
	assert_match "$LAST_ERR" '^ppbench compare: regression: ring cycles/elem \+32[0-9.]+% \(.*; setups on 2 levels: 2 at ~30[01], 3 at ~600 in new, between the nearest levels \+110\.[0-9]%\)' \
		"gated, with the change between the nearest levels"
	# old below what the profile saw, new inside it: '=', no verdict
	expect_exit 0 "$PPBENCH" compare "${P[@]}" --fail-above 5 --json "$TMPD/k.json" \
		"$TMPD/low.json" "$base"
	assert_match "$LAST_OUT" ' = +142\.50 +±0\.4%  ring cycles/elem$' "marked ="
	assert_eq "$(jq -r '.comparisons[0].rows[] | select(.label == "ring cycles/elem") |
		"\(.change_pct | floor) \(.within_profile) \(.gated)"' "$TMPD/k.json")" "14 true false" \
		"json: +14 %, within the profile, not gated"
	# new beyond where the host's next run falls: real, gated
	expect_exit 3 "$PPBENCH" compare "${P[@]}" --fail-above 5 "$TMPD/low.json" "$TMPD/beyond.json"
	assert_match "$LAST_ERR" '^ppbench compare: regression: ring cycles/elem \+32\.0% ' "beyond: gated"
	# two levels around the old median: not real, marked u
	ring_runs 138 139 150 151 138.5 >"$TMPD/around.json"
	expect_exit 0 "$PPBENCH" compare --test mann-whitney "$base" "$TMPD/around.json"
	assert_match "$LAST_OUT" ' u +[0-9.]+ +±[0-9.]+%  ring cycles/elem$' "not real: marked u"
	# old files (no "replication"): their runs shared a setup, and a note says so
	assert_match "$LAST_OUT" '^  runs of one setup \(an older ppbench\), too small a spread:' \
		"old-file note"
	assert_match "$LAST_OUT" 'base\.json$' "old-file note names the file"
}

# The machine-speed probe of each setup: a side whose probe ran slower gets a note.
test_compare_machine_note() {
	local add='.scenarios |= map(if .status == "ok" then
		.setups = [range(5) as $i | {cpu_probe_ns: ($p + $i * 0.001)}] else . end)'
	jq --argjson p 1.0 "$add" "$DATA/base.json" >"$TMPD/a.json"
	jq --argjson p 1.05 "$add" "$DATA/base.json" >"$TMPD/b.json"
	jq --argjson p 1.01 "$add" "$DATA/base.json" >"$TMPD/c.json"
	expect_exit 0 "$PPBENCH" compare "$TMPD/a.json" "$TMPD/b.json"
	assert_match "$LAST_OUT" '^  machine: a fixed CPU loop ran 5\.0% slower in new \(medians of 20 and 20 setups\)' \
		"machine note"
	expect_exit 0 "$PPBENCH" compare "$TMPD/a.json" "$TMPD/c.json"
	grep -q 'machine:' "$LAST_OUT" && fail "a note for a 1% difference"
	return 0
}

# bench's level probe (a page_pool-free kernel loop next to each setup): sides
# on different levels get a note, and several files a side are also paired by it.
test_compare_level_probe() {
	local add='.scenarios |= map(if .status == "ok" then .level_probe = {median_ns: $l} else . end)'
	jq --argjson l 5.0 "$add" "$DATA/base.json" >"$TMPD/a.json"
	jq --argjson l 8.0 "$add" "$DATA/base2.json" >"$TMPD/b.json"
	jq --argjson l 7.9 "$add" "$DATA/regress.json" >"$TMPD/c.json"
	jq --argjson l 5.1 "$add" "$DATA/regress2.json" >"$TMPD/d.json"
	jq --argjson l 5.2 "$add" "$DATA/base2.json" >"$TMPD/e.json"
	expect_exit 0 "$PPBENCH" compare "$TMPD/a.json" "$TMPD/c.json"
	assert_match "$LAST_OUT" '^  level: the page_pool-free kernel loop ran 58% slower in new next to ring' \
		"level note"
	expect_exit 0 "$PPBENCH" compare "$TMPD/a.json" "$TMPD/e.json"
	grep -q 'level:' "$LAST_OUT" && fail "a level note for 4%"
	expect_exit 0 "$PPBENCH" compare --old "$TMPD/a.json" "$TMPD/b.json" --new "$TMPD/c.json" \
		"$TMPD/d.json"
	assert_match "$LAST_OUT" '^  ring: old and new files paired by level probe \(2 pairs\): cycles \+[0-9.]+% \(median' \
		"files paired by level"
	return 0
}

# One comparison's verdicts, row by row: verdicts FILE INDEX
verdicts() {
	jq -c "[.comparisons[$2].rows[] | [.label, .change_pct, .real, .regression, .gated,
		.methods_differ]]" "$1"
}

# compare BASE A B: a column per later file, each against the base with its gate,
# the same changes and verdicts as the two-file compares BASE A and BASE B; a
# column's path figures of another method say so in that column only.
test_compare_columns() {
	local P=(--noise "$DATA/profile.json" --fail-above 5) base=$DATA/base.json
	local a=$DATA/regress.json b=$TMPD/newkernel.json
	jq '(.scenarios[] | select(.name == "ring") | .path_cost_cycles.method) =
		"fentry/fexit per-call timing"' "$DATA/newkernel.json" >"$b" || fail "jq"
	expect_exit 3 "$PPBENCH" compare "${P[@]}" --json "$TMPD/ab.json" "$base" "$a" "$b"
	assert_match "$LAST_ERR" '^ppbench compare: regression: ring cycles/elem \+10\.0% .*base\.json -> .*regress\.json$' \
		"the gate fires in its column"
	assert_eq "$(grep -c 'regression: ' "$LAST_ERR")" 1 "and only there"
	assert_match "$LAST_OUT" '^base +regress +newkernel$' "the columns' names"
	assert_match "$LAST_OUT" '^ +%stddev +%change +%stddev +%change +%stddev$' "LKP's labels"
	assert_match "$LAST_OUT" '^ +142\.50 +±0\.4% +\+10\.0% \* +156\.75 +±0\.4% +0\.0% +142\.50 +±0\.4%  ring cycles/elem$' \
		"ring: each column against the base"
	assert_match "$LAST_OUT" '^ +111\.30 +\+12\.8% \* +125\.55 +method differs \(difference, fentry\)  ring path cycles/elem \(difference\)$' \
		"a column of another path method"
	assert_match "$LAST_OUT" '^ +262\.00 +±0\.8% +0\.0% +262\.00 +±0\.8% +n/a +ring-xcpu cycles/elem$' \
		"a scenario a column skipped"
	expect_exit 3 "$PPBENCH" compare "${P[@]}" --json "$TMPD/a.json" "$base" "$a"
	expect_exit 0 "$PPBENCH" compare "${P[@]}" --json "$TMPD/b.json" "$base" "$b"
	assert_eq "$(verdicts "$TMPD/ab.json" 0)" "$(verdicts "$TMPD/a.json" 0)" "column 1: BASE A"
	assert_eq "$(verdicts "$TMPD/ab.json" 1)" "$(verdicts "$TMPD/b.json" 0)" "column 2: BASE B"
	assert_eq "$(jq -c '[.base, .comparisons[].name]' "$TMPD/ab.json")" \
		'["base","regress","newkernel"]' "json: the columns' names"
	# Markdown: a cell per column, the base first
	expect_exit 3 "$PPBENCH" compare "${P[@]}" --markdown "$base" "$a" "$b"
	assert_match "$LAST_OUT" '^\| figure \| base \| ±%stddev \| %change \| regress \| ±%stddev \| %change \| newkernel \| ±%stddev \|$' \
		"markdown header"
	assert_match "$LAST_OUT" '^\| ring cycles/elem \| 142\.50 \| 0\.4% \| \*\*\+10\.0%\*\* \| 156\.75 \| 0\.4% \| 0\.0% \| 142\.50 \| 0\.4% \|$' \
		"markdown ring"
	assert_eq "$(grep '^|' "$LAST_OUT" | awk -F'|' 'NF != 11')" "" "rows with another cell count"
	# Org: after and diff per column, and its TBLFM recomputes them all
	expect_exit 3 "$PPBENCH" compare "${P[@]}" --org "$base" "$a" "$b"
	org_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^\| ring +\| +142 \| +157 \| +15 \| +142 \| +0 \| +54\.892 \| +60\.381 \| +5\.489 \| +10\.0 \| +54\.892 \| +0\.000 \| +0\.0 \|$' \
		"org: ring"
	# files as the unit, a group per --new: the same as each group alone
	local O=(--old "$base" "$DATA/base2.json")
	expect_exit 3 "$PPBENCH" compare --fail-above 5 --json "$TMPD/g.json" "${O[@]}" \
		--new "$a" "$DATA/regress2.json" --new "$DATA/noise.json" "$DATA/base2.json"
	assert_eq "$(jq -c '[.comparisons[] | .new | length]' "$TMPD/g.json")" "[2,2]" "two groups"
	expect_exit 0 "$PPBENCH" compare --fail-above 5 --json "$TMPD/g2.json" "${O[@]}" \
		--new "$DATA/noise.json" "$DATA/base2.json"
	assert_eq "$(verdicts "$TMPD/g.json" 1)" "$(verdicts "$TMPD/g2.json" 0)" "group 2 alone"
	assert_eq "$(jq -r '.comparisons[1].noise.source' "$TMPD/g.json")" files "files the unit"
}
