#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ppbench probe: each answer cross-checked against an independent source.

test_probe_report() {
	expect_exit 0 "$PPBENCH" probe --json "$TMPD/p.json"
	local out=$LAST_OUT j=$TMPD/p.json
	assert_match "$out" "kernel release +$(uname -r)" "kernel release"
	assert_match "$out" '^ppbench will use:' "decision section"
	assert_eq "$(jq_get "$j" .schema)" "ppbench-probe/1" "schema"
	assert_eq "$(jq_get "$j" .kernel)" "$(uname -r)" "kernel"
	assert_eq "$(jq_get "$j" .btf)" true "btf"

	# TSC: within 5 % of the frequency the kernel reports in /proc/cpuinfo.
	local hz mhz
	hz=$(jq_get "$j" .tsc_hz)
	mhz=$(awk -F: '/^cpu MHz/ {print $2; exit}' /proc/cpuinfo)
	awk -v h="$hz" -v m="$mhz" 'BEGIN { r = h / (m * 1e6); exit !(r > 0.95 && r < 1.05) }' ||
		fail "tsc_hz $hz vs cpu MHz $mhz"
	assert_eq "$(jq_get "$j" .clocksource)" \
		"$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)" "clocksource"

	# CONFIG_PAGE_POOL_STATS as the kernel config says.
	local cfg=n
	if zgrep -q '^CONFIG_PAGE_POOL_STATS=y' /proc/config.gz 2>/dev/null ||
		grep -q '^CONFIG_PAGE_POOL_STATS=y' "/boot/config-$(uname -r)" 2>/dev/null; then cfg=y; fi
	if [ $cfg = y ]; then
		assert_eq "$(jq_get "$j" .page_pool_stats)" true "page_pool_stats"
	else
		assert_eq "$(jq_get "$j" .page_pool_stats)" false "page_pool_stats"
		assert_match "$out" 'CONFIG_PAGE_POOL_STATS +off' "text says off"
	fi

	# Tracepoints: present exactly when tracefs lists them.
	local tf=/sys/kernel/tracing
	[ -d $tf/events ] || mount -t tracefs nodev $tf 2>/dev/null
	if [ -d $tf/events ]; then
		for tp in page_pool:page_pool_state_hold xdp:xdp_redirect_map napi:napi_poll; do
			local want=false
			[ -d "$tf/events/${tp%%:*}/${tp#*:}" ] && want=true
			assert_eq "$(jq -r ".tracepoints[\"$tp\"]" "$j")" "$want" "tracepoint $tp"
		done
	fi
	umount $tf 2>/dev/null || true
}

# fentry: load the same object with bpftool in a private bpffs and compare.
test_probe_fentry_matches_bpftool() {
	expect_exit 0 "$PPBENCH" probe --json "$TMPD/p.json"
	local want=false
	if unshare -m sh -c "mount -t bpf bpf $TMPD && mkdir -p $TMPD/p && bpftool prog loadall \
		$TOP/build/probe.bpf.o $TMPD/p" >/dev/null 2>&1; then
		want=true
	fi
	assert_eq "$(jq_get "$TMPD/p.json" .fentry)" "$want" "fentry allowed"
	if [ $want = false ]; then
		assert_match "$LAST_OUT" 'fentry/fexit +refused \(EPERM\)|fentry/fexit +unsupported' "text"
	fi
	# live frames exist since 5.18, and some hosts refuse them to root
	want=true
	"$TOP/build/tests/host-can" live-frames >/dev/null || want=false
	assert_eq "$(jq_get "$TMPD/p.json" .live_frames)" $want "live frames"
	[ $want = false ] || assert_match "$LAST_OUT" 'live-frames BPF_PROG_RUN +ok' "live frames text"
}

test_probe_json_stdout() {
	expect_exit 0 "$PPBENCH" probe --json -
	jq -e . "$LAST_OUT" >/dev/null || fail "stdout is not only JSON"
}

test_probe_veth_iface() {
	expect_exit 0 "$PPBENCH" env -- sh -c '"$0" probe --json - "$PPB_IF_A"' "$PPBENCH"
	local j=$LAST_OUT
	assert_eq "$(jq_get "$j" .iface.driver)" veth "driver"
	assert_eq "$(jq_get "$j" .iface.kind)" veth "kind"
	assert_eq "$(jq -r '.iface.xdp_features | index("basic") != null' "$j")" true "basic XDP"
	assert_eq "$(jq_get "$j" .iface.xdp_attached)" none "nothing attached"
}
