#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ppbench export (kcidb, lkp, otava, bmf), compare --ktap and --org, trend --ktap, and
# the LKP program in scripts/lkp/: each format checked against its specification as
# the checks below state it (facts of the published specifications, not their code),
# on real bench and compare output and on tests/data/, plus bad input.

DATA=$TOP/tests/data

# KTAP version 1 (the kernel's Documentation/dev-tools/ktap.rst): the version line
# "KTAP version 1", the plan "1..N", then results "ok N DESC" / "not ok N DESC", numbered
# from 1 up by one, N of them; a description holds no '#'; after " # " a directive
# (SKIP, TODO, XFAIL, TIMEOUT, ERROR) and its diagnostic text; "# TEXT" lines are
# diagnostics. ppbench writes nothing else, so any other line fails here.
ktap_check() { # file
	awk '
	function bad(m) { print "KTAP: line " NR ": " m ": " $0; err = 1; exit 1 }
	NR == 1 { if ($0 != "KTAP version 1") bad("not the version line"); next }
	NR == 2 { if ($0 !~ /^1\.\.[0-9]+$/) bad("not the plan"); plan = substr($0, 4) + 0; next }
	/^#( |$)/ { next }
	/^(not )?ok / {
		n++
		rest = $0
		sub(/^(not )?ok /, "", rest)
		if (rest !~ ("^" n "( |$)")) bad("result " n " is not numbered " n)
		sub(/^[0-9]+ ?/, "", rest)
		at = index(rest, " # ")
		desc = at ? substr(rest, 1, at - 1) : rest
		dir = at ? substr(rest, at + 3) : ""
		if (desc == "") bad("no description")
		if (index(desc, "#")) bad("a # in the description")
		if (at && dir !~ /^(SKIP|TODO|XFAIL|TIMEOUT|ERROR)( |$)/) bad("no directive after #")
		if (dir ~ /^(TIMEOUT|ERROR)/ && $0 !~ /^not ok/) bad(dir " needs not ok")
		next
	}
	{ bad("neither version, plan, result nor diagnostic") }
	END { if (!err && n != plan) { print "KTAP: " n " results, plan says " plan; exit 1 } }
	' "$1" || { sed 's/^/  /' "$1"; fail "$1 is not KTAP version 1"; }
}

# KCIDB I/O schema v5.0 (kernelci/kcidb-io, kcidb_io/schema/v05_00.py), the objects
# ppbench writes, as this test states them: each object's required fields, the only
# properties it may have (the schema allows no others), their types, patterns and
# enums, the version 5.0, and no null anywhere ("no properties can be null").
KCIDB_V5='
def fail($m): error($m);
def str($where): if type == "string" then . else fail("\($where): not a string") end;
def only($where; $allowed):
	((keys - $allowed) | if length > 0 then fail("\($where): not in the v5 schema: \(.)")
	 else . end) as $_ | .;
def need($where; $required):
	. as $o | ($required | map(select($o[.] == null))) as $m |
	if ($m | length) > 0 then fail("\($where): missing required \($m)") else $o end;
def pattern($where; $re): str($where) | if test($re) then . else fail("\($where): \(.) !~ \($re)") end;
def origin($where): pattern($where; "^[a-z0-9_]+$");
def id($where): pattern($where; "^[a-z0-9_]+:");
def time($where): pattern($where; "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$");
def object($where): if type == "object" then . else fail("\($where): not an object") end;
def opt($k; f): if has($k) then (.[$k] | f) as $_ | . else . end;
def own_id($where): . as $o | if ($o.id | startswith($o.origin + ":")) then . else fail("\($where): id \(.id) is not of origin \(.origin)") end;
def checkout($w): object($w) | need($w; ["id", "origin"]) |
	only($w; ["_timestamp", "id", "origin", "tree_name", "git_repository_url",
		"git_commit_hash", "git_commit_name", "git_commit_tags", "git_commit_message",
		"git_repository_branch", "git_repository_branch_tip", "patchset_files",
		"patchset_hash", "message_id", "comment", "start_time", "log_url", "log_excerpt",
		"valid", "misc"]) |
	(.id | id($w + ".id")) as $_ | (.origin | origin($w + ".origin")) as $_ | own_id($w) |
	opt("comment"; str($w + ".comment")) | opt("start_time"; time($w + ".start_time")) |
	opt("misc"; object($w + ".misc"));
def build($w): object($w) | need($w; ["checkout_id", "id", "origin"]) |
	only($w; ["_timestamp", "checkout_id", "id", "origin", "comment", "start_time", "duration",
		"architecture", "command", "compiler", "input_files", "output_files", "config_name",
		"config_url", "log_url", "log_excerpt", "status", "misc"]) |
	(.id | id($w + ".id")) as $_ | (.checkout_id | id($w + ".checkout_id")) as $_ |
	(.origin | origin($w + ".origin")) as $_ | own_id($w) |
	opt("comment"; str($w + ".comment")) | opt("misc"; object($w + ".misc"));
