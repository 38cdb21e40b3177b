#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ppbench test runner.
#   tests/run.sh                 everything: unit, bpf, asan, fuzz, integration, kernels
#   tests/run.sh unit            one group (unit | bpf | asan | fuzz | integration | kernels)
#   tests/run.sh test_probe_json one integration test (or a unit or bpf test name)
#   tests/run.sh test_probe      every test of tests/integration/test_probe.sh
#   V=1 tests/run.sh ...         show every test's output, not only failures'
#
# Prints one "PASS|FAIL|SKIP name" line per test (a SKIP gives its reason) and
# ends with "N passed, N failed[, N skipped]". Exits 1 if anything failed.
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

record() { # record RESULT NAME [REASON]
	case "$1" in
	PASS) pass=$((pass + 1)); echo "PASS $2" ;;
	FAIL) fail=$((fail + 1)); failed_names+=("$2"); echo "FAIL $2${3:+: $3}" ;;
	SKIP) skip=$((skip + 1)); echo "SKIP $2: ${3:-no reason given}" ;;
	esac
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
		*) echo "$line" ;;
		esac
	done
}

run_unit() { # [names...]
	if [ ! -x "$UNIT_BIN" ]; then
		record FAIL "${GROUP_PREFIX:-}unit" "unit-test binary missing: run 'make $UNIT_BIN'"
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
	fi
	rm -f "$out"
}

# ---- leak checks ----------------------------------------------------------
# shellcheck source=tests/netns.sh
. "$TOP/tests/netns.sh"

snapshot_state() {
	{
		ip netns list 2>/dev/null | awk '{print "netns " $1}'
		ip -o link show 2>/dev/null | awk -F': ' '{print "link " $2}' | grep -E 'ppb' || true
		ip -o link show 2>/dev/null | grep -E ' xdp[a-z]*[ /]|prog/xdp' |
			awk -F': ' '{print "xdp " $2}' || true
		bpftool -j prog show 2>/dev/null | jq -r '.[] | select(.name // "" | startswith("ppb_")) |
			"bpfprog \(.id) \(.name)"' 2>/dev/null || true
		{ pgrep -x ppbench || pgrep -x ppbench-reaper; } >/dev/null && echo "process ppbench"
		# a crash is new state too: the kernel logs every segfault
		dmesg 2>/dev/null | grep -E 'ppbench[^ ]*\[[0-9]+\]: segfault|traps: ppbench' |
			sed 's/^\[[^]]*\] */crash /' || true
		netns_inodes | sed 's/^/netns /'
	} | sort
}

