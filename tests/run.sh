#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ppbench test runner.
#   tests/run.sh                 everything: unit, bpf, asan, fuzz, integration, kernels
#   tests/run.sh unit            one group (unit | bpf | asan | fuzz | integration | kernels)
#   tests/run.sh test_probe_json one integration test (or a unit or bpf test name)
#   tests/run.sh test_probe      every test of tests/integration/test_probe.sh
#   V=1 tests/run.sh ...         show every test's output, not only failures'
#   tests/run.sh --ktap ...      the same run, printed as KTAP version 1
#
# Prints one "PASS|FAIL|SKIP name" line per test (a SKIP gives its reason) and
# ends with "N passed, N failed[, N skipped]". Exits 1 if anything failed, and
# 2 (before running anything) if a name matches no test: a typo must not pass.
# --ktap prints "KTAP version 1", the plan "1..N", then "ok N name",
# "not ok N name # reason" or "ok N name # SKIP reason" per test, and every
# other line as a "# " diagnostic, for kselftest and KernelCI tooling. The plan
# comes first, so the selection is listed before it runs (PLANNING below).
# Integration tests run real BPF programs on real veth pairs; after each one
# the runner checks that no namespace, veth, XDP program or BPF program of
# ours is left behind; so does it after the BPF tests (BPF_PROG_RUN of our XDP
# programs, no device). The asan group runs the unit and BPF tests again, built
# with AddressSanitizer and UBSan (make SANITIZE=1, build/asan); the fuzz group
# runs every fuzz target over its seeds and for FUZZ_SUITE_SECONDS (default 2)
# more (scripts/fuzz.sh --suite).

set -u
cd "$(dirname "$0")/.." || exit 1
TOP=$(pwd)
export TOP
export PPBENCH=${PPBENCH:-$TOP/build/ppbench}
UNIT_BIN=$TOP/build/tests/unit
BPF_BIN=$TOP/build/tests/bpf_tests
SAN_DIR=$TOP/build/asan
SKIP_RC=249
# A generous cap per test, not a speed: the slowest test takes about 30 s on
# the development VM, and machines of our kind differ about 2x; this leaves
# room for one 3x slower than that and a busy host.
TEST_TIMEOUT=${TEST_TIMEOUT:-600}

pass=0
fail=0
skip=0
failed_names=()
KTAP=0
# PLANNING=1: the run functions only name the results they would record
# (plan_add), preconditions included; --ktap prints that plan before the run.
PLANNING=0
plan_n=0
declare -A plan_left=()
ktap_n=0

plan_order=()

plan_add() { # key
	[ -n "${plan_left[$1]:-}" ] || plan_order+=("$1")
	plan_left[$1]=$((${plan_left[$1]:-0} + 1))
	plan_n=$((plan_n + 1))
}

# Output that is not a result: as it is, or as KTAP diagnostic lines.
diag() {
	if [ $KTAP = 1 ]; then
		sed 's/^/# /'
	else
		cat
	fi
}

# KTAP's result line. The name is the record's first word: what follows it
# ("(took 2.1 s)") becomes the diagnostic after '#', as does a FAIL's reason.
ktap_record() { # RESULT NAME [REASON]
	local key=${2%% *} extra=""
	[ "$key" = "$2" ] || extra=${2#* }
	extra=${extra#(}
	extra=${extra%)}
	if [ "${plan_left[$key]:-0}" -le 0 ]; then
		# A result the plan did not name is the runner's own bug: it fails the run.
		echo "# not in the plan: $1 $2${3:+: $3}"
		[ "$1" = FAIL ] || { fail=$((fail + 1)); failed_names+=("unplanned:$key"); }
		return
	fi
	plan_left[$key]=$((plan_left[$key] - 1))
	ktap_n=$((ktap_n + 1))
	case "$1" in
	PASS) echo "ok $ktap_n $key${extra:+ # $extra}" ;;
	FAIL) echo "not ok $ktap_n $key${3:+ # $3}${extra:+ ($extra)}" ;;
	SKIP) echo "ok $ktap_n $key # SKIP ${3:-no reason given}" ;;
	esac
}

