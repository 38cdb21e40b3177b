#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ppbench watch beside a loop that creates page_pools without pause (live-frames
# recipes, one pool per syscall): does watch print every interval on time, keep
# its map bounded and its memory flat? Reported, not asserted.
#
#   scripts/watch-soak.sh [SECONDS]     (default 600)
set -euo pipefail
cd "$(dirname "$0")/.."
PPBENCH=${PPBENCH:-build/ppbench}
secs=${1:-600}
out=$(mktemp -d)
trap 'kill $wpid $lpid 2>/dev/null; wait 2>/dev/null; rm -rf "$out"' EXIT

"$PPBENCH" watch --interval 1 --duration "$secs" --json "$out/w.json" >"$out/w.txt" 2>&1 &
wpid=$!
# pools made: each recipe run is 2000 syscalls, each with its own pool
(while :; do "$PPBENCH" recipe lf-drop --runs 2000 --repeat 64 --kv >/dev/null || exit; done) &
lpid=$!
echo "watch PID $wpid for $secs s beside a pool-making loop; RSS every 60 s:"
for ((t = 0; t < secs; t += 60)); do
	printf '  %4d s  VmRSS %s kB\n' $t "$(awk '/^VmRSS/ {print $2}' /proc/$wpid/status)"
	sleep $((secs - t < 60 ? secs - t : 60))
done
wait $wpid
kill $lpid 2>/dev/null || true
jq -rs '[.[] | select(.type == "interval")] as $i |
	"intervals \($i | length); each interval length: min \([$i[].seconds] | min), " +
	"max \([$i[].seconds] | max) s; most live pools in the map \([$i[].map.live_pools] | max), " +
	"most records at a read \([$i[].map.records_peak] | max) of room \($i[0].map.capacity); untracked pools " +
	"\([$i[].untracked.pools] | add); pools retired (summary) " +
	"\([.[] | select(.type == "summary") | .pools[] | select(.kind == "test-run") |
		(if .retired then .pools elif .freed then 1 else 0 end)] | add)"' \
	"$out/w.json"
