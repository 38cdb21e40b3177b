#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the libFuzzer targets that `make fuzz` builds (tests/fuzz/fuzz_NAME.c).
#   scripts/fuzz.sh [NAME...]          each target for FUZZ_SECONDS (default 60), one after
#                                      the other: executions and new coverage per target
#   scripts/fuzz.sh --suite [NAME...]  the test suite's pass: each target over its seeds,
#                                      then FUZZ_SUITE_SECONDS (default 2) of fuzzing, one
#                                      target per CPU at a time; one PASS/FAIL line each
# FUZZ_JOBS=N runs N targets at once (default 1). The first crash, leak, sanitizer
# report or broken property stops the run (with FUZZ_JOBS > 1: its target) and
# exits 1, naming the reproducer. Seeds: tests/fuzz/corpus/NAME plus the
# directories the target's "fuzz-seeds:" line names. In FUZZ_BIN_DIR (where the
# targets are: build/fuzz, which make fuzz builds; the suite's are in build/asan)
# a run keeps what it finds in corpus/NAME (so coverage builds up), reproducers
# in crashes/NAME/ and its log in log/NAME.log.
set -u
cd "$(dirname "$0")/.." || exit 1

BIN_DIR=${FUZZ_BIN_DIR:-build/fuzz}
suite=0
if [ "${1:-}" = --suite ]; then
	suite=1
	shift
fi
if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
	sed -n '4,16s/^# \{0,1\}//p' "$0"
	exit 0
fi
secs=${FUZZ_SECONDS:-60}
[ $suite = 1 ] && secs=${FUZZ_SUITE_SECONDS:-2}
case "$secs" in
'' | *[!0-9]*)
	echo "fuzz.sh: FUZZ_SECONDS '$secs' is not a whole number of seconds" >&2
	exit 2
	;;
esac

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for f in tests/fuzz/fuzz_*.c; do
		n=${f#tests/fuzz/fuzz_}
		names+=("${n%.c}")
	done
fi

# The value of a "fuzz-KEY:" line in the target's first comment.
meta() { # file key
	sed -n "1,/\*\//s/^ \* *fuzz-$2: *//p" "$1" | head -1
}

# From libFuzzer's log: FIELD of the "INITED" (first) or last status line.
status_field() { # log INITED|last field
	local line
	if [ "$2" = INITED ]; then
		line=$(grep -m1 -E '^#[0-9]+[[:space:]]+INITED' "$1")
	else
		line=$(grep -E '^#[0-9]+[[:space:]]+(INITED|NEW|REDUCE|pulse|DONE|RELOAD)' "$1" | tail -1)
	fi
	sed -n "s/.* $3: \([0-9]*\).*/\1/p" <<<"$line"
}

# One target; prints its line and returns 1 on a finding.
run_target() { # name
	local name=$1 bin=$BIN_DIR/fuzz_$1 src=tests/fuzz/fuzz_$1.c
	local seeds=() work crashes log dict opts rc d
	if [ ! -f "$src" ]; then
		echo "FAIL fuzz/$name: no target $src"
		return 1
	fi
	if [ ! -x "$bin" ]; then
		echo "FAIL fuzz/$name: $bin is missing: 'make fuzz' builds build/fuzz, 'make SANITIZE=1 fuzz-targets' build/asan"
		return 1
	fi
	[ -d "tests/fuzz/corpus/$name" ] && seeds+=("tests/fuzz/corpus/$name")
	for d in $(meta "$src" seeds); do
		seeds+=("$d")
	done
	dict=$(meta "$src" dict)
	read -r -a opts <<<"$(meta "$src" options)"
	crashes=$BIN_DIR/crashes/$name
	mkdir -p "$crashes"
	if [ $suite = 1 ]; then
		work=$(mktemp -d)
	else
		work=$BIN_DIR/corpus/$name
		mkdir -p "$work"
	fi
	log=$BIN_DIR/log/$name.log
	mkdir -p "$BIN_DIR/log"
	local t0=$SECONDS
	# -close_fd_mask=3: the target's own output would cost more than the parsing;
	# sanitizer reports and broken properties still reach the log.
	"$bin" -max_total_time="$secs" -print_final_stats=1 -timeout=25 -close_fd_mask=3 \
		-artifact_prefix="$crashes/" ${dict:+-dict="$dict"} "${opts[@]}" \
		"$work" "${seeds[@]}" >"$log" 2>&1
	rc=$?
	[ $suite = 1 ] && rm -rf "$work"
	local execs cov0 cov1 units what repro
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov0=$(status_field "$log" INITED cov)
	cov1=$(status_field "$log" last cov)
	units=$(sed -n 's/^stat::new_units_added: *//p' "$log")
	if [ $rc -ne 0 ]; then
		what=$(grep -m1 '^fuzz: property violated' "$log" || grep -m1 '^SUMMARY: ' "$log")
		what=${what#SUMMARY: }
		repro=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
		echo "FAIL fuzz/$name: ${what:-fuzzer exited $rc} (after $((SECONDS - t0)) s," \
			"${execs:-?} executions)"
		echo "    reproducer: ${repro:-none written}; log: $log"
		[ -n "$repro" ] && echo "    reproduce: $bin $repro"
		return 1
	fi
	if [ $suite = 1 ]; then
		echo "PASS fuzz/$name (${execs:-?} executions, coverage ${cov1:-?} edges)"
	else
		printf '%-9s %4s s %10s executions (%s/s)  coverage %s -> %s edges (+%s), %s new inputs\n' \
			"$name" "$secs" "${execs:-?}" "$(((${execs:-0}) / (secs > 0 ? secs : 1)))" \
			"${cov0:-?}" "${cov1:-?}" "$((${cov1:-0} - ${cov0:-0}))" "${units:-?}"
	fi
	return 0
}

if [ $suite = 0 ]; then
	echo "fuzz: ${#names[@]} target(s), $secs s each, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
fi
failed=0
jobs_max=${FUZZ_JOBS:-1}
[ $suite = 1 ] && jobs_max=$(nproc)
case "$jobs_max" in
'' | *[!0-9]* | 0)
	echo "fuzz.sh: FUZZ_JOBS '$jobs_max' is not a positive whole number" >&2
	exit 2
	;;
esac
if [ "$jobs_max" = 1 ]; then
	for n in "${names[@]}"; do
		if ! run_target "$n"; then
			failed=1
			break
		fi
	done
	exit $failed
fi

# Several targets at once (each runs on one CPU), their lines in order at the
# end; a finding stops its own target only.
tmp=$(mktemp -d)
for n in "${names[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
		wait -n
	done
	(
		run_target "$n" >"$tmp/$n.out"
		echo $? >"$tmp/$n.rc"
	) &
done
wait
for n in "${names[@]}"; do
	cat "$tmp/$n.out"
	[ "$(cat "$tmp/$n.rc")" = 0 ] || failed=1
done
rm -rf "$tmp"
exit $failed