# Planned results that never came (a binary that stopped early) fail.
ktap_finish() {
	local key
	for key in "${plan_order[@]}"; do
		while [ "${plan_left[$key]}" -gt 0 ]; do
			fail=$((fail + 1))
			failed_names+=("$key")
			plan_left[$key]=$((plan_left[$key] - 1))
			ktap_n=$((ktap_n + 1))
			echo "not ok $ktap_n $key # no result: its runner stopped before it"
		done
	done
}

record() { # record RESULT NAME [REASON]
	if [ $PLANNING = 1 ]; then
		plan_add "${2%% *}"
		return
	fi
	case "$1" in
	PASS) pass=$((pass + 1)) ;;
	FAIL) fail=$((fail + 1)); failed_names+=("${2%% *}") ;;
	SKIP) skip=$((skip + 1)) ;;
	esac
	if [ $KTAP = 1 ]; then
		ktap_record "$@"
		return
	fi
	case "$1" in
	PASS) echo "PASS $2" ;;
	FAIL) echo "FAIL $2${3:+: $3}" ;;
	SKIP) echo "SKIP $2: ${3:-no reason given}" ;;
	esac
}

# --ktap: the checks that print only when they fail (a binary's exit status,
# the leak check) are results of their own, so that every failure has a line.
record_check() { # NAME WHAT
	[ $KTAP = 1 ] && record PASS "$1 ($2)"
}

# PLANNING: the tests of a unit-runner binary (tests/unit/main.c) that
# ARGS select (substrings, as the binary matches them), as GROUP/NAME.
plan_binary() { # group bin [args...]
	local group=$1 bin=$2 t a
	shift 2
	while read -r t; do
		if [ $# -gt 0 ]; then
			for a in "$@"; do
				[[ "$t" == *"$a"* ]] && break
			done
			[[ "$t" == *"$a"* ]] || continue
		fi
		plan_add "${GROUP_PREFIX:-}$group/$t"
	done < <("$bin" --list)
}

# Parse PASS/FAIL/SKIP lines that a sub-runner (unit binary, kernel matrix) prints;
# GROUP_PREFIX ("asan/") goes before each name.
tally_lines() {
	local line
	while IFS= read -r line; do
		case "$line" in
		PASS\ * | FAIL\ * | SKIP\ *) line="${line%% *} ${GROUP_PREFIX:-}${line#* }" ;;
		esac
		case "$line" in
		"PASS "*) record PASS "${line#PASS }" ;;
		"FAIL "*)
			local why=${line#FAIL }
			if [ "${why#*: }" != "$why" ]; then
				record FAIL "${why%%: *}" "${why#*: }"
			else
				record FAIL "$why"
			fi
			;;
		"SKIP "*)
			local rest=${line#SKIP }
			record SKIP "${rest%%: *}" "${rest#*: }"
			;;
		*) [ $KTAP = 1 ] && echo "# $line" || echo "$line" ;;
		esac
	done
}

run_unit() { # [names...]
	if [ ! -x "$UNIT_BIN" ]; then
		record FAIL "${GROUP_PREFIX:-}unit" "unit-test binary missing: run 'make $UNIT_BIN'"
		return
	fi
	if [ $PLANNING = 1 ]; then
		plan_binary unit "$UNIT_BIN" "$@"
		plan_add "${GROUP_PREFIX:-}unit"
		return
	fi
	local out rc
	out=$(mktemp)
	"$UNIT_BIN" "$@" >"$out" 2>&1
	rc=$?
	tally_lines <"$out"
	# (under the sanitizers: a report, or a leak found at exit)
	if [ $rc -ne 0 ] && ! grep -q '^FAIL' "$out"; then
		record FAIL "${GROUP_PREFIX:-}unit" "unit-test binary exited $rc"
	else
		record_check "${GROUP_PREFIX:-}unit" "exit status $rc, as its results say"
	fi
	rm -f "$out"
}

