#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ppbench load and gen on the private veth pair: exact counts, clean detach.
#
# Each test runs a scenario function inside 'ppbench env' (side a); side b is
# reached with nsenter. Scenario functions are shipped with declare -f.

# in_env FUNCTION...: run the functions' last one inside a private veth pair
in_env() {
	local f defs=""
	for f in "$@"; do defs+="$(declare -f "$f")"$'\n'; done
	"$PPBENCH" env -- bash -c "set -u; PPBENCH=$PPBENCH; TOOLS=$TOP/build/tests; TMPD=$TMPD
$(declare -f fail wait_for_output assert_eq)
$defs
${*: -1}"
}

# in_b CMD...: run in side b
in_b() {
	nsenter --net="$PPB_NS_B" "$@"
}

# start_load SIDE NAME ARGS...: load in the background, wait until it reports
start_load() {
	local side=$1 name=$2
	shift 2
	# Emptied here, not by the child's redirection: a busy host may run the
	# child late, and the wait below must not find an earlier load's header.
	: >"$TMPD/$name.out"
	# nsenter execs ppbench: $! is ppbench itself (a function would be a subshell)
	if [ "$side" = b ]; then
		nsenter --net="$PPB_NS_B" "$PPBENCH" load "$@" --json "$TMPD/$name.json" \
			>"$TMPD/$name.out" 2>&1 &
	else
		"$PPBENCH" load "$@" --json "$TMPD/$name.json" >"$TMPD/$name.out" 2>&1 &
	fi
	eval "PID_$name=$!"
	wait_for_output "$TMPD/$name.out" '^time ' 10
}

summary_of() { # NAME FILTER
	jq -r "select(.type == \"summary\") | $2" "$TMPD/$1.json"
}

xdp_packets() { # IFACE (in the current namespace)
	ethtool -S "$1" | awk '/rx_queue_[0-9]+_xdp_packets/ {n += $2} END {print n + 0}'
}

# ---- drop: gen, load, the veth's own counter and the kernel's count of the
# program's runs all say N -------------------------------------------------------

sc_drop() {
	local n=100000
	start_load b load "$PPB_IF_B" --action drop --count $n --interval 0.2 --prog-costs
	"$PPBENCH" gen "$PPB_IF_A" --count $n --json "$TMPD/gen.json" >"$TMPD/gen.out" ||
		fail "gen failed: $(cat "$TMPD/gen.out")"
	wait "$PID_load" || fail "load exited $?"
	assert_eq "$(jq -r 'select(.type == "summary") | .frames' "$TMPD/gen.json")" $n "gen frames"
	assert_eq "$(jq -r 'select(.type == "summary") | .taken' "$TMPD/gen.json")" $n "taken by veth"
	assert_eq "$(summary_of load .total.packets)" $n "load packets"
	assert_eq "$(summary_of load .total.bytes)" $((n * 60)) "load bytes (60-byte frames)"
	assert_eq "$(in_b bash -c "$(declare -f xdp_packets); xdp_packets $PPB_IF_B")" $n \
		"veth xdp_packets (ethtool -S)"
	grep -q '^summary: ' "$TMPD/load.out" || fail "no load summary"
	# --prog-costs: the kernel's run-time stats saw the XDP program run once per frame
	assert_eq "$(jq -r 'select(.type == "prog_costs") | .programs[] |
		select(.name == "ppb_xdp_load") | .runs' "$TMPD/load.json")" $n "ppb_xdp_load runs"
	grep -qE '^  all of ours +[0-9.]+  \(packets: the runs of ppb_xdp_load\)$' "$TMPD/load.out" ||
		fail "no per-packet total of the program costs"
}

test_gen_load_drop_exact() {
	needs_host live-frames
	in_env start_load summary_of xdp_packets in_b sc_drop
}

# ---- pass: N datagrams reach a UDP socket with the right payload ----------

sc_pass() {
	local n=20000 size=200
	start_load b load "$PPB_IF_B" --action pass --count $n --interval 0.2
	in_b "$TOOLS/udp_sink" 9 $n $((size - 42)) 20 >"$TMPD/sink.out" &
	local sink=$!
	wait_for_output "$TMPD/sink.out" ready 5
	"$PPBENCH" gen "$PPB_IF_A" --count $n --size $size -q >/dev/null || fail "gen failed"
	wait $sink || fail "socket: $(cat "$TMPD/sink.out")"
	wait "$PID_load"
	assert_eq "$(summary_of load .total.packets)" $n "load packets"
	grep -q "received $n datagrams, $n of $((size - 42)) bytes" "$TMPD/sink.out" ||
		fail "sink: $(cat "$TMPD/sink.out")"
}

