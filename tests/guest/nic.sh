# SPDX-License-Identifier: GPL-2.0
#
# ppbench on a real NIC driver (busybox sh). The 6.12 guest has two
# vmxnet3 NICs on one qemu hub (lib.sh: need_nics, nic_split). vmxnet3 receives
# into a page_pool under native XDP: XDP_DROP recycles straight into the alloc
# cache from NAPI (the fast path), XDP_PASS returns pages through the ring.
# Traffic leaves NIC A (namespace nsa) from the kernel's pktgen or from
# `ppbench gen`. The 6.1 guest has no NICs (its vmxnet3 has no XDP): every test
# here skips there, with that reason.
#
# Under TCG a vCPU can stall long enough for NIC B's RX ring to run dry; qemu
# then drops frames (the driver counts them as "pkts rx OOB"). So the tests
# enlarge the ring, pace pktgen, and send again what did not reach the
# driver: the number of frames XDP saw is still exactly N, and a note says
# when frames had to be sent again.

NIC_RING=4096   # NIC B's RX and NIC A's TX ring during the tests (the vmxnet3 maximum,
		# or the driver's own if less: ring_max)
PG_RATE=50000   # pktgen frames/s

in_nsa() {
	"$IP" netns exec nsa "$@"
}

# nic_stat IFACE NAME: an `ethtool -S` counter, summed over the queues
# (vmxnet3 prints one block per queue: "xdp packets", "pkts rx OOB", ...).
nic_stat() {
	"$ETHTOOL" -S "$1" | awk -v k="$2:" '
		{ l = $0; sub(/^[ \t]*/, "", l) }
		index(l, k) == 1 { n += $NF }
		END { print n + 0 }'
}

# xdp_packets IFACE: frames its driver's XDP saw (ethtool -S): vmxnet3's
# "xdp packets" per queue, virtio_net's rxN_xdp_packets.
xdp_packets() {
	case "$(nic_driver "$1")" in
	virtio_net)
		"$ETHTOOL" -S "$1" | awk '$1 ~ /^rx[0-9]+_xdp_packets:$/ { n += $2 } END { print n + 0 }'
		;;
	*) nic_stat "$1" "xdp packets" ;;
	esac
}

# xdp_delta: frames NIC B's XDP saw since XDP0 was taken. ethtool's XDP
# counters survive the device reset of an XDP attach (ip -s link's do not).
xdp_delta() {
	echo $(($(xdp_packets "$B") - XDP0))
}

# ring_max IFACE RX|TX: the largest ring the driver takes (ethtool -g), at
# most NIC_RING (virtio-net: qemu's 1024 RX and 256 TX entries).
ring_max() {
	_m=$("$ETHTOOL" -g "$1" | awk -v k="$2:" '/^Pre-set/ { c = 1 } c && $1 == k { print $2; exit }')
	[ -n "$_m" ] && [ "$_m" -lt $NIC_RING ] && echo "$_m" || echo $NIC_RING
}

# set_ring IFACE rx|tx N: unless it already is N (ethtool refuses a change to nothing).
set_ring() {
	_k=$(echo "$2" | tr a-z A-Z)
	_cur=$("$ETHTOOL" -g "$1" | awk -v k="$_k:" '/^Current/ { c = 1 } c && $1 == k { print $2; exit }')
	[ "$_cur" = "$3" ] || "$ETHTOOL" -G "$1" "$2" "$3"
}

xdp_reached() { # N
	[ "$(xdp_delta)" -ge "$1" ]
}

# summary FILE JQ-FILTER: applied to the summary object of load/watch NDJSON.
summary() {
	jq -r "select(.type == \"summary\") | $2" "$1"
}

# jq_vars FILE PREFIX FILTER: FILTER makes an object of scalars; each key K
# becomes the shell variable PREFIX_K. One jq start for many figures: under
# the emulation each start costs the guest about 0.2 s (jq parses its
# builtins anew), many times what reading a figure does.
jq_vars() {
	_jv=$(jq -r --arg b "$B" "($3) | to_entries[] | \"$2_\\(.key)=\\(.value | tostring | @sh)\"" "$1")
	[ -n "$_jv" ] || fail "$1: nothing for $3"
	eval "$_jv"
}

