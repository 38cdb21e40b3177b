#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: the main job on the embedded default (a private veth pair in
# namespaces ppbench creates and removes), then the instrumentation overhead.
# Results are reported, never asserted. BENCH_QUICK=1 runs every step with
# tiny volumes (the test suite checks what the script prints, not speeds).
set -euo pipefail
cd "$(dirname "$0")/.."
PPBENCH=${PPBENCH:-build/ppbench}
OUT=${BENCH_OUT:-build/bench}
mkdir -p "$OUT"
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	bench_args=(--scenario ring --repeat 1 --loops 20000)
	overhead_args=(--repeat 2 --loops 50000)
	gen_secs=1
else
	bench_args=()
	overhead_args=(--repeat 10 --loops 2500000)
	gen_secs=5
fi

echo "== ppbench bench ${bench_args[*]:-(all scenarios)}, private veth pair"
"$PPBENCH" bench ${bench_args[@]+"${bench_args[@]}"} --json "$OUT/bench.json"
echo "results: $OUT/bench.json"

echo
echo "== instrumentation overhead (ring recipe, stats on vs a bare program)"
"$PPBENCH" bench --overhead "${overhead_args[@]}"

# gen on one end of the private pair, load --action drop on the other, both on
# CPU 0 (the peer's NAPI runs where the frames are sent). 60-byte frames are
# 64 bytes on a wire with FCS. Three runs: load with its path mix (the default),
# load with per-CPU rates and cycles only (--no-paths), and bare programs.
pair() { # gen args, load args
	"$PPBENCH" env -- bash -c "
		nsenter --net=\$PPB_NS_B $PPBENCH load \$PPB_IF_B --action drop \
			--duration $((gen_secs + 4)) $2 >/dev/null 2>&1 &
		sleep 2
		taskset -c 0 $PPBENCH gen \$PPB_IF_A --cpus 0 --batch 256 --size 60 --duration $gen_secs \
			--quiet $1 | sed -n 's/.* from 1 CPU, \([0-9,]*\) frames\/s.*/\1/p' | tr -d ,
		wait"
}

echo
echo "== gen -> load drop over the private veth pair, 64-byte frames, one CPU"
paths=$(pair "" "")
stats=$(pair "" "--no-paths")
bare=$(pair "--bare" "--bare")
# Only what this run measured is compared; figures of other tools, measured
# elsewhere, are in README.md with their date and machine.
awk -v p="$paths" -v s="$stats" -v b="$bare" 'BEGIN {
	printf "  gen + load, per-CPU stats and path mix  %6.2f Mpps\n", p / 1e6
	printf "  gen + load --no-paths (per-CPU stats)   %6.2f Mpps\n", s / 1e6
	printf "  bare programs (no maps, no clock)       %6.2f Mpps\n", b / 1e6
	if (b) printf "  ratio to bare: %.3f with path mix, %.3f with stats only\n", p / b, s / b
}'