test_load_pass_udp_delivery() {
	needs_host live-frames
	in_env start_load summary_of in_b sc_pass
}

# ---- tx: frames bounce back to the sender side ----------------------------

sc_tx() {
	local n=50000
	start_load b loadb "$PPB_IF_B" --action tx --count $n --interval 0.2
	start_load a loada "$PPB_IF_A" --action drop --count $n --interval 0.2
	"$PPBENCH" gen "$PPB_IF_A" --count $n -q >/dev/null || fail "gen failed"
	wait "$PID_loadb"
	wait "$PID_loada" || fail "sender side did not see $n frames back"
	assert_eq "$(summary_of loadb .total.packets)" $n "tx side packets"
	assert_eq "$(summary_of loada .total.packets)" $n "frames back on the sender side"
}

test_load_tx_bounce() {
	needs_host live-frames
	in_env start_load summary_of in_b sc_tx
}

# ---- redirect through a devmap to a second pair in namespace b ------------

sc_redirect() {
	local n=50000 egress=$1
	in_b ip link add ppbc0 type veth peer name ppbc1 || fail "second pair"
	in_b ip link set ppbc0 up
	in_b ip link set ppbc1 up
	start_load b sink ppbc1 --action drop --interval 0.2 --duration 30
	# shellcheck disable=SC2086
	start_load b load "$PPB_IF_B" --action redirect ppbc0 $egress --count $n --interval 0.2
	"$PPBENCH" gen "$PPB_IF_A" --count $n -q >/dev/null || fail "gen failed"
	wait "$PID_load"
	if [ -n "$egress" ]; then
		assert_eq "$(summary_of load '[.per_cpu[] | select(.role == "egress") | .packets] |
			add')" $n "dropped by the devmap egress program"
	else
		assert_eq "$(summary_of load .errors.xmit_sent)" $n "taken by ppbc0 (devmap xmit)"
	fi
	sleep 0.5
	kill -INT "$PID_sink"
	wait "$PID_sink"
	local got
	got=$(summary_of sink .total.packets)
	if [ -n "$egress" ]; then
		assert_eq "$got" 0 "nothing reaches the second pair"
	else
		assert_eq "$got" $n "the second pair's peer received them"
	fi
}

test_load_redirect_devmap() {
	needs_host live-frames
	in_env start_load summary_of in_b sc_redirect "sc_redirect ''"
}

test_load_redirect_egress_drop() {
	needs_host live-frames
	in_env start_load summary_of in_b sc_redirect "sc_redirect --egress-drop"
}

# ---- cpu: cpumap to the other CPU, remote drop ------------------------------

sc_cpu() {
	local n=50000
	start_load b load "$PPB_IF_B" --action cpu 1 --count $n --interval 0.2
	"$PPBENCH" gen "$PPB_IF_A" --count $n -q >/dev/null || fail "gen failed"
	wait "$PID_load"
	local remote drops
	sleep 0.2
	remote=$(summary_of load '[.per_cpu[] | select(.role == "cpumap") | .packets] | add // 0')
	drops=$(summary_of load .errors.cpumap_drops)
	assert_eq "$((remote + drops))" $n "dropped remotely + queue-full drops"
	[ "$remote" -gt 0 ] || fail "nothing reached CPU 1"
}

test_load_cpumap_remote_drop() {
	needs_host live-frames
	[ "$(nproc)" -ge 2 ] || skip "cpumap test needs 2 CPUs"
	in_env start_load summary_of in_b sc_cpu
}

# ---- the device pool's path mix: full-page skbs dropped -> ring -------------

