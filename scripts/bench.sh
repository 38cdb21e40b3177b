#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench (scripts/bench.sh): the main job on the embedded default (a
# private veth pair in namespaces ppbench creates and removes), and nothing
# more, so that a fresh clone shows the table within seconds of its build.
# make bench-check (scripts/bench.sh --check): the same run, then its
# self-check (an A/A comparison and a known injected regression, both judged
# against this host's noise between invocations, from a calibrate profile),
# the instrumentation overhead (what bench's timing leaves on the ring
# figure) and the gen -> load rounds: several minutes.
# Results are reported, never asserted. BENCH_QUICK=1 runs every step with
# tiny volumes (the test suite checks what the script prints, not speeds).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
'') check=0 ;;
--check) check=1 ;;
*) echo "usage: scripts/bench.sh [--check]" >&2; exit 2 ;;
esac
PPBENCH=${PPBENCH:-build/ppbench}
BURN=${BURN:-build/tests/ppb-burn}
BURN_MAX_NS=2000 # the most ppb-burn takes (ns per page release)
OUT=${BENCH_OUT:-build/bench}
mkdir -p "$OUT"
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	bench_args=(--scenario ring --repeat 2 --loops 20000)
	slow_args=(--scenario slow --repeat 2 --loops 8000)
	cal_args=(--runs 2 --duration 0 --scenario ring,slow --repeat 2 --loops 8000)
	overhead_args=(--repeat 2 --loops 50000)
	gen_secs=1
else
	bench_args=()
	slow_args=(--scenario slow)
	cal_args=()
	overhead_args=(--repeat 10 --loops 2500000)
	gen_secs=3
fi

echo "== ppbench bench ${bench_args[*]:-(all scenarios)}, private veth pair"
"$PPBENCH" bench ${bench_args[@]+"${bench_args[@]}"} --json "$OUT/bench.json"
echo "results: $OUT/bench.json"
if [ "$check" = 0 ]; then
	echo "next: make bench-check (several minutes) runs the self-check through compare's" \
		"gate (a noise profile, an A/A pair, a known regression), the overhead and gen -> load"
	exit 0
fi

# The self-check compares single invocations, so its verdicts need the noise
# between invocations: a profile of this host. NOISE_PROFILE names one; else
# the last one in $OUT is reused if compare accepts it for this host, or
# calibrate takes a new one (a few minutes).
NOISE=${NOISE_PROFILE:-$OUT/noise.json}
echo
if [ -s "$NOISE" ] && "$PPBENCH" compare --noise "$NOISE" "$OUT/bench.json" "$OUT/bench.json" \
	>/dev/null 2>&1; then
	echo "== noise between invocations: the profile $NOISE (taken $(jq -r .created "$NOISE"))"
else
	echo "== noise between invocations: ppbench calibrate ${cal_args[*]:-(defaults)} -o $NOISE"
	"$PPBENCH" calibrate --quiet ${cal_args[@]+"${cal_args[@]}"} -o "$NOISE"
fi
floor_of() { # scenario: the profile's floor in percent
	jq -r --arg s "$1" '.scenarios[] | select(.name == $s) | .cycles_per_elem.floor_pct' "$NOISE"
}

# Self-check 1, A/A: the same code run twice must not look like a regression.
echo
echo "== self-check A/A: the same bench again, compared with the first (--fail-above 5)"
"$PPBENCH" bench --quiet ${bench_args[@]+"${bench_args[@]}"} --json "$OUT/bench-aa.json" >/dev/null
rc=0
"$PPBENCH" compare --noise "$NOISE" --fail-above 5 "$OUT/bench.json" "$OUT/bench-aa.json" \
	>"$OUT/aa.txt" 2>"$OUT/aa.err" || rc=$?
echo "floors used: $(jq -r '[.scenarios[] | "\(.name) \(.cycles_per_elem.floor_pct * 10 | round / 10)%"]
	| join(", ")' "$NOISE")"
case $rc in
0) echo "A/A: gate quiet" ;;
3) echo "A/A: gate fired on: $(sed -n 's/^ppbench compare: regression: \([^,]*\),.*/\1/p' \
	"$OUT/aa.err" | paste -sd ';' -)" ;;
*) echo "A/A: compare failed (exit $rc): $(head -1 "$OUT/aa.err")" ;;
esac

