#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ppbench watch: output shape, interval count, clean exit, what it counts.

test_watch_sees_veth_pool_traffic() {
	local j=$TMPD/w.json out=$TMPD/w.txt n=20000
	"$PPBENCH" watch --interval 0.5 --duration 4 --json "$j" >"$out" 2>&1 &
	local pid=$!
	wait_for_output "$out" '^time ' 5
	# watch itself attaches no XDP program anywhere
	ip -o link show | grep -qE ' xdp[a-z]*[ /]|prog/xdp' && fail "an XDP program is attached"
	"$PPBENCH" recipe veth-tx --repeat $n --size 1500 >/dev/null || fail "traffic recipe failed"
	wait $pid || fail "watch exited $?"
	assert_match "$out" '^summary: ' "summary printed"
	assert_match "$out" ' veth +if[0-9]+@ns ' "veth pool of another namespace, not misnamed"
	local rel
	rel=$(jq -s '[.[] | select(.type == "summary") | .pools[] | select(.kind == "veth") |
		.path.ret.release] | add' "$j")
	assert_eq "$rel" $n "summary: one release per packet of the veth pool"
	rel=$(jq -s '[.[] | select(.type == "interval") | .pools[] | select(.kind == "veth") |
		.path.ret.release] | add' "$j")
	assert_eq "$rel" $n "the intervals add up to the same"
}

test_watch_interval_count() {
	local j=$TMPD/w.json
	expect_exit 0 "$PPBENCH" watch --interval 0.25 --duration 1 --json "$j"
	assert_eq "$(jq -s '[.[] | select(.type == "interval")] | length' "$j")" 4 "intervals"
	assert_eq "$(jq -s '[.[] | select(.type == "summary")] | length' "$j")" 1 "summary"
	assert_match "$LAST_OUT" '^time +pool +kind +dev ' "table header"
	assert_eq "$(grep -c '' "$LAST_OUT" | awk '{print ($1 >= 6)}')" 1 "lines printed"
	awk 'length > 100 { exit 1 }' "$LAST_OUT" || fail "a line is wider than 100 columns"
}

# SIGINT before the first tick: the traffic so far is a last, shorter interval.
test_watch_sigint_summary() {
	local out=$TMPD/w.txt j=$TMPD/w.json n=2000 rel
	"$PPBENCH" watch --interval 600 --json "$j" >"$out" 2>&1 &
	local pid=$!
	wait_for_output "$out" '^time ' 5
	"$PPBENCH" recipe veth-tx --repeat $n --size 1500 >/dev/null || fail "traffic recipe failed"
	kill -INT $pid
	wait $pid
	assert_eq $? 0 "exit status after SIGINT"
	assert_match "$out" '^summary: ' "summary after SIGINT"
	rel=$(jq -s '[.[] | select(.type == "interval") | .pools[] | select(.kind == "veth") |
		.path.ret.release] | add' "$j")
	assert_eq "$rel" $n "the interval SIGINT ended holds the veth pool's releases"
	: >"$out" # emptied now: a late child must not leave the first run's lines to be found
	"$PPBENCH" watch --interval 0.2 >"$out" 2>&1 &
	pid=$!
	wait_for_output "$out" '^0\.[0-9]s' 5
	kill -TERM $pid
	wait $pid
	assert_eq $? 0 "exit status after SIGTERM"
}

test_watch_iface_without_pool() {
	expect_exit 0 "$PPBENCH" watch lo --interval 0.2 --duration 0.6
	assert_match "$LAST_OUT" 'no page_pool of lo seen yet' "says so"
	assert_match "$LAST_OUT" 'no page_pool activity on lo' "keeps watching"
}

test_watch_bad_input() {
	expect_exit 2 "$PPBENCH" watch nosuchif0
	expect_one_line_error "interface 'nosuchif0' does not exist"
	for v in 0 -1 1e9 abc; do
		expect_exit 2 "$PPBENCH" watch --interval "$v"
		expect_one_line_error "--interval"
		expect_exit 2 "$PPBENCH" watch --duration "$v"
		expect_one_line_error "--duration"
	done
	expect_exit 2 "$PPBENCH" watch --json /nonexistent-dir/w.json
	expect_one_line_error "cannot write"
}

# Freed pools leave the observer's table while they come (watch takes them
# out when a quarter of its room waits, and reports them in their interval):
# 20 000 test-run pools come and go through a table with room for 1 024.
# watch reads on its own time, not in step with the recipe: a pool made while
# the table is full is untracked, counted and said. How many depends on how
# often watch runs; without reads all but the room's first would be.
test_watch_map_bounded() {
	needs_host live-frames
	local j=$TMPD/w.json out=$TMPD/w.txt n=20000
	"$PPBENCH" watch --interval 0.25 --json "$j" >"$out" 2>&1 &
	local pid=$!
	wait_for_output "$out" '^time ' 5
	"$PPBENCH" recipe lf-drop --runs $n --repeat 1 >/dev/null || fail "recipe failed"
	kill -INT $pid
	wait $pid || fail "watch exited $?"
	assert_le "$(jq -s '[.[] | .map.live_pools] | max' "$j")" 8 "live pools at any interval"
	assert_eq "$(jq -s '[.[] | .map.capacity] | max' "$j")" 1024 "the table's room"
	assert_le "$(jq -s '[.[] | .map.records_peak] | max' "$j")" 1024 "records at any read"
	assert_eq "$(jq -s '[.[] | .prog_misses | numbers] | length' "$j")" \
		"$(jq -s length "$j")" "prog_misses in every object"
	local untracked
	untracked=$(jq -s '[.[] | select(.type == "summary") | .untracked.pools] | add' "$j")
	assert_le "$untracked" $((n / 2)) "untracked pools (half of $n at most)"
	assert_ge "$(jq -s '[.[] | select(.type == "summary") | .pools[] |
		select(.kind == "test-run") | (if .retired then .pools elif .freed then 1 else 0 end)] |
		add' "$j")" $((n - untracked)) "test-run pools freed or untracked (the recipe's runs and its calibration)"
}