sc_path_mix() {
	local n=300
	start_load b load "$PPB_IF_B" --action drop --paths --count $n --interval 0.2
	ping -q -c $n -i 0.002 -W 0.2 -s 1472 "$PPB_IP_B" >/dev/null
	wait "$PID_load"
	local pool='.pools[] | select(.kind == "veth")'
	assert_eq "$(summary_of load "$pool | .path.ret.ring")" $n "ring returns of the veth pool"
	assert_eq "$(summary_of load "$pool | .path.ret.cache")" 0 "no direct returns"
	assert_eq "$(summary_of load "$pool | .path.elems")" $n "allocations counted"
	assert_eq "$(summary_of load "$pool | .path.alloc.cache + .path.alloc.refill +
		.path.alloc.slow")" $n "allocations by source"
}

test_load_veth_pool_path_mix() {
	needs_host live-frames
	in_env start_load summary_of in_b sc_path_mix
}

# ---- a full observer table is said: watch and load with no room at all ------

# Every interval and the summary carry the JSON's untracked counts, and the
# run's show its pool: the veth's, whose events found the table full.
untracked_seen() { # NAME (of TMPD/NAME.json and .out)
	assert_eq "$(jq -s '[.[] | select(.type) | .untracked | objects] | length' \
		"$TMPD/$1.json")" "$(jq -s '[.[] | select(.type)] | length' "$TMPD/$1.json")" \
		"$1: untracked in every interval and the summary"
	[ "$(summary_of "$1" .untracked.pools)" -ge 1 ] || fail "$1: no untracked pool"
	[ "$(summary_of "$1" .untracked.events)" -ge 1 ] || fail "$1: no untracked event"
	grep -qE "UNTRACKED: [1-9][0-9]* pools? and [1-9][0-9]* of (its|their) events not \
counted: the observer's table \(room for 0 pools\) was full" "$TMPD/$1.out" ||
		fail "$1: no UNTRACKED: line: $(cat "$TMPD/$1.out")"
}

sc_untracked() {
	local n=100
	export PPBENCH_TEST_MAX_POOLS=0
	"$PPBENCH" watch --interval 0.2 --json "$TMPD/watch.json" >"$TMPD/watch.out" 2>&1 &
	local wpid=$!
	wait_for_output "$TMPD/watch.out" '^time ' 10
	start_load b load "$PPB_IF_B" --action drop --paths --count $n --interval 0.2
	ping -q -c $n -i 0.002 -W 0.2 -s 1472 "$PPB_IP_B" >/dev/null
	wait "$PID_load" || fail "load exited $?"
	kill -INT $wpid
	wait $wpid || fail "watch exited $?"
	untracked_seen load
	untracked_seen watch
}

test_load_watch_untracked() {
	in_env start_load summary_of untracked_seen sc_untracked
}

# ---- watch IFACE keeps the pools each attach destroyed ----------------------

sc_watch_retired() {
	local n=300 i
	nsenter --net="$PPB_NS_B" "$PPBENCH" watch "$PPB_IF_B" --interval 0.2 \
		--json "$TMPD/watch.json" >"$TMPD/watch.out" 2>&1 &
	local wpid=$!
	wait_for_output "$TMPD/watch.out" '^time ' 10
	# each load attaches XDP: veth makes a new pool, and destroys it on detach
	for i in 1 2; do
		start_load b load "$PPB_IF_B" --action drop --count $n --interval 0.2
		ping -q -c $n -i 0.002 -W 0.2 -s 1472 "$PPB_IP_B" >/dev/null
		wait "$PID_load" || fail "load $i exited $?"
	done
	# The second pool's last returns come with its destroy, after the load
	# exited: wait (bounded) until an interval has shown them, then stop.
	# Usually the first look sees them; beside the suite's qemu guests one
	# came after 10 s (the destroy waits for its pages in flight).
	local sum
	for i in $(seq 150); do
		sum=$(jq -s '[.[] | select(.type == "interval") | .pools[] |
			select(.kind == "veth") | .path.ret.ring] | add' "$TMPD/watch.json" 2>/dev/null)
		[ "$sum" = $((2 * n)) ] && break
		sleep 0.2
	done
	kill -INT $wpid
	wait $wpid || fail "watch exited $?"
	grep -q '^summary: ' "$TMPD/watch.out" || fail "no watch summary"
	local ring
	ring=$(jq -s '[.[] | select(.type == "summary") | .pools[] | select(.kind == "veth") |
		.path.ret.ring] | add' "$TMPD/watch.json")
	assert_eq "$ring" $((2 * n)) "summary: ring returns of both destroyed veth pools"
	ring=$(jq -s '[.[] | select(.type == "interval") | .pools[] | select(.kind == "veth") |
		.path.ret.ring] | add' "$TMPD/watch.json")
	assert_eq "$ring" $((2 * n)) "the intervals add up to the same"
}

