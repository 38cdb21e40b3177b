#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ppbench as a kselftest: bench on the running kernel, then compare's gate
# against a baseline of the reference kernel on this machine, its verdicts as
# KTAP on stdout (bench's own output goes to stderr). Exit 0 pass, 1 fail, 4
# skip, as kselftest's KSFT_PASS, KSFT_FAIL and KSFT_SKIP. README.md here says
# what it needs; in short, from the environment:
#
#   PPBENCH_BASELINE   a result (bench --json) of the reference kernel here
#   PPBENCH_NOISE      this machine's noise profile (ppbench calibrate -o)
#   PPBENCH_FAIL_ABOVE the gate, % (default 5)
#   PPBENCH_BENCH_ARGS bench's options, e.g. "--scenario slow --repeat 5"
#   PPBENCH_RESULT     a result to gate instead of running bench
#   PPBENCH            the ppbench binary (default: ppbench in PATH)
#   KSFT_MACHINE_SLOW  yes: a gate on time that fires is an expected failure

ksft_pass=0
ksft_fail=1
ksft_skip=4
ppbench=${PPBENCH:-ppbench}

# One test, the script's, when ppbench cannot run or judge here.
verdict() { # ok|not ok, exit status, text
	printf 'KTAP version 1\n1..1\n%s 1 ppbench %s\n' "$1" "$3"
	exit "$2"
}
skip() { verdict ok $ksft_skip "# SKIP $1"; }

command -v "$ppbench" >/dev/null || skip "ppbench not found: install it, or set PPBENCH"
[ -n "$PPBENCH_BASELINE" ] ||
	skip "no baseline: set PPBENCH_BASELINE to a result of the reference kernel on this machine"
[ -r "$PPBENCH_BASELINE" ] || skip "cannot read the baseline $PPBENCH_BASELINE"

result=$PPBENCH_RESULT
if [ -z "$result" ]; then
	[ "$(id -u)" = 0 ] || skip "needs root"
	btf=${PPBENCH_BTF:-/sys/kernel/btf/vmlinux}
	[ -r "$btf" ] || skip "no kernel BTF at $btf"
	tmp=$(mktemp -d) || exit $ksft_fail
	trap 'rm -rf "$tmp"' EXIT
	result=$tmp/ppbench.json
	# shellcheck disable=SC2086 # PPBENCH_BENCH_ARGS is a list of options
	"$ppbench" bench --quiet --json "$result" $PPBENCH_BENCH_ARGS >&2
	case $? in
	0) ;;
	1) skip "bench measured nothing on this machine (its reasons on stderr)" ;;
	*) verdict "not ok" $ksft_fail "bench refused PPBENCH_BENCH_ARGS (on stderr)" ;;
	esac
fi

args=(compare --ktap --fail-above "${PPBENCH_FAIL_ABOVE:-5}")
[ -n "$PPBENCH_NOISE" ] && args+=(--noise "$PPBENCH_NOISE")
"$ppbench" "${args[@]}" "$PPBENCH_BASELINE" "$result"
case $? in
0) exit $ksft_pass ;;
3) exit $ksft_fail ;; # the gate fired: its rows are "not ok" above
*) verdict "not ok" $ksft_fail "compare could not judge (on stderr)" ;;
esac