def status($w): if IN("FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP") then . else fail("\($w): status \(.)") end;
def number($w): object($w) | need($w; ["value"]) | only($w; ["value", "unit", "prefix"]) |
	(if (.value | type) == "number" then . else fail("\($w).value: not a number") end) |
	opt("unit"; str($w + ".unit")) |
	opt("prefix"; if IN("metric", "binary") then . else fail("\($w).prefix") end);
def test_run($w): object($w) | need($w; ["build_id", "id", "origin"]) |
	only($w; ["_timestamp", "build_id", "id", "origin", "environment", "path", "comment",
		"log_url", "log_excerpt", "status", "number", "waived", "start_time", "duration",
		"output_files", "misc"]) |
	(.id | id($w + ".id")) as $_ | (.build_id | id($w + ".build_id")) as $_ |
	(.origin | origin($w + ".origin")) as $_ | own_id($w) |
	opt("path"; pattern($w + ".path"; "^([a-zA-Z0-9_-]+(\\.[a-zA-Z0-9_-]+)*)?$")) |
	opt("status"; status($w)) | opt("number"; number($w + ".number")) |
	opt("comment"; str($w + ".comment")) | opt("start_time"; time($w + ".start_time")) |
	opt("environment"; object($w + ".environment") |
		only($w + ".environment"; ["compatible", "comment", "misc"]) |
		opt("comment"; str($w + ".environment.comment")) |
		opt("misc"; object($w + ".environment.misc"))) |
	opt("misc"; object($w + ".misc"));