# ---- leak checks ----------------------------------------------------------
# shellcheck source=tests/netns.sh
. "$TOP/tests/netns.sh"

snapshot_state() {
	{
		ip netns list 2>/dev/null | awk '{print "netns " $1}'
		ip -o link show 2>/dev/null | awk -F': ' '$2 ~ /ppb/ { print "link " $2 }
			/ xdp[a-z]*[ \/]|prog\/xdp/ { print "xdp " $2 }'
		# (bpftool's plain listing: "ID: TYPE  name NAME  tag ...", names cut to 15)
		bpftool prog show 2>/dev/null | awk '$3 == "name" && $4 ~ /^ppb_/ {
			print "bpfprog " $1 + 0 " " $4 }'
		{ pgrep -x ppbench || pgrep -x ppbench-reaper; } >/dev/null && echo "process ppbench"
		# a crash is new state too: the kernel logs every segfault
		dmesg 2>/dev/null | grep -E 'ppbench[^ ]*\[[0-9]+\]: segfault|traps: ppbench' |
			sed 's/^\[[^]]*\] */crash /' || true
		netns_inodes | sed 's/^/netns /'
	} | sort
}

check_leaks() { # name before-file
	local after new i
	after=$(mktemp)
	# Programs held by an exiting process are freed by an RCU callback, and a
	# namespace by a work item: allow a moment - up to 15 s, since on a busy
	# VM host grace periods have been seen to take over 4 s. Only what is new
	# counts (things of other processes may disappear meanwhile).
	for ((i = 0; i < 50; i++)); do
		snapshot_state >"$after"
		new=$(comm -13 "$2" "$after")
		[ -z "$new" ] && break
		sleep 0.3
	done
	rm -f "$after"
	if [ -n "$new" ]; then
		echo "    left behind (or crashed) after $1:"
		printf '%s\n' "$new" | sed 's/^/      /'
		return 1
	fi
	return 0
}

# ---- BPF tests ------------------------------------------------------------
# Our XDP programs under BPF_PROG_RUN on canned frames (tests/bpf/): the
# unit runner's output, plus the leak check the integration tests get.
run_bpf() { # [names...]
	local g=${GROUP_PREFIX:-}
	if [ "$(id -u)" -ne 0 ]; then
		record SKIP "${g}bpf" "BPF tests need root (they load XDP programs)"
		return
	fi
	if [ ! -x "$BPF_BIN" ]; then
		record FAIL "${g}bpf" "BPF-test binary missing: run 'make $BPF_BIN'"
		return
	fi
	if [ $PLANNING = 1 ]; then
		plan_binary bpf "$BPF_BIN" "$@"
		plan_add "${g}bpf"
		plan_add "${g}bpf/leaks"
		return
	fi
	local out before rc
	out=$(mktemp)
	before=$(mktemp)
	snapshot_state >"$before"
	"$BPF_BIN" "$@" >"$out" 2>&1
	rc=$?
	tally_lines <"$out"
	if [ $rc -ne 0 ] && ! grep -q '^FAIL' "$out"; then
		record FAIL "${g}bpf" "BPF-test binary exited $rc"
	else
		record_check "${g}bpf" "exit status $rc, as its results say"
	fi
	if ! check_leaks bpf "$before" >"$out"; then
		diag <"$out"
		record FAIL "${g}bpf/leaks" "the BPF tests left state behind"
	else
		record_check "${g}bpf/leaks" "nothing left behind"
	fi
	rm -f "$out" "$before"
}

# ---- sanitizers and fuzzing --------------------------------------------------
# The unit and BPF tests once more, built with ASan and UBSan: a report or a
# leak fails the binary (each test's PASS line before it still counts).
run_asan() {
	GROUP_PREFIX=asan/ UNIT_BIN=$SAN_DIR/tests/unit run_unit
	GROUP_PREFIX=asan/ BPF_BIN=$SAN_DIR/tests/bpf_tests run_bpf
}