# b_summary FILE: the summary of load/watch NDJSON FILE, NIC B's pools (kind
# nic, device B) summed, in B_PACKETS B_NPOOLS B_MISSES B_RCACHE B_RRING
# B_RREL B_ACACHE B_AREFILL B_ASLOW, and the pools' ids and flags in B_IDS
# B_FLAGS. (vmxnet3 sets neither slow.netdev nor p.napi: its pools are named
# only through the XDP memory-model registration, xdp:mem_connect.)
b_summary() {
	jq_vars "$1" B 'select(.type == "summary") |
		[.pools[] | select(.kind == "nic" and .dev == $b)] as $p |
		def s(f): $p | map(f) | add // 0;
		{PACKETS: .total.packets, NPOOLS: ($p | length), MISSES: (.prog_misses // 0),
		 RCACHE: s(.path.ret.cache), RRING: s(.path.ret.ring), RREL: s(.path.ret.release),
		 ACACHE: s(.path.alloc.cache), AREFILL: s(.path.alloc.refill),
		 ASLOW: s(.path.alloc.slow), IDS: ($p | map(.id) | join(",")),
		 FLAGS: ($p | map(.flags) | join(","))}'
}

at_least() { # value share-of-what minimum what
	awk -v v="$1" -v n="$2" -v m="$3" 'BEGIN { exit !(n > 0 && v / n >= m) }' ||
		fail "$4: $1 of $2, below $(awk -v m="$3" 'BEGIN { print m * 100 }') %"
}

# nic_setup: NICs split (A in nsa, B here), B's ring enlarged; everything is
# undone on exit, background processes of the test included (BG).
nic_setup() {
	[ -z "${NIC_SET:-}" ] || return 0 # (once per test: virtio.sh's warm-up sets up first)
	NIC_SET=1
	need_nics
	A=$PPB_NIC_A
	B=$PPB_NIC_B
	MAC_B=$(cat "/sys/class/net/$B/address")
	BG=
	PG_PID=
	PG_CPU=0
	RING0=$("$ETHTOOL" -g "$B" | awk '/^Current/ { c = 1 } c && /^RX:/ { print $2; exit }')
	TX0=$("$ETHTOOL" -g "$A" | awk '/^Current/ { c = 1 } c && /^TX:/ { print $2; exit }')
	trap nic_teardown EXIT
	RX_RING=$(ring_max "$B" RX)
	TX_RING=$(ring_max "$A" TX)
	nic_split
	set_ring "$B" rx $RX_RING || fail "cannot set $B's RX ring to $RX_RING"
	# gen pushes 64 frames at a time: a longer TX ring on A refuses fewer
	_cur=$(in_nsa "$ETHTOOL" -g "$A" | awk '/^Current/ { c = 1 } c && $1 == "TX:" { print $2; exit }')
	[ "$_cur" = "$TX_RING" ] || in_nsa "$ETHTOOL" -G "$A" tx $TX_RING ||
		fail "cannot set $A's TX ring to $TX_RING"
}

nic_teardown() {
	pktgen_stop
	# SIGKILL is enough: the kernel drops a killed load's bpf_link.
	for _p in $BG; do
		kill -9 "$_p" 2>/dev/null && wait "$_p" 2>/dev/null
	done
	[ -z "$RING0" ] || set_ring "$B" rx "$RING0"
	nic_join
	[ -z "$TX0" ] || set_ring "$A" tx "$TX0"
}

# ---- traffic ------------------------------------------------------------------

# pktgen_setup COUNT [SIZE]: NIC A sends COUNT UDP frames (0: until stopped) of
# SIZE bytes (default 60) to NIC B's MAC, 10.0.0.2:9, at PG_RATE frames/s, from
# the pktgen thread of CPU PG_CPU. pktgen is per namespace: A lives in nsa, so
# its /proc/net/pktgen is the one seen from there.
pktgen_setup() {
	in_nsa sh -c '
		pg() { echo "$2" >"/proc/net/pktgen/$1" || { echo "pktgen $1: \"$2\" refused"; exit 1; }; }
		pg kpktgend_0 rem_device_all
		pg kpktgend_1 rem_device_all
		pg "kpktgend_$6" "add_device $1"
		pg "$1" "count $3"
		pg "$1" "pkt_size $4"
		pg "$1" "delay 0"
		pg "$1" "ratep $5"
		pg "$1" "dst 10.0.0.2"
		pg "$1" "dst_mac $2"
		pg "$1" "udp_dst_min 9"
		pg "$1" "udp_dst_max 9"' pktgen "$A" "$MAC_B" "$1" "${2:-60}" $PG_RATE $PG_CPU ||
		fail "cannot set up pktgen on $A"
}

# pktgen_send COUNT: send COUNT frames (writing "start" returns when done).
pktgen_send() {
	rm -f gen.json
	in_nsa sh -c "echo 'count $1' >/proc/net/pktgen/$A && echo start >/proc/net/pktgen/pgctrl" ||
		fail "pktgen did not run"
	_r=$(in_nsa cat "/proc/net/pktgen/$A")
	_sofar=$(echo "$_r" | sed -n 's/.*pkts-sofar: *\([0-9]*\).*/\1/p')
	_errs=$(echo "$_r" | sed -n 's/.*pkts-sofar: *[0-9]* *errors: *\([0-9]*\).*/\1/p')
	[ "$_sofar" = "$1" ] && [ "$_errs" = 0 ] ||
		fail "pktgen sent $_sofar of $1 frames, $_errs errors: $(echo "$_r" | grep Result)"
}

# pktgen_bg: send (as set up) in the background until pktgen_stop.
pktgen_bg() {
	in_nsa sh -c 'echo start >/proc/net/pktgen/pgctrl' &
	PG_PID=$!
}

pktgen_stop() {
	[ -n "$PG_PID" ] || return 0
	in_nsa sh -c 'echo stop >/proc/net/pktgen/pgctrl'
	wait "$PG_PID"
	PG_PID=
}

# gen_send COUNT: the same frames from `ppbench gen` (live frames out of A).
gen_send() {
	rm -f gen.json
	in_nsa "$PPBENCH" gen "$A" --dst-mac "$MAC_B" --count "$1" --json gen.json >gen.out 2>&1 ||
		fail "gen exited $?: $(tail -n 3 gen.out)"
	cat gen.out
}

# deliver N SENDER: SENDER sends until exactly N frames (counted from XDP0)
# reached NIC B's XDP program; what did not arrive (qemu drops frames when the
# RX ring is empty: "pkts rx OOB"; gen reports frames A did not take) is sent
# again, at most three times.
deliver() {
	_want=$1
	_k=$1
	_round=0
	while :; do
		"$2" $_k
		# the last frames may still be in the ring: NAPI gets a moment
		wait_until 5 xdp_reached "$_want"
		_got=$(xdp_delta)
		[ "$_got" -lt "$_want" ] || break
		_round=$((_round + 1))
		_k=$((_want - _got))
		_why="$B's pkts rx OOB $(nic_stat "$B" "pkts rx OOB")"
		[ ! -s gen.json ] || _why="$_why, gen: $(jq -r 'select(.type == "summary") |
			"taken \(.taken), not taken \(.not_taken)"' gen.json)"
		[ $_round -le 3 ] || fail "only $_got of $_want frames reached XDP on $B ($_why)"
		note "$_k of the frames did not reach XDP on $B ($_why); sent $_k again"
	done
}

# ---- ppbench in the background --------------------------------------------------

# started FILE PID: the command printed its table header, or died trying.
started() {
	grep -q '^time ' "$1" || ! kill -0 "$2" 2>/dev/null
}

# load_start NAME ARGS...: `ppbench load ARGS --json NAME.json` in the
# background (output NAME.out, pid LOAD_PID); returns once it has attached.
load_start() {
	_name=$1
	shift
	rm -f "$_name.out" "$_name.json"
	"$PPBENCH" load "$@" --json "$_name.json" >"$_name.out" 2>&1 &
	LOAD_PID=$!
	BG="$BG $LOAD_PID"
	wait_until 60 started "$_name.out" $LOAD_PID
	grep -q '^time ' "$_name.out" || fail "load $* did not start: $(tail -n 5 "$_name.out")"
}

# ---- checks -------------------------------------------------------------------

# check_drop NAME N: load NAME counted N packets, as many as the driver's
# XDP counter, and its summary has NIC B's pool(s). Sets DIRECT and
# ALLOC_CACHE (returns into, allocations from the alloc cache).
check_drop() {
	_f=$1.json
	[ -s "$_f" ] || fail "$1: no JSON from load"
	b_summary "$_f"
	assert_eq "$B_PACKETS" "$2" "$1: packets load counted"
	assert_eq "$(xdp_delta)" "$2" "$1: xdp packets of $B's driver (ethtool -S)"
	[ "$B_NPOOLS" -ge 1 ] ||
		fail "$1: no pool of $B (kind nic) in the summary: $(summary "$_f" '.pools | tojson')"
	DIRECT=$B_RCACHE
	ALLOC_CACHE=$B_ACACHE
	_mix="ret cache $DIRECT ring $B_RRING release $B_RREL;"
	_mix="$_mix alloc cache $ALLOC_CACHE refill $B_AREFILL slow $B_ASLOW;"
	_mix="$_mix pool $B_IDS flags '$B_FLAGS'"
	echo "$1: $2 packets; $_mix"
	note "$1: $2 packets (load = driver); $_mix"
}

check_fast_mix() { # NAME N
	at_least "$DIRECT" "$2" 0.95 "$1: returns to $B's alloc cache (direct recycle) per packet"
	at_least "$ALLOC_CACHE" "$2" 0.95 "$1: allocations from $B's alloc cache per packet"
}

# ---- tests -----------------------------------------------------------------------

# XDP_DROP on NIC B while pktgen sends N frames: load counts exactly N, as many
# as the driver's XDP counter; the pool recycles directly into its cache and
# allocates from it; the fentry and tracepoint backends agree on direct returns.
test_nic_load_drop_pktgen() {
	nic_setup
	n=10000
	pktgen_setup $n
	for b in fentry tracepoint; do
		XDP0=$(xdp_packets "$B")
		load_start $b "$B" --action drop --count $n --duration 60 --backend \
			"$([ $b = fentry ] && echo auto || echo tracepoint)"
		grep -q "observer: $b backend" $b.out || fail "load did not use the $b backend: $(head -n 2 $b.out)"
		deliver $n pktgen_send
		wait $LOAD_PID || fail "load ($b) exited $?: $(tail -n 3 $b.out)"
		check_drop $b $n
		[ $b = fentry ] && check_fast_mix $b $n && f_direct=$DIRECT
	done
	# virtio_net re-posts RX buffers of its pool around an XDP attach and
	# detach: calls on the pool that are no frame, which fentry counts (as
	# the kernel's page_pool stats do: virtio_pp_stats_crosscheck) and the
	# tracepoint backend, whose ledger starts at the first frame, does not.
	if [ "$(nic_driver "$B")" = virtio_net ]; then
		d=$((f_direct - DIRECT))
		note "direct returns: fentry $f_direct, tracepoint $DIRECT (the attach's re-posts: $d)"
		[ ${d#-} -le $RX_RING ] ||
			fail "direct returns, tracepoint $DIRECT vs fentry $f_direct: more apart than the RX ring ($RX_RING)"
	else
		assert_eq "$DIRECT" "$f_direct" \
			"direct returns of $n dropped packets, tracepoint vs fentry backend (RX ring $RX_RING)"
	fi
	check_fast_mix tracepoint $n
}

# `ppbench gen` as the source (live frames redirected out of A), and what
# load counts by default: exactly N packets of 60 bytes, cycles per packet
# from its NAPI poll clock, and no observer, so no pool.
test_nic_load_drop_gen() {
	nic_setup
	n=10000
	XDP0=$(xdp_packets "$B")
	load_start gen-drop "$B" --action drop --count $n --duration 60
	grep -q '^observer: none' gen-drop.out || fail "an observer by default: $(sed -n 2p gen-drop.out)"
	deliver $n gen_send
	wait $LOAD_PID || fail "load exited $?: $(tail -n 3 gen-drop.out)"
	jq_vars gen-drop.json G 'select(.type == "summary") | {PACKETS: .total.packets,
		BYTES: .total.bytes, CPP: (.total.cycles_per_packet // 0), POOLS: (.pools // [] | length)}'
	assert_eq "$G_PACKETS" $n "packets load counted"
	assert_eq "$(xdp_delta)" $n "xdp packets of $B's driver (ethtool -S)"
	assert_eq "$G_BYTES" $((n * 60)) "bytes of the 60-byte frames"
	assert_eq "$G_POOLS" 0 "pools in the summary without --paths"
	awk -v c="$G_CPP" 'BEGIN { exit !(c > 0) }' ||
		fail "no cycles per packet: $(summary gen-drop.json '.per_cpu | tojson')"
	note "gen-drop: $n packets, $G_CPP cycles/packet (load's defaults)"
}

# XDP_PASS: a UDP socket behind NIC B receives every datagram, and the pages
# come back through the ring (the socket frees them in process context, and
# vmxnet3 leaves p.napi unset: no direct recycling).
test_nic_load_pass_udp() {
	nic_setup
	n=2000
	size=100
	pktgen_setup $n $size
	XDP0=$(xdp_packets "$B")
	load_start pass "$B" --action pass --paths --duration 90
	udp_sink 9 $n $((size - 42)) 60 >sink.out 2>&1 &
	sink=$!
	BG="$BG $sink"
	wait_until 10 grep -q ready sink.out || fail "udp_sink: $(cat sink.out)"
	deliver $n pktgen_send
	wait $sink || fail "udp_sink: $(tail -n 1 sink.out); $(grep Udp: /proc/net/snmp | tr '\n' ' ')"
	# Stopped only now, so that its summary holds the socket's returns too.
	kill -INT $LOAD_PID
	wait $LOAD_PID || fail "load exited $?: $(tail -n 3 pass.out)"
	cat sink.out
	b_summary pass.json
	assert_eq "$B_PACKETS" $n "packets load counted"
	assert_eq "$(xdp_delta)" $n "xdp packets of $B's driver (ethtool -S)"
	[ "$B_NPOOLS" -ge 1 ] ||
		fail "no pool of $B (kind nic) in the summary: $(summary pass.json '.pools | tojson')"
	ring=$B_RRING
	cache=$B_RCACHE
	rel=$B_RREL
	note "pass: $n datagrams received; returns ring $ring cache $cache release $rel"
	assert_eq "$cache" 0 "direct returns under XDP_PASS"
	at_least "$ring" $n 0.95 "returns to $B's ring per datagram"
}

# watch NIC_B, started before any XDP attach: each attach re-creates the
# NIC's pools (one per RX queue); watch finds them through xdp:mem_connect,
# names them after NIC B, and follows the traffic into each new generation.
test_nic_watch_pools() {
	nic_setup
	n=5000
	ifindex=$(cat "/sys/class/net/$B/ifindex")
	nrq=$(ls -d /sys/class/net/"$B"/queues/rx-* | wc -l)
	rm -f w.out
	"$PPBENCH" watch "$B" --interval 0.5 --json w.json >w.out 2>&1 &
	wpid=$!
	BG="$BG $wpid"
	wait_until 60 started w.out $wpid
	grep -q '^time ' w.out || fail "watch did not start: $(tail -n 5 w.out)"
	pktgen_setup $n
	for g in 1 2; do
		XDP0=$(xdp_packets "$B")
		load_start g$g "$B" --action drop --paths --count $n --duration 60
		deliver $n pktgen_send
		wait $LOAD_PID || fail "load $g exited $?: $(tail -n 3 g$g.out)"
		eval "pool$g=\$(summary g$g.json '[.pools[] | select(.kind == \"nic\")][0].id')"
	done
	# one more interval after the last detach, then the summary
	sleep 1
	kill -INT $wpid
	wait $wpid || fail "watch exited $?: $(tail -n 5 w.out)"
	cat w.out
	grep -q "found a page_pool of $B" w.out || fail "watch never says it found a pool of $B"
	[ -n "$pool1" ] && [ -n "$pool2" ] && [ "$pool1" != "$pool2" ] ||
		fail "the loads' pools are '$pool1' and '$pool2': not two generations"
	# NIC B's pools in the intervals: id, summed over the intervals
	jq -c "select(.type == \"interval\") | .pools[] | select(.ifindex == $ifindex)" w.json >rows
	jq -r 'select(.kind != "nic" or .dev != "'"$B"'") | "\(.id) \(.kind) \(.dev)"' rows >bad
	[ ! -s bad ] || fail "pools of ifindex $ifindex not named nic/$B: $(head -n 3 bad | tr '\n' ' ')"
	jq -s -r 'group_by(.id)[] | "\(.[0].id) \(map(.path.alloc.slow) | add) \(map(.path.ret.cache) | add)"' \
		rows >per_pool
	cat per_pool
	# each attach fills every RX queue's new pool from the page allocator
	filled=$(awk '$2 > 0' per_pool | wc -l)
	assert_eq "$filled" $((2 * nrq)) "pools of $B filled by 2 XDP attaches ($nrq RX queues)"
	for p in "$pool1" "$pool2"; do
		c=$(awk -v p="$p" '$1 == p { print $3 }' per_pool)
		[ -n "$c" ] || fail "watch never showed pool $p, which a load's traffic used"
		[ "$c" -ge $n ] || fail "watch saw $c direct returns in pool $p, the load sent $n packets"
	done
	note "watch: pools of $B with traffic $pool1, $pool2 (of $(wc -l <per_pool) shown; $nrq RX queues)"
	# The summary covers the whole run: the destroyed pools' traffic included.
	s=$(summary w.json '[.pools[] | .path.ret.cache] | add // 0')
	[ "$s" -ge $((2 * n)) ] ||
		fail "watch summary: $s direct returns in $B's pools, expected >= $((2 * n)) (pools: $(summary w.json '[.pools[] | "\(.id)/\(.kind)/\(.dev)"] | join(" ")'))"
}

# XDP_TX on NIC B: vmxnet3 returns the sent frames at TX completion through
# xdp_return_frame_bulk(), which ends in page_pool_put_page_bulk() (<= 6.13,
# one pool per call) or page_pool_put_netmem_bulk() (6.14+, entries of any
# pools). The fentry backend classifies every such page by its pool: the
# returns of B's pools add up to the frames sent back, and nothing is
# reported as not counted. (B's pools leave p.napi unset: no direct recycle,
# the pages go to the ring.)
test_nic_load_tx_bulk() {
	nic_setup
	n=5000
	pktgen_setup $n
	XDP0=$(xdp_packets "$B")
	load_start tx "$B" --action tx --paths --duration 120
	grep -q 'observer: fentry backend' tx.out || fail "load did not use fentry: $(head -n 2 tx.out)"
	deliver $n pktgen_send
	# TX completions come in later NAPI polls: give the last ones a moment.
	sleep 2
	kill -INT $LOAD_PID
	wait $LOAD_PID || fail "load exited $?: $(tail -n 3 tx.out)"
	grep 'not counted' tx.out && fail "load reports returns it did not count"
	b_summary tx.json
	assert_eq "$B_PACKETS" $n "packets load counted"
	ret=$((B_RCACHE + B_RRING + B_RREL))
	fn=page_pool_put_netmem_bulk
	grep -qx "$fn" /sys/kernel/tracing/available_filter_functions 2>/dev/null ||
		grep -q " $fn\$" /proc/kallsyms || fn=page_pool_put_page_bulk
	note "tx: $n frames sent back; $ret returns of $B's pages classified (ring $B_RRING, cache $B_RCACHE, release $B_RREL) through $fn"
	at_least "$ret" $n 0.95 "returns of $B's pages after XDP_TX (bulk, fentry)"
	[ "$ret" -le $((n + RX_RING)) ] || fail "$ret returns for $n frames sent back"
}

# SIGKILL of load: the kernel drops its bpf_link, so the program leaves NIC B,
# which then passes traffic again. (No --paths: the observer's links go the
# same way, and kernel_clean checks that nothing of ours is left.)
test_nic_load_sigkill() {
	nic_setup
	load_start k "$B" --action drop
	"$IP" link show "$B" | grep -q ' xdp' || fail "nothing attached to $B: $("$IP" link show "$B")"
	kill -9 $LOAD_PID
	wait $LOAD_PID
	has_xdp() { "$IP" link show "$B" | grep -q ' xdp'; }
	wait_until 10 eval '! has_xdp' || fail "SIGKILL left the program on $B: $("$IP" link show "$B")"
	wait_until 10 nic_is_up "$B" || fail "$B did not come back up"
	run_ok in_nsa ping -c 1 -W 5 10.0.0.2
}

cpu1_online() {
	echo 1 >/sys/devices/system/cpu/cpu1/online
}

# bench --iface NIC_B while pktgen keeps sending: 'fast' runs with the native
# NAPI recipe nic-drop, and the counters prove the path (purity >= 95 %).
#
# With CPU 1 offline. Under TCG, patching kernel text that the other vCPU is
# running has crashed this guest twice ("Oops: int3" at
# page_pool_alloc_pages+0x5 in vmxnet3's NAPI, and at __napi_poll+0x2e),
# while bench attached or detached its fentry and napi_poll programs with the
# traffic flowing - which is what this test is about. With one CPU there is
# no other vCPU to run the code being patched. pktgen sends slowly enough
# (< 10k frames/s) to sleep between frames rather than spin on that CPU.
# Traffic starts once bench has attached its XDP program: before, the frames
# would go up the stack to a closed port, which alone slows the guest
# several-fold.
test_nic_bench_fast() {
	nic_setup
	loops=5000
	f=/sys/devices/system/cpu/cpu1/online
	[ -w $f ] || skip "CPU 1 cannot be taken offline on this kernel (no $f)"
	trap 'cpu1_online; nic_teardown' EXIT
	echo 0 >$f 2>err.txt || skip "CPU 1 cannot be taken offline: $(cat err.txt)"
	PG_RATE=8000
	pktgen_setup 0
	"$PPBENCH" bench --iface "$B" --scenario fast --loops $loops --repeat 2 --json b.json \
		>b.out 2>&1 &
	bpid=$!
	BG="$BG $bpid"
	has_xdp() { "$IP" link show "$B" | grep -q ' xdp'; }
	bench_attached() { has_xdp || ! kill -0 $bpid 2>/dev/null; }
	wait_until 60 bench_attached
	pktgen_bg
	wait $bpid
	rc=$?
	pktgen_stop
	cpu1_online
	cat b.out
	[ $rc -eq 0 ] || fail "bench exited $rc: $(grep -i 'error\|warn' b.out | head -n 3)"
	jq_vars b.json F '.scenarios[] | select(.name == "fast") |
		{status, reason, recipe, accounting_backend, repeat, purity, purity_alloc,
		 purity_ret, proof_elems, foreign_probes}'
	assert_eq "$F_status" ok "fast status ($F_reason)"
	case "$F_recipe" in
	nic-drop*) ;;
	*) fail "fast chose recipe '$F_recipe', not nic-drop" ;;
	esac
	assert_eq "$F_accounting_backend" fentry "accounting backend"
	assert_eq "$F_repeat" 2 "repeat"
	pur=$F_purity
	at_least "$pur" 1 0.95 "fast purity with nic-drop"
	# its own napi_poll clock is not another tool's probe
	assert_eq "$F_foreign_probes" 0 "foreign probes"
	note "fast: recipe $(echo "$F_recipe" | cut -d';' -f1), purity $pur (alloc $F_purity_alloc," \
		"ret $F_purity_ret), proof $F_proof_elems packets, foreign probes $F_foreign_probes"
}

# watch_start: ppbench watch of NIC B in the background (w.out, w.json; its
# PID in wpid), through fentry, whose per-call times the pool tests read.
watch_start() {
	rm -f w.out
	"$PPBENCH" watch "$B" --interval 3600 --json w.json >w.out 2>&1 &
	wpid=$!
	BG="$BG $wpid"
	wait_until 60 started w.out $wpid
	grep -q '^ppbench watch: fentry' w.out || skip "watch has no fentry backend: $(head -n 1 w.out)"
}

# The NIC pool's paths, class by class, in what the guest's clock counts
# (instructions under the kernel matrix's icount): watch (fentry) sees two
# loads on NIC B, each attach filling new pools from the page allocator (the
# slow path of a DMA-mapped pool), drop recycling directly into the cache
# (fast), pass returning through the ring and refilling from it. Per class:
# the calls' time less the probe window, per call or per page. Reported, not
# asserted: only that each path was timed.
test_nic_pool_paths() {
	nic_setup
	n=5000
	watch_start
	pktgen_setup $n
	for a in drop pass; do
		XDP0=$(xdp_packets "$B")
		load_start $a "$B" --action $a --count $n --duration 60
		deliver $n pktgen_send
		wait $LOAD_PID || fail "load --action $a exited $?: $(tail -n 3 $a.out)"
	done
	kill -INT $wpid
	wait $wpid || fail "watch exited $?: $(tail -n 5 w.out)"
	pool_paths w.json
	for c in alloc-cache slow/page ret-cache ret-ring; do
		grep -q "$c [0-9]" paths.txt || fail "no timing of $c in $B's pools: $(cat paths.txt)"
	done
	note "$B's pools, per call (per page for refill and slow), probe window less: $(cat paths.txt)"
}

# pool_paths FILE: from watch's JSON, NIC B's pools class by class into
# paths.txt: "CLASS FIGURE (CALLS)", the figure per call (per page for the
# refill and the slow path) less the probe window, or n/a.
pool_paths() {
	summary "$1" '.' >s.json
	# per class over NIC B's pools: calls (or pages), ns, ns per unit less the
	# probe; a class's ns is its clean calls' mean times its calls (bench's
	# arithmetic, pool_path_ns()), its ns as they are where none was clean
	jq -r --arg b "$B" '(.probe_overhead_ns // 0) as $p |
		[.pools[] | select(.kind == "nic" and .dev == $b)] as $q |
		def sum(f): [$q[] | f // 0] | add // 0;
		def est($calls; $ns; $clean; $clean_ns):
			if $clean > 0 and $clean <= $calls then $clean_ns / $clean * $calls else $ns end;
		def cls($n; $calls; $units; $ns): if $units > 0 then
			"\($n) \((($ns - $p * $calls) / $units) * 10 | round / 10) (\($units))" else "\($n) n/a" end;
		def t($side; $k; $calls): est($calls; sum(.timing["\($side)_ns"][$k]);
			sum(.timing.clean_calls[$side][$k]); sum(.timing.clean_ns[$side][$k]));
		[cls("alloc-cache"; sum(.path.alloc.cache); sum(.path.alloc.cache); t("alloc"; "cache"; sum(.path.alloc.cache))),
		 cls("refill/page"; sum(.path.alloc.refill); sum(.path.alloc.refill_pages); t("alloc"; "refill"; sum(.path.alloc.refill))),
		 cls("slow/page"; sum(.path.alloc.slow); sum(.path.alloc.slow_pages); t("alloc"; "slow"; sum(.path.alloc.slow))),
		 cls("ret-cache"; sum(.path.ret.cache); sum(.path.ret.cache); t("ret"; "cache"; sum(.path.ret.cache))),
		 cls("ret-ring"; sum(.path.ret.ring); sum(.path.ret.ring); t("ret"; "ring"; sum(.path.ret.ring))),
		 cls("release"; sum(.path.ret.release); sum(.path.ret.release); t("ret"; "release"; sum(.path.ret.release)))]
		| join("; ")' s.json >paths.txt || fail "watch's summary has no NIC pool timing: $(head -c 300 s.json)"
	cat paths.txt
}
