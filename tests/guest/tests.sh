# SPDX-License-Identifier: GPL-2.0
#
# Kernel-matrix guest tests (busybox sh), run in the order written here.
# Adding one = writing a function test_NAME; helpers are in lib.sh. Each test
# starts in an empty scratch directory ($T). Select with
#   scripts/kernel-matrix.sh --tests 'probe_* env_veth'

# `ppbench probe` works on this kernel at all.
test_probe_runs() {
	run_ok "$PPBENCH" probe >probe.txt 2>&1
	cat probe.txt
	grep -q "kernel $(uname -r)" probe.txt || fail "probe does not name kernel $(uname -r)"
}

# fentry/fexit are refused on the development host; these kernels allow them,
# so this is where the fentry accounting backend gets tested.
test_probe_fentry() {
	probe_json probe.json
	v=$(json_get probe.json fentry)
	[ "$v" = true ] || fail "probe says fentry: $v ($(json_get probe.json fentry_error))"
	assert_eq "$(json_get probe.json accounting_backend)" fentry "accounting backend"
}

test_probe_live_frames() {
	probe_json probe.json
	v=$(json_get probe.json live_frames)
	[ "$v" = true ] || fail "probe says live_frames: $v"
	assert_eq "$(json_get probe.json ring)" true "ring scenario available"
}

# The host ships the package's config as /boot/config-RELEASE: probe must read
# it (the Debian kernels have no /proc/config.gz).
test_probe_kconfig() {
	probe_json probe.json
	assert_eq "$(json_get probe.json page_pool_stats_source)" "kernel config" \
		"where CONFIG_PAGE_POOL_STATS came from"
	echo "CONFIG_PAGE_POOL_STATS: $(json_get probe.json page_pool_stats)"
}

# The embedded default environment: namespaces + veth work in the guest, and
# nothing of them is left once ppbench env returns.
test_env_veth() {
	run_ok "$PPBENCH" env -- sh -c '
		readlink /proc/self/ns/net >netns
		echo "$PPB_IF_A $PPB_IP_A -> $PPB_IF_B $PPB_IP_B"
		ping -c 1 -W 2 "$PPB_IP_B"'
	ns=$(cat netns)
	[ -n "$ns" ] || fail "the command did not run in the environment"
	[ "$ns" != "$(readlink /proc/self/ns/net)" ] || fail "the command ran in the root namespace"
	# The namespaces live only as long as a process or an open fd refers to them.
	for f in /proc/[0-9]*/ns/net /proc/[0-9]*/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" = "$ns" ] && fail "namespace $ns still referenced by $f"
	done
	for l in /sys/class/net/ppb*; do
		[ -e "$l" ] && fail "link ${l##*/} left behind"
	done
	pidof ppbench && fail "a ppbench process is still running"
	return 0
}

# Modules the tests rely on are loaded (init insmods /modules/*.ko).
test_modules_loaded() {
	mods="veth pktgen"
	[ "${PPB_NIC_MODE:-none}" != none ] && mods="$mods vmxnet3"
	for m in $mods; do
		[ -d "/sys/module/$m" ] || fail "module $m is not loaded"
	done
	echo "loaded: $mods"
}

# Issue 8 plumbing: two vmxnet3 NICs, up, with native XDP (6.12 only; the 6.1
# vmxnet3 driver has no XDP, so there this skips).
test_nic_present() {
	need_nics
	for n in "$PPB_NIC_A" "$PPB_NIC_B"; do
		assert_eq "$(nic_driver "$n")" vmxnet3 "driver of $n"
		wait_until 10 nic_is_up "$n" || fail "$n did not come up ($(cat "/sys/class/net/$n/operstate"))"
	done
	run_ok "$ETHTOOL" -i "$PPB_NIC_B"
	probe_json probe.json "$PPB_NIC_B"
	assert_eq "$(json_get probe.json driver)" vmxnet3 "probe $PPB_NIC_B: driver"
	feats=$(json_list probe.json xdp_features | tr '\n' ' ')
	echo "$PPB_NIC_B XDP features: $feats"
	case " $feats " in
	*" basic "*) ;;
	*) fail "probe $PPB_NIC_B reports no native XDP (features: '$feats')" ;;
	esac
}

# Issue 8 plumbing: frames from NIC A (namespace nsa) reach NIC B over the hub.
test_nic_hub() {
	need_nics
	trap nic_join EXIT
	nic_split
	run_ok "$IP" netns exec nsa ping -c 3 -W 2 10.0.0.2
}

# No kernel warning, BUG or oops since /init started (the runner puts it last).
test_kernel_clean() {
	start=$(cat /run/dmesg-start)
	dmesg | tail -n +$((start + 1)) >new.log
	if grep -E 'WARNING:|BUG:|Oops|general protection|Call Trace' new.log; then
		fail "kernel log: $(grep -m1 -E 'WARNING:|BUG:|Oops|general protection|Call Trace' new.log)"
	fi
	echo "$(wc -l <new.log) new kernel log lines, none alarming"
}