test_watch_iface_keeps_destroyed_pools() {
	in_env start_load summary_of sc_watch_retired
}

# ---- every exit path detaches ------------------------------------------------

sc_signals() {
	local sig
	for sig in INT TERM KILL; do
		: >"$TMPD/s.out" # not the last round's header (as start_load)
		nsenter --net="$PPB_NS_B" env --default-signal=INT "$PPBENCH" load "$PPB_IF_B" \
			>"$TMPD/s.out" 2>&1 &
		local pid=$!
		wait_for_output "$TMPD/s.out" '^time ' 10
		in_b ip link show "$PPB_IF_B" | grep -q ' xdp' || fail "$sig: nothing attached"
		kill -$sig $pid
		wait $pid
		for _ in $(seq 30); do
			in_b ip link show "$PPB_IF_B" | grep -q ' xdp' || break
			sleep 0.1
		done
		in_b ip link show "$PPB_IF_B" | grep -q ' xdp' && fail "SIG$sig left the program"
	done
	return 0
}

test_load_detach_on_signals() {
	in_env in_b sc_signals
}

sc_existing() {
	start_load b first "$PPB_IF_B" --action drop
	in_b "$PPBENCH" load "$PPB_IF_B" --duration 1 >"$TMPD/o" 2>"$TMPD/e"
	assert_eq $? 1 "second load exit code"
	grep -q "already has an XDP program" "$TMPD/e" || fail "error: $(cat "$TMPD/e")"
	in_b "$PPBENCH" load "$PPB_IF_B" --force --duration 1 >"$TMPD/o" 2>"$TMPD/e"
	assert_eq $? 1 "--force on another process's bpf_link"
	grep -q "held by another process's bpf_link" "$TMPD/e" || fail "error: $(cat "$TMPD/e")"
	kill -INT "$PID_first"
	wait "$PID_first"
}

test_load_refuses_existing_program() {
	in_env start_load in_b sc_existing
}

# libxdp: needs bpffs (mounted here in a private mount namespace); on this
# kernel freplace is refused, so it falls back to one program - and says so.
sc_multiprog() {
	in_b unshare -m bash -c "
		mount -t bpf bpf /sys/fs/bpf || exit 3
		$PPBENCH load $PPB_IF_B --multiprog --duration 1 --interval 0.5" >"$TMPD/m.out" 2>&1
	local rc=$?
	[ $rc = 3 ] && return 0
	assert_eq $rc 0 "multiprog load ($(cat "$TMPD/m.out"))"
	grep -q "ppbench load $PPB_IF_B .*libxdp" "$TMPD/m.out" || fail "no libxdp attach"
	in_b ip link show "$PPB_IF_B" | grep -q ' xdp' && fail "left attached after a clean exit"
	# libxdp attaches without a bpf_link: after a SIGKILL ppbench's reaper
	# child removes the program (and only then exits).
	in_b unshare -m bash -c "
		mount -t bpf bpf /sys/fs/bpf || exit 3
		echo \$\$ >$TMPD/k.pid
		exec $PPBENCH load $PPB_IF_B --multiprog --interval 0.5" >"$TMPD/k.out" 2>&1 &
	wait_for_output "$TMPD/k.out" '^time ' 10
	in_b ip link show "$PPB_IF_B" | grep -q ' xdp' || fail "nothing attached"
	kill -KILL "$(cat "$TMPD/k.pid")"
	wait
	for _ in $(seq 50); do
		in_b ip link show "$PPB_IF_B" | grep -q ' xdp' || break
		sleep 0.1
	done
	in_b ip link show "$PPB_IF_B" | grep -q ' xdp' && fail "SIGKILL left the libxdp program"
	grep -q "^ppbench load: warning: removed XDP program [0-9]* that a dead ppbench left" "$TMPD/k.out" ||
		fail "the reaper did not say what it removed: $(tail -n 2 "$TMPD/k.out")"
	for _ in $(seq 50); do
		grep -qx ppbench-reaper /proc/[0-9]*/comm 2>/dev/null || break
		sleep 0.1
	done
	grep -qx ppbench-reaper /proc/[0-9]*/comm 2>/dev/null && fail "the reaper did not exit"
	# without bpffs: one line, no attach
	in_b unshare -m bash -c "umount /sys/fs/bpf 2>/dev/null; \
		$PPBENCH load $PPB_IF_B --multiprog --duration 1" >"$TMPD/o" 2>"$TMPD/e"
	assert_eq $? 1 "multiprog without bpffs"
	assert_eq "$(wc -l <"$TMPD/e")" 1 "one error line"
	grep -q "bpffs is not mounted" "$TMPD/e" || fail "error: $(cat "$TMPD/e")"
}

