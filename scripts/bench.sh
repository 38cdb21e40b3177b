#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: the main job on the embedded default (a private veth pair in
# namespaces ppbench creates and removes), then the instrumentation overhead.
# Results are reported, never asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
PPBENCH=${PPBENCH:-build/ppbench}
OUT=${BENCH_OUT:-build/bench}
mkdir -p "$OUT"

echo "== ppbench bench (all scenarios, private veth pair)"
"$PPBENCH" bench --json "$OUT/bench.json"
echo "results: $OUT/bench.json"

echo
echo "== instrumentation overhead (ring recipe, stats on vs a bare program)"
"$PPBENCH" bench --overhead

# gen on one end of the private pair, load --action drop on the other, both on
# CPU 0 (the peer's NAPI runs where the frames are sent). 60-byte frames are
# 64 bytes on a wire with FCS. First with all statistics on, then bare.
pair() { # extra args for gen and load
	"$PPBENCH" env -- bash -c "
		nsenter --net=\$PPB_NS_B $PPBENCH load \$PPB_IF_B --action drop --duration 9 $1 \
			>/dev/null 2>&1 &
		sleep 2
		taskset -c 0 $PPBENCH gen \$PPB_IF_A --cpus 0 --batch 256 --size 60 --duration 5 \
			--quiet $1 | sed -n 's/.* frames from 1 CPU, \([0-9,]*\) frames\/s.*/\1/p' | tr -d ,
		wait"
}

echo
echo "== gen -> load drop over the private veth pair, 64-byte frames, one CPU"
with=$(pair "")
bare=$(pair "--bare")
awk -v w="$with" -v b="$bare" 'BEGIN {
	printf "  with ppbench stats (gen + load)   %6.2f Mpps\n", w / 1e6
	printf "  bare programs (no maps, no clock) %6.2f Mpps  (stats cost %.1f %%)\n", b / 1e6,
		b ? 100 * (b - w) / b : 0
	printf "  reference: xdp-tools 1.6.3 xdp-trafficgen -> xdp-bench drop on this machine:\n"
	printf "  5.48 Mpps; ratio %.2fx (reported, not asserted)\n", w / 5.48e6 }'
