#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ppbench calibrate with tiny volumes: it runs separate bench processes,
# shows its progress on a terminal (and nothing without one), writes a
# profile the schema checker and compare --noise accept. Shape only: no
# figure in the profile is asserted.

test_calibrate_profile() {
	needs_host live-frames
	local p=$TMPD/p.json keep=$TMPD/runs
	local args=(--runs 2 --duration 1 --scenario ring --repeat 2 --loops 20000)
	[ -x "$TOP/build/tests/schema_check" ] || make -s -C "$TOP" build/tests/schema_check ||
		fail "cannot build schema_check"
	# under a pseudo-terminal, where the progress line shows
	script -qec "$PPBENCH calibrate ${args[*]} --keep $keep -o $p" "$TMPD/tty" >/dev/null ||
		{ cat "$TMPD/tty"; fail "calibrate under a terminal failed"; }
	assert_match "$TMPD/tty" 'bench run 1/2: (running|starts in)' "progress on a terminal"
	assert_match "$TMPD/tty" '^ring +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+% +[0-9.]+% +[0-9.]+%' \
		"the table"
	"$TOP/build/tests/schema_check" "$p" >/dev/null || fail "profile fails its schema check"
	assert_eq "$(jq_get "$p" .schema)" "ppbench-noise/1" "schema"
	assert_eq "$(jq_get "$p" .invocations)" 2 "two runs"
	assert_eq "$(jq_get "$p" '.scenarios | map(.name) | join(",")')" ring "one scenario"
	assert_eq "$(jq_get "$p" .host.kernel)" "$(uname -r)" "host fingerprint: kernel"
	jq -e '.scenarios[0].cycles_per_elem | .floor_pct >= 1 and .floor_pct >= .max_pair_pct' \
		"$p" >/dev/null || fail "floor below 1% or below the largest change seen"
	[ -s "$keep/run-01.json" ] && [ -s "$keep/run-02.json" ] || fail "--keep kept no runs"
	# compare takes it for files of this host, and names it
	expect_exit 0 "$PPBENCH" compare --noise "$p" "$keep/run-01.json" "$keep/run-02.json"
	assert_match "$LAST_OUT" '^noise: between invocations, from the profile' "compare uses it"
	# without a terminal: no progress, only the table; its temporary directory goes
	local before
	before=$(ls -d /tmp/ppbench-calibrate.* 2>/dev/null)
	"$PPBENCH" calibrate "${args[@]}" -o "$TMPD/q.json" >"$TMPD/q.out" 2>"$TMPD/q.err" &
	local cpid=$! i lock=/run/ppbench.lock
	[ -w /run ] || lock=/tmp/ppbench.lock
	for ((i = 0; i < 100; i++)); do
		grep -qx "$cpid calibrate" "$lock" 2>/dev/null && break
		sleep 0.1
	done
	# it holds the run lock for all its runs: no other bench comes between
	expect_exit 1 "$PPBENCH" bench --scenario ring --repeat 1
	expect_one_line_error "another ppbench is measuring \\(PID $cpid, calibrate\\)"
	wait $cpid || fail "calibrate exited $?: $(cat "$TMPD/q.err")"
	assert_eq "$(cat "$TMPD/q.err")" "" "no progress without a terminal"
	assert_match "$TMPD/q.out" "^profile: $TMPD/q.json$" "names the profile"
	assert_eq "$(ls -d /tmp/ppbench-calibrate.* 2>/dev/null)" "$before" "temporary directory removed"
	return 0
}

test_calibrate_usage() {
	expect_exit 2 "$PPBENCH" calibrate
	expect_one_line_error 'no profile file: give -o FILE'
	expect_exit 2 "$PPBENCH" calibrate --runs 1 -o "$TMPD/x.json"
	expect_one_line_error "--runs 1 is out of range"
	expect_exit 2 "$PPBENCH" calibrate --scenario nope -o "$TMPD/x.json"
	expect_one_line_error "unknown scenario 'nope'"
	expect_exit 2 "$PPBENCH" calibrate -o /nonexistent/dir/x.json
	expect_one_line_error "cannot write"
	[ -e "$TMPD/x.json" ] && fail "a refused calibrate left a file"
	return 0
}