test_load_multiprog_and_bpffs() {
	needs_host live-frames
	in_env in_b sc_multiprog
}

# ---- IPv6 --------------------------------------------------------------------

sc_ipv6() {
	local n=20000
	start_load b load "$PPB_IF_B" --action drop --count $n --interval 0.2
	"$PPBENCH" gen "$PPB_IF_A" --count $n --src-ip fd00::1 --dst-ip fd00::2 --size 100 \
		--json "$TMPD/g.json" >"$TMPD/g.out" || fail "gen: $(cat "$TMPD/g.out")"
	wait "$PID_load"
	assert_eq "$(summary_of load .total.packets)" $n "IPv6 frames"
	grep -q 'fd00::1:9 -> .* fd00::2:9' "$TMPD/g.out" || fail "plan: $(cat "$TMPD/g.out")"
}

test_gen_ipv6() {
	needs_host live-frames
	in_env start_load summary_of in_b sc_ipv6
}

# An IPv6 destination and no --size: the smallest valid IPv6/UDP frame (62 B),
# not the IPv4 default of 60 that cannot hold the headers.
sc_ipv6_default_size() {
	local n=1000
	start_load b load "$PPB_IF_B" --action drop --count $n --interval 0.2
	"$PPBENCH" gen "$PPB_IF_A" --count $n --src-ip fd00::1 --dst-ip fd00::2 \
		--json "$TMPD/g.json" >"$TMPD/g.out" 2>&1 || fail "gen: $(cat "$TMPD/g.out")"
	wait "$PID_load"
	assert_eq "$(jq -r 'select(.type == "summary") | .size' "$TMPD/g.json")" 62 "gen frame size"
	assert_eq "$(summary_of load .total.bytes)" $((n * 62)) "bytes load counted"
}

test_gen_ipv6_default_size() {
	needs_host live-frames
	in_env start_load summary_of in_b sc_ipv6_default_size
}

# ---- bad input ---------------------------------------------------------------

sc_bad_load() {
	local c args
	set +u
	"$PPBENCH" load nosuchif0 2>"$TMPD/e"
	assert_eq $? 2 "missing iface"
	# each: the arguments, and what the one error line must say
	for c in "--action warp|'warp' must be drop, pass, tx, redirect DEV or cpu N" \
		"--action redirect $PPB_IF_A|$PPB_IF_A is the interface itself" \
		"--action redirect nosuchif0|nosuchif0" "--action cpu 4096|cpu 4096" \
		"--action cpu 0 --qsize 0|--qsize" "--action cpu 0 --qsize 16385|--qsize" \
		"--action redirect|--action redirect needs a device" \
		"--egress-drop|--egress-drop needs --action redirect"; do
		args=${c%%|*}
		# shellcheck disable=SC2086
		"$PPBENCH" load "$PPB_IF_A" $args >/dev/null 2>"$TMPD/e"
		assert_eq $? 2 "load $args"
		assert_eq "$(wc -l <"$TMPD/e")" 1 "one error line for $args"
		grep -qF -- "${c#*|}" "$TMPD/e" ||
			fail "load $args: '$(cat "$TMPD/e")' does not say '${c#*|}'"
	done
	unshare -n "$PPBENCH" load lo >/dev/null 2>"$TMPD/e"
	assert_eq $? 2 "non-XDP interface"
	grep -q "no native XDP support" "$TMPD/e" || fail "error: $(cat "$TMPD/e")"
}

test_load_bad_input() {
	in_env sc_bad_load
}

