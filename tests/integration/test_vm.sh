#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ppbench vm: real boots of Debian kernels under qemu's instruction clock
# (the kernel matrix's cache), the errors checked before a boot, the errors
# of a guest that panics or stops printing, the files that come back, and
# what is left after SIGTERM and SIGKILL: nothing. The figures themselves are
# never asserted, only that they are instructions.

DATA=$TOP/tests/data

# shellcheck source=tests/formats.sh
. "$TOP/tests/formats.sh"

# A Debian kernel in the matrix's cache (scripts/vm/kernel.sh, which vm and
# the matrix share), or skip (fail under CI=true: unavailable): no apt, no network.
need_kernel() { # SPEC -> K_DIR, K_KEY (VM_ARCH=arm64: an arm64 kernel)
	local log=$TMPD/kernel.log
	[ "${VM_ARCH:-}" = arm64 ] || command -v qemu-system-x86_64 >/dev/null ||
		unavailable "no qemu-system-x86_64 (scripts/install-deps.sh --kernels)"
	# shellcheck source=scripts/vm/kernel.sh
	. "$TOP/scripts/vm/kernel.sh"
	VM_WORK=$TMPD
	VM_APT_FRESH=86400
	kcache_use
	kernel_get "$1" >"$log" 2>&1 ||
		unavailable "kernel $1 is not available here: $(tail -n 1 "$log")"
}

# The work directories of ppbench vm runs (TMPDIR is ours: nothing else's).
vm_dirs() { find "$TMPD/tmp" -maxdepth 1 -name 'ppbench-vm.*' 2>/dev/null; }
vm_qemus() { pgrep -f "qemu-system-(x86_64|aarch64) .*$TMPD/tmp/ppbench-vm" || true; }

# The test's own output, for a failure found inside expect_exit (which redirects its command's).
exec 8>&1

# A shell's own error in vm's output (bash's "FILE: line N: ..." from the scripts vm runs):
# a bug of ours in every run that prints it, never a message for the user.
shell_errors() { # file...
	grep -hE ': line [0-9]+: .*(unbound variable|command not found|No such file or directory)' "$@"
}

# Two figures under the instruction clock that agree within 0.1 %, as two
# boots of one kernel do.
assert_boots_agree() { # a b what
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > 0 && b ~ /^[0-9.]+$/ && (b - a) / a > -0.001 &&
		(b - a) / a < 0.001) }' || fail "$3: ${1:-none} and ${2:-none}, more than 0.1 % apart"
}

vm() { # ppbench vm with its work directories in $TMPD/tmp; a shell error in its output fails
	local rc
	mkdir -p "$TMPD/tmp"
	TMPDIR=$TMPD/tmp "$PPBENCH" vm "$@" >"$TMPD/vm.out" 2>"$TMPD/vm.err"
	rc=$?
	cat "$TMPD/vm.out"
	cat "$TMPD/vm.err" >&2
	! shell_errors "$TMPD/vm.out" "$TMPD/vm.err" >"$TMPD/vm.shell" ||
		fail "a shell error in the output of vm $*: $(head -n 3 "$TMPD/vm.shell")" >&8
	return $rc
}

assert_nothing_left() { # what [SECONDS]
	local i
	for i in $(seq $((${2:-10} * 10))); do
		[ -z "$(vm_qemus)" ] && [ -z "$(vm_dirs)" ] && return 0
		sleep 0.1
	done
	ps -ef | grep -E '[q]emu-system|[p]pbench' | sed 's/^/  /'
	fail "$1: left behind: qemu $(vm_qemus | tr '\n' ' '), directories $(vm_dirs | tr '\n' ' ')"
}

# image_btf carves the largest BTF blob out of an arm64 Image, whole, under
# the matrix's pipefail: a canned image with a blob between 1 MiB of zeros
# and 8 MiB of other bytes.
test_vm_image_btf_carves_section() {
	local img=$TMPD/Image
	# shellcheck source=scripts/vm/kernel.sh
	. "$TOP/scripts/vm/kernel.sh"
	head -c 1048576 /dev/zero >"$img"
	# magic eb9f, version 1, flags 0, hdr_len 24; type 0+100, strings 100+50
	printf '\x9f\xeb\x01\x00\x18\x00\x00\x00\x00\x00\x00\x00\x64\x00\x00\x00\x64\x00\x00\x00\x32\x00\x00\x00' >>"$img"
	head -c 150 /dev/urandom >>"$img"
	head -c 8388608 /dev/urandom | tr -d '\237' >>"$img"
	(set -o pipefail && image_btf "$img" "$TMPD/btf") || fail "image_btf failed on a canned image"
	assert_eq "$(stat -c %s "$TMPD/btf")" 174 "bytes carved (header, types, strings)"
	cmp -s "$TMPD/btf" <(tail -c +1048577 "$img" | head -c 174) || fail "the carved bytes are not the blob"
}

# An x86-64 guest boots its kernel's ELF at the PVH entry, and one of one CPU
# without NICs boots without the local APIC timer: x86_pvh unpacks Debian's
# bzImage (zstd) into an ELF with the PVH note, refuses what is no bzImage,
# and guest_args boots vmlinux.pvh where the kernel directory has it, vmlinuz
# where not, and an arm64 Image as it is, every guest (vm's and the kernel
# matrix's) with one kernel command line.
test_vm_x86_boot() {
	local k=$TMPD/k
	need_kernel newest
	# shellcheck source=scripts/vm/guest.sh
	. "$TOP/scripts/vm/guest.sh"
	(set -o pipefail && x86_pvh "$K_DIR/vmlinuz" "$TMPD/vmlinux") || fail "x86_pvh failed on $K_DIR/vmlinuz"
	readelf -h "$TMPD/vmlinux" | grep -q 'Machine: *Advanced Micro Devices X86-64' ||
		fail "x86_pvh's output is no x86-64 ELF: $(file -b "$TMPD/vmlinux")"
	readelf -n "$TMPD/vmlinux" | grep -qE 'PHYS32_ENTRY|\(0x00000012\)' || fail "no PVH entry note"
	head -c 1048576 "$K_DIR/vmlinuz" >"$TMPD/cut"
	! x86_pvh "$TMPD/cut" "$TMPD/none" && [ ! -e "$TMPD/none" ] && [ ! -e "$TMPD/none.new" ] ||
		fail "x86_pvh made an image of a cut bzImage"
	! x86_pvh "$TMPD/vmlinux" "$TMPD/none" || fail "x86_pvh took an ELF for a bzImage"
	mkdir -p "$k"
	guest_args "$k" "$TMPD/initrd" icount 1 none ""
	assert_match "${GUEST_ARGS[*]}" "-kernel $k/vmlinuz " "no vmlinux.pvh: the bzImage"
	: >"$k/vmlinux.pvh"
	guest_args "$k" "$TMPD/initrd" icount 1 none ""
	assert_match "${GUEST_ARGS[*]}" "-kernel $k/vmlinux.pvh " "the PVH image"
	assert_match "${GUEST_ARGS[*]}" " quiet noapictimer " "x86-64, 1 CPU, no NIC: no APIC timer"
	guest_args "$k" "$TMPD/initrd" icount 2 none ""
	[[ "${GUEST_ARGS[*]}" != *noapictimer* ]] || fail "2 CPUs: noapictimer on the command line"
	guest_args "$k" "$TMPD/initrd" icount 1 xdp ""
	[[ "${GUEST_ARGS[*]}" != *noapictimer* ]] || fail "NICs: noapictimer on the command line"
	GUEST_ARCH=arm64 guest_args "$k" "$TMPD/initrd" icount 1 none ""
	assert_match "${GUEST_ARGS[*]}" "-kernel $k/vmlinuz " "arm64: its Image"
	[[ "${GUEST_ARGS[*]}" != *noapictimer* ]] || fail "arm64 has no APIC: noapictimer on its command line"
	[ -s "$K_DIR/vmlinux.pvh" ] || fail "kernel_get left no vmlinux.pvh in $K_DIR"
	# the kernel matrix's guests boot with vm's command line: deferred work
	# kept out of the spans, the qemu release named, the caller's words after
	guest_args "$K_DIR" "$TMPD/initrd" icount 2 both "loglevel=7"
	assert_match "${GUEST_ARGS[*]}" \
		" quiet rcu_nocbs=all nowatchdog damon_stat.enabled=N loglevel=7 ppbench\.qemu=[0-9]" \
		"every guest's command line"
}

