#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The test runner itself (tests/run.sh): a selection that runs nothing is an
# error, and --ktap prints the run as KTAP version 1.

# A copy of the runner in a tree of its own, with a stand-in unit binary and
# three integration tests that pass, fail (its reason on its result line)
# and skip: the runner's view of results, without running (or recursing
# into) the real suite. The stand-in
# lists test_d but stops before its line, as a crashed binary would.
fake_tree() { # dir
	local t=$1
	mkdir -p "$t/tests/integration" "$t/build/tests"
	cp "$TOP/tests/run.sh" "$TOP/tests/lib.sh" "$TOP/tests/netns.sh" "$t/tests/"
	# (indented here, so that the real runner does not take them for its own tests)
	sed 's/^\t//' >"$t/tests/integration/test_fake.sh" <<-'EOF'
	#!/bin/bash
	test_fake_pass() { echo "passing output"; }
	test_fake_fail() { echo "what it saw"; fail "why it failed"; }
	test_fake_skip() { skip "no such device"; }
	EOF
	sed 's/^\t//' >"$t/build/tests/unit" <<-'EOF'
	#!/bin/bash
	if [ "${1:-}" = --list ]; then
		printf 'test_a\ntest_b\ntest_c\ntest_d\n'
		exit 0
	fi
	echo "PASS unit/test_a"
	echo "    test_b.c:12: expected 1, got 2"
	echo "FAIL unit/test_b: expected 1, got 2"
	echo "SKIP unit/test_c: needs a NIC"
	exit 1
	EOF
	chmod +x "$t/build/tests/unit"
}

# Is FILE well-formed KTAP version 1: the version line, the plan, then
# result lines numbered 1..N in order and diagnostics, nothing else?
ktap_valid() { # file
	awk 'NR == 1 { if ($0 != "KTAP version 1") { print "line 1: " $0; bad = 1 } next }
	     NR == 2 { if ($0 !~ /^1\.\.[0-9]+$/) { print "no plan: " $0; bad = 1 }
		       plan = substr($0, 4); next }
	     /^(ok|not ok) [0-9]+ [^#]*[^ #]( # .*)?$/ {
		       n = $1 == "ok" ? $2 : $3
		       if (n != ++seen) { print "result " n " where " seen " was due"; bad = 1 }
		       next }
	     /^# / { next }
	     { print "neither a result nor a diagnostic: " $0; bad = 1 }
	     END { if (seen != plan) { print seen " results, plan 1.." plan; bad = 1 }
		   exit bad }' "$1"
}

test_runner_refuses_a_selection_that_runs_nothing() {
	expect_exit 2 "$TOP/tests/run.sh" no_such_test
	expect_one_line_error "'no_such_test' matches no test"
	[ ! -s "$LAST_OUT" ] || { cat "$LAST_OUT"; fail "the runner printed results"; }
	# A typo beside a real test: refused, before anything runs, naming the typo only.
	expect_exit 2 "$TOP/tests/run.sh" test_stats_summary tets_stats_quantile
	expect_one_line_error "^tests/run.sh: 'tets_stats_quantile' matches no test"
	[ ! -s "$LAST_OUT" ] || { cat "$LAST_OUT"; fail "the runner ran the rest of the selection"; }
}

test_runner_ktap() {
	local t=$TMPD/tree
	fake_tree "$t"
	# The plain output: as before, only the results the tests print.
	expect_exit 1 "$t/tests/run.sh" unit integration
	sed -E 's/took [0-9.]+ s/took T s/' "$LAST_OUT" >"$TMPD/plain"
	cat >"$TMPD/plain.want" <<-'EOF'
	PASS unit/test_a
	    test_b.c:12: expected 1, got 2
	FAIL unit/test_b: expected 1, got 2
	SKIP unit/test_c: needs a NIC
	PASS integration/test_fake_pass (took T s)
	FAIL integration/test_fake_fail: why it failed (took T s)
	    what it saw
	    FAIL: why it failed
	SKIP integration/test_fake_skip: no such device (took T s)
	failed: unit/test_b integration/test_fake_fail
	2 passed, 2 failed, 2 skipped
	EOF
	diff -u "$TMPD/plain.want" "$TMPD/plain" || fail "the plain output changed"

	expect_exit 1 "$t/tests/run.sh" --ktap unit integration
	ktap_valid "$LAST_OUT" || { cat "$LAST_OUT"; fail "not KTAP version 1"; }
	sed -E 's/took [0-9.]+ s/took T s/' "$LAST_OUT" >"$TMPD/ktap"
	cat >"$TMPD/ktap.want" <<-'EOF'
	KTAP version 1
	1..8
	ok 1 unit/test_a
	#     test_b.c:12: expected 1, got 2
	not ok 2 unit/test_b # expected 1, got 2
	ok 3 unit/test_c # SKIP needs a NIC
	ok 4 unit # exit status 1, as its results say
	ok 5 integration/test_fake_pass # took T s
	#     what it saw
	#     FAIL: why it failed
	not ok 6 integration/test_fake_fail # why it failed (took T s)
	ok 7 integration/test_fake_skip # SKIP no such device (took T s)
	not ok 8 unit/test_d # no result: its runner stopped before it
	# failed: unit/test_b integration/test_fake_fail unit/test_d
	# 3 passed, 3 failed, 2 skipped
	EOF
	diff -u "$TMPD/ktap.want" "$TMPD/ktap" || fail "KTAP output differs"

	# A name the stand-in does not list: refused in KTAP mode too, with no plan.
	expect_exit 2 "$t/tests/run.sh" --ktap test_zz
	expect_one_line_error "'test_zz' matches no test"
	[ ! -s "$LAST_OUT" ] || { cat "$LAST_OUT"; fail "a plan for a selection of nothing"; }
}