sc_bad_gen() {
	local args
	# no XDP program or GRO on the peer: a veth cannot take XDP frames
	"$PPBENCH" gen "$PPB_IF_A" --count 10 >/dev/null 2>"$TMPD/e"
	assert_eq $? 2 "gen without a receiver"
	grep -q "cannot take XDP frames" "$TMPD/e" || fail "error: $(cat "$TMPD/e")"
	start_load b load "$PPB_IF_B" --action drop
	for args in "--size 59" "--size 3409" "--src-mac 02:00:00:00:00" "--dst-ip 10.1.2.300" \
		"--count 0" "--src-ip 10.77.0.1 --dst-ip fd00::2" "--cpus 9999"; do
		# shellcheck disable=SC2086
		"$PPBENCH" gen "$PPB_IF_A" $args >/dev/null 2>"$TMPD/e"
		assert_eq $? 2 "gen $args"
		assert_eq "$(wc -l <"$TMPD/e")" 1 "one error line for $args"
	done
	# not a veth: only with an explicit --dst-mac
	"$PPBENCH" gen lo --count 10 >/dev/null 2>"$TMPD/e"
	assert_eq $? 2 "gen on a non-veth without --dst-mac"
	grep -q "is not a veth: give --dst-mac" "$TMPD/e" || fail "error: $(cat "$TMPD/e")"
	kill -INT "$PID_load"
	wait "$PID_load"
}

# pthread_create() fails (an LD_PRELOAD shim returns EAGAIN, leaving errno
# alone): gen names the error it returned, in one line, and exits 1.
sc_gen_thread_fails() {
	start_load b load "$PPB_IF_B" --action drop
	LD_PRELOAD=$TOOLS/fail_pthread.so "$PPBENCH" gen "$PPB_IF_A" --count 10 -q \
		>"$TMPD/o" 2>"$TMPD/e"
	assert_eq $? 1 "gen exit status when its thread cannot start"
	assert_eq "$(wc -l <"$TMPD/e")" 1 "error lines"
	grep -q "cannot start the sending thread of CPU 0: Resource temporarily unavailable" \
		"$TMPD/e" || fail "error: $(cat "$TMPD/e")"
	kill -INT "$PID_load"
	wait "$PID_load"
}

test_gen_thread_fails() {
	needs_host live-frames
	in_env start_load summary_of in_b sc_gen_thread_fails
}

test_gen_bad_input() {
	in_env start_load in_b sc_bad_gen
}

# Multi-buffer programs: the cpumap program must carry the frags flag too, or
# the kernel refuses the map entry (xdp-tools 1.6.3's redirect-cpu bug).
sc_frags_cpu() {
	local n=20000
	start_load b load "$PPB_IF_B" --frags --action cpu 1 --count $n --interval 0.2
	"$PPBENCH" gen "$PPB_IF_A" --count $n -q >/dev/null || fail "gen failed"
	wait "$PID_load" || fail "load --frags --action cpu failed: $(cat "$TMPD/load.out")"
	local remote drops
	remote=$(summary_of load '[.per_cpu[] | select(.role == "cpumap") | .packets] | add // 0')
	drops=$(summary_of load .errors.cpumap_drops)
	assert_eq "$((remote + drops))" $n "frags: dropped remotely + queue-full drops"
}

test_load_frags_cpumap() {
	needs_host live-frames
	[ "$(nproc)" -ge 2 ] || skip "cpumap test needs 2 CPUs"
	in_env start_load summary_of in_b sc_frags_cpu
}

# Generic (SKB-mode) XDP: skbs through the stack, counted like native.
sc_skb_mode() {
	local n=300
	start_load b load "$PPB_IF_B" --skb --action drop --count $n --interval 0.2
	grep -q 'generic mode' "$TMPD/load.out" || fail "not in generic mode: $(head -1 "$TMPD/load.out")"
	ping -q -c $n -i 0.002 -W 0.2 -s 1472 "$PPB_IP_B" >/dev/null
	wait "$PID_load"
	assert_eq "$(summary_of load .total.packets)" $n "packets in generic mode"
	in_b ip link show "$PPB_IF_B" | grep -q 'xdpgeneric' && fail "left attached"
	return 0
}

test_load_generic_mode() {
	in_env start_load summary_of in_b sc_skb_mode
}