# apt's answer to "which kernel package is KERNEL" is kept in the cache and
# given again while apt's lists are unchanged, and asked again once they
# change; a package apt does not have is kept as such. apt-cache is a stand-in
# that counts its calls; the apt configuration is a private one.
test_vm_kernel_resolution_cached() {
	local a=$TMPD/apt n
	mkdir -p "$TMPD/bin" "$a/lists"
	: >"$a/status"
	cat >"$TMPD/bin/apt-cache" <<-EOF
		#!/bin/sh
		echo "\$*" >>"$TMPD/calls"
		[ "\$1 \$2" = "policy linux-image-x" ] && echo "  Candidate: 1.0"
		exit 0
	EOF
	chmod +x "$TMPD/bin/apt-cache"
	# shellcheck source=scripts/vm/kernel.sh
	. "$TOP/scripts/vm/kernel.sh"
	KCACHE=$TMPD/kc
	export APT_CONFIG=$a/apt.conf
	PATH=$TMPD/bin:$PATH
	assert_eq "$(resolve_once linux-image-x)" "linux-image-x 1.0" "apt's answer"
	n=$(wc -l <"$TMPD/calls")
	assert_eq "$(resolve_once linux-image-x)" "linux-image-x 1.0" "the kept answer"
	resolve_once linux-image-none && fail "a package apt has not"
	resolve_once linux-image-none && fail "a package apt has not, kept"
	assert_eq "$(wc -l <"$TMPD/calls")" $((n + 2)) "apt asked once a package, no more"
	touch -d '+1 minute' "$a/lists"
	assert_eq "$(resolve_once linux-image-x)" "linux-image-x 1.0" "apt's answer, lists updated"
	assert_eq "$(wc -l <"$TMPD/calls")" $((2 * n + 2)) "asked again once the lists changed"
}

# A package's modules tree has no modules.dep (depmod makes it at
# installation): each module's dependencies come from its own .modinfo,
# deepest first, compressed or not; a built-in module is not copied.
test_vm_module_deps_from_modinfo() {
	local root=$TMPD/lib/modules/6.1.0-test-arm64 d=$TMPD/k
	# shellcheck source=scripts/vm/kernel.sh
	. "$TOP/scripts/vm/kernel.sh"
	mkdir -p "$root/kernel/drivers" "$d"
	mod() { printf 'ELF junk\0name=%s\0depends=%s\0vermagic=6.1\0' "$1" "$2"; }
	mod virtio_console virtio_pci_lib >"$root/kernel/drivers/virtio_console.ko"
	mod virtio_pci virtio_pci_modern_dev,virtio_pci_lib | xz >"$root/kernel/drivers/virtio_pci.ko.xz"
	mod virtio_pci_modern_dev virtio_pci_lib >"$root/kernel/drivers/virtio_pci_modern_dev.ko"
	mod virtio_pci_lib "" >"$root/kernel/drivers/virtio_pci_lib.ko"
	mod veth "" >"$root/kernel/drivers/veth.ko"
	echo kernel/drivers/net/vmxnet3/vmxnet3.ko >"$root/modules.builtin"
	VM_ARCH=arm64 VM_SAY_FD=2 copy_modules "$root" "$d" test 2>"$TMPD/say"
	assert_eq "$(tr '\n' ' ' <"$d/modules/ORDER")" \
		"veth virtio_pci_lib virtio_pci_modern_dev virtio_pci virtio_console " \
		"each module after its dependencies, once"
	grep -q 'depends=virtio_pci_modern_dev' "$d/modules/virtio_pci.ko" ||
		fail "virtio_pci.ko.xz not copied as a plain .ko"
	assert_match "$(cat "$TMPD/say")" 'module pktgen not in the package' "a missing module is said"
	! grep -q vmxnet3 "$TMPD/say" || fail "a built-in module was called missing: $(cat "$TMPD/say")"
}