# Self-check 2, a known regression: every page released to the page allocator
# costs INJECT_NS more (tests/tools/burn.bpf.c). The reference run has the same
# tracepoint program attached without the extra work, so the two differ only
# in the injected time: slow should grow by about INJECT_NS x releases/elem.
# By default twice slow's floor of the reference run's slow figure (the
# burner's empty program is part of it), in whole ns as ppb-burn takes them:
# a regression the gate must catch.
slow_floor=$(floor_of slow)
slow_run() { # ns out.json: the slow scenario under the burner; prints the burner's line
	"$BURN" "$1" -- "$PPBENCH" bench "${slow_args[@]}" --json "$2" 2>&1 >"$2.txt" |
		grep '^ppb-burn:' || true
}
slow_run 0 "$OUT/slow-ref.json" >/dev/null
if [ -z "${INJECT_NS:-}" ]; then
	INJECT_NS=$(jq -r --argjson f "${slow_floor:-0}" '2 * $f / 100 *
		([.scenarios[] | select(.name == "slow") | .ns_per_elem.median][0] // 0) |
		if . >= 1 then round else 15 end' "$OUT/slow-ref.json")
	# A profile of few runs has wide floors (make bench's quick mode: two):
	# then the most the burner injects, which may stay below the floor.
	if [ "$INJECT_NS" -gt "$BURN_MAX_NS" ]; then
		echo "(twice slow's floor would be +$INJECT_NS ns per release; the burner injects at most $BURN_MAX_NS)"
		INJECT_NS=$BURN_MAX_NS
	fi
fi
echo
echo "== self-check: a known regression, +$INJECT_NS ns per page release (slow)"
line=$(slow_run "$INJECT_NS" "$OUT/slow-burn.json")
echo "  $line"
rc=0
"$PPBENCH" compare --noise "$NOISE" --fail-above 0 "$OUT/slow-ref.json" "$OUT/slow-burn.json" \
	>"$OUT/inject.txt" 2>"$OUT/inject.err" || rc=$?
awk -v line="$line" -v rc="$rc" '
	FILENAME ~ /ref/ && $1 == "slow" && NF >= 9 { ref = $3 }
	FILENAME ~ /burn/ && $1 == "slow" && NF >= 9 { burn = $3 }
	FILENAME ~ /burn/ && /proof .* elements\):/ {
		for (i = 1; i <= NF; i++) {
			if ($i == "elements):") elems = $(i - 1)
			if ($i == "release") rel = $(i + 1)
		}
		sub(/^\(/, "", elems)
	}
	END {
		split(line, w, " = ")
		inj = w[2] + 0
		printf "injected +%.1f ns per release -> slow %+.1f ns/elem (expected %+.1f: %.3f " \
		       "releases per element); compare flags it: %s\n", inj, burn - ref,
		       inj * rel / elems, rel / elems, rc == 3 ? "yes" : rc == 0 ? "no" : "error"
		pct = ref > 0 ? 100 * inj * rel / elems / ref : 0
		if (ref > 0 && floor != "")
			printf "slow floor used: %.1f%%; the injection, expected %+.1f%% of slow, is %s it\n",
			       floor, pct, (pct > floor + 0) ? "above" : "not above"
	}' floor="$slow_floor" "$OUT/slow-ref.json.txt" "$OUT/slow-burn.json.txt"

echo
echo "== instrumentation overhead (ring: bench's timed run, a bare program on the kernel's clock,"
echo "   vs the bare program timed over the whole syscall; and the counting programs' cost)"
"$PPBENCH" bench --overhead "${overhead_args[@]}"

# gen on one end of the private pair, load --action drop on the other, both on
# CPU 0 (the peer's NAPI runs where the frames are sent). 60-byte frames are
# 64 bytes on a wire with FCS. gen is the same in every run (--bare: no
# tracepoint either), so only load differs: with its path mix (--paths), with
# what it counts by default (per-CPU packets, bytes and cycles), and bare
# (--bare: no maps, no clock, no tracepoint). The host's level changes within
# seconds, so the three run in rounds, in a rotating order, in one pair; the
# ratio is taken within each round and its median reported.
rounds=$([ "${BENCH_QUICK:-0}" = 1 ] && echo 1 || echo 7)
"$PPBENCH" env -- bash -c "
	# gen starts once load's program is on the peer (a busy host may take
	# seconds to load it), and load stops once gen is done.
	one() {
		nsenter --net=\$PPB_NS_B $PPBENCH load \$PPB_IF_B --action drop \$1 >/dev/null 2>&1 &
		local pid=\$! i
		for i in \$(seq 300); do
			nsenter --net=\$PPB_NS_B ip link show \$PPB_IF_B | grep -q ' xdp' && break
			sleep 0.1
		done
		sleep 0.5
		taskset -c 0 $PPBENCH gen \$PPB_IF_A --cpus 0 --batch 256 --size 60 \
			--duration $gen_secs --quiet --bare |
			sed -n 's/.* from 1 CPU, \\([0-9,]*\\) frames\\/s.*/\\1/p' | tr -d ,
		kill -INT \$pid
		wait \$pid
	}
	for r in \$(seq $rounds); do
		for k in 0 1 2; do
			case \$(( (r + k) % 3 )) in
			0) b=\$(one --bare) ;;
			1) p=\$(one --paths) ;;
			2) s=\$(one '') ;;
			esac
		done
		echo \$p \$s \$b
	done" >"$OUT/gen-load.txt"
echo
echo "== gen -> load drop over the private veth pair, 64-byte frames, one CPU" \
	"($rounds round$([ "$rounds" = 1 ] || echo s), gen the same in each)"
# Only what this run measured is compared; figures of other tools, measured
# elsewhere, are in README.md with their date and machine.
awk '
	function med(a, n,  i, j, t) {
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	$3 > 0 { n++; p[n] = $1; s[n] = $2; b[n] = $3; rp[n] = $1 / $3; rs[n] = $2 / $3 }
	END {
		if (!n) { print "  no round completed"; exit }
		printf "  load --paths (stats and path mix)    %6.2f Mpps (median of rounds)\n", med(p, n) / 1e6
		printf "  load (its defaults: per-CPU stats)   %6.2f Mpps\n", med(s, n) / 1e6
		printf "  load --bare (no maps, no clock)      %6.2f Mpps\n", med(b, n) / 1e6
		for (i = 1; i <= n; i++) { lo = (i == 1 || rp[i] < lo) ? rp[i] : lo; hi = (i == 1 || rp[i] > hi) ? rp[i] : hi }
		printf "  ratio to bare: %.3f with path mix, %.3f with the defaults " \
		       "(medians of the ratios per round; path mix %.3f ... %.3f)\n", med(rp, n), med(rs, n), lo, hi
	}' "$OUT/gen-load.txt"

