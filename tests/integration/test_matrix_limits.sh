#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel matrix's limits on a guest (scripts/vm/watch.sh), with a
# stand-in for qemu that writes a console: a guest is ended only when it
# stops making progress, and the reason names the test that hung.

# fake_guest FILE LINES...: write each line to FILE a second apart, then hang.
fake_guest() {
	local f=$1
	shift
	(
		for l in "$@"; do
			printf '%s\r\n' "$l" >>"$f"
			sleep 1
		done
		exec sleep 60
	) &
	FAKE_PID=$!
}

watch_fake() { # stall cap
	. "$TOP/scripts/vm/watch.sh"
	watch_guest "$FAKE_PID" "$TMPD/console" "$1" $(($(date +%s) + $2)) "$2"
}

test_matrix_stall_names_the_test() {
	local why
	fake_guest "$TMPD/console" "PPB-MATRIX BEGIN kernel=x" "PPB-MATRIX PLAN a b" "PPB-RUN a" \
		"PASS a (took 1.0 s)" "PPB-RUN b"
	why=$(watch_fake 3 600)
	kill -0 "$FAKE_PID" 2>/dev/null && fail "the stalled guest still runs"
	case "$why" in
	"no new test line for 3 s: b had run "[3-9]" s") ;;
	*) fail "reason: '$why'" ;;
	esac
}

# A kernel that reports a CPU stuck for a minute is ended then, not at the
# stall limit, with its report; a shorter lockup is no reason, nor is one
# late report (a qemu the host starved, under plain TCG).
test_matrix_hung_kernel_ended_at_once() {
	local why
	fake_guest "$TMPD/console" "PPB-MATRIX BEGIN kernel=x" "PPB-RUN b" \
		"[   64.7] watchdog: BUG: soft lockup - CPU#0 stuck for 66s! [swapper/0:0]" \
		"[   64.9] watchdog: BUG: soft lockup - CPU#1 stuck for 26s! [ppbench:396]" \
		"[   92.9] watchdog: BUG: soft lockup - CPU#1 stuck for 52s! [ppbench:396]" \
		"[  120.9] watchdog: BUG: soft lockup - CPU#1 stuck for 78s! [ppbench:396]"
	why=$(watch_fake 15 30)
	kill -0 "$FAKE_PID" 2>/dev/null && fail "the hung guest still runs"
	assert_eq "$why" "the guest kernel hung during b: BUG: soft lockup - CPU#1 stuck for 78s! [ppbench:396]" \
		"the reason"
}

# Lines keep coming, each within the stall limit: the guest is not ended,
# however long it runs, until the cap.
test_matrix_progress_is_not_a_stall() {
	local why
	fake_guest "$TMPD/console" "PPB-MATRIX BEGIN kernel=x" "PPB-RUN a" "PASS a (took 1.0 s)" \
		"PPB-RUN b" "PASS b (took 1.0 s)" "PPB-RUN c" "PASS c (took 1.0 s)" "PPB-RUN d"
	why=$(watch_fake 3 7)
	case "$why" in
	"the matrix cap of 7 s was reached during "[cd]" (it had run "[0-9]" s)") ;;
	*) fail "reason: '$why' (expected the cap, not a stall, after 7 s of progress)" ;;
	esac
}

# A guest that ends by itself is no limit's business.
test_matrix_guest_that_ends() {
	local why
	( printf 'PPB-MATRIX BEGIN\r\n' >"$TMPD/console"; sleep 1 ) &
	FAKE_PID=$!
	why=$(watch_fake 3 600)
	assert_eq "$why" "" "reason for a guest that powered off"
}

# A guest whose kernel crashed mid-run: the tests that reported before the
# crash keep their result (a PASS line ends with its time), the others are
# the unfinished ones, and the kernel's report is shown from its first line.
test_matrix_crash_report() {
	. "$TOP/scripts/vm/watch.sh"
	printf '%s\n' "PPB-MATRIX BEGIN kernel=x" "PPB-MATRIX PLAN a a_b c d" "PPB-RUN a" \
		"PASS a (took 1.0 s)" "PPB-RUN a_b" "[    9.1] Oops: int3: 0000 [#1] SMP" \
		"[    9.2] RIP: 0010:f+0xa/0x10" "" \
		"[    9.3] Kernel panic - not syncing: Fatal exception in interrupt" >"$TMPD/console"
	printf '%s\n' "PASS kernel-x/a (took 1.0 s)" "FAIL kernel-x/c: why (took 2.0 s)" \
		>"$TMPD/results"
	assert_eq "$(unfinished_tests "$TMPD/console" "$TMPD/results" x | tr '\n' ' ')" "a_b d " \
		"unfinished tests"
	assert_eq "$(crash_excerpt "$TMPD/console" | head -n 1)" \
		"[    9.1] Oops: int3: 0000 [#1] SMP" "the report's first line"
	assert_eq "$(crash_excerpt "$TMPD/console" | wc -l)" 3 "to the end, blank lines left out"
	printf 'PPB-MATRIX BEGIN\n' >"$TMPD/quiet"
	assert_eq "$(crash_excerpt "$TMPD/quiet")" "" "no crash, no report"
}
