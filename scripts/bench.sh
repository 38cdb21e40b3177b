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
