# SPDX-License-Identifier: GPL-2.0
#
# ppbench on virtio-net, the NIC of most cloud VMs and of qemu's own guests
# (busybox sh). Debian's 7.3 virtio_net keeps its RX buffers in page_pools,
# one per RX queue, which name their device and NAPI (so the kernel lists
# them, with CONFIG_PAGE_POOL_STATS' counters); 6.12's takes them from the
# page allocator, and 6.1's too: there these tests skip with that reason.
# Which kernels have the pool is the kernel's version (virtio_net took
# page_pools in 7.1), never probe's verdict, which is under test here.
# The kernel matrix's guests have a virtio-net pair on a qemu hub of its own
# (PPB_VNIC_MACS) beside the vmxnet3 pair; the tests run nic.sh's machinery
# on it. Under native XDP every RX buffer is a whole page (its headroom and
# skb_shared_info leave no room for a second), so the counts are exact.

# vnic_by_mac MAC: the interface with that address.
vnic_by_mac() {
	for _d in /sys/class/net/*; do
		[ "$(cat "$_d/address" 2>/dev/null)" = "$1" ] && { basename "$_d"; return 0; }
	done
	return 1
}

# Whether this kernel's virtio_net keeps its RX buffers in page_pools: 7.1 and later.
virtio_has_pool() {
	# shellcheck disable=SC2046 # major and minor, one word each
	set -- $(uname -r | sed -n 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
	[ "${1:-0}" -gt 7 ] || { [ "${1:-0}" -eq 7 ] && [ "${2:-0}" -ge 1 ]; }
}

# use_virtio: nic.sh's NIC A and B are the virtio-net pair from here on;
# skips where this kernel's virtio_net holds no page_pool (before 7.1), and
# fails where probe's page_pool verdict says otherwise.
use_virtio() {
	[ -n "${PPB_VNIC_MACS:-}" ] || skip "this guest has no virtio-net NICs"
	# The first test's verdict of "no page_pool" stands for the others: the
	# probe behind it takes seconds under TCG, and the kernel does not change.
	[ ! -f /tmp/virtio.nopool ] || skip "$(cat /tmp/virtio.nopool)"
	# shellcheck disable=SC2086 # two MACs
	set -- $PPB_VNIC_MACS
	PPB_NIC_A=$(vnic_by_mac "$1")
	PPB_NIC_B=$(vnic_by_mac "$2")
	[ -n "$PPB_NIC_A" ] && [ -n "$PPB_NIC_B" ] ||
		fail "virtio-net NICs with MACs $PPB_VNIC_MACS not found (is virtio_net loaded?)"
	PPB_NIC_MODE=virtio
	export PPB_NIC_A PPB_NIC_B PPB_NIC_MODE
	"$IP" link set "$PPB_NIC_A" up && "$IP" link set "$PPB_NIC_B" up ||
		fail "cannot bring up $PPB_NIC_A and $PPB_NIC_B"
	# A page_pool verdict too: each probe and jq start costs the guest seconds
	# of emulation; the first test's probe serves the others.
	if [ -s /tmp/virtio.vp.json ]; then
		cp /tmp/virtio.vp.json vp.json
		return 0
	fi
	probe_json vp.json "$PPB_NIC_B"
	_v=$(jq -r '.iface.page_pool.verdict' vp.json)
	_why="probe $PPB_NIC_B: page_pool $_v, driver member $(jq -r '.iface.page_pool.driver_member' vp.json), $(jq -r '.iface.page_pool.listed | length' vp.json) listed"
	if virtio_has_pool; then
		[ "$_v" = yes ] ||
			fail "virtio_net of $(uname -r) (7.1 or later) keeps its RX buffers in page_pools, but $_why"
		cp vp.json /tmp/virtio.vp.json
		return 0
	fi
	[ "$_v" != yes ] || fail "virtio_net of $(uname -r) (before 7.1) has no page_pool, but $_why"
	echo "virtio_net of $(uname -r) keeps no page_pool (before 7.1; $_why)" >/tmp/virtio.nopool
	skip "$(cat /tmp/virtio.nopool)"
}

# Both NICs are virtio_net with native XDP, and probe finds the page_pool
# both ways: in the driver's BTF and in the kernel's list of the device's
# pools, one per RX queue, each with its NAPI.
test_virtio_present() {
	use_virtio
	for n in "$PPB_NIC_A" "$PPB_NIC_B"; do
		assert_eq "$(nic_driver "$n")" virtio_net "driver of $n"
		wait_until 10 nic_is_up "$n" || fail "$n did not come up"
	done
	jq_vars vp.json V '.iface | {driver, basic: (.xdp_features | index("basic") != null),
		features: (.xdp_features | tojson), member: .page_pool.driver_member,
		listed: (.page_pool.listed | length), listed_json: (.page_pool.listed | tojson),
		napi: ([.page_pool.listed[] | .napi_id > 0] | all),
		pools: ([.page_pool.listed[] | "\(.id)/napi \(.napi_id)"] | join(", "))}'
	assert_eq "$V_driver" virtio_net "probe $PPB_NIC_B: driver"
	[ "$V_basic" = true ] || fail "probe $PPB_NIC_B reports no native XDP: $V_features"
	m=$V_member
	[ "$m" != null ] || fail "probe finds no page_pool member in virtio_net's BTF"
	nrq=$(ls -d /sys/class/net/"$PPB_NIC_B"/queues/rx-* | wc -l)
	assert_eq "$V_listed" "$nrq" "pools the kernel lists for $PPB_NIC_B ($nrq RX queues)"
	[ "$V_napi" = true ] || fail "a pool of $PPB_NIC_B without NAPI: $V_listed_json"
	note "$PPB_NIC_B: virtio_net, page_pool via $m, pools $V_pools"
}

# nic.sh's XDP_DROP test on virtio-net: load counts exactly N, as the
# driver's rxN_xdp_packets; direct recycling into the pool's cache; both
# backends agree but for the buffers the driver re-posts at an attach.
test_virtio_load_drop_pktgen() {
	use_virtio
	test_nic_load_drop_pktgen
}

# bench --iface on virtio-net: fast with nic-drop, purity >= 95 %.
test_virtio_bench_fast() {
	use_virtio
	test_nic_bench_fast
}

# virtio-net's pool, class by class, in what the guest's clock counts
# (reported, as nic_pool_paths; only that each path was timed is checked).
# virtio_net's pools name their NAPI, so XDP_PASS with the pages freed in
# softirq recycles directly too; the ring, refill and slow paths need a
# consumer in process context that falls behind: udp_sink, stopped while N
# datagrams arrive, holds their pages in its socket, so the pool allocates
# from the page allocator; resumed, it frees them into the ring (released
# once the ring is full), and the RX refills take them back from there.
test_virtio_pool_paths() {
	use_virtio
	nic_setup
	n=2000
	size=100
	watch_start
	pktgen_setup $n $size
	XDP0=$(xdp_packets "$B")
	load_start drop "$B" --action drop --count $n --duration 60
	deliver $n pktgen_send
	wait $LOAD_PID || fail "load --action drop exited $?: $(tail -n 3 drop.out)"
	XDP0=$(xdp_packets "$B")
	load_start pass "$B" --action pass --duration 120
	udp_sink 9 $n $((size - 42)) 120 >sink.out 2>&1 &
	sink=$!
	BG="$BG $sink"
	wait_until 10 grep -q ready sink.out || fail "udp_sink: $(cat sink.out)"
	kill -STOP $sink
	deliver $n pktgen_send
	kill -CONT $sink
	wait $sink || fail "udp_sink: $(tail -n 1 sink.out)"
	kill -INT $LOAD_PID
	wait $LOAD_PID || fail "load --action pass exited $?: $(tail -n 3 pass.out)"
	kill -INT $wpid
	wait $wpid || fail "watch exited $?: $(tail -n 5 w.out)"
	pool_paths w.json
	for c in alloc-cache refill/page slow/page ret-cache ret-ring; do
		grep -q "$c [0-9]" paths.txt || fail "no timing of $c in $B's pools: $(cat paths.txt)"
	done
	note "$B's pools, per call (per page for refill and slow), probe window less: $(cat paths.txt)"
}

# pp_stats FILE PREFIX: the kernel's page_pool stats summed over the pools
# probe listed for NIC B, as PREFIX_alloc_fast and so on.
pp_stats() {
	jq_vars "$1" "$2" '.iface.page_pool.listed as $l | reduce ("alloc_fast", "alloc_refill",
		"alloc_slow", "recycle_cached", "recycle_ring") as $k
		({}; .[$k] = ([$l[] | .stats[$k] // 0] | add // 0))'
}

# ppbench's counts of virtio-net's pool equal virtio_net's own page_pool
# stats (CONFIG_PAGE_POOL_STATS, netlink page-pool-stats-get, read by probe):
# with a load's XDP_DROP attached (so that every RX buffer is a whole page),
# watch (fentry) runs between two readings of the kernel's counters while N
# frames arrive, with nothing else on NIC B; every allocation from the cache,
# refill, slow allocation and return to the cache or the ring the kernel
# counted, watch counts. (Outside XDP virtio_net hands out page fragments,
# whose reuse the kernel counts as a cached return and a fast allocation and
# neither backend sees: ppbench-watch(8).) A run the kernel skipped (watch's
# prog_misses) would be a call short.
test_virtio_pp_stats_crosscheck() {
	use_virtio
	grep -qx 'CONFIG_PAGE_POOL_STATS=y' "/boot/config-$(uname -r)" 2>/dev/null ||
		skip "CONFIG_PAGE_POOL_STATS is off in this kernel: no page_pool stats to compare with"
	nic_setup
	n=5000
	pktgen_setup $n
	load_start drop "$B" --action drop --duration 300
	probe_json k0.json "$B"
	watch_start
	XDP0=$(xdp_packets "$B")
	deliver $n pktgen_send
	kill -INT $wpid
	wait $wpid || fail "watch exited $?: $(tail -n 5 w.out)"
	probe_json k1.json "$B"
	kill -INT $LOAD_PID
	wait $LOAD_PID || fail "load exited $?: $(tail -n 3 drop.out)"
	pp_stats k0.json K0
	pp_stats k1.json K1
	b_summary w.json
	# the kernel's stat, watch's field, and b_summary's name for it
	pairs="alloc_fast:alloc.cache:ACACHE alloc_refill:alloc.refill:AREFILL
		alloc_slow:alloc.slow:ASLOW recycle_cached:ret.cache:RCACHE recycle_ring:ret.ring:RRING"
	line=
	for pair in $pairs; do
		k=${pair%%:*}
		eval "kd=\$((K1_$k - K0_$k)) pd=\$B_${pair##*:}"
		line="$line $k $kd/$pd"
	done
	miss=$B_MISSES
	echo "kernel stat delta/ppbench:$line; watch's skipped runs: $miss"
	for pair in $pairs; do
		k=${pair%%:*}
		f=${pair#*:}
		eval "kd=\$((K1_$k - K0_$k)) pd=\$B_${pair##*:}"
		[ "$pd" -le "$kd" ] && [ $((kd - pd)) -le "$miss" ] ||
			fail "${f%:*} of $B's pools (watch) $pd against the kernel's $k $kd (watch's skipped runs: $miss)"
	done
	at_least "$B_RCACHE" $n 0.95 "direct returns per dropped frame"
	note "kernel stat delta/ppbench over $n dropped frames:$line; skipped runs $miss"
}