# Every fuzz target over its seeds plus a little fuzzing; `make fuzz` runs long.
run_fuzz() {
	local out rc
	if ! compgen -G "$SAN_DIR/fuzz_*" >/dev/null; then
		record FAIL fuzz "no fuzz targets in $SAN_DIR: run 'make SANITIZE=1 fuzz-targets'"
		return
	fi
	if [ $PLANNING = 1 ]; then
		# scripts/fuzz.sh --suite: one line per tests/fuzz/fuzz_NAME.c
		for out in "$TOP"/tests/fuzz/fuzz_*.c; do
			out=${out##*/fuzz_}
			plan_add "fuzz/${out%.c}"
		done
		plan_add fuzz
		return
	fi
	out=$(mktemp)
	FUZZ_BIN_DIR=$SAN_DIR "$TOP/scripts/fuzz.sh" --suite >"$out" 2>&1
	rc=$?
	tally_lines <"$out"
	if [ $rc -ne 0 ] && ! grep -q '^FAIL' "$out"; then
		record FAIL fuzz "scripts/fuzz.sh exited $rc"
	else
		record_check fuzz "exit status $rc, as its results say"
	fi
	rm -f "$out"
}

# Is NAME (part of) a test of the BPF-test binary? (Its runner matches substrings.)
is_bpf_test() {
	[ -x "$BPF_BIN" ] && "$BPF_BIN" --list | grep -qF -- "$1"
}

# ---- integration tests ----------------------------------------------------
list_integration() {
	local f
	for f in "$TOP"/tests/integration/test_*.sh; do
		grep -oE '^test_[a-z0-9_]+\(\)' "$f" | tr -d '()' | sed "s|^|$f |"
	done
}

# run_integration's scratch, kept from one test to the next: INT_OUT (a
# test's output), INT_BEFORE (the state before it) and INT_NEVER, a FIFO
# nobody writes.
INT_DIR=""
INT_OUT=""
INT_BEFORE=""
INT_NEVER=""

integration_scratch() {
	INT_DIR=$(mktemp -d)
	INT_OUT=$INT_DIR/out
	INT_BEFORE=$INT_DIR/before
	INT_NEVER=$INT_DIR/never
	mkfifo "$INT_NEVER"
}

# Run in the background beside a test (process group PID): after
# TEST_TIMEOUT s it stops the group and says so at the end of the test's
# output. The runner kills it (TERM) when the test ends first. It waits in
# read, a builtin, on INT_NEVER (opened read-write, so neither data nor an
# end ever comes): a sleep child would live on after the watchdog is killed.
integration_watchdog() { # pid name out
	read -r -t "$TEST_TIMEOUT" _ <>"$INT_NEVER"
	# (> 128: the time ran out; otherwise the FIFO failed, and sleep waits)
	[ $? -gt 128 ] || sleep "$TEST_TIMEOUT"
	# From here on it ignores the runner's TERM (as does its sleep 1, which
	# inherits that), and the runner waits for it: a test that ends by the
	# TERM below still gets its KILL for what remains and its line.
	trap '' TERM
	kill -TERM -- -"$1" 2>/dev/null
	sleep 1
	kill -KILL -- -"$1" 2>/dev/null
	echo "    $2 ran ${TEST_TIMEOUT} s without finishing (TEST_TIMEOUT): stopped" >>"$3"
}

run_one_integration() { # file name
	local file=$1 name=$2 out=$INT_OUT before rc reason t0 t1 took wd
	# Taken anew for each test, not the last test's final snapshot: started
	# at once after test_untracked_pools_reported beside the matrix's guests,
	# test_bench_all_scenarios_short's observer lost a pool in 2 suites of 3.
	snapshot_state >"$INT_BEFORE"
	before=$INT_BEFORE
	t0=$EPOCHREALTIME
	# Its own session: a test that times out or fails leaves no process behind.
	setsid bash -c '. "$TOP/tests/lib.sh"; . "$1"; "$2"' test "$file" "$name" \
		>"$out" 2>&1 </dev/null &
	local pid=$!
	integration_watchdog $pid "$name" "$out" </dev/null >/dev/null &
	wd=$!
	wait $pid
	rc=$?
	t1=$EPOCHREALTIME
	# (a watchdog that fired ignores this and is waited for: its line comes)
	kill $wd 2>/dev/null
	wait $wd
	# The test's own time, rounded to tenths; EPOCHREALTIME is seconds and
	# six digits of microseconds, its point the locale's.
	took=$((${t1//[!0-9]/} - ${t0//[!0-9]/} + 50000))
	took=$((took / 1000000)).$((took / 100000 % 10))
	# background jobs the test did not reap
	pkill -KILL -s $pid 2>/dev/null
	if ! check_leaks "$name" "$before" >>"$out"; then
		rc=1
	fi
	local show=0
	if [ $rc -ne 0 ] && [ $rc -ne $SKIP_RC ] || [ "${V:-0}" = 1 ]; then
		show=1
	fi
	# KTAP wants a test's diagnostics before its result line.
	[ $show = 0 ] || [ $KTAP = 0 ] || sed 's/^/    /' "$out" | diag
	if [ $rc -eq $SKIP_RC ]; then
		reason=$(grep -m1 '^SKIP: ' "$out" | sed 's/^SKIP: //')
		record SKIP "integration/$name" "${reason:-no reason printed} (took $took s)"
	elif [ $rc -eq 0 ]; then
		record PASS "integration/$name (took $took s)"
	else
		# the reason on the result line: a log cut to its ends still shows it
		reason=$(grep '^FAIL: ' "$out" | tail -n1 | sed 's/^FAIL: //' | cut -c1-200)
		grep -q '^    left behind (or crashed) after ' "$out" && reason="${reason:+$reason; }left things behind"
		grep -q 'without finishing (TEST_TIMEOUT): stopped$' "$out" &&
			reason="ran ${TEST_TIMEOUT} s without finishing"
		[ -n "$reason" ] || reason="exited $rc"
		record FAIL "integration/$name" "$reason (took $took s)"
	fi
	[ $show = 0 ] || [ $KTAP = 1 ] || sed 's/^/    /' "$out"
}

run_integration() { # [names...]
	local file name want
	if [ "$(id -u)" -ne 0 ]; then
		record SKIP integration "integration tests need root (BPF, namespaces, veth)"
		return
	fi
	if [ ! -x "$PPBENCH" ]; then
		record FAIL integration "$PPBENCH is missing: run 'make'"
		return
	fi
	[ $PLANNING = 1 ] || integration_scratch
	while read -r file name; do
		if [ $# -gt 0 ]; then
			want=0
			for n in "$@"; do [ "$n" = "$name" ] && want=1; done
			[ $want = 1 ] || continue
		fi
		if [ $PLANNING = 1 ]; then
			plan_add "integration/$name"
		else
			run_one_integration "$file" "$name"
		fi
	done < <(list_integration)
	[ $PLANNING = 1 ] || rm -rf "$INT_DIR"
}

# The matrix runs qemu guests of their own kernels: nothing of it touches the
# host's kernel state the other groups check, so it may start first and run
# beside them (kernels_start), its lines tallied when they are done.
# Its exit status goes to a file: the matrix ends minutes before
# kernels_finish, and by then its PID may belong to another process (the
# suite wraps pid_max's 32768), which makes bash forget the status it kept
# for 'wait' ("pid N is not a child of this shell", exit 127).
#
# The host's tests are the suite's longer lane and the machine is busy to its
# last CPU while both run, so the matrix yields to them (nice 5): it takes
# what they leave, as at their end, when one test's one qemu leaves a CPU
# idle. Its guests' limits count no CPU time: under the instruction clock a
# guest's own time is instructions, and the stall limit is minutes long.
kernels_start() {
	KERNELS_OUT=$(mktemp)
	KERNELS_RC=$(mktemp -u)
	(
		rc=0
		nice -n 5 "$TOP/scripts/kernel-matrix.sh" || rc=$?
		echo $rc >"$KERNELS_RC.tmp" && mv "$KERNELS_RC.tmp" "$KERNELS_RC"
	) >"$KERNELS_OUT" 2>&1 &
}

kernels_finish() {
	local rc
	# Tally as the lines come (the matrix takes minutes), and in this shell:
	# a pipe into tally_lines would count in a subshell and lose the counts.
	# tail follows until a watcher of the status file ends (a PID of ours,
	# alive until then, not the matrix's, which may be long gone).
	local watcher
	while [ ! -e "$KERNELS_RC" ]; do sleep 0.5; done &
	watcher=$!
	if [ $KTAP = 1 ]; then
		diag < <(tail -n +1 --pid=$watcher -f "$KERNELS_OUT")
	else
		tally_lines < <(tail -n +1 --pid=$watcher -f "$KERNELS_OUT")
	fi
	rc=$(cat "$KERNELS_RC")
	if [ $KTAP = 1 ]; then
		kernels_ktap_result $rc
	elif [ $rc -ne 0 ] && ! grep -q '^FAIL' "$KERNELS_OUT"; then
		# A matrix that fails without saying which test failed still fails.
		record FAIL kernels "scripts/kernel-matrix.sh exited $rc"
	fi
	rm -f "$KERNELS_OUT" "$KERNELS_RC"
}

# --ktap: which guest tests run on which kernel is decided as the matrix boots
# them, so the plan cannot name them: the matrix is one result ("kernels"),
# its own PASS/FAIL/SKIP lines are the diagnostics above it.
kernels_ktap_result() { # rc
	local n_pass n_fail n_skip
	n_pass=$(grep -c '^PASS ' "$KERNELS_OUT")
	n_fail=$(grep -c '^FAIL ' "$KERNELS_OUT")
	n_skip=$(grep -c '^SKIP ' "$KERNELS_OUT")
	if [ "$n_fail" -gt 0 ] || [ "$1" -ne 0 ]; then
		record FAIL kernels "$n_fail guest tests failed, scripts/kernel-matrix.sh exited $1"
	elif [ "$n_pass" -eq 0 ] && [ "$n_skip" -gt 0 ]; then
		record SKIP kernels "$(grep -m1 '^SKIP ' "$KERNELS_OUT" | sed 's/^SKIP [^:]*: //')"
	else
		record PASS "kernels ($n_pass guest tests passed, $n_skip skipped)"
	fi
}

run_kernels() {
	if [ $PLANNING = 1 ]; then
		plan_add kernels
		return
	fi
	kernels_start
	kernels_finish
}

# Is NAME (part of) a unit test's name? (The unit runner matches substrings.)
is_unit_test() {
	[ -x "$UNIT_BIN" ] && "$UNIT_BIN" --list | grep -qF -- "$1"
}

# Sorts the names of the command line into UNIT_NAMES, BPF_NAMES and
# INT_NAMES; a name that matches no test ends the run (exit 2) before
# anything runs, so that a typo never reads "0 passed, 0 failed".
resolve_names() { # names...
	local a none=()
	for a in "$@"; do
		if [ -f "$TOP/tests/integration/$a.sh" ]; then
			# a file's name: every test in it
			INT_NAMES+=($(list_integration | awk -v f="/$a.sh" \
				'substr($1, length($1) - length(f) + 1) == f { print $2 }'))
		elif list_integration | awk '{print $2}' | grep -qx -- "$a"; then
			INT_NAMES+=("$a")
		elif is_bpf_test "$a"; then
			BPF_NAMES+=("$a")
		elif is_unit_test "$a" || [ ! -x "$UNIT_BIN" ]; then
			# (without the binary, run_unit says that it is missing)
			UNIT_NAMES+=("$a")
		else
			none+=("'$a'")
		fi
	done
	if [ ${#none[@]} -gt 0 ]; then
		local verb=matches
		[ ${#none[@]} -eq 1 ] || verb=match
		echo "tests/run.sh: ${none[*]} $verb no test (a unit, BPF or integration test" \
			"name or part of one, tests/integration/NAME.sh's NAME, or a group:" \
			"unit bpf asan fuzz integration kernels)" >&2
		exit 2
	fi
}

# Runs (or with PLANNING=1 names) the groups, then the tests named.
run_selection() {
	local a
	for a in "${GROUPS_WANTED[@]}"; do
		case "$a" in
		unit) run_unit ;;
		bpf) run_bpf ;;
		asan) run_asan ;;
		fuzz) run_fuzz ;;
		integration) run_integration ;;
		kernels) [ $BESIDE = 1 ] && [ $PLANNING = 0 ] || run_kernels ;;
		esac
	done
	[ $BESIDE = 0 ] || [ $PLANNING = 1 ] || kernels_finish
	[ ${#UNIT_NAMES[@]} -gt 0 ] && run_unit "${UNIT_NAMES[@]}"
	[ ${#BPF_NAMES[@]} -gt 0 ] && run_bpf "${BPF_NAMES[@]}"
	[ ${#INT_NAMES[@]} -gt 0 ] && run_integration "${INT_NAMES[@]}"
	return 0
}

main() {
	local names=() a san_log="" san_failed=0
	GROUPS_WANTED=()
	UNIT_NAMES=()
	BPF_NAMES=()
	INT_NAMES=()
	for a in "$@"; do
		case "$a" in
		--ktap) KTAP=1 ;;
		unit | bpf | asan | fuzz | integration | kernels) GROUPS_WANTED+=("$a") ;;
		*) names+=("$a") ;;
		esac
	done
	if [ ${#GROUPS_WANTED[@]} -eq 0 ] && [ ${#names[@]} -eq 0 ]; then
		GROUPS_WANTED=(unit bpf asan fuzz integration kernels)
	fi
	[ ${#names[@]} -eq 0 ] || resolve_names "${names[@]}"
	# With other groups, the matrix (the longest part) starts first and runs beside them.
	BESIDE=0
	if [ ${#GROUPS_WANTED[@]} -gt 1 ] && [[ " ${GROUPS_WANTED[*]} " == *" kernels "* ]]; then
		BESIDE=1
		[ $KTAP = 1 ] ||
			echo "kernels: the qemu matrix runs beside the other groups; its results follow theirs"
		kernels_start
	fi
	# make test's sanitizer build (build/asan), after the matrix started, so
	# that the guests do not wait for it; before a KTAP plan, which lists
	# the binaries it builds (its output follows the plan as diagnostics).
	if [ -n "${TEST_SAN_BUILD:-}" ] &&
		[[ " ${GROUPS_WANTED[*]} " == *" asan "* || " ${GROUPS_WANTED[*]} " == *" fuzz "* ]]; then
		san_log=$(mktemp)
		if [ $KTAP = 0 ]; then
			env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS sh -c "$TEST_SAN_BUILD" || san_failed=1
		else
			env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS sh -c "$TEST_SAN_BUILD" >"$san_log" 2>&1 ||
				san_failed=1
		fi
	fi
	if [ $KTAP = 1 ]; then
		PLANNING=1
		run_selection
		[ $san_failed = 0 ] || plan_add build
		PLANNING=0
		echo "KTAP version 1"
		echo "1..$plan_n"
		[ $BESIDE = 0 ] ||
			echo "# kernels: the qemu matrix runs beside the other groups; its result follows theirs"
		[ -z "$san_log" ] || diag <"$san_log"
	fi
	[ -z "$san_log" ] || rm -f "$san_log"
	[ $san_failed = 0 ] || record FAIL build "the sanitizer build failed: $TEST_SAN_BUILD"
	run_selection
	[ $KTAP = 0 ] || ktap_finish
	if [ $fail -gt 0 ]; then
		echo "failed: ${failed_names[*]}" | diag
	fi
	if [ $skip -gt 0 ]; then
		echo "$pass passed, $fail failed, $skip skipped" | diag
	else
		echo "$pass passed, $fail failed" | diag
	fi
	if [ $((pass + fail + skip)) -eq 0 ]; then
		echo "tests/run.sh: the selection ran no test" >&2
		exit 2
	fi
	[ $fail -eq 0 ]
}

main "$@"
