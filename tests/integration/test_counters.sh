#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench --counters and the commands that read its counters (--counter NAME).
# tests/data/counters.json: `ppbench vm --arch arm64 -- bench --counters
# instructions,cycles` on Debian's 7.3.4 arm64 under the instruction clock,
# whose qemu emulates the PMU's instructions event (2026-12-05).

DATA=$TOP/tests/data

# Where the CPU has no counters (this development VM: ENOENT; x86 under TCG),
# asking for them is one line naming --counters and exit 2, before anything
# runs; a bad counter name likewise.
test_counters_no_pmu() {
	expect_exit 2 "$PPBENCH" bench --counters instructions,bogus
	expect_one_line_error "--counters: unknown counter 'bogus'"
	[ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/armv8_pmuv3_0 ] &&
		skip "this machine has a PMU: its counters open"
	expect_exit 2 "$PPBENCH" bench --counters instructions --json "$TMPD/r.json"
	expect_one_line_error "^ppbench bench: error: --counters: .*(no hardware counter|refused)"
	[ ! -s "$LAST_OUT" ] || fail "bench printed although it refused: $(head -n 2 "$LAST_OUT")"
	[ ! -e "$TMPD/r.json" ] || fail "a result file although bench refused"
	expect_exit 2 "$PPBENCH" calibrate --counter kernel_instructions -o "$TMPD/p.json"
	expect_one_line_error "^ppbench calibrate: error: --counter: "
}

# compare --counter: the counter per element, named with its mode, by the
# same rules; JSON and the clock check know it is no clock's figure.
test_compare_counter_view() {
	local f=$DATA/counters.json
	expect_exit 0 "$PPBENCH" compare --counter kernel_instructions "$f" "$f" --json "$TMPD/c.json"
	assert_match "$LAST_OUT" ' ring kernel instr/elem$' "ring's row names the counter"
	assert_match "$LAST_OUT" '^ +332\.01 ' "ring's kernel instructions per element"
	assert_eq "$(jq_get "$TMPD/c.json" '.comparisons[0].unit')" kernel_instructions "the JSON's unit"
	expect_exit 0 "$PPBENCH" compare --counter kernel_cycles "$f" "$f"
	assert_match "$LAST_OUT" ' slow kernel cycles/elem$' "slow's cycles row names the counter"
	# the clock's figure of the same file is another row
	expect_exit 0 "$PPBENCH" compare "$f" "$f"
	assert_match "$LAST_OUT" '^ +331\.50 .* ring instr/elem$' "ring's clock figure"
	expect_exit 2 "$PPBENCH" compare --counter bogus "$f" "$f"
	expect_one_line_error "no counter 'bogus'"
	# a file without counters is never read as having them
	expect_exit 2 "$PPBENCH" compare --counter kernel_instructions "$DATA/icount.json" "$f"
	expect_one_line_error "icount.json has no hardware counters"
	# nor judged by a profile of a clock
	expect_exit 2 "$PPBENCH" compare --counter kernel_instructions --noise "$DATA/profile.json" \
		"$f" "$f"
	expect_one_line_error "profile of one clock cannot judge figures of another"
}

# The exports name the counter's unit, and give it no ns.
test_export_counter_names() {
	local f=$DATA/counters.json
	expect_exit 0 "$PPBENCH" export lkp --counter kernel_instructions "$f"
	assert_match "$LAST_OUT" '^ppbench\.ring\.kernel_instructions_per_elem: 332\.01' "LKP key"
	grep -qE '\.(ns|cycles)_per_elem' "$LAST_OUT" && fail "a clock's name in a counter's export"
	expect_exit 0 "$PPBENCH" export bmf --counter user_instructions "$f"
	assert_match "$LAST_OUT" '"user-instructions-per-elem"' "BMF measure"
	return 0
}

# trend --counter: the series of the counter, named so.
test_trend_counter_series() {
	for i in 1 2 3 4 5 6 7 8; do cp "$DATA/counters.json" "$TMPD/r$i.json"; done
	expect_exit 0 "$PPBENCH" trend --counter kernel_instructions "$TMPD"/r?.json
	assert_match "$LAST_OUT" '^series: kernel_instructions/elem' "the series' unit"
	assert_match "$LAST_OUT" '^ring +cycles +8 +332x8' "ring's level"
}