check_leaks() { # name before-file
	local after new
	after=$(mktemp)
	# Programs held by an exiting process are freed by an RCU callback, and a
	# namespace by a work item: allow a moment - up to 15 s, since on a busy
	# VM host grace periods have been seen to take over 4 s. Only what is new
	# counts (things of other processes may disappear meanwhile).
	for _ in $(seq 50); do
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
	local out before rc
	out=$(mktemp)
	before=$(mktemp)
	snapshot_state >"$before"
	"$BPF_BIN" "$@" >"$out" 2>&1
	rc=$?
	tally_lines <"$out"
	if [ $rc -ne 0 ] && ! grep -q '^FAIL' "$out"; then
		record FAIL "${g}bpf" "BPF-test binary exited $rc"
	fi
	if ! check_leaks bpf "$before" >"$out"; then
		cat "$out"
		record FAIL "${g}bpf/leaks" "the BPF tests left state behind"
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
	out=$(mktemp)
	FUZZ_BIN_DIR=$SAN_DIR "$TOP/scripts/fuzz.sh" --suite >"$out" 2>&1
	rc=$?
	tally_lines <"$out"
	if [ $rc -ne 0 ] && ! grep -q '^FAIL' "$out"; then
		record FAIL fuzz "scripts/fuzz.sh exited $rc"
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

run_one_integration() { # file name
	local file=$1 name=$2 out before rc reason t0 took
	out=$(mktemp)
	t0=$(date +%s.%N)
	before=$(mktemp)
	snapshot_state >"$before"
	# Its own session: a test that times out or fails leaves no process behind.
	setsid bash -c '. "$TOP/tests/lib.sh"; . "$1"; "$2"' test "$file" "$name" \
		>"$out" 2>&1 </dev/null &
	local pid=$! deadline=$(($(date +%s) + TEST_TIMEOUT))
	while kill -0 $pid 2>/dev/null; do
		if [ "$(date +%s)" -ge $deadline ]; then
			kill -TERM -- -$pid 2>/dev/null
			sleep 1
			kill -KILL -- -$pid 2>/dev/null
			echo "    $name ran ${TEST_TIMEOUT} s without finishing (TEST_TIMEOUT): stopped" >>"$out"
			break
		fi
		sleep 0.1
	done
	wait $pid
	rc=$?
	took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	# background jobs the test did not reap
	pkill -KILL -s $pid 2>/dev/null
	if ! check_leaks "$name" "$before" >>"$out"; then
		rc=1
	fi
	if [ $rc -eq $SKIP_RC ]; then
		reason=$(grep -m1 '^SKIP: ' "$out" | sed 's/^SKIP: //')
		record SKIP "integration/$name" "${reason:-no reason printed} (took $took s)"
	elif [ $rc -eq 0 ]; then
		record PASS "integration/$name (took $took s)"
	else
		record FAIL "integration/$name" "(took $took s)"
	fi
	if [ $rc -ne 0 ] && [ $rc -ne $SKIP_RC ] || [ "${V:-0}" = 1 ]; then
		sed 's/^/    /' "$out"
	fi
	rm -f "$out" "$before"
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
	while read -r file name; do
		if [ $# -gt 0 ]; then
			want=0
			for n in "$@"; do [ "$n" = "$name" ] && want=1; done
			[ $want = 1 ] || continue
		fi
		run_one_integration "$file" "$name"
	done < <(list_integration)
}

# The matrix runs qemu guests of their own kernels: nothing of it touches the
# host's kernel state the other groups check, so it may start first and run
# beside them (kernels_start), its lines tallied when they are done.
kernels_start() {
	KERNELS_OUT=$(mktemp)
	"$TOP/scripts/kernel-matrix.sh" >"$KERNELS_OUT" 2>&1 &
	KERNELS_PID=$!
}

kernels_finish() {
	local rc
	# Tally as the lines come (the matrix takes minutes), and in this shell:
	# a pipe into tally_lines would count in a subshell and lose the counts.
	tally_lines < <(tail -n +1 --pid="$KERNELS_PID" -f "$KERNELS_OUT")
	wait "$KERNELS_PID"
	rc=$?
	# A matrix that fails without saying which test failed still fails.
	if [ $rc -ne 0 ] && ! grep -q '^FAIL' "$KERNELS_OUT"; then
		record FAIL kernels "scripts/kernel-matrix.sh exited $rc"
	fi
	rm -f "$KERNELS_OUT"
}

run_kernels() {
	kernels_start
	kernels_finish
}

main() {
	local groups=() names=() a
	for a in "$@"; do
		case "$a" in
		unit | bpf | asan | fuzz | integration | kernels) groups+=("$a") ;;
		*) names+=("$a") ;;
		esac
	done
	if [ ${#groups[@]} -eq 0 ] && [ ${#names[@]} -eq 0 ]; then
		groups=(unit bpf asan fuzz integration kernels)
	fi
	# With other groups, the matrix (the longest part) starts first and runs beside them.
	local beside=0
	if [ ${#groups[@]} -gt 1 ] && [[ " ${groups[*]} " == *" kernels "* ]]; then
		beside=1
		echo "kernels: the qemu matrix runs beside the other groups; its results follow theirs"
		kernels_start
	fi
	for a in "${groups[@]}"; do
		case "$a" in
		unit) run_unit ;;
		bpf) run_bpf ;;
		asan) run_asan ;;
		fuzz) run_fuzz ;;
		integration) run_integration ;;
		kernels) [ $beside = 1 ] || run_kernels ;;
		esac
	done
	[ $beside = 0 ] || kernels_finish
	if [ ${#names[@]} -gt 0 ]; then
		local unit_names=() bpf_names=() int_names=()
		for a in "${names[@]}"; do
			if [ -f "$TOP/tests/integration/$a.sh" ]; then
				# a file's name: every test in it
				int_names+=($(list_integration | awk -v f="/$a.sh" \
					'substr($1, length($1) - length(f) + 1) == f { print $2 }'))
			elif list_integration | awk '{print $2}' | grep -qx "$a"; then
				int_names+=("$a")
			elif is_bpf_test "$a"; then
				bpf_names+=("$a")
			else
				unit_names+=("$a")
			fi
		done
		[ ${#unit_names[@]} -gt 0 ] && run_unit "${unit_names[@]}"
		[ ${#bpf_names[@]} -gt 0 ] && run_bpf "${bpf_names[@]}"
		[ ${#int_names[@]} -gt 0 ] && run_integration "${int_names[@]}"
	fi
	if [ $fail -gt 0 ]; then
		echo "failed: ${failed_names[*]}"
	fi
	if [ $skip -gt 0 ]; then
		echo "$pass passed, $fail failed, $skip skipped"
	else
		echo "$pass passed, $fail failed"
	fi
	[ $fail -eq 0 ]
}

main "$@"
