#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make vm-check: the instruction clock's self-check, through the gate users
# use. Inside guests booted by ppbench vm (the newest Debian kernel unless
# VM_CHECK_KERNEL says which), a known injection - ppb-burn's loop, a fixed
# number of guest instructions each time page_pool releases a page to the
# page allocator (tests/tools/burn.bpf.c) - must come out in slow, as the
# share of slow it was sized to (1 %), and nowhere else:
#   1. a noise profile, calibrated in one guest;
#   2. per pair, a reference boot (the burner's program with no loop, which
#      carries the tracepoint's own cost) and a boot with the loop;
#   3. compare --noise PROFILE --fail-above 0.5 on each pair: slow must gate,
#      ring and fast must not.
# With VM_CHECK_PROFILE=1 the pairs' boots also profile (vm --profile), and
#   4. the injection must land in the burner's own BPF program (ppb_burn) and
#      nowhere else: no other function moves by 0.1 instructions per element
#      or more, compare's table of the change names it first, and it carries
#      slow's change within 0.1; of the call chains, one through ppb_burn
#      moves, and no other but its callers.
# VM_CHECK_PAIRS (1) pairs, VM_CHECK_RUNS (5) calibrate runs. Exits 1 when a
# pair's verdict is not that.
# VM_CHECK_COUNTER=kernel_instructions: the same through the CPU's own
# counter (bench --counters, calibrate and compare --counter) in an arm64
# guest, whose qemu emulates the PMU's instructions event under the clock.
set -euo pipefail
cd "$(dirname "$0")/.."
PPBENCH=${PPBENCH:-build/ppbench}
BURN=build/static/tests/ppb-burn
OUT=${VM_CHECK_OUT:-build/vm-check}
KERNEL=${VM_CHECK_KERNEL:-newest}
PAIRS=${VM_CHECK_PAIRS:-1}
COUNTER=${VM_CHECK_COUNTER:-}
SHARE_PCT=1
SCENARIOS=ring,fast,slow
PROFILE=()
[ "${VM_CHECK_PROFILE:-0}" = 0 ] || PROFILE=(--profile)
mkdir -p "$OUT"
rm -f "$OUT"/*.json "$OUT"/*.txt

ARCH=()
BENCH_ARGS=()
VIEW=()
if [ -n "$COUNTER" ]; then
	# (the arm64 ppbench's own build: make arm64-guest has made build/arm64)
	BURN=build/arm64/tests/ppb-burn
	make --no-print-directory -s CROSS=arm64 BUILD=build/arm64 \
		SYSROOT="${KCACHE:-/var/cache/ppbench-kernels}/arm64-sysroot/root" \
		VMLINUX_BTF="${KCACHE:-/var/cache/ppbench-kernels}/arm64-newest/kernel/vmlinux.btf" "$BURN"
	ARCH=(--arch arm64)
	BENCH_ARGS=(--counters instructions)
	VIEW=(--counter "$COUNTER")
else
	make --no-print-directory -s STATIC=1 BUILD=build/static "$BURN"
fi
export PPBENCH_VM_BIN=$BURN

# vm_burn NS OUT ARGS...: ppbench vm ARGS under ppb-burn NS, its line in OUT.txt
vm_burn() {
	local ns=$1 out=$2
	shift 2
	local vmopt=()
	[ "${1:-}" != --profile ] || { vmopt=(--profile); shift; }
	PPBENCH_VM_WRAP="/bin/ppb-burn $ns --" "$PPBENCH" vm -q "${ARCH[@]}" --debian "$KERNEL" \
		"${vmopt[@]}" -- "$@" >"$out.txt" 2>&1 ||
		{ tail -n 5 "$out.txt"; echo "vm-check: ppbench vm failed" >&2; exit 1; }
}

# profile_where REF BURN: where the injection landed in the profiles: the
# burner's program's change in slow, what of slow's change it leaves
# unexplained, and the largest change of any other function (all scenarios);
# "WRONG ..." when it is not in ppb_burn alone (step 4's bounds).
profile_where() {
	jq -rn --slurpfile a "$1" --slurpfile b "$2" '
		def prof($f; $s): $f[0].scenarios[] | select(.name == $s) | .profile;
		def fns($p): [$p.functions[] | {key: "\(.name) \(.module // "")", value: .per_elem}]
			| from_entries;
		def r: . * 1000 | round / 1000;
		[["ring", "fast", "slow"][] as $s | (fns(prof($a; $s))) as $x | (fns(prof($b; $s))) as $y
			| ([$x, $y] | map(keys) | add | unique[]) as $k
			| {s: $s, k: $k, d: (($y[$k] // 0) - ($x[$k] // 0))}] as $d
		| ($d | map(select(.s == "slow" and .k == "ppb_burn bpf")) | .[0].d // 0) as $burn
		| (prof($b; "slow").per_elem - prof($a; "slow").per_elem) as $all
		| ($d | map(select(.k != "ppb_burn bpf")) | max_by(.d | fabs)) as $other
		| ($d | map(select(.s != "slow" and .k == "ppb_burn bpf")) | map(.d | fabs) | max // 0) as $away
		| (if $burn > 0 and ($all - $burn | fabs) < 0.1 and ($other.d | fabs) < 0.1 and $away < 0.1
		   then "" else "WRONG: " end)
		+ "slow \($all | r) instr/elem, ppb_burn [bpf] \($burn | r) (unexplained \($all - $burn | r));"
		+ " ppb_burn elsewhere \($away | r); largest other change \($other.d | r) (\($other.s) \($other.k))"'
}

# chains_where REF BURN: the call chains of slow that moved by 0.1 instructions
# per element or more: one chain ends in ppb_burn, and every other one is a
# caller of it; "WRONG ..." when not.
chains_where() {
	jq -rn --slurpfile a "$1" --slurpfile b "$2" '
		def ch($f): [$f[0].scenarios[] | select(.name == "slow") | .profile.callgraph.chains // []
			| .[] | {key: .chain, value: .children}] | from_entries;
		ch($a) as $x | ch($b) as $y
		| [([$x, $y] | map(keys) | add | unique[]) as $k | {k: $k, d: (($y[$k] // 0) - ($x[$k] // 0))}
			| select(.d | fabs >= 0.1)] as $moved
		| [$moved[] | select(.k | startswith("ppb_burn."))] as $burn
		| [$moved[] | select(.k | startswith("ppb_burn.") | not)
			| select(.k as $k | $burn | any(.k | endswith("." + $k)) | not)] as $other
		| (if ($burn | length) == 1 and ($other | length) == 0 then "" else "WRONG: " end)
		+ "\($burn | length) chain through ppb_burn (\($burn | map(.d * 1000 | round / 1000)
			| join(", "))), \($other | length) other chain moved by 0.1 or more"'
}

echo "(under the instruction clock the burner's \"ns\" are guest instructions)"
echo "== noise profile: calibrate in one guest ($KERNEL), the burner attached without its loop"
vm_burn 0 "$OUT/profile" calibrate --quiet --runs "${VM_CHECK_RUNS:-5}" --scenario "$SCENARIOS" \
	"${VIEW[@]}" -o "$OUT/profile.json"
echo "floors: $(jq -r '[.scenarios[] | "\(.name) \(.cycles_per_elem.floor_pct * 1000 | round / 1000)%"]
	| join(", ")' "$OUT/profile.json")"

bad=0
for i in $(seq "$PAIRS"); do
	vm_burn 0 "$OUT/ref-$i" "${PROFILE[@]}" bench --scenario "$SCENARIOS" "${BENCH_ARGS[@]}" \
		--json "$OUT/ref-$i.json"
	# the injection: SHARE_PCT of slow, spread over its releases per element
	ns=$(jq -r --argjson p "$SHARE_PCT" '.scenarios[] | select(.name == "slow") |
		.cycles_per_elem.median * $p / 100 / (.path.ret.release / (.path.alloc.cache +
		.path.alloc.refill + .path.alloc.slow)) | round' "$OUT/ref-$i.json")
	vm_burn "$ns" "$OUT/burn-$i" "${PROFILE[@]}" bench --scenario "$SCENARIOS" "${BENCH_ARGS[@]}" \
		--json "$OUT/burn-$i.json"
	line=$(grep '^ppb-burn:' "$OUT/burn-$i.txt")
	rc=0
	"$PPBENCH" compare "${VIEW[@]}" --noise "$OUT/profile.json" --fail-above 0.5 "$OUT/ref-$i.json" \
		"$OUT/burn-$i.json" >"$OUT/cmp-$i.txt" 2>"$OUT/cmp-$i.err" || rc=$?
	gated=$(sed -n 's/^ppbench compare: regression: \([^ ,]*\).*/\1/p' "$OUT/cmp-$i.err" |
		sort -u | paste -sd ' ' -)
	verdict=ok
	[ $rc = 3 ] && [ "$gated" = slow ] || { verdict="WRONG (compare exit $rc, gated: ${gated:-none})"; bad=1; }
	if [ ${#PROFILE[@]} -gt 0 ]; then
		where=$(profile_where "$OUT/ref-$i.json" "$OUT/burn-$i.json")
		echo "pair $i: profiles: $where"
		chains=$(chains_where "$OUT/ref-$i.json" "$OUT/burn-$i.json")
		echo "pair $i: call chains: $chains"
		where="$chains $where"
		first=$(awk '/^slow .* instr\/elem \(/ { getline; getline; print $4; exit }' "$OUT/cmp-$i.txt")
		case "$where" in
		*WRONG*) verdict="WRONG (profile)"; bad=1 ;;
		esac
		[ "$first" = "ppb_burn" ] || { verdict="WRONG (compare names '${first:-nothing}' first in slow)"; bad=1; }
	fi
	jq -rn --arg line "$line" --arg v "$verdict" --argjson p "$SHARE_PCT" --arg i "$i" --arg c "$COUNTER" \
		--slurpfile a "$OUT/ref-$i.json" --slurpfile b "$OUT/burn-$i.json" '
		def fig($f; $s): $f[0].scenarios[] | select(.name == $s) |
			if $c != "" then .counters[$c].median else .cycles_per_elem.median end;
		def pct($s): (fig($b; $s) / fig($a; $s) - 1) * 100 | . * 1000 | round / 1000;
		"pair \($i): injected \($p)% of slow (\($line | sub("^ppb-burn: "; "")));"
		+ " slow \(pct("slow"))%, ring \(pct("ring"))%, fast \(pct("fast"))%: \($v)"'
done
echo "files: $OUT"
exit $bad
