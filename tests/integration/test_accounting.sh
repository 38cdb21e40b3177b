#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Path accounting: the recipes (ppbench-recipe(8), user/core/cmd/recipe.md) must give
# the exact counts the kernel's code implies. Numbers, never timings.

# recipe_json NAME ARGS...: run a recipe, leave its JSON in $R
recipe_json() {
	R=$TMPD/recipe.json
	expect_exit 0 "$PPBENCH" recipe "$@" --json "$R"
}

# pv KIND FIELD: a field of the pool-kind entry, e.g. pv test-run .ret.ring
pv() {
	jq_get "$R" "[.pools[] | select(.kind == \"$1\")][0].path$2"
}

# The invariants of a pool that has been destroyed: every allocation was
# returned, and every page the pool took from the allocator went back.
check_closed_pool() { # KIND ELEMS
	local a r
	a=$(jq_get "$R" "[.pools[] | select(.kind == \"$1\")][0].path |
		.alloc.cache + .alloc.refill + .alloc.slow")
	assert_eq "$a" "$2" "$1 allocations (cache+refill+slow)"
	if [ "$(pv "$1" .ret.ring 2>/dev/null)" != "" ]; then
		r=$(jq_get "$R" "[.pools[] | select(.kind == \"$1\")][0].path |
			.ret.cache + .ret.ring + .ret.release + .ret.unclassified")
		assert_eq "$r" "$2" "$1 returns (cache+ring+release+late) with nothing in flight"
	fi
	r=$(jq_get "$R" "[.pools[] | select(.kind == \"$1\")][0].path |
		.alloc.slow_pages - .ret.release - .release.teardown")
	assert_eq "$r" 0 "$1 pages from the allocator minus pages released"
}

test_acct_lf_drop_batch64() {
	needs_host live-frames
	local n=100000
	recipe_json lf-drop --batch 64 --repeat $n
	assert_eq "$(jq_get "$R" .elems)" $n "elements"
	assert_eq "$(pv test-run .alloc.slow)" 1 "one slow bulk per syscall"
	assert_eq "$(pv test-run .alloc.slow_pages)" 64 "64 pages in it"
	assert_eq "$(pv test-run .ret.ring)" $n "every frame returns to the ring"
	assert_eq "$(pv test-run .ret.cache)" 0 "no direct recycling (no NAPI, no_direct)"
	assert_eq "$(pv test-run .ret.release)" 0 "no release in the run"
	assert_eq "$(pv test-run .release.teardown)" 64 "64 pages released at destroy"
	# first batch from the slow bulk, then one refill per batch of 64
	assert_eq "$(pv test-run .alloc.refill)" $(((n + 63) / 64 - 1)) "refills"
	check_closed_pool test-run $n
}

test_acct_lf_drop_batch1_slow() {
	needs_host live-frames
	recipe_json lf-drop --batch 1 --repeat 64 --runs 20
	assert_eq "$(jq_get "$R" '.pools[0].pools')" 20 "a new pool per syscall"
	assert_eq "$(pv test-run .alloc.slow)" 20 "one slow call per syscall"
	assert_eq "$(pv test-run .alloc.slow_pages)" $((20 * 64)) "64 holds per syscall"
	assert_eq "$(pv test-run .ret.release)" $((20 * 63)) "63 ring-full releases per syscall"
	assert_eq "$(pv test-run .release.other)" $((20 * 63)) "... with page refcount 1"
	assert_eq "$(pv test-run .release.teardown)" 20 "one page left in the ring at destroy"
	# A 1-entry ring moves no index: only fentry can see its single produce.
	local ring
	ring=$(jq -r '[.pools[] | select(.kind == "test-run")][0].path.ret.ring' "$R")
	case "$(jq_get "$R" .backend)" in
	fentry) assert_eq "$ring" 20 "one ring produce per syscall" ;;
	*) assert_eq "$ring" null "ring produces of a 1-entry ring are reported unknown" ;;
	esac
}

test_acct_lf_drop_batch16_transient() {
	needs_host live-frames
	recipe_json lf-drop --batch 16 --repeat 1024
	assert_eq "$(pv test-run .alloc.slow_pages)" 64 "one bulk of 64"
	assert_eq "$(pv test-run .ret.release)" 48 "64 - 16 ring-full releases"
	assert_eq "$(pv test-run .ret.ring)" $((1024 - 48)) "the rest to the ring"
	assert_eq "$(pv test-run .release.teardown)" 16 "a full 16-entry ring at destroy"
	check_closed_pool test-run 1024
}

test_acct_lf_veth_peer_drop() {
	needs_host live-frames
	local n=20000
	recipe_json lf-veth --batch 64 --repeat $n
	assert_eq "$(jq_get "$R" .packets.gen)" $n "frames generated"
	assert_eq "$(jq_get "$R" .packets.action)" $n "frames dropped by the peer"
	assert_eq "$(pv test-run .ret.ring)" $n "peer returns every frame to the origin ring"
	assert_eq "$(pv test-run .ret.release)" 0 "no releases"
	check_closed_pool test-run $n
}

test_acct_veth_skb_tx_slow() {
	needs_host live-frames
	local n=2000
	recipe_json veth-tx --repeat $n --size 1500
	assert_eq "$(jq_get "$R" .elems)" $n "packets through XDP_TX"
	assert_eq "$(pv veth .ret.release)" $n "one release per packet"
	assert_eq "$(pv veth .release.refcnt)" $n "... because the page refcount is 2"
	assert_eq "$(pv veth .alloc.slow)" $(((n + 63) / 64)) "one slow call per 64 packets"
	assert_eq "$(pv veth .alloc.slow_pages)" $(((n + 63) / 64 * 64)) "64 pages each"
	assert_eq "$(pv veth .ret.ring)" 0 "nothing to the ring"
	assert_eq "$(pv veth .ret.cache)" 0 "nothing to the cache"
}

test_acct_generic_frags_direct() {
	local n=2000 e
	recipe_json generic-frags --repeat $n --size 1500
	if [ "$(jq '[.pools[] | select(.kind == "system")] | length' "$R")" = 0 ]; then
		skip "no per-CPU system page_pool took generic-XDP frames (kernel before 6.9?)"
	fi
	e=$(pv system .elems)
	# A warm pool is first seen with the first frame, whose allocation came before.
	assert_ge "$e" $((n - 1)) "frames counted"
	assert_eq "$(pv system .ret.cache)" "$e" "every return is a direct recycle"
	assert_eq "$(pv system .ret.ring)" 0 "no ring traffic"
	assert_eq "$(pv system .ret.release)" 0 "no releases"
	assert_eq "$(jq_get "$R" "[.pools[] | select(.kind == \"system\")][0].path |
		.alloc.cache + .alloc.slow")" "$e" "allocations from the cache (+ first bulk)"
	assert_eq "$(pv system .alloc.refill)" 0 "no refills"
}

# The fast recipe without a NIC: live frames passed with too little headroom
# are copied by generic XDP into this CPU's system pool and dropped there,
# so every copy is a cache allocation recycled directly; its twin keeps the
# headroom (no copy) and its pages return through the test-run pool's ring.
test_acct_lf_fastpass() {
	needs_host live-frames
	local n=20000 e
	recipe_json lf-fastpass --repeat $n --size 1500
	if [ "$(jq '[.pools[] | select(.kind == "system")] | length' "$R")" = 0 ]; then
		skip "generic XDP copied into no per-CPU system page_pool (kernel before 6.9?)"
	fi
	e=$(pv system .elems)
	assert_eq "$e" $n "every frame seen in its copy"
	assert_eq "$(pv system .alloc.cache)" $n "every copy from the system pool's cache"
	assert_eq "$(pv system .alloc.refill)" 0 "no refills"
	assert_eq "$(pv system .ret.cache)" $n "every copy recycled directly"
	assert_eq "$(pv system .ret.ring)" 0 "no ring returns"
	assert_eq "$(pv system .ret.release)" 0 "no releases"
	recipe_json lf-fastpass-twin --repeat $n --size 1500
	assert_eq "$(jq '[.pools[] | select(.kind == "system")] | length' "$R")" 0 \
		"the twin copies nothing"
	assert_eq "$(pv test-run .elems)" $n "twin: every frame seen again on lo"
	assert_eq "$(pv test-run .ret.ring)" $n "twin: every page back through the ring"
	assert_eq "$(pv test-run .ret.cache)" 0 "twin: no direct returns"
	check_closed_pool test-run $n
	# a copy that would be a page fragment is refused before anything is loaded
	expect_exit 1 "$PPBENCH" recipe lf-fastpass --repeat 100 --size 64
	expect_one_line_error "lf-fastpass needs frames of at least 1500 bytes"
}

test_acct_xcpu() {
	needs_host live-frames
	[ "$(nproc)" -ge 2 ] || skip "cpumap recipe needs 2 CPUs"
	local n=50000
	recipe_json xcpu --batch 64 --repeat $n --cpu 0 --remote-cpu 1
	assert_eq "$(jq_get "$R" .packets.action)" $n "frames redirected"
	assert_eq "$(pv test-run .ret.cache)" 0 "no direct returns across CPUs"
	check_closed_pool test-run $n
	# Releases happen where the ring was full: the remote CPU returns the
	# pages, except frames a full cpumap queue dropped on the producer CPU.
	local rel1 dropped
	rel1=$(jq -r '[.pools[] | select(.kind == "test-run")][0].per_cpu[] |
		select(.cpu == 1) | .path.ret.release' "$R")
	dropped=$(jq_get "$R" '.packets.action - .packets.second')
	assert_eq "$(jq_get "$R" .packets.cpumap_drops)" "$dropped" \
		"cpumap queue drops (xdp_cpumap_enqueue) = frames the consumer never saw"
	assert_le "$(($(pv test-run .ret.release) - rel1))" "$dropped" \
		"releases on the producer CPU (cpumap queue drops: $dropped)"
}

test_acct_backends_agree() {
	"$PPBENCH" probe --json "$TMPD/p.json" >/dev/null 2>&1
	[ "$(jq -r .fentry "$TMPD/p.json")" = true ] ||
		skip "fentry refused on this kernel: both backends are compared in the kernel matrix"
	local f t
	for args in "lf-drop --batch 64 --repeat 10000" "lf-drop --batch 16 --repeat 1024" \
		"veth-tx --repeat 500"; do
		# shellcheck disable=SC2086
		"$PPBENCH" recipe $args --backend fentry --json "$TMPD/f.json" >/dev/null ||
			fail "fentry run of $args"
		# shellcheck disable=SC2086
		"$PPBENCH" recipe $args --backend tracepoint --json "$TMPD/t.json" >/dev/null ||
			fail "tracepoint run of $args"
		f=$(jq -c '[.pools[] | {kind, a: .path.alloc, r: .path.ret}]' "$TMPD/f.json")
		t=$(jq -c '[.pools[] | {kind, a: .path.alloc, r: .path.ret}]' "$TMPD/t.json")
		assert_eq "$t" "$f" "tracepoint vs fentry counts for $args"
	done
}

# Where the kernel keeps page_pool stats (CONFIG_PAGE_POOL_STATS), veth
# reports its pool's through ethtool -S (rx_pp_*): ours must equal them.
sc_pp_stats() {
	local n=400 k
	ethtool -S "$PPB_IF_A" >/dev/null 2>&1
	nsenter --net="$PPB_NS_B" "$PPBENCH" load "$PPB_IF_B" --action drop --paths \
		--interval 0.2 --json "$TMPD/l.json" >"$TMPD/l.out" 2>&1 &
	local pid=$!
	wait_for_output "$TMPD/l.out" '^time ' 10
	nsenter --net="$PPB_NS_B" ethtool -S "$PPB_IF_B" >"$TMPD/before"
	if ! grep -q 'rx_pp_recycle_ring:' "$TMPD/before"; then
		kill -INT $pid
		wait $pid
		echo nostats >"$TMPD/skip"
		return 0
	fi
	ping -q -c $n -i 0.002 -W 0.2 -s 1472 "$PPB_IP_B" >/dev/null
	# while attached: the pool and its stats go with the program
	nsenter --net="$PPB_NS_B" ethtool -S "$PPB_IF_B" >"$TMPD/after"
	kill -INT $pid
	wait $pid
	for k in recycle_ring:.ret.ring recycle_cached:.ret.cache alloc_slow:.alloc.slow; do
		local e=${k%%:*} f=${k#*:} a b ours
		a=$(awk -v k="rx_pp_$e:" '$1 == k {print $2}' "$TMPD/before")
		b=$(awk -v k="rx_pp_$e:" '$1 == k {print $2}' "$TMPD/after")
		ours=$(jq -r "select(.type == \"summary\") | .pools[] | select(.kind == \"veth\") |
			.path$f" "$TMPD/l.json")
		assert_eq "$ours" "$((b - a))" "ppbench $f vs kernel rx_pp_$e"
	done
}

test_acct_page_pool_stats_crosscheck() {
	"$PPBENCH" env -- bash -c "set -u; PPBENCH=$PPBENCH; TMPD=$TMPD
$(declare -f fail wait_for_output assert_eq sc_pp_stats)
sc_pp_stats" || fail "cross-check failed"
	[ -f "$TMPD/skip" ] &&
		skip "CONFIG_PAGE_POOL_STATS is off: veth reports no rx_pp_* counters to compare with"
	return 0
}

test_recipe_bad_input() {
	expect_exit 2 "$PPBENCH" recipe nosuch
	expect_one_line_error "unknown recipe 'nosuch'"
	expect_exit 2 "$PPBENCH" recipe lf-drop --batch 257
	expect_one_line_error "--batch 257 is out of range"
	expect_exit 2 "$PPBENCH" recipe lf-drop --size 59
	expect_one_line_error "--size 59 is out of range"
	expect_exit 2 "$PPBENCH" recipe lf-drop --cpu 4096
	expect_one_line_error "--cpu 4096 is out of range"
	expect_exit 2 "$PPBENCH" recipe lf-drop --backend magic
	expect_one_line_error "--backend 'magic'"
}

# A full observer table is said, never silent: with no room at all (its one
# entry taken), veth-tx's pool goes uncounted, and recipe (text, --kv, JSON)
# and bench (summary, JSON) say how many pools and events. bench takes no
# proof that missed pools, so with every proof missing the scenario is skipped.
test_untracked_pools_reported() {
	local j=$TMPD/r.json b=$TMPD/b.json said
	said="UNTRACKED: [1-9][0-9]* pools? and [1-9][0-9]* of (its|their) events not counted: the \
observer's table \(room for 0 pools\) was full"
	PPBENCH_TEST_MAX_POOLS=0 expect_exit 0 "$PPBENCH" recipe veth-tx --repeat 200 --json "$j"
	assert_ge "$(jq_get "$j" '.untracked.pools')" 1 "recipe JSON: untracked pools"
	assert_ge "$(jq_get "$j" '.untracked.events')" 1 "recipe JSON: their events"
	assert_eq "$(jq_get "$j" '.pools | length')" 0 "recipe JSON: no pool counted"
	PPBENCH_TEST_MAX_POOLS=0 expect_exit 0 "$PPBENCH" recipe veth-tx --repeat 200
	assert_match "$LAST_OUT" "^$said" "recipe: the line"
	PPBENCH_TEST_MAX_POOLS=0 expect_exit 0 "$PPBENCH" recipe veth-tx --repeat 200 --kv
	assert_match "$LAST_OUT" '^untracked[.]pools=[1-9]' "recipe --kv"
	PPBENCH_TEST_MAX_POOLS=0 expect_exit 1 "$PPBENCH" bench --scenario slow --repeat 1 \
		--loops 2000 --json "$b"
	assert_match "$LAST_OUT" "^  $said" "bench: the line under the scenario"
	assert_eq "$(jq_get "$b" '.scenarios[0].status')" skipped "bench: no proof taken"
	assert_ge "$(jq_get "$b" '.scenarios[0].untracked.pools')" 1 "bench JSON: untracked pools"
	assert_ge "$(jq_get "$b" '.scenarios[0].untracked.events')" 1 "bench JSON: their events"
	PPBENCH_TEST_MAX_POOLS=x expect_exit 1 "$PPBENCH" recipe lf-drop
	expect_one_line_error 'PPBENCH_TEST_MAX_POOLS .x. is not a number'
}