# upstream_module_checks A B: the module cross-check of A/B's two results
# (test_vm_ab_two_kernels): A's kernel refused the module, B's ran it.
upstream_module_checks() {
	local a=$1 b=$2 s n
	jq -e '[.scenarios[].upstream_module | .status == "failed" and
		(.reason | startswith("the kernel refused "))] | length == 1 and all' "$a" >/dev/null ||
		fail "a: 6.12 loaded newest's module: $(jq -c '[.scenarios[].upstream_module |
			{status, reason}]' "$a")"
	for s in ring; do
		n=50000
		assert_match "$LAST_OUT" "^\[b\]   $s +path [0-9.]+, module's no-softirq-page_pool0[123] [0-9.]+: method error [-+][0-9.]+ %\$" \
			"b: $s: the method error in the report"
		jq -e --arg s "$s" --argjson n $n '.scenarios[] | select(.name == $s) |
			.upstream_module as $u | $u.status == "ok" and $u.loops == [$n, 2 * $n] and
			($u.cycles_per_elem | length) == 2 and ($u.cycles_per_elem | all(. > 0)) and
			$u.profile.elems == $n and $u.profile.windows == 2 and
			(([$u.profile.functions[].per_elem] | add) - $u.profile.per_elem | fabs) < 0.01 and
			([$u.profile.functions[] | select(.module == "bench_page_pool" and
				.kind == "module" and (.name | startswith("time_bench_")) and
				.group == "test_run")] | length) > 0 and
			$u.path_cost_cycles.method == "profile" and
			$u.method_error.module_loop == $u.path_cost_cycles.value and
			$u.method_error.scenario == .path_cost_profile.value' "$b" >/dev/null ||
			fail "b: $s: the module loop's profile: $(jq -c --arg s "$s" '.scenarios[] |
				select(.name == $s) | .upstream_module | del(.profile) |
				.method_error.functions |= .[0:4]' "$b")"
		# Only the differences the methods have by design are excused, each the
		# sum of its functions in this boot's two profiles (the module's copy of
		# page_pool's inline helpers; the page allocator's functions, which the
		# loop never enters: the scenario's first pages); what is left is the
		# method's error. It stays within 5 %: the return's own code differs in
		# its context (softirq against the module's process context) by a few
		# instructions inside one function, which no function-level profile
		# can take apart.
		jq -e --arg s "$s" '.scenarios[] | select(.name == $s) | .upstream_module.method_error |
			.module_loop as $m | [.functions[] | select(.group == "page allocator") |
				.module_loop] as $pa |
			([.functions[] | select(.module and .group == "page_pool" and .scenario == 0) |
				.change] | add // 0) as $copy |
			(if ($pa | add // 0 | fabs) < 0.01 * $m then
				[.functions[] | select(.group == "page allocator") | .change] | add // 0
			else 0 end) as $first |
			((.excused["inline copy"] - $copy) | fabs) < 0.01 and
			((.excused["first pages"] - $first) | fabs) < 0.01 and
			((.residual_pct - 100 * (.scenario - $m - $copy - $first) / $m) | fabs) < 0.01 and
			(.residual_pct | fabs) <= 5' "$b" >/dev/null ||
			fail "b: $s: the method error less the differences by design is over 5 %: $(jq -c \
				--arg s "$s" '.scenarios[] | select(.name == $s) | .upstream_module.method_error |
				del(.what) | .functions |= .[0:6]' "$b")"
	done
}

# callgraph_checks FILE FOLDED: the call graph of ring's profile in FILE
# (test_vm_ab_two_kernels) is exact: each function's self is the flat
# profile's (within 0.1 % of each of 1 instruction per element or more, and
# 0.1 % of the figure in all), the root's children the profile's figure (its
# own check puts that within 0.5 % of the clock's), at most 0.1 % of its
# instructions charged after a recovery; an interrupt is a chain of its own,
# rooted at its entry; FOLDED holds every instruction of the windows.
callgraph_checks() {
	local f=$1 folded=$2
	jq -e '.scenarios[] | select(.name == "ring") | .profile as $p | $p.callgraph as $g |
		def key: .name + "|" + (.module // "");
		($g.functions | map({key: key, value: .self}) | from_entries) as $self |
		($p.functions | map({key: key, value: .per_elem}) | from_entries) as $flat |
		([$flat | to_entries[] | {f: .value, d: (($self[.key] // 0) - .value)}] +
		 [$self | to_entries[] | select($flat[.key] == null) | {f: 0, d: .value}]) as $rows |
		($rows | all(.f < 1 or (.d | fabs) <= 0.001 * .f)) and
		([$rows[].d | fabs] | add) <= 0.001 * $p.per_elem and
		(($g.per_elem - $p.per_elem) | fabs) <= 1e-9 * $p.per_elem and
		$g.recovered_pct <= 0.1 and
		([$g.chains[].chain | select(test("irq_entries_start|asm_sysvec_|asm_exc_")) |
			select(test("(irq_entries_start|asm_sysvec_[a-z_]+|asm_exc_[a-z_]+)$") | not)] |
			length) == 0' "$f" >/dev/null ||
		fail "$f: ring's call graph is not exact: $(jq -c '.scenarios[] | select(.name == "ring") |
			.profile as $p | $p.callgraph | {per_elem, flat: $p.per_elem, recoveries,
			unmatched, recovered_pct, causes: .causes[0:3],
			self: [.functions[] | {(.name): .self}][0:8] | add,
			chains: [.chains[] | select(.chain | test("interrupt|irq_entries"))][0:3]}' "$f")"
	assert_eq "$(awk '{ n += $NF } END { print n }' "$folded")" \
		"$(jq '.scenarios[] | select(.name == "ring") | .profile.callgraph.instructions' "$f")" \
		"$folded: every instruction of ring's windows"
}

# Two real boots side by side (vm --against-debian): Debian's 6.12 (a, the
# baseline) and newest (b) run the same bench; each result comes back under
# its name (b's replacing an older file by a rename), each guest's output
# after its name, then compare's table of the two and the gate's status (a
# --limit far below ring's figure: exit 3). Both boots run --profile (the
# suite's one real boot with it, under Debian's qemu): ring's timed runs
# profiled, the functions adding up to the figure the clock gave (within
# 0.5 %), page_pool's code and the XDP program found by name, the path figure
# from the profile, the guest's page size in it (the bound of the kernel's
# code among the modules), no task switched in inside a span (bench's timed chunks
# run at SCHED_FIFO there, and vm keeps the stopper and the fair server out),
# and compare's profile diff after its table; its call graph exact
# (callgraph_checks), and newest's with page_pool's return reached through
# XDP's (a chain of tail calls). b's file is then checked as one boot's: its
# clock, its kernel, its mode, its exports.
# Both also load the upstream module the kernel matrix builds for newest
# (bench --upstream-module, carried into each guest): 6.12 refuses it, which
# is ring's failed cross-check with the kernel's reason, and newest runs it:
# its test 02 profiled as the difference of its two loads, found in the
# module's own code by its symbols of each load, its path figure and the
# method error of ring's against it, within 5 % once the differences the two
# methods have by design are taken out, each measured in this boot's profiles
# (ring's short runs here start each pool empty: its first pages come from the
# page allocator). Without the module (none built here) the rest runs, and
# the test says it skipped that part.
# Then newest boots again without --profile (the boot of a guest kernel that
# panics during the command: its panic line, exit 2), to run b's bench first:
# ring's figure without the profile's instruments agrees with b's, taken with
# them, as closely as two boots of one kernel do (0.1 %).
test_vm_ab_two_kernels() {
	local f=$TMPD/r.json a=$TMPD/r.a.json b=$TMPD/r.b.json ko mod=() why= plain prof
	need_kernel 6.12
	local rel_a
	rel_a=$(cat "$K_DIR/RELEASE")
	need_kernel newest
	# the matrix builds the module into the cache beside the kernel, under this lock
	flock "$KCACHE/.lock" true
	ko=$KCACHE/$K_KEY/upstream/bench_page_pool.ko
	if [ -f "$ko" ]; then
		mod=(--upstream-module "$ko")
	else
		why=$(cat "$KCACHE/$K_KEY/upstream/WHY" 2>/dev/null ||
			echo 'the kernel matrix has not built it')
	fi
	echo old >"$b"
	expect_exit 3 vm -q --profile --against-debian 6.12 --limit ring=1 -- bench --scenario ring \
		--repeat 2 --loops 50000 "${mod[@]}" --json "$f"
	[ ! -e "$f" ] || fail "--json F wrote F itself, not F.a.json and F.b.json"
	assert_eq "$(jq_get "$a" .host.kernel)" "$rel_a" "a: the baseline (--against-debian 6.12)"
	assert_eq "$(jq_get "$b" .host.kernel)" "$(cat "$K_DIR/RELEASE")" "b: the kernel under test"
	for side in a b; do
		assert_match "$LAST_OUT" "^\[$side\] Type:ppbench_ring Per elem: [0-9]+ cycles\(tsc\) " \
			"$side's time_bench line, after its name"
	done
	assert_match "$LAST_OUT" '^\[b\] scenario +instr/el ' "the summary says instructions"
	assert_match "$LAST_OUT" '^\[b\] figures are guest instructions per element' "and why"
	assert_match "$LAST_OUT" ' ring instr/elem$' "compare's table of the two"
	assert_match "$LAST_OUT" 'ring.*EXCEEDED' "the limit's line"
	assert_match "$LAST_OUT" '^ring [-+][0-9.]+ instr/elem \([0-9.]+ -> [0-9.]+, ' "compare's profile diff"
	assert_match "$LAST_OUT" '^ +[0-9.]+ +[-+][0-9.]+ +[0-9.]+  perf-profile\.self\.instructions-pp\.page_pool_[a-z_]+$' \
		"page_pool's functions in the diff"
	for side in a b; do
		jq -e '.scenarios[] | select(.name == "ring") | .profile as $p |
			$p.elems == 100000 and $p.errors == 0 and $p.windows >= 2 and
			$p.capture.page_size == 4096 and
			(([$p.functions[].per_elem] | add) - $p.per_elem | fabs) < 0.01 and
			(($p.per_elem - .cycles_per_elem.median) / .cycles_per_elem.median | fabs) < 0.005 and
			([$p.groups[] | select(.name == "page_pool") | .per_elem][0] > 50) and
			([$p.functions[] | select(.kind == "bpf" and (.name | startswith("ppb_")))] |
				length) > 0 and
			.path_cost_profile.method == "profile" and .path_cost_profile.value > 50 and
			(.path_cost_cycles | has("method"))' "$TMPD/r.$side.json" >/dev/null ||
			fail "$side: ring's profile: $(jq -c '.scenarios[0] | {clock: .cycles_per_elem.median,
				p: .profile.per_elem, e: .profile.elems, x: .profile.errors,
				g: [.profile.groups[] | {(.name): .per_elem}] | add}' "$TMPD/r.$side.json")"
		"$TOP/build/tests/schema_check" "$TMPD/r.$side.json" >/dev/null ||
			fail "$side: the result file fails its schema"
		assert_eq "$(jq -r '[.scenarios[].profile.functions[] | select(.name == "__schedule") |
			.instructions] | add // 0' "$TMPD/r.$side.json")" 0 \
			"$side: instructions of __schedule inside ring's spans"
		callgraph_checks "$TMPD/r.$side.json" "$TMPD/r.$side.ring.folded"
	done
	jq -e '[.scenarios[] | select(.name == "ring") | .profile.callgraph.chains[] |
		select(.chain | startswith("page_pool_put_unrefed_netmem.__xdp_return.xdp_return_buff."))] |
		length > 0' "$b" >/dev/null || fail "b: no chain of page_pool's return through XDP's"
	[ ${#mod[@]} = 0 ] || upstream_module_checks "$a" "$b"
	expect_exit 2 vm -q -- env -- sh -c 'ppbench bench --scenario ring --repeat 2 --loops 50000 -q \
		--json -; echo c >/proc/sysrq-trigger'
	expect_one_line_error 'the guest kernel panicked: Kernel panic - not syncing: sysrq triggered crash'
	assert_nothing_left "after a panic"
	awk '/^\{$/, /^\}$/' "$LAST_OUT" >"$f"
	plain=$(jq_get "$f" '.scenarios[] | select(.name == "ring") | .ns_per_elem.median')
	prof=$(jq_get "$b" '.scenarios[] | select(.name == "ring") | .ns_per_elem.median')
	assert_boots_agree "$plain" "$prof" "ring's figure without the profile, and with it"
	expect_exit 0 "$PPBENCH" compare "$a" "$b"
	# bench records its command line; the report of the A/B gives it back as one vm command
	assert_match "$(jq_get "$b" .command)" \
		'^ppbench bench --scenario ring --repeat 2 --loops 50000 .*--json [^ ]+$' "b: bench's command"
	expect_exit 0 "$PPBENCH" report "$f"
	assert_eq "$(grep '^  ppbench vm ' "$LAST_OUT")" "  ppbench vm --debian linux-image-$(cat \
		"$K_DIR/RELEASE") --against-debian linux-image-$rel_a --profile -- bench --scenario ring \
--repeat 2 --loops 50000${mod:+ --upstream-module ${ko##*/}} --json r.json" "report: the A/B's command"
	assert_eq "$(grep -m1 -o 'perf-profile\.self\.instructions-pp\..*' "$LAST_OUT")" \
		"perf-profile.self.instructions-pp.$("$PPBENCH" compare --json - "$a" "$b" |
			jq -r '[.comparisons[0].profiles[0].rows[] | select(.kind == "self")][0].function')" \
		"report: its first self row is compare's function of the largest change"
	# the call graphs' rows: each children row of ring has the files' figures
	local old new name rows=0
	while read -r old _ new name; do
		rows=$((rows + 1))
		assert_eq "$old $new" "$(for side in a b; do jq -r --arg f "${name##*instructions-pp.}" \
			'.scenarios[] | select(.name == "ring") | [.profile.callgraph.functions[] |
			select(.name == $f) | .children][0] // 0' "$TMPD/r.$side.json"
			done | xargs printf '%.2f %.2f')" "report: $name, the call graphs' figures"
	done < <(grep -E '^ +[0-9.]+ +[-+][0-9.]+ +[0-9.]+ +ppbench\.ring\.perf-profile\.children\.' "$LAST_OUT")
	assert_ge "$rows" 1 "report: ring's children rows"
	assert_match "$LAST_OUT" '^ +[0-9.]+ +[-+][0-9.]+ +[0-9.]+ +ppbench\.ring\.perf-profile\.calltrace\.instructions-pp\.[^ ]+\.[^ ]+$' \
		"report: ring's calltrace rows"
	assert_eq "$(jq_get "$b" .host.clock.kind)" icount "host.clock.kind"
	assert_eq "$(jq_get "$b" .host.clock.unit)" instructions "host.clock.unit"
	assert_eq "$(jq_get "$b" .host.clock.qemu)" "-icount shift=0,sleep=off" "host.clock.qemu"
	assert_match "$(jq_get "$b" .host.clock.qemu_version)" '^[0-9]+\.[0-9]+' "host.clock.qemu_version"
	assert_match "$(jq_get "$b" .host.clock.cpu_features)" '^[0-9a-f]{16}$' "host.clock.cpu_features"
	assert_eq "$(jq_get "$b" .host.clock.cpu_features)" "$(jq_get "$a" .host.clock.cpu_features)" \
		"one qemu, one guest CPU: the same digest under two kernels"
	assert_eq "$(jq_get "$b" '.scenarios[] | select(.name == "ring") | .status')" ok "ring status"
	assert_eq "$(stat -c %a "$b")" "$(printf '%o' $((0666 & ~0$(umask))))" "a new file's mode"
	assert_nothing_left "after a run"
	f=$b
	# the exports of a real instructions file: to their specifications, in its unit
	expect_exit 0 "$PPBENCH" export kcidb --origin ppbench_ci "$f"
	kcidb_check "$LAST_OUT"
	jq -e '[.tests[].number.unit // empty] | length > 0 and all(. == "instructions/elem")' \
		"$LAST_OUT" >/dev/null || fail "kcidb: the units of an instructions file"
	jq -e '[.tests[].misc | has("ns_per_elem")] | any | not' "$LAST_OUT" >/dev/null ||
		fail "kcidb: guest ns exported as ns"
	expect_exit 0 "$PPBENCH" export lkp "$f"
	lkp_check "$LAST_OUT"
	assert_match "$LAST_OUT" '^ppbench\.ring\.instructions_per_elem: [0-9.]+$' "lkp: ring in instructions"
	! grep -qE 'cycles|\.ns_per' "$LAST_OUT" || fail "lkp: an instructions file exported cycles or ns"
	expect_exit 0 "$PPBENCH" export bmf "$f"
	bmf_check "$LAST_OUT"
	jq -e '.["ppbench.ring"] | has("instructions-per-elem") and (has("ns-per-elem") | not)' \
		"$LAST_OUT" >/dev/null || fail "bmf: ring's measures: $(head -c 300 "$LAST_OUT")"
	expect_exit 0 "$PPBENCH" export otava "$f"
	otava_check "$LAST_OUT"
	assert_match "$(head -n 1 "$LAST_OUT")" '(^|,)ring\.instructions_per_elem(,|$)' "otava: the column's unit"
	! grep -q '\.ns_per_elem' <(head -n 1 "$LAST_OUT") || fail "otava: guest ns exported as ns"
	[ -z "$why" ] || skip "all but the upstream module's cross-check, which needs bench_page_pool.ko for $(cat "$K_DIR/RELEASE"): $why"
}

# What is checked on the host, before any boot: one line, exit 2.
test_vm_bad_input() {
	local img=$TMPD/Image
	expect_exit 2 "$PPBENCH" vm
	expect_one_line_error 'missing argument'
	expect_exit 2 "$PPBENCH" vm -- no_such_command
	expect_one_line_error "'no_such_command' is not a ppbench command"
	expect_exit 2 "$PPBENCH" vm -- compare a.json b.json
	expect_one_line_error "'compare' reads result files and needs no kernel"
	expect_exit 2 "$PPBENCH" vm -- bench --no-such-option
	expect_one_line_error "unknown option '--no-such-option'"
	expect_exit 2 "$PPBENCH" vm -- bench --cpu 1
	expect_one_line_error '--cpu 1 is out of range \(0\.\.0\)'
	expect_exit 2 "$PPBENCH" vm --no-such-vm-option -- bench
	expect_one_line_error "unknown option '--no-such-vm-option'"
	expect_exit 2 "$PPBENCH" vm --clock wall -- bench
	expect_one_line_error "--clock 'wall' must be icount or tcg"
	expect_exit 2 "$PPBENCH" vm --rate 1000 -- probe
	expect_one_line_error '--rate .* give --nic too'
	expect_exit 2 "$PPBENCH" vm -- watch
	expect_one_line_error "'watch' runs until stopped: give it --duration or --count"
	expect_exit 2 "$PPBENCH" vm --kernel "$TMPD/no-such-image" -- probe
	expect_one_line_error "--kernel: cannot open '.*no-such-image'"
	expect_exit 2 "$PPBENCH" vm --kernel /etc/hostname -- probe
	expect_one_line_error "is not a kernel image"
	# an arm64 Image header: "ARM\x64" at 0x38
	head -c 4096 /dev/zero >"$img"
	printf 'ARM\x64' | dd of="$img" bs=1 seek=56 conv=notrunc 2>/dev/null
	expect_exit 2 "$PPBENCH" vm --kernel "$img" -- probe
	expect_one_line_error "is an arm64 kernel image, not an x86-64 one"
	expect_exit 2 "$PPBENCH" vm --modules "$TMPD" -- probe
	expect_one_line_error '--modules goes with --kernel'
	# two kernels side by side: what is checked before any boot
	expect_exit 2 "$PPBENCH" vm --fail-above 1 -- bench
	expect_one_line_error 'compare two kernels: give the baseline with --against-debian'
	expect_exit 2 "$PPBENCH" vm --against-debian 6.12 -- probe
	expect_one_line_error "compares two kernels' bench results: the command is 'probe'"
	expect_exit 2 "$PPBENCH" vm --against-debian 6.12 -- bench --json -
	expect_one_line_error 'two results cannot both go to stdout'
	expect_exit 2 "$PPBENCH" vm --against-debian 6.12 --limit ring -- bench
	expect_one_line_error 'limit'
	expect_exit 128 "$PPBENCH" vm --bisect --against-debian 6.12 --limit ring -- bench
	expect_exit 2 "$PPBENCH" vm --against-modules "$TMPD" -- bench
	expect_one_line_error '--against-modules goes with --against-kernel'
	expect_exit 2 "$PPBENCH" vm --against-kernel /etc/hostname -- bench
	expect_one_line_error "--against-kernel: '/etc/hostname' is not a kernel image"
	expect_exit 2 vm --debian no-such-kernel -- probe
	expect_one_line_error "no such kernel 'no-such-kernel'"
	expect_exit 2 env PATH=/nonexistent "$PPBENCH" vm -- probe
	expect_one_line_error 'qemu-system-x86_64 not found: install qemu-system-x86'
	assert_nothing_left "after bad input"
}

# --arch: an unknown one, and an image of the other architecture, either way.
test_vm_bad_arch() {
	local img=$TMPD/bzImage
	expect_exit 2 "$PPBENCH" vm --arch sparc -- probe
	expect_one_line_error "--arch 'sparc' must be x86-64 or arm64"
	# a bzImage header: the boot signature at 0x1fe, "HdrS" at 0x202
	head -c 4096 /dev/zero >"$img"
	printf '\x55\xaaxxHdrS' | dd of="$img" bs=1 seek=510 conv=notrunc 2>/dev/null
	expect_exit 2 "$PPBENCH" vm --arch arm64 --kernel "$img" -- probe
	expect_one_line_error "is an x86-64 kernel image, not an arm64 one \(--arch x86-64 boots it\)"
	head -c 4096 /dev/zero >"$img"
	printf 'ARM\x64' | dd of="$img" bs=1 seek=56 conv=notrunc 2>/dev/null
	expect_exit 2 "$PPBENCH" vm --arch x86-64 --kernel "$img" -- probe
	expect_one_line_error "is an arm64 kernel image, not an x86-64 one \(--arch arm64 boots it\)"
	expect_exit 2 env PATH=/nonexistent "$PPBENCH" vm --arch arm64 -- probe
	expect_one_line_error 'qemu-system-aarch64 not found: install qemu-system-arm'
	command -v qemu-system-aarch64 >/dev/null || return 0
	expect_exit 2 vm --arch arm64 --debian 5.10 -- probe
	expect_one_line_error "no such arm64 kernel '5.10': give 6.1, 6.12, newest"
	assert_nothing_left "after bad --arch input"
}

# Debian 12's arm64 6.1: its virtio-serial modules load (vm's channels), its
# BPF trampolines load fentry programs but attach none to a kernel function
# (ENOTSUPP), so probe says no and bench counts with the tracepoint backend;
# its generic XDP copies into no page_pool, so fast has no recipe there.
# The same boot then runs ring with the CPU's counters (arm64 under the
# instruction clock has them), which wrap each timed syscall outside its
# clock: ring's figure is the one without them, as closely as two boots of
# one kernel agree (0.1 %).
test_vm_arm64_61_without_fentry() {
	local f=$TMPD/r.json plain counted more
	command -v qemu-system-aarch64 >/dev/null ||
		unavailable "no qemu-system-aarch64 (scripts/install-deps.sh --kernels)"
	command -v aarch64-linux-gnu-gcc >/dev/null ||
		unavailable "no aarch64-linux-gnu-gcc (scripts/install-deps.sh --kernels)"
	VM_ARCH=arm64 need_kernel 6.1
	expect_exit 0 vm -q --arch arm64 --debian 6.1 -- env -- sh -c \
		'ppbench bench --scenario ring,fast --repeat 1 --loops 20000 -q --json - &&
		ppbench bench --scenario ring --repeat 1 --loops 20000 -q --counters instructions'
	# (the first bench's JSON follows its summary)
	awk '/^\{$/, /^\}$/' "$LAST_OUT" >"$f"
	assert_match "$(jq_get "$f" .host.kernel)" '^6\.1\..*-arm64$' "Debian 12's arm64 6.1 ran"
	assert_eq "$(jq_get "$f" .host.fentry)" false "fentry: loads, but does not attach"
	assert_eq "$(jq_get "$f" '.scenarios[] | select(.name == "ring") | .status')" ok "ring status"
	assert_eq "$(jq_get "$f" '.scenarios[] | select(.name == "fast") | .status')" skipped "fast status"
	assert_match "$(jq_get "$f" '.scenarios[] | select(.name == "fast") | .reason')" \
		'^no recipe puts its elements on this path here \(purity: lf-fastpass 0%' "fast: no pool took part"
	# (its window holds the timed loop: at least the clock's instructions in the kernel)
	awk '$1 == "ring" && NF == 4 { n++; ok = $2 >= $4 && $4 > 0 } END { exit !(n == 1 && ok) }' \
		"$LAST_OUT" || fail "the counters' table: $(grep -E '^ring +[0-9.]+ +[0-9.]+ +[0-9.]+$' "$LAST_OUT")"
	# ring's summary rows: without the counters, then with them
	read -r plain counted more <<<"$(awk '$1 == "ring" && NF >= 9 { printf "%s ", $3 }' "$LAST_OUT")"
	assert_boots_agree "$plain" "$counted${more:+ and $more}" \
		"ring's figure without the counters, and with them"
	assert_nothing_left "after an arm64 6.1 run"
}

# A kernel given by path, as a user's own build is: an image and a
# lib/modules tree unpacked by hand from a Debian package. Its config says
# no BTF in one copy: refused before the boot; the real one boots, loads
# veth from the tree (bench's private veth pair needs it) and runs
# calibrate, whose files come back.
test_vm_user_kernel_and_modules() {
	local x=$TMPD/x deb rel img mods
	need_kernel 6.12
	deb=$(find "$KCACHE/$K_KEY" -maxdepth 1 -name 'linux-image-*.deb' | head -n 1)
	[ -n "$deb" ] || unavailable "no linux-image .deb of 6.12 in $KCACHE/$K_KEY"
	dpkg-deb -x "$deb" "$x" || fail "cannot unpack $deb"
	img=$(find "$x/boot" -name 'vmlinuz-*' | head -n 1)
	rel=${img##*/vmlinuz-}
	mods=$x/lib/modules/$rel
	[ -d "$mods" ] || fail "no $mods in $deb"
	cp "$x/boot/config-$rel" "$mods/config"
	sed -i 's/^CONFIG_DEBUG_INFO_BTF=y/# CONFIG_DEBUG_INFO_BTF is not set/' "$mods/config"
	expect_exit 2 vm --kernel "$img" --modules "$mods" -- probe
	expect_one_line_error "has no BTF \(CONFIG_DEBUG_INFO_BTF is not set in its config\)"
	# side by side with --bisect: a kernel under test that cannot run is a skip
	# (125), a baseline that cannot is a stop (128); the other guest stops at once
	expect_exit 125 vm -q --bisect --limit ring=1e9 --against-debian 6.12 --kernel "$img" \
		--modules "$mods" -- bench --scenario ring --repeat 1 --loops 5000 --json "$TMPD/s.json"
	assert_match "$LAST_ERR" 'b: .*has no BTF' "b's reason"
	expect_exit 128 vm -q --bisect --limit ring=1e9 --against-kernel "$img" --against-modules "$mods" \
		--debian 6.12 -- bench --scenario ring --repeat 1 --loops 5000 --json "$TMPD/s.json"
	assert_match "$LAST_ERR" 'a: .*has no BTF' "a's reason"
	assert_nothing_left "after a guest that could not run beside one that could"
	rm "$mods/config"
	# calibrate's -o and --keep DIR: the files come back where they were named,
	# the directory with every run's result
	expect_exit 0 vm -q --kernel "$img" --modules "$x" -- calibrate --runs 2 --duration 0 \
		--scenario ring --repeat 1 --loops 5000 -o "$TMPD/P.json" --keep "$TMPD/keep"
	assert_eq "$(jq_get "$TMPD/P.json" .host.kernel)" "$rel" "the kernel given by path ran"
	assert_eq "$(jq -r .host.clock.kind "$TMPD/P.json")" icount "the profile's clock"
	assert_eq "$(jq -r '.scenarios[0].name' "$TMPD/P.json")" ring "the profile's scenario"
	assert_eq "$(find "$TMPD/keep" -name 'run-*.json' | wc -l)" 2 "--keep: both runs' results"
	assert_eq "$(jq -r '.scenarios[] | select(.name == "ring") | .status' "$TMPD"/keep/run-*.json |
		sort -u)" ok "ring on the private veth pair (veth from the modules tree)"
	assert_nothing_left "after a kernel given by path, -o and --keep"
}

# A guest that stops printing (everything but its busy command stopped):
# ended after --stall seconds of silence, with the reason.
test_vm_guest_stops_printing() {
	need_kernel newest
	expect_exit 2 vm -q --stall 10 -- env -- sh -c 'kill -STOP -1; while :; do :; done'
	expect_one_line_error 'the guest printed nothing for 10 s \(while the command ran\)'
	assert_nothing_left "after a stall"
}

# On a terminal vm says where it is; --clock tcg is plain emulation, which the
# result records as a clock of its own; --cpus and --nic shape the guest (and
# --mem 768 boots it): probe sees one CPU (tcg's default is two) and
# vmxnet3's nic0 with native XDP. (One CPU: under plain TCG with two, whose
# vCPUs are host threads, 7.3 has been seen to panic while booting, at
# random, as the kernel matrix's guests do; vm shows such a panic.)
test_vm_tty_tcg_nic() {
	local p=$TMPD/p.json
	command -v script >/dev/null || skip "no script(1) to give vm a terminal"
	need_kernel newest
	mkdir -p "$TMPD/tmp"
	TMPDIR=$TMPD/tmp script -qec "$PPBENCH vm --clock tcg --cpus 1 --mem 768 --nic -- probe nic0 --json $p" \
		/dev/null >"$TMPD/tty.out" 2>&1 || { tail -n 5 "$TMPD/tty.out"; fail "vm on a terminal failed"; }
	for phase in "fetching Debian kernel" "packing initramfs" "booting 7.*1 CPU(s), clock tcg" "running kernel=" "copying back"; do
		grep -q "vm: $phase" "$TMPD/tty.out" || fail "no progress '$phase' on the terminal: $(tr '\r' '\n' <"$TMPD/tty.out" | grep 'vm:' | tail -n 3)"
	done
	assert_eq "$(jq -r .clock.kind "$p")" tcg "the clock of plain emulation"
	assert_eq "$(jq -r .clock.qemu "$p")" "-accel tcg" "its qemu"
	assert_eq "$(jq -r .nr_cpus "$p")" 1 "--cpus 1"
	assert_eq "$(jq -r .iface.driver "$p")" vmxnet3 "--nic: nic0's driver"
	jq -e '.iface.xdp_features | index("basic")' "$p" >/dev/null || fail "nic0 has no native XDP: $(jq -c .iface "$p")"
	assert_nothing_left "after a run on a terminal"
}

# SIGINT (Ctrl-C) and SIGTERM stop the guest; SIGKILL of ppbench vm leaves its
# guardian to do it.
test_vm_signals_leave_nothing() {
	local pid sig rc
	need_kernel newest
	mkdir -p "$TMPD/tmp"
	for sig in INT TERM KILL; do
		# (not through vm(): $! must be ppbench itself)
		TMPDIR=$TMPD/tmp "$PPBENCH" vm -q -- bench --json "$TMPD/r.json" >"$TMPD/out" 2>&1 &
		pid=$!
		for _ in $(seq 300); do
			[ -n "$(vm_qemus)" ] && break
			sleep 0.1
		done
		[ -n "$(vm_qemus)" ] || { cat "$TMPD/out"; fail "no qemu started within 30 s"; }
		kill -"$sig" $pid
		wait $pid
		rc=$?
		case $sig in
		INT) assert_eq $rc 130 "exit status after SIGINT (Ctrl-C)" ;;
		TERM) assert_eq $rc 143 "exit status after SIGTERM" ;;
		esac
		# at once: not when the script next wrote to the pipe of a dead ppbench
		assert_nothing_left "after SIG$sig" 5
		[ ! -e "$TMPD/r.json" ] || fail "SIG$sig: a result file appeared"
	done
	# two guests side by side: SIGKILL once both qemus run, and neither stays
	need_kernel 6.12
	TMPDIR=$TMPD/tmp "$PPBENCH" vm -q --against-debian 6.12 -- bench --json "$TMPD/r.json" \
		>"$TMPD/out" 2>&1 &
	pid=$!
	for _ in $(seq 600); do
		[ "$(vm_qemus | wc -l)" -ge 2 ] && break
		sleep 0.1
	done
	[ "$(vm_qemus | wc -l)" -ge 2 ] || { cat "$TMPD/out"; fail "no two qemus within 60 s"; }
	kill -KILL $pid
	wait $pid
	assert_nothing_left "after SIGKILL of two guests side by side" 5
	[ -z "$(find "$TMPD" -maxdepth 1 -name 'r.*.json')" ] || fail "SIGKILL: a result file appeared"
}

# The files a command reads go into the guest's initramfs as /vm/in/N/BASENAME,
# byte for byte, mode 0644, a path with a blank as it is; a file that cannot be
# copied is named, and the copying stops there.
test_vm_inputs_packed() {
	local root=$TMPD/root out
	# shellcheck source=scripts/vm/guest.sh
	. "$TOP/scripts/vm/guest.sh"
	mkdir -p "$TMPD/a b"
	head -c 5000 /dev/urandom >"$TMPD/a b/x.ko"
	echo module >"$TMPD/y.ko"
	chmod 0600 "$TMPD/y.ko"
	printf '1 %s\n2 %s\n' "$TMPD/a b/x.ko" "$TMPD/y.ko" >"$TMPD/inputs"
	guest_inputs "$root" "$TMPD/inputs" || fail "guest_inputs failed on two files"
	cmp -s "$TMPD/a b/x.ko" "$root/vm/in/1/x.ko" || fail "input 1 is not /vm/in/1/x.ko"
	cmp -s "$TMPD/y.ko" "$root/vm/in/2/y.ko" || fail "input 2 is not /vm/in/2/y.ko"
	assert_eq "$(stat -c %a "$root/vm/in/2/y.ko")" 644 "an input's mode in the guest"
	printf '3 %s\n4 %s\n' "$TMPD/gone.ko" "$TMPD/y.ko" >>"$TMPD/inputs"
	out=$(guest_inputs "$TMPD/root2" "$TMPD/inputs") && fail "a missing input was copied"
	assert_eq "$out" "$TMPD/gone.ko" "the file that could not be copied"
	[ ! -e "$TMPD/root2/vm/in/4" ] || fail "inputs copied after the one that failed"
}

# A guest side that keeps each job (cmd, inputs) in $TMPD/jobs/, packs its
# inputs with guest_inputs, and gives every output of the job $DATA/icount.json.
input_guest() {
	mkdir -p "$TMPD/lib/vm" "$TMPD/bin" "$TMPD/jobs"
	printf '#!/bin/sh\necho "QEMU emulator version 7.2.22 (stand-in)"\n' >"$TMPD/bin/qemu-system-x86_64"
	printf '#!/bin/sh\n' >"$TMPD/lib/ppbench-static"
	chmod +x "$TMPD/bin/qemu-system-x86_64" "$TMPD/lib/ppbench-static"
	cat >"$TMPD/lib/vm/run" <<EOF
#!/bin/bash
. "$TOP/scripts/vm/guest.sh"
d=\$(mktemp -d "$TMPD/jobs/job.XXXXXX")
cp "\$1/cmd" "\$1/inputs" "\$d/"
guest_inputs "\$d/root" "\$1/inputs" >/dev/null || { echo "error cannot copy" >&3; exit 2; }
while read -r n kind path; do cp "$DATA/icount.json" "\$path"; done <"\$1/outputs"
echo "rc 0" >&3
EOF
	chmod +x "$TMPD/lib/vm/run"
}

vm_input() { # ppbench vm with input_guest's stand-ins
	mkdir -p "$TMPD/tmp"
	PATH=$TMPD/bin:$PATH TMPDIR=$TMPD/tmp PPBENCH_LIBDIR=$TMPD/lib "$PPBENCH" vm "$@"
}

# A file the command reads (bench --upstream-module FILE, a CLI_F_INFILE
# option) is checked on the host before anything is made: missing, or a
# directory: one line naming the option, exit 2, nothing left. Given, the
# guest's command line names it /vm/in/1/BASENAME (--opt FILE and --opt=FILE,
# a relative path too), the job's inputs its absolute host path, and it is
# packed byte for byte; both guests of an A/B pair get the same.
test_vm_input_file_carried() {
	local m=$TMPD/m/x.ko j abs
	"$PPBENCH" bench --help | grep -q -- '--upstream-module' || skip "bench has no --upstream-module"
	need_guest_tools
	input_guest
	mkdir -p "$TMPD/m"
	head -c 3000 /dev/urandom >"$m"
	abs=$(realpath "$TMPD/m")/x.ko
	expect_exit 2 vm_input -- bench --upstream-module "$TMPD/none.ko"
	assert_eq "$(find "$TMPD/jobs" -mindepth 1 -maxdepth 1 | wc -l)" 0 "a missing file: no guest side ran"
	expect_one_line_error "^ppbench vm: error: --upstream-module .*/none\.ko: No such file or directory$"
	expect_exit 2 vm_input -- bench --upstream-module="$TMPD/m"
	assert_eq "$(find "$TMPD/jobs" -mindepth 1 -maxdepth 1 | wc -l)" 0 "a directory: no guest side ran"
	expect_one_line_error "^ppbench vm: error: --upstream-module .*/m: Is a directory$"
	assert_nothing_left "after a bad input file"
	expect_exit 0 vm_input -q -- bench --upstream-module "$m" --scenario ring
	j=$(find "$TMPD/jobs" -mindepth 1 -maxdepth 1)
	assert_match "$(cat "$j/cmd")" " '--upstream-module' '/vm/in/1/x\.ko' " "--opt FILE in the guest"
	assert_eq "$(cat "$j/inputs")" "1 $abs" "the job's inputs"
	cmp -s "$m" "$j/root/vm/in/1/x.ko" || fail "the file packed is not the one given"
	rm -rf "$TMPD/jobs"/*
	(cd "$TMPD/m" && vm_input -q -- bench --upstream-module=x.ko --json "$TMPD/r.json") ||
		fail "--upstream-module=x.ko (relative) failed"
	j=$(find "$TMPD/jobs" -mindepth 1 -maxdepth 1)
	assert_match "$(cat "$j/cmd")" " '--upstream-module=/vm/in/1/x\.ko' " "--opt=FILE in the guest"
	assert_eq "$(cat "$j/inputs")" "1 $abs" "a relative path made absolute"
	rm -rf "$TMPD/jobs"/*
	expect_exit 0 vm_input -q --against-debian 6.12 -- bench --upstream-module "$m" --json "$TMPD/r.json"
	assert_eq "$(find "$TMPD/jobs" -mindepth 1 -maxdepth 1 | wc -l)" 2 "two guests"
	for j in "$TMPD"/jobs/*; do
		assert_match "$(cat "$j/cmd")" " '--upstream-module' '/vm/in/1/x\.ko' " "A/B: each guest's line"
		assert_eq "$(cat "$j/inputs")" "1 $abs" "A/B: each guest's inputs"
	done
	assert_nothing_left "after runs with an input file"
}

# compare and trend, and the profiles they take, never mix the clocks: one line
# naming both files.
test_vm_units_never_mix() {
	expect_exit 2 "$PPBENCH" compare "$DATA/base.json" "$DATA/icount.json"
	expect_one_line_error "base\.json counts cycles \(tsc clock\) and .*icount\.json instructions \(icount clock\)"
	expect_exit 2 "$PPBENCH" compare --force "$DATA/icount.json" "$DATA/base.json"
	expect_one_line_error "icount\.json counts instructions \(icount clock\) and .*base\.json cycles \(tsc clock\)"
	expect_exit 2 "$PPBENCH" compare --noise "$DATA/profile.json" "$DATA/icount.json" "$DATA/icount2.json"
	expect_one_line_error "profile\.json counts cycles \(tsc clock\) and .*icount\.json instructions"
	expect_exit 2 "$PPBENCH" trend "$DATA/base.json" "$DATA/base2.json" "$DATA/icount.json" \
		"$DATA/icount2.json"
	expect_one_line_error "base\.json counts cycles \(tsc clock\) and .*icount\.json instructions \(icount clock\)"
	expect_exit 2 "$PPBENCH" trend --force "$DATA/icount.json" "$DATA/base.json" "$DATA/icount2.json" \
		"$DATA/base2.json"
	expect_one_line_error "never make one series"
	local i
	for i in 1 2 3 4 5 6 7 8; do cp "$DATA/icount.json" "$TMPD/i$i.json"; done
	expect_exit 2 "$PPBENCH" trend --noise "$DATA/profile.json" "$TMPD"/i?.json
	expect_one_line_error "profile\.json counts cycles \(tsc clock\) and .*i1\.json instructions \(icount clock\)"
	# of one clock they compare as any two files do, and say what they count
	expect_exit 0 "$PPBENCH" compare "$DATA/icount.json" "$DATA/icount2.json"
	assert_match "$LAST_OUT" ' ring instr/elem$' "the rows name instructions"
}

# Instruction files of two qemu releases, or of guest CPUs of other features,
# never gate against each other unless the user says the difference is
# intended: the real files of Debian's 7.3.4 under qemu 7.2.22 and 10.0.2
# (whose -cpu max adds FSRM: fast +43.9 %), and one of them with only its
# version, or only one feature word, changed. Without a gate they compare,
# the difference listed.
test_vm_qemu_releases_never_gate() {
	local q7=$DATA/icount-qemu7.json q10=$DATA/icount-qemu10.json i
	# (two files a side: the gate's rule is met, so the refusal is the releases')
	expect_exit 2 "$PPBENCH" compare --fail-above 0.5 --old "$q7" "$q7" --new "$q10" "$q10"
	expect_one_line_error "icount-qemu7\.json was counted by qemu 7\.2\.22 and .*icount-qemu10\.json by qemu 10\.0\.2: .*--allow-qemu-change"
	jq '.host.clock.qemu_version = "7.2.22"' "$q10" >"$TMPD/v.json"
	expect_exit 2 "$PPBENCH" compare --fail-above 0.5 --old "$q10" "$q10" --new "$TMPD/v.json" "$TMPD/v.json"
	expect_one_line_error "icount-qemu10\.json was counted by qemu 10\.0\.2 and .*v\.json by qemu 7\.2\.22"
	# the same release, FSRM (CPUID.7.0:EDX bit 4) gone: the CPU's features differ
	jq '.host.clock.cpu_feature_words |= sub("7.0.edx=00000010"; "7.0.edx=00000000") |
	    .host.clock.cpu_features = "0123456789abcdef"' "$q10" >"$TMPD/f.json"
	expect_exit 2 "$PPBENCH" compare --fail-above 0.5 --old "$q10" "$q10" --new "$TMPD/f.json" "$TMPD/f.json"
	expect_one_line_error "guest CPUs of other features \(digest [0-9a-f]{16} vs 0123456789abcdef; 7\.0\.edx 00000010 vs 00000000\)"
	# intended: the gate decides (two files a side, the same figures within a side)
	cp "$q7" "$TMPD/q7b.json"
	cp "$q10" "$TMPD/q10b.json"
	expect_exit 3 "$PPBENCH" compare --allow-qemu-change --fail-above 0.5 \
		--old "$q7" "$TMPD/q7b.json" --new "$q10" "$TMPD/q10b.json"
	assert_match "$LAST_ERR" 'regression: fast instr/elem \+43\.9%' "fast under qemu 10's -cpu max"
	# no gate: a table, the difference above it
	expect_exit 0 "$PPBENCH" compare "$q7" "$q10"
	assert_match "$LAST_OUT" '^  qemu +7\.2\.22 -> 10\.0\.2$' "the releases among the differences"
	assert_match "$LAST_OUT" '^  cpu_features +[0-9a-f]{16} -> [0-9a-f]{16}$' "and the CPU's features"
	# trend's gate, on a series of both
	for i in 1 2 3 4; do
		cp "$q7" "$TMPD/s-a$i.json"
		cp "$q10" "$TMPD/s-b$i.json"
	done
	expect_exit 2 "$PPBENCH" trend --fail-on-regression 1 "$TMPD"/s-a?.json "$TMPD"/s-b?.json
	expect_one_line_error "s-a1\.json was counted by qemu 7\.2\.22 and .*s-b1\.json by qemu 10\.0\.2"
	expect_exit 0 "$PPBENCH" trend --allow-qemu-change --fail-on-regression 1 "$TMPD"/s-a?.json \
		"$TMPD"/s-b?.json
	expect_exit 0 "$PPBENCH" trend "$TMPD"/s-a?.json "$TMPD"/s-b?.json
}

# vm --nic=virtio-net: scripts/vm/run's virtio branches (the devices, the
# serial ports after them) and load and watch on nic0 in one boot (vm runs
# one command: a wrapper starts watch beside load and prints its output
# after). 7.1's and later virtio_net take their RX buffers from page_pools:
# load counts the frames --rate sends and the pool they come from, and
# watch finds that pool and sees its pages recycled.
test_vm_virtio_nic_load_watch() {
	local j=$TMPD/load.json
	need_kernel newest
	export PPBENCH_VM_WRAP="sh -c '/bin/ppbench watch nic0 --duration 4 >/tmp/w.out 2>&1 & \"\$@\"; r=\$?; wait; cat /tmp/w.out; exit \$r' sh"
	expect_exit 0 vm -q --clock tcg --cpus 1 --nic=virtio-net --rate 2000 -- \
		load nic0 --paths --duration 3 --json "$j"
	unset PPBENCH_VM_WRAP
	assert_match "$LAST_OUT" '^ppbench load nic0 \(ifindex [0-9]+, driver virtio_net, native XDP yes\)' \
		"load on virtio_net, native XDP"
	jq -e 'select(.type == "summary") | .total.packets > 0 and
		([.pools[] | select(.kind == "nic" and .dev == "nic0" and .path.alloc.cache > 0 and
			.path.ret.cache > 0)] | length) == 1' "$j" >/dev/null ||
		fail "load: no frames, or not from one page_pool of nic0: $(grep '"summary"' "$j" | head -c 400)"
	assert_match "$LAST_OUT" '^found a page_pool of nic0 \(pool [0-9]+, nic\)$' "watch found it"
	assert_match "$LAST_OUT" '^total +[0-9]+ +nic +nic0 +[1-9][0-9]* ' "watch's summary: its allocations"
	assert_nothing_left "after a virtio-net boot"
}

# The suite's vm runs are checked for shell errors as they go (vm()); this one reaches the
# kernel resolution of a kernel from this machine's own apt sources (Debian 12's 6.1, where
# the private apt configuration is unset) and stops before a boot: 6.1 has no NIC for --nic.
test_vm_no_shell_errors() {
	need_kernel 6.1
	expect_exit 2 vm --debian 6.1 --nic -- probe
	expect_one_line_error '--nic: vmxnet3 in 6\.1 has no native XDP'
	shell_errors "$LAST_OUT" "$LAST_ERR" && fail "a shell error in vm's output"
	assert_nothing_left "after a kernel without a NIC for --nic"
}

# What compare needs of two kernels' results is checked before either boots (a noise profile
# of the guests' instruction clock among it): one line, exit 2 (128 with --bisect), and no
# guest side ran (input_guest keeps every job it runs).
test_vm_ab_gate_inputs_before_boot() {
	local ab=(--against-debian 6.12)
	need_guest_tools
	input_guest
	expect_exit 2 vm_input "${ab[@]}" --fail-above 1 -- bench
	expect_one_line_error '^ppbench vm compare: error: --fail-above cannot decide with one file a side'
	expect_exit 2 vm_input "${ab[@]}" --fail-above 1 --noise "$TMPD/none.json" -- bench
	expect_one_line_error "^ppbench vm compare: error: .*none\.json"
	expect_exit 128 vm_input "${ab[@]}" --bisect --limit ring=1 --noise "$DATA/icount.json" -- bench
	expect_one_line_error "^ppbench vm compare: error: .*icount\.json"
	expect_exit 2 vm_input "${ab[@]}" --fail-above 1 --noise "$DATA/profile.json" -- bench
	expect_one_line_error "^ppbench vm compare: error: .*profile\.json counts cycles \(tsc clock\) and vm's guests instructions \(icount clock\)"
	expect_exit 2 vm_input "${ab[@]}" --clock tcg --limit ring=1 -- bench
	expect_one_line_error "--against-\* compares figures of the instruction clock"
	expect_exit 128 vm_input "${ab[@]}" --bisect -- bench
	expect_one_line_error "--bisect with --against-\* needs a gate"
	assert_eq "$(find "$TMPD/jobs" -mindepth 1 -maxdepth 1 | wc -l)" 0 "no guest side ran"
	assert_nothing_left "after gate inputs refused"
}

# A guest side standing in for scripts/vm/run that fails as PPB_FAIL says (panic: the
# kernel's, host: this machine's, rc3: the command's in the kernel) for the kernel
# PPB_FAIL_ON (--debian's SPEC); every other job gives $DATA/icount.json for its outputs.
fault_guest() {
	input_guest
	cat >"$TMPD/lib/vm/run" <<EOF
#!/bin/bash
. "\$1/job.conf"
if [ "\${VM_DEBIAN:-}" = "\${PPB_FAIL_ON:-}" ]; then
	case "\${PPB_FAIL:-}" in
	panic) echo "error the guest kernel panicked: planted" >&3; exit 2 ;;
	host) echo "hosterror cannot build the initramfs" >&3; exit 1 ;;
	rc3) echo "rc 3" >&3; exit 3 ;;
	esac
fi
while read -r n kind path; do cp "$DATA/icount.json" "\$path"; done <"\$1/outputs"
echo "rc 0" >&3
EOF
}

# vm --bisect tells the kernel's failure (125: it did not boot, or the command failed in it)
# from this machine's (128: the guest side's hosterror), with one kernel and side by side,
# where a failure of this machine stops whichever guest it hit; without --bisect the
# statuses stay vm's. Under --bisect an abbreviated option stops too.
test_vm_bisect_host_or_kernel() {
	local one=(-q --debian newest -- bench --json "$TMPD/r.json")
	local ab=(-q --bisect --limit ring=1e9 --debian newest --against-debian 6.12 -- bench
		--json "$TMPD/r.json")
	need_guest_tools
	fault_guest
	expect_exit 0 vm_input --bisect "${one[@]}"
	PPB_FAIL_ON=newest PPB_FAIL=panic expect_exit 125 vm_input --bisect "${one[@]}"
	assert_match "$LAST_ERR" 'the guest kernel panicked: planted' "the kernel's reason"
	PPB_FAIL_ON=newest PPB_FAIL=rc3 expect_exit 125 vm_input --bisect "${one[@]}"
	PPB_FAIL_ON=newest PPB_FAIL=host expect_exit 128 vm_input --bisect "${one[@]}"
	assert_match "$LAST_ERR" 'cannot build the initramfs' "this machine's reason"
	PPB_FAIL_ON=newest PPB_FAIL=host expect_exit 1 vm_input "${one[@]}"
	PPB_FAIL_ON=newest PPB_FAIL=panic expect_exit 2 vm_input "${one[@]}"
	PPB_FAIL_ON=newest PPB_FAIL=panic expect_exit 125 vm_input "${ab[@]}"
	PPB_FAIL_ON=newest PPB_FAIL=host expect_exit 128 vm_input "${ab[@]}"
	PPB_FAIL_ON=6.12 PPB_FAIL=panic expect_exit 128 vm_input "${ab[@]}"
	expect_exit 128 vm_input --bis "${one[@]}"
	expect_one_line_error "'--bis' is short for --bisect: write it whole"
	assert_nothing_left "after stand-in guests that failed"
}

# The harness itself: without a kernel, need_kernel fails under CI=true and
# skips otherwise (an empty cache, no network: nothing can be fetched).
test_vm_no_kernel_fails_under_ci() {
	local out
	export -f need_kernel unavailable fail skip
	export TOP TMPD SKIP_RC
	out=$(CI=true PPBENCH_KCACHE=$TMPD/none unshare -n bash -c 'need_kernel newest; echo reached')
	assert_eq "$?" 1 "CI=true: a failure"
	assert_match "$out" '^FAIL: kernel newest is not available here: .*it must run here' "why"
	out=$(CI= PPBENCH_REQUIRE_KERNELS=0 PPBENCH_KCACHE=$TMPD/none unshare -n bash -c \
		'need_kernel newest; echo reached')
	assert_eq "$?" "$SKIP_RC" "outside CI: a skip"
}