object("top") | only("top"; ["version", "checkouts", "builds", "tests", "issues", "incidents"]) |
	need("top"; ["version"]) |
	(.version | object("version") | need("version"; ["major"]) | only("version"; ["major", "minor"]) |
	 if .major != 5 then fail("version.major \(.major), not 5")
	 elif (.minor | type) != "number" or .minor != 0 then fail("version.minor \(.minor), not 0")
	 else . end) as $_ |
	([paths(. == null)] | if length > 0 then fail("null at \(.[0])") else . end) as $_ |
	(.checkouts // [] | to_entries | map(.key as $k | .value | checkout("checkouts[\($k)]"))) as $_ |
	(.builds // [] | to_entries | map(.key as $k | .value | build("builds[\($k)]"))) as $_ |
	(.tests // [] | to_entries | map(.key as $k | .value | test_run("tests[\($k)]"))) as $_ |
	true
'

kcidb_check() { # file
	local out
	out=$(jq -e "$KCIDB_V5" "$1" 2>&1) ||
		{ head -c 1500 "$1"; fail "$1 is not KCIDB v5.0: $out"; }
}

# An LKP parse's stats lines (intel/lkp-tests, doc/add-testcase.md; the issue's rule).
lkp_check() { # file
	[ -s "$1" ] || fail "$1: no stats lines"
	local bad
	bad=$(grep -vE '^[a-z0-9_.]+: -?[0-9.e+-]+$' "$1")
	[ -z "$bad" ] || fail "$1: not LKP stats lines: $(echo "$bad" | head -3)"
}

# Apache Otava's CSV (apache/otava docs/CSV.md and its csv importer): a header row of
# unique column names with the time column ("time") and the attributes; every row with
# a value per column; the time a date-time; every metric cell a number (it reads them
# with float()). Quoted fields ("a,b", "" for a quote) are split as CSV.
otava_check() { # file [metric-column-regex]
	awk -v mre="${2:-_per_elem\$}" '
	function split_csv(s, out,    n, i, c, q, f) {
		n = 0; f = ""; q = 0
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (q && c == "\"" && substr(s, i + 1, 1) == "\"") { f = f c; i++ }
			else if (c == "\"") q = !q
			else if (c == "," && !q) { out[++n] = f; f = "" }
			else f = f c
		}
		out[++n] = f
		return n
	}
	function bad(m) { print "Otava CSV: line " NR ": " m; err = 1; exit 1 }
	NR == 1 {
		nh = split_csv($0, h)
		for (i = 1; i <= nh; i++) {
			if (h[i] in seen) bad("column " h[i] " twice")
			seen[h[i]] = i
			if (h[i] ~ mre) nm++
		}
		if (!("time" in seen)) bad("no time column")
		if (!nm) bad("no metric column")
		next
	}
	{
		n = split_csv($0, v)
		if (n != nh) bad(n " fields, the header has " nh)
		if (v[seen["time"]] !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9](\.[0-9]+)?Z$/)
			bad("time " v[seen["time"]])
		for (i = 1; i <= nh; i++)
			if (h[i] ~ mre && v[i] !~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/)
				bad(h[i] " is not a number: " v[i])
		rows++
	}
	END { if (!err && !rows) { print "Otava CSV: no rows"; exit 1 } }
	' "$1" || { sed 's/^/  /' "$1"; fail "$1 is not Otava's CSV"; }
}

# Bencher Metric Format (bencher.dev, "Bencher Metric Format (BMF)" and its JSON
# schema): an object of benchmarks (non-empty names), each an object of measures
# (names of 1..64 characters), each an object with a number "value" and at most the
# numbers "lower_value" and "upper_value"; here also lower <= value <= upper.
BMF='
type == "object" and length > 0 and
all(to_entries[]; (.key | length) > 0 and (.value | type == "object" and length > 0 and
	all(to_entries[]; (.key | length) >= 1 and (.key | length) <= 64 and
		(.value | type == "object" and has("value") and
		 all(keys[]; IN("value", "lower_value", "upper_value")) and
		 all(.[]; type == "number") and
		 (.lower_value // .value) <= .value and (.upper_value // .value) >= .value))))
'

bmf_check() { # file
	jq -e "$BMF" "$1" >/dev/null || { head -c 1500 "$1"; fail "$1 is not BMF"; }
}

# compare --org: the table's diff and % columns are its #+TBLFM's arithmetic on its own
# before and after columns, to the last printed digit: $4=$3-$2, $7=$6-$5 as %.3f,
# $8=(($7/$5)*100) as %.1f (Org's columns: $1 the name; this awk's fields are one more).
org_check() { # file
	grep -qxF '#+TBLFM: $4=$3-$2::$7=$6-$5;%.3f::$8=(($7/$5)*100);%.1f' "$1" ||
		{ cat "$1"; fail "$1: not the TBLFM line this check computes"; }
	awk -F'|' '
	function t(s) { gsub(/^ +| +$/, "", s); return s }
	/^\|-/ { body = 1; next }
	/^#\+TBLFM/ { body = 0 }
	body && /^\|/ {
		rows++
		if (t($5) != sprintf("%d", t($4) - t($3))) { print "cycles diff: " $0; exit 1 }
		if (t($8) != sprintf("%.3f", t($7) - t($6))) { print "ns diff: " $0; exit 1 }
		if (t($9) != sprintf("%.1f", t($8) / t($6) * 100)) { print "% change: " $0; exit 1 }
	}
	END { if (!rows) { print "no rows"; exit 1 } }
	' "$1" || { cat "$1"; fail "$1: a diff or % is not the TBLFM's arithmetic"; }
}

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
	while IFS=$'\t' read -r name status reason med path; do
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
		assert_eq "$(grep "^ppbench\\.$name	" <<<"$kb" | cut -f2 | xargs printf '%.10g')" \
			"$med" "bmf: $name's median"
		assert_eq "$(grep "^ppbench\\.$name	" <<<"$kb" | cut -f3)" true \
			"bmf: $name's setups' range around the median"
		if [ "$path" = null ]; then
			assert_match "$kt" "^ppbench\\.$name\\.path	SKIP	" "kcidb: $name's path n/a"
			grep -q "^ppbench\\.$k\\.path_" "$f.lkp" && fail "lkp: a line of $name's n/a path"
		else
			path=$(printf '%.10g' "$path")
			assert_eq "$(printf '%.10g' "$(grep "^ppbench\\.$name\\.path	" <<<"$kt" | cut -f4)")" \
				"$path" "kcidb: $name's path figure"
			assert_eq "$(grep "^ppbench\\.$k\\.path_${u}_per_elem: " "$f.lkp")" \
				"ppbench.$k.path_${u}_per_elem: $path" "lkp: $name's path figure"
		fi
	done < <(jq -r '.scenarios[] | [.name, .status, (.reason // "-"),
		(.cycles_per_elem.median // "-" | tostring),
		(.path_cost_cycles.value // "null" | tostring)] | @tsv' "$f")
}

# Real results: r1 without live frames (ring skipped; slow on the veth skb path), r2
# through the LKP program (ring and slow), r3 r2 as qemu's instruction clock would
# have written it. Then every format of each, the otava series of them, and compare's
# verdicts of r1 and r2 as KTAP, Org and KCIDB.
test_export_real_results() {
	local lkp=$TMPD/lkp r1=$TMPD/r1.json r2=$TMPD/lkp/ppbench.json r3=$TMPD/r3.json f
	local P=(--noise "$DATA/profile.json" --force --fail-above 5)
	mkdir -p "$lkp"
	expect_exit 0 env PPBENCH_DISABLE=live_frames "$PPBENCH" bench --scenario ring,slow \
		--loops 2000 --repeat 2 --quiet --label v1 --json "$r1"
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
	assert_match "$LAST_OUT" '^ok 1 ring path cycles/elem: \+12\.8%, floor n/a, limit 5% # SKIP not tested: the noise profile has no such figure$' \
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
		'[["ppbench.compare.ring","FAIL"],["ppbench.compare.ring.path","DONE"],["ppbench.compare.ring-xcpu","PASS"],["ppbench.compare.ring-xcpu.path","DONE"],["ppbench.compare.fast","PASS"],["ppbench.compare.slow","PASS"],["ppbench.compare.slow.path","DONE"]]' \
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
	assert_match "$LAST_OUT" '^\| Test name +\| Instructions \|' "org: the unit's header"
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
