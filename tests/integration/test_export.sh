#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ppbench export (kcidb, lkp, otava, bmf), compare --ktap and --org, trend --ktap, and
# the LKP program in scripts/lkp/: each format checked against its specification
# (tests/formats.sh) on real bench and compare output and on tests/data/, plus bad
# input. test_vm.sh exports a real file of qemu's instruction clock.

DATA=$TOP/tests/data

# shellcheck source=tests/formats.sh
. "$TOP/tests/formats.sh"

# Each scenario of result file F as its exports (F.kcidb, F.lkp, F.bmf) carry it:
# measured, with its median in the file's unit, or skipped with the reason; its path
# figure or, n/a, a SKIP in KCIDB and no LKP line.
check_figures() { # f
	local f=$1 u name status reason med path k kt kb
	u=$(jq -r '.host.clock.unit // "cycles"' "$f")
	kt=$(jq -r '.tests[] | [.path, .status, (.number.unit // "-"),
		(.number.value // "-" | tostring), .comment] | @tsv' "$f.kcidb")
	kb=$(jq -r --arg u "$u" 'to_entries[] | [.key, (.value["\($u)-per-elem"] |
		(.value | tostring), (has("lower_value") and has("upper_value") and
		 .lower_value <= .value and .value <= .upper_value | tostring))] | @tsv' "$f.bmf")
	while IFS=$'\t' read -r name status reason med path work; do
		k=${name//-/_}
		if [ "$status" = skipped ]; then
			grep -qxF "ppbench.$name	SKIP	-	-	$name: $reason" <<<"$kt" ||
				fail "kcidb: $name is no SKIP with its reason: $kt"
			grep -q "^ppbench\\.$k\\." "$f.lkp" && fail "lkp: a line of skipped $name"
			grep -q "^ppbench\\.$name	" <<<"$kb" && fail "bmf: skipped $name"
			continue
		fi
		med=$(printf '%.10g' "$med")
		assert_match "$kt" "^ppbench\\.$name	DONE	$u/elem	" "kcidb: $name measured, its unit"
		assert_eq "$(printf '%.10g' "$(grep "^ppbench\\.$name	" <<<"$kt" | cut -f4)")" "$med" \
			"kcidb: $name's median"
		assert_eq "$(grep "^ppbench\\.$k\\.${u}_per_elem: " "$f.lkp")" \
			"ppbench.$k.${u}_per_elem: $med" "lkp: $name's median, its unit in the key"
		assert_eq "$(grep "^ppbench\\.$k\\.workload: " "$f.lkp")" "ppbench.$k.workload: $work" \
			"lkp: $name's workload, the elements of its timed runs"
		assert_eq "$(grep "^ppbench\\.$name	" <<<"$kb" | cut -f2 | xargs printf '%.10g')" \
			"$med" "bmf: $name's median"
		assert_eq "$(grep "^ppbench\\.$name	" <<<"$kb" | cut -f3)" true \
			"bmf: $name's setups' range around the median"
		if [ "$path" = null ]; then
			assert_match "$kt" "^ppbench\\.$name\\.path	SKIP	" "kcidb: $name's path n/a"
			grep -q "^ppbench\\.$k\\.path_" "$f.lkp" && fail "lkp: a line of $name's n/a path"
		else
			# the method in the name: KCIDB's and LKP's the same, one of bench's
			m=$(grep -oP "^ppbench\\.$name\\.path\\.\\K[a-z]+(?=	DONE	)" <<<"$kt")
			assert_match "$m" '^(fentry|twin|reference)$' "kcidb: $name's path figure by its method"
			path=$(printf '%.10g' "$path")
			assert_eq "$(printf '%.10g' "$(grep "^ppbench\\.$name\\.path\\.$m	" <<<"$kt" | cut -f4)")" \
				"$path" "kcidb: $name's path figure"
			assert_eq "$(grep "^ppbench\\.$k\\.path_" "$f.lkp")" \
				"ppbench.$k.path_${m}_${u}_per_elem: $path" "lkp: $name's path figure, its method"
		fi
	done < <(jq -r '.scenarios[] | [.name, .status, (.reason // "-"),
		(.cycles_per_elem.median // "-" | tostring),
		(.path_cost_cycles.value // "null" | tostring),
		(if .status == "ok" then .loops * .repeat else "-" end)] | @tsv' "$f")
}

# Real results: r1 without live frames (ring skipped; slow on the veth skb path), r2
# through the LKP program (ring and slow), r3 r2 as qemu's instruction clock would
# have written it (test_vm_ab_two_kernels exports a real one). Then every format of each, the otava series of them, and compare's
# verdicts of r1 and r2 as KTAP, Org and KCIDB.
test_export_real_results() {
	needs_host live-frames
	local lkp=$TMPD/lkp r1=$TMPD/r1.json r2=$TMPD/lkp/ppbench.json r3=$TMPD/r3.json f
	local P=(--noise "$DATA/profile.json" --force --fail-above 5)
	mkdir -p "$lkp"
	expect_exit 0 env PPBENCH_DISABLE=live_frames "$PPBENCH" bench --scenario ring,slow \
		--loops 2000 --repeat 2 --quiet --label v1 --json "$r1"
	# created has whole seconds: r2's must come after r1's for the order by created
	sleep 1
	expect_exit 0 env PATH="$(dirname "$PPBENCH"):$PATH" TMP_RESULT_ROOT="$lkp" scenario=ring,slow \
		loops=5000 repeat=2 LKP_SRC= "$TOP/scripts/lkp/programs/ppbench/run"
	assert_match "$LAST_OUT" '^Type:ppbench_slow Per elem: ' "run: bench's output is LKP's log"
	jq '.host.clock = {kind: "icount", unit: "instructions"} | .label = "v3"' "$r2" >"$r3"
	assert_eq "$(jq_get "$r1" '.scenarios[0].status')" skipped "r1: ring skipped"
	for f in "$r1" "$r2" "$r3"; do
		expect_exit 0 "$PPBENCH" export kcidb --origin ppbench_ci "$f"
		kcidb_check "$LAST_OUT"
		cp "$LAST_OUT" "$f.kcidb"
		expect_exit 0 "$PPBENCH" export lkp "$f"
		lkp_check "$LAST_OUT"
		cp "$LAST_OUT" "$f.lkp"
		expect_exit 0 "$PPBENCH" export bmf "$f"
		bmf_check "$LAST_OUT"
		cp "$LAST_OUT" "$f.bmf"
		check_figures "$f"
	done
	grep -q cycles "$r3.lkp" "$r3.bmf" && fail "an instructions file exported cycles"
	jq -e '[.tests[].number.unit // empty] | all(. == "instructions/elem")' "$r3.kcidb" \
		>/dev/null || fail "kcidb: an instructions file's unit"
	# the LKP parse program: the stats without the prefix LKP adds, from RESULT_ROOT
	expect_exit 0 env PATH="$(dirname "$PPBENCH"):$PATH" RESULT_ROOT="$lkp" \
		"$TOP/scripts/lkp/programs/ppbench/parse" "$lkp/ppbench"
	lkp_check "$LAST_OUT"
	assert_eq "$(sed 's/^/ppbench./' "$LAST_OUT")" "$(cat "$r2.lkp")" "parse: LKP's names"
	# otava: r1's skipped ring has no column, with a warning; order by created and label
	expect_exit 0 "$PPBENCH" export otava "$r2" "$r1" --by created
	otava_check "$LAST_OUT"
	assert_match "$LAST_ERR" 'column ring\.cycles_per_elem left out: .*r1\.json has no value' \
		"otava: the warning names the column and the file"
	grep -qE '(^|,)ring\.' <(head -1 "$LAST_OUT") && fail "otava: a column r1 has no value of"
	assert_eq "$(sed -n 1p "$LAST_OUT" | tr ',' '\n' | grep -c '^slow\.')" \
		"$(jq '[.scenarios[] | select(.name == "slow") | .cycles_per_elem, .ns_per_elem,
			(.path_cost_cycles.value // empty)] | length' "$r1")" "otava: slow's columns"
	assert_eq "$(cut -d, -f2 "$LAST_OUT" | sed -n '2,$p' | tr '\n' ' ')" \
		"v1 $(uname -r) " "otava: rows by created"
	expect_exit 2 "$PPBENCH" export otava "$r1" "$r3"
	expect_one_line_error "counts cycles .* and .*r3\\.json instructions .*never make one series"
	# compare's verdicts: slow on the veth path (r1) against live frames (r2) is ten times
	# dearer, a regression; the other way round it passes; ring is skipped in r1
	expect_exit 3 "$PPBENCH" compare --ktap "${P[@]}" "$r2" "$r1"
	ktap_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^not ok [0-9]+ slow cycles/elem: \+[0-9.]+%, floor [0-9.]+%, limit 5%' \
		"ktap: slow's regression fails"
	assert_match "$LAST_OUT" '^ok [0-9]+ ring cycles/elem # SKIP skipped in new \(.*r1\.json\): ' \
		"ktap: ring skipped in new"
	assert_match "$LAST_ERR" 'regression: slow cycles/elem' "ktap: the gate still names it"
	expect_exit 0 "$PPBENCH" compare --ktap "${P[@]}" "$r1" "$r2"
	ktap_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^ok [0-9]+ slow cycles/elem: -[0-9.]+%' "ktap: the way back passes"
	expect_exit 3 "$PPBENCH" compare --json "$TMPD/cmp.json" "${P[@]}" "$r2" "$r1"
	expect_exit 0 "$PPBENCH" export kcidb --origin ppbench_ci "$TMPD/cmp.json"
	kcidb_check "$LAST_OUT"
	assert_eq "$(jq_get "$LAST_OUT" '.tests[] | select(.path == "ppbench.compare.slow") |
		.status')" FAIL "kcidb: compare's gated row fails"
	expect_exit 0 "$PPBENCH" compare --org "$r2" "$r1"
	org_check "$LAST_OUT"
}

# scripts/lkp's spec fixture, as LKP's rspec runs it (parse < FIXTURE gives FIXTURE.yaml),
# a real result of a job of one scenario: its one *.workload stat, loops x repeat, what
# lib/matrix.rb divides perf-stat's instructions by; the parse's example lines are the
# fixture's; a real result of the instruction clock given as $1.
test_export_lkp_fixture() {
	local spec=$TOP/scripts/lkp/spec/fixtures/stats/ppbench parse=$TOP/scripts/lkp/programs/ppbench/parse
	local P=(env -u RESULT_ROOT PATH="$(dirname "$PPBENCH"):$PATH")
	expect_exit 0 "${P[@]}" "$parse" <"$spec/1"
	lkp_check "$LAST_OUT"
	assert_eq "$(cat "$LAST_OUT")" "$(cat "$spec/1.yaml")" "parse < 1 is 1.yaml"
	assert_eq "$(grep -c '\.workload: ' "$LAST_OUT")" 1 "one workload stat: LKP's path length"
	assert_eq "$(grep '\.workload: ' "$LAST_OUT")" \
		"$(jq -r '.scenarios[] | "\(.name).workload: \(.loops * .repeat)"' "$spec/1")" \
		"workload: loops x repeat"
	assert_eq "$(sed -n 's/^#   //p' "$parse")" "$(cat "$spec/1.yaml")" \
		"the parse's example lines are the fixture's"
	expect_exit 0 "${P[@]}" "$parse" "$DATA/bisect-base.json"
	lkp_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^slow\.instructions_per_elem: ' "an instruction clock's file"
	assert_eq "$(grep '\.workload: ' "$LAST_OUT")" "slow.workload: 1280000" "its workload"
}

# compare --ktap and --org on tests/data/: the exact lines, the plan over several
# comparisons, a scenario skipped on one side; kcidb of compare's JSON with and
# without a gate.
test_export_compare_crafted() {
	local P=(--noise "$DATA/profile.json")
	expect_exit 3 "$PPBENCH" compare --ktap "${P[@]}" --fail-above 5 "$DATA/base.json" \
		"$DATA/regress.json" "$DATA/newkernel.json"
	ktap_check "$LAST_OUT"
	assert_eq "$(sed -n 2p "$LAST_OUT")" "1..8" "plan: 4 scenarios in 2 comparisons"
	assert_match "$LAST_OUT" '^not ok 1 regress: ring cycles/elem: \+10\.0%, floor 8\.0%, limit 5%$' \
		"the gated row"
	assert_match "$LAST_OUT" '^ok 2 regress: ring-xcpu cycles/elem: 0\.0%, floor 8\.0%, limit 5%$' \
		"a row that passes"
	assert_match "$LAST_OUT" '^ok 6 newkernel: ring-xcpu cycles/elem # SKIP skipped in new \(.*newkernel\.json\): needs 2 online CPUs$' \
		"skipped in new"
	assert_eq "$(grep -c '^not ok' "$LAST_OUT")" 1 "one failure"
	# a '#' in a name would end KTAP's description: it is replaced
	cp "$DATA/regress.json" "$TMPD/re#gress.json"
	expect_exit 3 "$PPBENCH" compare --ktap "${P[@]}" --fail-above 5 "$DATA/base.json" \
		"$TMPD/re#gress.json" "$DATA/newkernel.json"
	ktap_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^not ok 1 re_gress: ring cycles/elem: ' "the name without its #"
	# without a gate nothing decides: every row a SKIP that says so
	expect_exit 0 "$PPBENCH" compare --ktap "$DATA/base.json" "$DATA/regress.json"
	ktap_check "$LAST_OUT"
	assert_eq "$(grep -c '# SKIP no gate: give --fail-above PCT$' "$LAST_OUT")" 4 "no gate"
	# a profile without path figures: the path rows are not tested
	jq '.scenarios[].path_cost_cycles = null' "$DATA/profile.json" >"$TMPD/nopath.json"
	expect_exit 0 "$PPBENCH" compare --ktap --metric path --noise "$TMPD/nopath.json" \
		--fail-above 5 "$DATA/base.json" "$DATA/regress.json"
	ktap_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^ok 1 ring path cycles/elem \(difference\): \+12\.8%, floor n/a, limit 5% # SKIP not tested: the noise profile has no such figure$' \
		"untestable row"
	assert_match "$LAST_OUT" '^ok 3 fast path cycles/elem # SKIP no path figure in old \(.*base\.json\): ' \
		"n/a path figure"
	expect_exit 0 "$PPBENCH" compare --org "$DATA/base.json" "$DATA/regress.json"
	org_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^\| ring +\| +142 \| +157 \| +15 \| +54\.892 \| +60\.381 \| +5\.489 \| +10\.0 \|$' \
		"org: ring"
	expect_exit 0 "$PPBENCH" compare --org "${P[@]}" --old "$DATA/base.json" "$DATA/base2.json" \
		--new "$DATA/regress.json" "$DATA/newkernel.json"
	org_check "$LAST_OUT"
	# compare's JSON: FAIL and PASS where it gated, DONE without a gate
	expect_exit 3 "$PPBENCH" compare --json "$TMPD/g.json" "${P[@]}" --fail-above 5 \
		"$DATA/base.json" "$DATA/regress.json"
	expect_exit 0 "$PPBENCH" export kcidb --origin ppbench_ci --build-id ppbench_ci:b42 "$TMPD/g.json"
	kcidb_check "$LAST_OUT"
	assert_eq "$(jq -c '[.tests[] | [.path, .status]]' "$LAST_OUT")" \
		'[["ppbench.compare.ring","FAIL"],["ppbench.compare.ring.path.difference","DONE"],["ppbench.compare.ring-xcpu","PASS"],["ppbench.compare.ring-xcpu.path.difference","DONE"],["ppbench.compare.fast","PASS"],["ppbench.compare.slow","PASS"],["ppbench.compare.slow.path.difference","DONE"]]' \
		"verdicts as compare made them"
	assert_eq "$(jq -r '[.tests[].build_id] | unique | join(" ")' "$LAST_OUT")" ppbench_ci:b42 \
		"--build-id"
	assert_eq "$(jq -r 'has("builds")' "$LAST_OUT")" false "no build of ours with --build-id"
	expect_exit 0 "$PPBENCH" compare --json "$TMPD/n.json" "$DATA/base.json" "$DATA/regress.json"
	expect_exit 0 "$PPBENCH" export kcidb --origin ppbench_ci "$TMPD/n.json"
	kcidb_check "$LAST_OUT"
	assert_eq "$(jq -r '[.tests[].status] | unique | join(" ")' "$LAST_OUT")" DONE "no gate: DONE"
	assert_eq "$(jq -r '[.tests[].misc.unit] | unique | join(" ")' "$LAST_OUT")" cycles \
		"the files' unit"
	# files of the instruction clock: compare's JSON says so, and so do its KCIDB tests
	local i
	for i in base regress; do
		jq '.host.clock = {kind: "icount", unit: "instructions"}' "$DATA/$i.json" >"$TMPD/i$i.json"
	done
	expect_exit 0 "$PPBENCH" compare --json - "$TMPD/ibase.json" "$TMPD/iregress.json"
	assert_eq "$(jq_get "$LAST_OUT" '.comparisons[0].unit')" instructions "compare --json: unit"
	cp "$LAST_OUT" "$TMPD/i.json"
	expect_exit 0 "$PPBENCH" compare --org "$TMPD/ibase.json" "$TMPD/iregress.json"
	org_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^\| Test name +\| +Instr\. \| +\| +\| +Guest ns \|' "org: the units' header"
	assert_match "$LAST_OUT" '^# instruction clock: .*guest ns are instructions too' "org: says why"
	expect_exit 0 "$PPBENCH" export kcidb --origin ppbench_ci "$TMPD/i.json"
	assert_eq "$(jq -r '[.tests[].misc.unit] | unique | join(" ")' "$LAST_OUT")" instructions \
		"kcidb of compare: the unit"
}

# trend --ktap on a crafted series: 12 results, slow 20 % dearer from the 7th.
test_export_trend_ktap() {
	local i
	mkdir -p "$TMPD/s"
	for i in $(seq 12); do
		jq --argjson i "$i" '.label = "\($i)" |
			.created = "2026-12-01T10:\(if $i < 10 then "0" else "" end)\($i):00Z" |
			(1 + 0.002 * ($i % 3)) as $n | (if $i > 6 then 1.2 else 1 end) as $s |
			.scenarios |= map(. as $sc | .cycles_per_elem |= (
				(if $sc.name == "slow" then $s else 1 end * $n) as $k |
				.runs |= map(. * $k) | .median *= $k | .min *= $k | .mean *= $k))' \
			"$DATA/base.json" >"$TMPD/s/r$i.json" || fail "jq"
	done
	expect_exit 3 "$PPBENCH" trend --ktap --min-run 3 --fail-on-regression 5 "$TMPD/s"
	ktap_check "$LAST_OUT"
	assert_eq "$(sed -n 2p "$LAST_OUT")" "1..4" "plan: a test per scenario"
	assert_match "$LAST_OUT" '^not ok 4 slow cycles/elem: changed, step \+20\.[0-9]% between "6" and "7", floor n/a, limit 5%$' \
		"the step fails"
	assert_match "$LAST_OUT" '^ok 1 ring cycles/elem: stable, no regression above 5% in the last 9 results, floor n/a$' \
		"a stable figure passes"
	assert_match "$LAST_ERR" '^ppbench trend: regression: slow cycles/elem' "the gate names it"
	# a profile's floor in the description
	expect_exit 3 "$PPBENCH" trend --ktap --min-run 3 --noise "$DATA/profile.json" \
		--fail-on-regression 5 "$TMPD/s"
	ktap_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^not ok 4 slow cycles/elem: changed, step \+20\.[0-9]% between "6" and "7", floor 8\.0%, limit 5%$' \
		"the profile's floor"
	expect_exit 0 "$PPBENCH" trend --ktap --min-run 3 "$TMPD/s"
	ktap_check "$LAST_OUT"
	assert_eq "$(grep -c '# SKIP no gate: give --fail-on-regression PCT$' "$LAST_OUT")" 4 "no gate"
	expect_exit 2 "$PPBENCH" trend --ktap --markdown "$TMPD/s"
	expect_one_line_error '--ktap prints only KTAP'
	trend_stable_after
	# a slow machine: a step of a time is an expected failure, of instructions a failure
	local G=(trend --ktap --min-run 3 --fail-on-regression 5) f
	expect_exit 0 env KSFT_MACHINE_SLOW=yes "$PPBENCH" "${G[@]}" "$TMPD/s"
	ktap_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^ok 4 slow cycles/elem: changed, step \+20\.[0-9]% between "6" and "7", floor n/a, limit 5% # XFAIL KSFT_MACHINE_SLOW=yes: ' \
		"slow machine: XFAIL"
	assert_match "$LAST_ERR" '^ppbench trend: expected failure \(KSFT_MACHINE_SLOW=yes, a time\): slow ' \
		"stderr names it"
	mkdir -p "$TMPD/i"
	for f in "$TMPD"/s/*.json; do
		jq '.host.clock = {kind: "icount", unit: "instructions"}' "$f" >"$TMPD/i/${f##*/}"
	done
	expect_exit 3 env KSFT_MACHINE_SLOW=yes "$PPBENCH" "${G[@]}" "$TMPD/i"
	ktap_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^not ok 4 slow .*limit 5%$' "instructions: still a failure"
}

# trend --stable-after on the crafted series of test_export_trend_ktap: slow passed 6
# times in a row before its step, the others 12 times.
trend_stable_after() {
	local G=(--min-run 3 --fail-on-regression 5)
	expect_exit 0 "$PPBENCH" trend --ktap "${G[@]}" --stable-after 15 "$TMPD/s"
	ktap_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^ok 4 slow cycles/elem: changed, step \+20\.[0-9]% between "6" and "7", floor n/a, limit 5%, held: passed 6 times in a row # SKIP held, not gated: fewer than --stable-after 15 passes in a row$' \
		"held: report only"
	assert_match "$LAST_OUT" '^ok 1 ring cycles/elem: .*, held: passed 12 times in a row$' \
		"a held figure says so"
	assert_match "$LAST_ERR" '^ppbench trend: held, not gated: slow cycles/elem \+20\.[0-9]% between "6" and "7" \(passed 6 times in a row, --stable-after 15\)$' \
		"stderr names it"
	expect_exit 0 "$PPBENCH" trend "${G[@]}" --stable-after 15 --json "$TMPD/h.json" "$TMPD/s"
	assert_match "$LAST_OUT" '^held \(--stable-after 15: report only until passed 15 times in a row\): ring cycles/elem passed 12,' \
		"text: the held figures"
	assert_eq "$(jq -c '[.gate.held[] | [.scenario, .passes]]' "$TMPD/h.json")" \
		'[["ring",12],["ring-xcpu",12],["fast",12],["slow",6]]' "json: the held figures"
	assert_eq "$(jq -c '.gate.regressions[0] | [.held, .gated]' "$TMPD/h.json")" '[true,false]' \
		"json: the regression held"
	# six passes in a row are enough for 6, not for 7
	expect_exit 3 "$PPBENCH" trend "${G[@]}" --stable-after 6 "$TMPD/s"
	assert_match "$LAST_OUT" '^held \(--stable-after 6: .*\): none$' "none held"
	expect_exit 0 "$PPBENCH" trend "${G[@]}" --stable-after 7 "$TMPD/s"
	expect_exit 2 "$PPBENCH" trend --stable-after 7 "$TMPD/s"
	expect_one_line_error '--stable-after holds the gate: give --fail-on-regression PCT too'
}

# compare --ktap with KSFT_MACHINE_SLOW=yes: a gate on time that fires is an expected
# failure (kselftest's "ok N ... # XFAIL"), one on instructions still fails.
test_export_ktap_machine_slow() {
	local P=(--ktap --noise "$DATA/profile.json" --fail-above 5) S=(env KSFT_MACHINE_SLOW=yes)
	local B=("$DATA/base.json" "$DATA/regress.json")
	expect_exit 0 "${S[@]}" "$PPBENCH" compare "${P[@]}" --json "$TMPD/x.json" "${B[@]}"
	ktap_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^ok 1 ring cycles/elem: \+10\.0%, floor 8\.0%, limit 5% # XFAIL KSFT_MACHINE_SLOW=yes: a time, which a slow machine stretches$' \
		"a cycle gate: XFAIL"
	assert_match "$LAST_ERR" '^ppbench compare: expected failure \(KSFT_MACHINE_SLOW=yes, a time\): ring cycles/elem \+10\.0%' \
		"stderr names it"
	assert_eq "$(jq -c '.comparisons[0].rows[] | select(.label == "ring cycles/elem") |
		[.gated, .expected_failure]' "$TMPD/x.json")" '[false,true]' "json: not gated, expected"
	expect_exit 0 "${S[@]}" "$PPBENCH" compare "${P[@]}" --metric ns "${B[@]}"
	assert_match "$LAST_OUT" '^ok 1 ring ns/elem: .* # XFAIL ' "an ns gate: XFAIL"
	# only "yes", only KTAP
	expect_exit 3 env KSFT_MACHINE_SLOW=no "$PPBENCH" compare "${P[@]}" "${B[@]}"
	assert_match "$LAST_OUT" '^not ok 1 ring cycles/elem: ' "KSFT_MACHINE_SLOW=no"
	expect_exit 3 "${S[@]}" "$PPBENCH" compare --noise "$DATA/profile.json" --fail-above 5 "${B[@]}"
	# an instruction gate stays a failure
	expect_exit 3 "${S[@]}" "$PPBENCH" compare --ktap --noise "$DATA/bisect-noise.json" \
		--fail-above 0.5 "$DATA/bisect-base.json" "$DATA/bisect-planted.json"
	ktap_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^not ok 1 slow instr/elem: \+2\.0%, floor 0\.3%, limit 0\.5%$' \
		"an instruction gate: not ok"
}

# scripts/kselftest/ppbench.sh: KTAP on stdout and kselftest's exit statuses, on
# results given by PPBENCH_RESULT (bench cannot run every scenario here), and its skips.
test_export_kselftest_script() {
	local sh=$TOP/scripts/kselftest/ppbench.sh d
	local E=(env -u PPBENCH_RESULT -u KSFT_MACHINE_SLOW -u PPBENCH_BTF PPBENCH="$PPBENCH"
		PPBENCH_BASELINE="$DATA/base.json" PPBENCH_NOISE="$DATA/profile.json")
	expect_exit 0 "${E[@]}" PPBENCH_RESULT="$DATA/base2.json" "$sh"
	ktap_check "$LAST_OUT"
	assert_eq "$(grep -c '^ok [0-9]' "$LAST_OUT")" 4 "pass: every scenario ok"
	expect_exit 1 "${E[@]}" PPBENCH_RESULT="$DATA/regress.json" "$sh"
	ktap_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^not ok 1 ring cycles/elem: ' "fail: the gated row"
	expect_exit 0 "${E[@]}" PPBENCH_RESULT="$DATA/regress.json" KSFT_MACHINE_SLOW=yes "$sh"
	assert_match "$LAST_OUT" '^ok 1 ring cycles/elem: .* # XFAIL ' "a slow machine: XFAIL, a pass"
	expect_exit 1 "${E[@]}" PPBENCH_BASELINE="$DATA/bisect-base.json" KSFT_MACHINE_SLOW=yes \
		PPBENCH_NOISE="$DATA/bisect-noise.json" PPBENCH_FAIL_ABOVE=0.5 \
		PPBENCH_RESULT="$DATA/bisect-planted.json" "$sh"
	assert_match "$LAST_OUT" '^not ok 1 slow instr/elem: ' "instructions: a failure"
	expect_exit 1 "${E[@]}" PPBENCH_NOISE= PPBENCH_RESULT="$DATA/regress.json" "$sh"
	ktap_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^not ok 1 ppbench compare could not judge' "no noise: a failure"
	# skips: one skipped test, exit 4
	expect_exit 4 "${E[@]}" PPBENCH_BTF=/nonexistent "$sh"
	ktap_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^ok 1 ppbench # SKIP no kernel BTF at /nonexistent$' "no BTF"
	expect_exit 4 "${E[@]}" PPBENCH_BASELINE= "$sh"
	assert_match "$LAST_OUT" '^ok 1 ppbench # SKIP no baseline: ' "no baseline"
	d=$(mktemp -d /tmp/ppb-ksft.XXXXXX)
	chmod 755 "$d" && cp "$PPBENCH" "$sh" "$DATA/base.json" "$d/" && chmod 755 "$d"/*
	expect_exit 4 setpriv --reuid=65534 --regid=65534 --clear-groups env PPBENCH="$d/ppbench" \
		PPBENCH_BASELINE="$d/base.json" "$d/ppbench.sh"
	rm -rf "$d"
	assert_match "$LAST_OUT" '^ok 1 ppbench # SKIP needs root$' "not root"
}

# Bad input: one line on stderr, exit 2, no output file.
test_export_bad_input() {
	local b=$DATA/base.json o=$TMPD/out
	cd "$TMPD" || fail "cd"
	head -n 40 "$b" >truncated.json
	printf 'time,commit,metric1\n2026-01-01,aaa,1\n' >foreign.csv
	expect_exit 2 "$PPBENCH" export csv "$b"
	expect_one_line_error "unknown format 'csv': kcidb, lkp, otava or bmf"
	expect_exit 2 "$PPBENCH" export kcidb -o "$o" "$b"
	expect_one_line_error '^ppbench export: error: kcidb needs --origin NAME'
	expect_exit 2 "$PPBENCH" export kcidb --origin MyCI "$b"
	expect_one_line_error "--origin 'MyCI': a KCIDB origin is lower-case letters, digits and '_'"
	expect_exit 2 "$PPBENCH" export kcidb --origin ci --build-id other:1 "$b"
	expect_one_line_error "a KCIDB id starts with its origin and a colon \('ci:\.\.\.'\)"
	local fmt
	for fmt in "kcidb --origin ci" lkp otava bmf; do
		# shellcheck disable=SC2086
		expect_exit 2 "$PPBENCH" export $fmt -o "$o" truncated.json
		expect_one_line_error '^ppbench export: error: truncated\.json: truncated: line [0-9]+, column [0-9]+: '
		# shellcheck disable=SC2086
		expect_exit 2 "$PPBENCH" export $fmt -o "$o" foreign.csv
		expect_one_line_error '^ppbench export: error: foreign\.csv: line 1, column [0-9]+: '
		# shellcheck disable=SC2086
		expect_exit 2 "$PPBENCH" export $fmt -o "$o" "$DATA/profile.json"
		expect_one_line_error 'profile\.json: schema: "ppbench-noise/1" is not supported'
	done
	expect_exit 2 "$PPBENCH" export lkp "$b" "$b"
	expect_one_line_error 'lkp takes one result file'
	expect_exit 2 "$PPBENCH" export lkp --by label "$b"
	expect_one_line_error '--by is for otava, not lkp'
	expect_exit 2 "$PPBENCH" export bmf --origin ci "$b"
	expect_one_line_error '--origin is for kcidb, not bmf'
	expect_exit 2 "$PPBENCH" export otava "$b" "$DATA/otherhost.json"
	expect_one_line_error 'another host .*--force'
	expect_exit 2 "$PPBENCH" export
	expect_one_line_error 'no format'
	expect_exit 2 "$PPBENCH" export lkp
	expect_one_line_error 'no files'
	expect_exit 2 "$PPBENCH" compare --ktap --bpp "$b" "$DATA/regress.json"
	expect_one_line_error '--ktap prints only KTAP'
	[ -e "$o" ] && fail "a failed export left $o"
	ls -A "$TMPD" | grep -q '\.tmp' && fail "a failed export left a temporary file"
	# and a good one writes it whole, as a new file is made: 0666 less the umask
	umask 022
	expect_exit 0 "$PPBENCH" export lkp -o "$o" "$b"
	lkp_check "$o"
	assert_eq "$(cat "$LAST_OUT")" "" "nothing on stdout with -o"
	assert_eq "$(stat -c %a "$o")" 644 "the output's mode"
}

# The LKP program's layout: lkp-tests' bin/program-options reads the run script's
# parameters as '# - NAME' lines before its first empty line; the job names them.
test_export_lkp_layout() {
	local d=$TOP/scripts/lkp run params p
	run=$d/programs/ppbench/run
	[ -x "$run" ] && [ -x "$d/programs/ppbench/parse" ] || fail "run and parse are not executable"
	params=$(awk '/^$/ { exit } /^# - [a-z0-9_]+$/ { print $3 }' "$run" | tr '\n' ' ')
	assert_eq "$params" "scenario repeat loops batch cpu " "run's parameters"
	for p in $params; do
		grep -q "\$$p" "$run" || fail "run never uses \$$p"
		grep -q "^  $p:" "$d/programs/ppbench/meta.yaml" || fail "meta.yaml lacks $p"
	done
	grep -q '^ppbench:$' "$d/jobs/ppbench.yaml" || fail "the job has no ppbench: section"
	grep -q '^  scenario:$' "$d/jobs/ppbench.yaml" || fail "the job sets no scenario"
	grep -q 'export lkp --no-prefix' "$d/programs/ppbench/parse" || fail "parse is not export lkp"
	grep -qF 'ppbench\..+_per_elem: -1' "$d/README.md" || fail "README: lower is better"
}

# Otava's CSV quotes a field with a comma or a quote (RFC 4180), and --by label orders
# labels as versions (9 before 10), as trend --by label does.
test_export_otava_quoting() {
	jq '.label = "v10, rc1"' "$DATA/base.json" >"$TMPD/a.json"
	jq '.label = "v9 \"rc\"" | .created = "2026-12-01T11:00:00Z"' "$DATA/base.json" >"$TMPD/b.json"
	expect_exit 0 "$PPBENCH" export otava --by label "$TMPD/a.json" "$TMPD/b.json"
	otava_check "$LAST_OUT"
	assert_eq "$(sed -n 2p "$LAST_OUT" | cut -d, -f1-3)" \
		'2026-12-01T11:00:00Z,"v9 ""rc""",6.18.44' "a quote doubled, the field quoted"
	assert_match "$(sed -n 3p "$LAST_OUT")" '^[^,]+,"v10, rc1",6\.18\.44,' "a comma quoted"
	assert_eq "$(head -1 "$LAST_OUT" | tr ',' '\n' | grep -c '_per_elem$')" 11 \
		"4 scenarios' cycles and ns, 3 path figures"
}

# ppbench-export(8)'s examples are what the commands print: each '$ ' line of the
# page's code blocks is run in tests/data/, and its output must be the lines under
# it, up to the next '$ ' line or the block's end.
test_export_page_examples() {
	local page=$TOP/user/lab/export/export.md bin=$TMPD/bin n=0 cmd
	mkdir -p "$bin"
	ln -s "$PPBENCH" "$bin/ppbench"
	awk -v dir="$TMPD" '
		/^```/ { if (in_block && cmd) close(out); in_block = !in_block; cmd = 0; next }
		in_block && /^\$ / { n++; cmd = 1; out = dir "/want." n
			print substr($0, 3) > (dir "/cmd." n); close(dir "/cmd." n)
			printf "" > out; next }
		in_block && cmd { print > out }' "$page"
	for cmd in "$TMPD"/cmd.*; do
		n=$((n + 1))
		(cd "$DATA" && PATH=$bin:$PATH bash -o pipefail -c "$(cat "$cmd")") \
			>"${cmd/cmd./got.}" 2>/dev/null || fail "'$(cat "$cmd")' failed"
		diff "${cmd/cmd./want.}" "${cmd/cmd./got.}" >"$TMPD/diff" ||
			fail "ppbench-export(8): '$(cat "$cmd")' prints otherwise: $(head -4 "$TMPD/diff" | tr '\n' ' ')"
	done
	assert_ge "$n" 5 "examples run"
}
