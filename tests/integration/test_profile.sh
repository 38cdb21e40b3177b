#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ppbench vm --profile's host side: the qemu it refuses (one line, exit 2,
# nothing left), and, with a stand-in guest (scripts/vm/run replaced through
# PPBENCH_LIBDIR) that brings back a synthetic capture, the profiles in the
# result file and the report; compare and plot of files with profiles
# (tests/data/prof-*.json, which test_profile_fixtures_current remakes).

DATA=$TOP/tests/data
# shellcheck source=tests/formats.sh
. "$TOP/tests/formats.sh"

vm_dirs() { find "$TMPD/tmp" -maxdepth 1 -name 'ppbench-vm.*' 2>/dev/null; }

# A qemu-system-x86_64 first on PATH: a script (no dynamic symbols), or with
# API a C program exporting a qemu_plugin_* symbol; either says VERSION.
stand_in_qemu() { # VERSION [elf]
	mkdir -p "$TMPD/bin"
	if [ "${2:-}" = elf ]; then
		command -v cc >/dev/null || skip "no C compiler for a stand-in qemu"
		printf '#include <stdio.h>\nint qemu_plugin_outs(void) { return 0; }\n%s\n' \
			"int main(void) { puts(\"QEMU emulator version $1 (stand-in)\"); return 0; }" |
			cc -x c - -rdynamic -o "$TMPD/bin/qemu-system-x86_64" || fail "cc"
	else
		printf '#!/bin/sh\necho "QEMU emulator version %s (stand-in)"\n' "$1" \
			>"$TMPD/bin/qemu-system-x86_64"
		chmod +x "$TMPD/bin/qemu-system-x86_64"
	fi
}

vm() { # ppbench vm with the stand-ins first on PATH, its work directories in $TMPD/tmp
	mkdir -p "$TMPD/tmp"
	PATH=$TMPD/bin:$PATH TMPDIR=$TMPD/tmp "$PPBENCH" vm "$@"
}

# A qemu without plugin support, and one whose plugin API neither build
# serves: one line naming its version, exit 2, no work directory, no qemu run.
test_profile_refuses_qemu() {
	need_guest_tools
	stand_in_qemu 7.2.22
	expect_exit 2 vm --profile -- bench --scenario ring --json "$TMPD/r.json"
	expect_one_line_error "qemu 7\.2\.22 \(.*qemu-system-x86_64\) has no TCG plugin support"
	assert_eq "$(vm_dirs)" "" "no work directory"
	[ ! -e "$TMPD/r.json" ] || fail "a result file appeared"
	stand_in_qemu 9.0.2 elf
	expect_exit 2 vm --profile -- bench --json "$TMPD/r.json"
	expect_one_line_error "qemu 9\.0\.2 .* serves TCG plugin API 2 only; .* API 1 \(qemu 6\.0 to 8\.2\) and API 3"
	stand_in_qemu 5.2.0 elf
	expect_exit 2 vm --profile -- bench --json "$TMPD/r.json"
	expect_one_line_error "qemu 5\.2\.0 .* serves TCG plugin API 0 only"
	assert_eq "$(vm_dirs)" "" "no work directory"
	[ ! -e "$TMPD/r.json" ] || fail "a result file appeared"
	# what --profile needs of the command line, checked before anything runs
	expect_exit 2 vm --profile --clock tcg -- bench
	expect_one_line_error "--profile counts under the instruction clock only"
	expect_exit 2 vm --profile -- probe
	expect_one_line_error "--profile profiles the timed runs of bench and recipe, and load's attached run: 'probe' has none"
	expect_exit 2 vm --profile -- bench --json -
	expect_one_line_error "--json -: the profile's report would land in the JSON"
}

# make_capture DIR [SHIFT] < SPEC: a capture directory as a guest leaves it,
# from lines
#   tag TAG KIND NAME ELEMS [KEY=VALUE...]
#   fn TAG FUNCTION[@MODULE] PER_ELEM [rep]
# FUNCTION [user] lies below the kernel's half, [unmapped] in it without a
# symbol, @bpf is a program of bpf-TAG, @veth a module's. Each function is a
# block of one 4-byte instruction at an address of its own; SHIFT moves the
# kernel (KASLR). With CAPTURE_GRAPH=1 the capture has a call graph too:
# FUNCTION may then be a chain, CALLER;...;FUNCTION (root first, as folded
# stacks), PER_ELEM its leaf's own; a lone function is a chain of its own.
make_capture() { # DIR [SHIFT]
	local dir=$1 kbase=$((0xffffffff81000000 + ${2:-0})) mbase=$((0xffffffffc0001000))
	local bbase=$((0xffffffffc1000000)) what tag a b c d rest fn key f path parent n
	local -A elems=() addr=() slot=() rep=() count=() nb=() node=() self=()
	local -a tags=() fns=() keys=() nodes=() nkeys=() frames=()
	local nk=0 nm=0 ns=0
	# capture_fn_addr TAG FUNCTION: its address in addr[$fn] (fn: its key there)
	capture_fn_addr() {
		fn=$2
		case $fn in
		'[user]') addr[$fn]=$((0x401000)) ;;
		'[unmapped]') addr[$fn]=$((0xfffffe0000001000)) ;;
		*@bpf)
			fn="$1/$fn"
			[ -z "${addr[$fn]:-}" ] || return 0
			addr[$fn]=$((bbase + 256 * ${nb[$1]:-0}))
			nb[$1]=$((${nb[$1]:-0} + 1))
			printf '%016x t bpf_prog_0123456789abcdef_%s\t[bpf]\nlen %016x 64\n' \
				"${addr[$fn]}" "${2%@bpf}" "${addr[$fn]}" >>"$dir/bpf-$1"
			;;
		*@*)
			[ -n "${addr[$fn]:-}" ] || { addr[$fn]=$((mbase + 256 * nm)); nm=$((nm + 1)); fns+=("$fn"); }
			;;
		*)
			[ -n "${addr[$fn]:-}" ] || { nk=$((nk + 1)); addr[$fn]=$((kbase + 4096 * nk)); fns+=("$fn"); }
			;;
		esac
	}
	mkdir -p "$dir"
	: >"$dir/tags"
	while read -r what tag a b c d rest; do
		case $what in
		tag)
			elems[$tag]=$c
			tags+=("$tag")
			echo "$tag $a $b${d:+ $d}${rest:+ $rest}" >>"$dir/tags"
			;;
		fn)
			n=$(awk -v v="$b" -v e="${elems[$tag]}" 'BEGIN { printf "%d", v * e + 0.5 }')
			IFS=';' read -ra frames <<<"$a"
			path=
			parent=0
			for f in "${frames[@]}"; do
				capture_fn_addr "$tag" "$f"
				path+=";$fn"
				if [ -z "${node[$path]:-}" ]; then
					node[$path]=$((${#nodes[@]} + 1))
					nodes+=("$parent ${addr[$fn]}")
				fi
				parent=${node[$path]}
			done
			[ -n "${slot[$fn]:-}" ] || { ns=$((ns + 1)); slot[$fn]=$ns; rep[$fn]=${c:-}; }
			key="$tag ${slot[$fn]}"
			[ -n "${count[$key]:-}" ] || keys+=("$key")
			count[$key]=$((${count[$key]:-0} + n))
			key="$tag $parent"
			[ -n "${self[$key]:-}" ] || nkeys+=("$key")
			self[$key]=$((${self[$key]:-0} + n))
			;;
		esac
	done
	{
		printf 'qprof %d\napi 1 0 1\ntarget x86_64\n' $((1 + ${CAPTURE_GRAPH:-0}))
		for fn in "${!slot[@]}"; do
			printf 'tb %d %x 1 4 %s\n' "${slot[$fn]}" "${addr[$fn]}" \
				"$([ "${rep[$fn]}" = rep ] && echo 0 || echo -)"
		done
		if [ "${CAPTURE_GRAPH:-0}" = 1 ]; then
			for n in "${!nodes[@]}"; do
				printf 'n %d %d %x\n' $((n + 1)) ${nodes[$n]}
			done
		fi
		for tag in "${tags[@]}"; do
			local sum=0 k
			for k in "${keys[@]}"; do [ "${k%% *}" != "$tag" ] || sum=$((sum + count[$k])); done
			echo "tag $tag windows 8 spans 8 elems ${elems[$tag]} errors 0 insns $sum"
			for k in "${keys[@]}"; do [ "${k%% *}" != "$tag" ] || echo "c ${k#* } ${count[$k]}"; done
			[ "${CAPTURE_GRAPH:-0}" = 1 ] || continue
			for k in "${nkeys[@]}"; do [ "${k%% *}" != "$tag" ] || echo "s ${k#* } ${self[$k]}"; done
			echo "cg recoveries 0 unmatched 0 fallthroughs 0 recovered 0 switches 0"
		done
		echo end
	} >"$dir/qprof.txt"
	{
		printf '%016x T _stext\n' "$kbase"
		for fn in "${fns[@]}"; do
			case $fn in
			*@*) printf '%016x t %s\t[%s]\n' "${addr[$fn]}" "${fn%@*}" "${fn#*@}" ;;
			*) printf '%016x T %s\n' "${addr[$fn]}" "$fn" ;;
			esac
		done
		printf '%016x T _etext\n' $((kbase + 4096 * (nk + 1)))
	} >"$dir/kallsyms"
	printf 'veth 65536 0 - Live 0x%016x\n' "$mbase" >"$dir/modules"
	printf 'arch x86-64\nrelease 7.3.4+deb13-amd64\nqemu 7.2.22\napi 1\n' >"$dir/meta"
}

# A stand-in for scripts/vm/run (PPBENCH_LIBDIR=$TMPD/lib): no boot; it keeps
# the job, puts $FAKE_RESULT at each output's path, writes the command's
# stdout and leaves $FAKE_CAPTURE as the guest's capture in WORK/profile.
stand_in_guest() {
	mkdir -p "$TMPD/lib/vm"
	: >"$TMPD/lib/vm/qprof-v1.so"
	: >"$TMPD/lib/vm/qprof-v3.so"
	cat >"$TMPD/lib/vm/run" <<'EOS'
#!/bin/bash
WORK=$1
cp "$WORK/job.conf" "$FAKE_JOB"
echo "phase run stand-in" >&3
echo "Type:ppbench_ring Per elem: 301 cycles(tsc) (the command's output)" >"$WORK/stdout"
while read -r n kind path; do cp "$FAKE_RESULT" "$path"; done <"$WORK/outputs"
[ -z "${FAKE_CAPTURE:-}" ] || { mkdir -p "$WORK/profile" && cp -a "$FAKE_CAPTURE/." "$WORK/profile/"; }
echo "rc 0" >&3
EOS
	# (an installed vm checks that the guests' static ppbench is there)
	printf '#!/bin/sh\n' >"$TMPD/lib/ppbench-static"
	chmod +x "$TMPD/lib/vm/run" "$TMPD/lib/ppbench-static"
}

vm_fake() { # FAKE_RESULT FAKE_CAPTURE, then vm's arguments
	local result=$1 capture=$2
	shift 2
	FAKE_JOB=$TMPD/job.conf FAKE_RESULT=$result FAKE_CAPTURE=$capture \
		PPBENCH_LIBDIR=$TMPD/lib vm "$@"
}

ring_capture() { # DIR [SHIFT]: ring and slow of tests/data/icount.json, 1000 elements each
	make_capture "$@" <<'EOS'
tag 3 scenario ring 500 recipe=lf-drop
tag 4 scenario ring 500 recipe=lf-drop
tag 5 scenario slow 1000 recipe=lf-drop-b1
fn 3 page_pool_put_unrefed_netmem 81.03
fn 4 page_pool_put_unrefed_netmem 81.03
fn 3 page_pool_refill_alloc_cache 41.69
fn 4 page_pool_refill_alloc_cache 41.69
fn 3 xdp_test_run_batch 56.61
fn 4 xdp_test_run_batch 56.61
fn 3 __xdp_return 34
fn 4 __xdp_return 34
fn 3 _raw_spin_lock 8.07
fn 4 _raw_spin_lock 8.07
fn 3 xdp_drop@bpf 6
fn 4 xdp_drop@bpf 6
fn 3 ktime_get 73.47
fn 4 ktime_get 73.47
fn 3 [unmapped] 0.02
fn 4 [unmapped] 0.02
fn 5 clear_page_erms 4100 rep
fn 5 get_page_from_freelist 300
fn 5 page_pool_alloc_netmems 200
fn 5 xdp_drop@bpf 6
fn 5 veth_poll@veth 1
fn 5 [user] 0.5
fn 5 xdp_test_run_batch 690
EOS
}

# A merged result file without what the profiles put in: the profile
# objects and the path figures from them (the last member's comma goes too).
unmerge() { # FILE
	awk '{ line[NR] = $0 }
	function out(l) { if (have) print buf; buf = l; have = 1 }
	END {
		for (i = 1; i <= NR; i++) {
			l = line[i]
			if (l ~ /^ *"(profile|profile_reference|path_cost_profile)": \{$/) {
				ind = l; sub(/"[a-z_]+": \{$/, "", ind)
				while (++i < NR && line[i] != ind "}" && line[i] != ind "},") ;
				if (line[i] !~ /,$/)
					sub(/,$/, "", buf)
				continue
			}
			out(l)
		}
		if (have) print buf
	}' "$1"
}

# The host side end to end, the guest a stand-in: the job says --profile and
# the plugin; the profiles go into the result file beside what bench wrote,
# which stays byte for byte; the report follows the command's output. Each
# scenario's call graph goes into its profile, its chains into the report
# and its folded stacks beside the result file, named after both.
test_profile_host_side() {
	local r=$TMPD/r.json
	need_guest_tools
	stand_in_qemu 7.2.22 elf
	stand_in_guest
	CAPTURE_GRAPH=1 ring_capture "$TMPD/cap"
	expect_exit 0 vm_fake "$DATA/icount.json" "$TMPD/cap" -q --profile -- bench --json "$r"
	grep -qx "VM_PROFILE=1" "$TMPD/job.conf" || fail "job.conf: no VM_PROFILE=1"
	grep -qx "VM_QPLUGIN='$TMPD/lib/vm/qprof-v1.so'" "$TMPD/job.conf" ||
		fail "job.conf: not the API 1 build: $(grep QPLUGIN "$TMPD/job.conf")"
	assert_match "$LAST_OUT" "^Type:ppbench_ring .*the command's output" "the command's output first"
	assert_match "$LAST_OUT" "^profile ring: 1,000 elements, 16 windows \(recipe=lf-drop\)$" "ring's profile"
	assert_match "$LAST_OUT" "^  300\.89 instructions per element in the windows; the clock's figure 300\.87 " \
		"beside the clock's figure"
	assert_match "$LAST_OUT" "^ +81\.03 +26\.9 +page_pool +page_pool_put_unrefed_netmem$" "a function"
	assert_match "$LAST_OUT" "^ +6\.00 +2\.0 +bpf +xdp_drop \[bpf\]$" "a BPF program by name"
	assert_match "$LAST_OUT" "^ +0\.02 +0\.0 +unmapped +\[unmapped\]$" "unmapped: shown, however small"
	assert_match "$LAST_OUT" "^  unmapped +0\.02 " "unmapped: its group"
	assert_match "$LAST_OUT" "^  path figure \(page_pool, ptr_ring, page allocator\): 122\.72 instr/elem$" \
		"ring's path figure"
	assert_match "$LAST_OUT" "^ +4100\.00 +77\.4 +4100\.00 +page allocator +clear_page_erms$" \
		"rep iterations apart"
	"$TOP/build/tests/schema_check" "$r" >/dev/null || fail "the result file fails its schema"
	jq -e '.scenarios[] | select(.name == "ring") | .profile.per_elem > 300.88 and
		.profile.elems == 1000 and .profile.windows == 16 and
		(.profile.functions | length) == 8 and
		(.profile.functions[0] | .name == "page_pool_put_unrefed_netmem" and .group == "page_pool"
			and .kind == "kernel" and .instructions == 81030) and
		(.profile.functions[] | select(.name == "xdp_drop") | .module == "bpf" and .kind == "bpf") and
		.path_cost_profile.method == "profile" and .path_cost_profile.value == 122.72 and
		([.path_cost_profile.functions[].name] == ["page_pool_put_unrefed_netmem",
			"page_pool_refill_alloc_cache"]) and
		(.path_cost_cycles.method | startswith("fentry/fexit")) and
		(keys_unsorted | index("path_cost_profile") == index("path_cost_cycles") + 1) and
		(has("path_cost_fentry") | not)' "$r" >/dev/null ||
		fail "ring's profile in the file: $(jq -c '.scenarios[0] | {profile, path_cost_cycles,
			path_cost_profile}' "$r" | head -c 1500)"
	jq -e '.scenarios[] | select(.name == "slow") | .profile.rep_per_elem == 4100 and
		(.profile.functions[] | select(.name == "veth_poll") | .module == "veth" and .kind == "module") and
		(.profile.functions[] | select(.name == "[user]") | .kind == "user" and .group == "user")' \
		"$r" >/dev/null || fail "slow's profile"
	jq -e '.scenarios[] | select(.name == "fast") | has("profile") | not' "$r" >/dev/null ||
		fail "fast has no windows: no profile"
	# everything else as bench wrote it, byte for byte
	cmp -s <(unmerge "$r") "$DATA/icount.json" ||
		fail "the rest of the file changed: $(diff <(unmerge "$r") "$DATA/icount.json" | head -20)"
	assert_eq "$(grep -c 18446744073709551615 "$r")" 1 "a number no reader keeps, kept"
	assert_eq "$(vm_dirs)" "" "no work directory left"
	# the call graph: each function its own chain here
	assert_match "$LAST_OUT" "^ +81\.03 +81\.03  page_pool_put_unrefed_netmem$" "a chain in the report"
	jq -e '.scenarios[] | select(.name == "ring") | .profile as $p | $p.callgraph |
		.per_elem == $p.per_elem and .recoveries == 0 and .chain_floor == 0.05 and
		([.functions[] | select(.name == "xdp_drop") | .module == "bpf" and .self == 6 and
			.children == 6] | length) == 1 and
		([.chains[] | select(.chain == "[unmapped]")] | length) == 0 and
		([.chains[] | select(.chain == "page_pool_put_unrefed_netmem")][0].children == 81.03)' \
		"$r" >/dev/null || fail "ring's call graph: $(jq -c '.scenarios[0].profile.callgraph |
			del(.what) | .chains |= .[0:3]' "$r")"
	assert_eq "$(ls "$TMPD"/*.folded | xargs -n1 basename | tr '\n' ' ')" "r.ring.folded r.slow.folded " \
		"folded stacks beside the result, one per profiled scenario"
	assert_eq "$(awk '{ n += $NF } END { print n }' "$TMPD/r.ring.folded")" \
		"$(jq '.scenarios[] | select(.name == "ring") | .profile.instructions' "$r")" \
		"ring's folded stacks: every instruction of its windows"
	grep -qx "page_pool_put_unrefed_netmem 81030" "$TMPD/r.ring.folded" ||
		fail "a function's stack: $(head -3 "$TMPD/r.ring.folded")"
}

# vm --profile -- load: the attached run's profile, per packet load counted,
# is shown and joins load's JSON lines as one line more; the lines before it
# stay as load wrote them.
test_profile_load_window() {
	local r=$TMPD/l.json
	need_guest_tools
	stand_in_qemu 7.2.22 elf
	stand_in_guest
	make_capture "$TMPD/cap" <<'EOS'
tag 1 load nic0 5000 action=drop
fn 1 page_pool_put_unrefed_netmem 81
fn 1 page_pool_alloc_netmems 1
fn 1 vmxnet3_rq_rx_complete 120
fn 1 pktgen_xmit 200
fn 1 [user] 50
EOS
	printf '%s\n' '{"type": "interval", "time": 1}' '{"type": "summary", "time": 2}' >"$TMPD/load.json"
	expect_exit 0 vm_fake "$TMPD/load.json" "$TMPD/cap" -q --profile -- load nic0 --duration 2 --json "$r"
	assert_match "$LAST_OUT" "^profile load nic0: 5,000 elements, [0-9]+ windows \(action=drop\)$" \
		"the attached run's profile"
	assert_match "$LAST_OUT" "^ +81\.00 +[0-9.]+ +page_pool +page_pool_put_unrefed_netmem$" \
		"a function, per packet"
	# below 0.5 % of the figure (mostly the sender's), not of the path figure
	assert_match "$LAST_OUT" "^ +1\.00 +0\.2 +page_pool +page_pool_alloc_netmems$" \
		"the path's small function listed"
	assert_eq "$(head -n 2 "$r")" "$(cat "$TMPD/load.json")" "load's lines as they were"
	assert_eq "$(grep -c '' "$r")" 3 "one line more"
	jq -e 'select(.type == "profile") | .kind == "load" and .name == "nic0" and
		.extra == "action=drop" and .profile.elems == 5000 and (.profile.what | test("attached")) and
		(.profile.functions[] | select(.name == "pktgen_xmit") | .instructions == 1000000)' \
		"$r" >/dev/null || fail "the profile line: $(tail -n 1 "$r" | head -c 600)"
	assert_eq "$(vm_dirs)" "" "no work directory left"
}

# The fixtures tests/data/prof-old.json and prof-new.json: icount.json and
# icount2.json with profiles and call graphs, made by the host side from
# synthetic captures. New has ring +17 instructions per element
# (page_pool_put_unrefed_netmem +12 and a new page_pool_dma_sync_for_device
# 5 below it, through xdp_return_buff and __xdp_return), slow +53 (a new BPF
# program, ppb_burn, called by the XDP program), fast the same but for 0.02
# in one function: the figures by the clock are moved to match.
prof_capture() { # DIR old|new
	local sys='entry_SYSCALL_64;__sys_bpf' run put alloc free
	run="$sys;xdp_test_run_batch.constprop.0"
	put="$run;xdp_return_buff;__xdp_return;page_pool_put_unrefed_netmem"
	alloc="$run;__page_pool_alloc_netmems_slow;alloc_pages_bulk_noprof"
	free="$put;page_pool_return_netmem;__folio_put;__free_frozen_pages"
	{
		cat <<EOS
tag 1 scenario ring 1000 recipe=lf-drop
fn 1 $run;page_pool_alloc_netmems;page_pool_refill_alloc_cache 41.69
fn 1 $run;page_pool_alloc_netmems 21.94
fn 1 $run 56.61
fn 1 $run;xdp_return_buff;__xdp_return 34
fn 1 $run;xdp_return_buff 29
fn 1 $put;_raw_spin_lock 8
fn 1 $put;_raw_spin_unlock 6
fn 1 $run;bpf_dispatcher_xdp_func;ppb_xdp_bare@bpf 9
fn 1 $run;page_pool_alloc_netmems;page_pool_refill_alloc_cache;page_pool_alloc_pages 6
fn 1 $run;bpf_dispatcher_xdp_func 3
fn 1 $sys;bpf_test_timer_continue 4.61
tag 2 scenario fast 100 recipe=lf-fastpass
fn 2 memcpy_orig 1500
fn 2 __netif_receive_skb_core.constprop.0 600
fn 2 kfree_skb_list_reason 300.05
fn 2 page_pool_alloc_netmems 21.94
fn 2 page_pool_put_unrefed_netmem 40
fn 2 do_xdp_generic 290
fn 2 ppb_xdp_pass@bpf 9
fn 2 bpf_test_timer_continue 190.71
fn 2 [user] 0.05
tag 3 scenario slow 1000 recipe=lf-drop-b1
fn 3 $alloc;clear_highpages_kasan_tagged 4108 rep
fn 3 $run 158
fn 3 $free 134.88
fn 3 $free;free_frozen_page_commit 105.44
fn 3 $run;xdp_test_run_init_page 88
fn 3 $alloc;__rmqueue_pcplist 85.02
fn 3 $put 73.16
fn 3 $put;page_pool_return_netmem 45.28
fn 3 $run;xdp_test_run_init_page;memcpy_orig 41.02
fn 3 $alloc 36.17
fn 3 $put;page_pool_return_netmem;__folio_put 35.44
fn 3 $run;xdp_return_buff;__xdp_return 34
fn 3 $run;xdp_return_buff 29
fn 3 $run;__page_pool_alloc_netmems_slow 27.03
fn 3 $run;ppb_xdp_bare@bpf 9
fn 3 $sys;bpf_test_timer_continue;native_sched_clock 0.43
fn 3 [unmapped] 0.01
fn 3 $sys;bpf_test_timer_continue 287.43
EOS
		if [ "$2" = new ]; then
			echo "fn 1 $put 93.03"
			echo "fn 1 $put;page_pool_dma_sync_for_device 5"
			echo "fn 2 native_sched_clock 0.35"
			echo "fn 3 $run;ppb_xdp_bare@bpf;ppb_burn@bpf 53"
		else
			echo "fn 1 $put 81.03"
			echo "fn 2 native_sched_clock 0.33"
		fi
	} | CAPTURE_GRAPH=1 make_capture "$1"
}

# A result file's figures of scenario NAME moved by D (runs, min, median, mean).
shift_figures() { # FILE NAME D
	jq --arg n "$2" --argjson d "$3" '
		def mv: .min += $d | .median += $d | .mean += $d | .runs |= map(. + $d);
		.scenarios |= map(if .name == $n then
			(.cycles_per_elem |= mv) | (.ns_per_elem |= mv) |
			(.per_cpu |= map(.cycles_per_elem |= mv)) else . end)' "$1"
}

make_prof_fixtures() { # DIR
	mkdir -p "$1"
	prof_capture "$TMPD/cap-old" old
	prof_capture "$TMPD/cap-new" new
	shift_figures "$DATA/icount2.json" ring 17 >"$TMPD/moved.json"
	shift_figures "$TMPD/moved.json" slow 53 >"$TMPD/icount2-moved.json"
	expect_exit 0 vm_fake "$DATA/icount.json" "$TMPD/cap-old" -q --profile -- bench \
		--json "$1/prof-old.json"
	expect_exit 0 vm_fake "$TMPD/icount2-moved.json" "$TMPD/cap-new" -q --profile -- bench \
		--json "$1/prof-new.json"
}

# The fixtures, with their folded stacks, are what the host side makes today (to remake them:
# PPB_REMAKE_FIXTURES=1 tests/run.sh test_profile_fixtures_current).
test_profile_fixtures_current() {
	need_guest_tools
	stand_in_qemu 7.2.22 elf
	stand_in_guest
	make_prof_fixtures "$TMPD/fix"
	local f
	if [ -n "${PPB_REMAKE_FIXTURES:-}" ]; then
		cp "$TMPD/fix/"prof-*.json "$TMPD/fix/"prof-*.folded "$DATA/"
	fi
	for f in prof-old.json prof-new.json prof-{old,new}.{ring,fast,slow}.folded; do
		cmp -s "$TMPD/fix/$f" "$DATA/$f" || fail "$f is not current"
	done
}

# Each scenario's rows in compare's text FILE: "KIND |CHANGE|" per row, in order.
prof_rows() { # FILE SCENARIO
	awk -v s="$2" '$1 == s && / instr\/elem \(/ { on = 1; next }
		on && /^[a-z]/ { on = 0 }
		on && $4 ~ /^perf-profile\./ { split($4, k, "."); c = $2; sub(/^[-+]/, "", c)
			print k[2], c }' "$1"
}

# compare of two files with profiles: LKP's perf-profile rows, old change new,
# for calltrace (leaf first), children and self, largest change first and
# only those of the floor (--profile-floor) or more; how much of each
# scenario's change the functions carry; a file of an older vm --profile,
# without a call graph, gets self rows only. The table shows each figure
# once, in instructions.
test_profile_compare_names_the_change() {
	local old=$DATA/prof-old.json new=$DATA/prof-new.json chain
	chain='xdp_test_run_batch\.constprop\.0\.__sys_bpf\.entry_SYSCALL_64'
	expect_exit 0 "$PPBENCH" compare "$old" "$new"
	assert_match "$LAST_OUT" '^ +old +change +new +row$' "LKP's layout"
	assert_match "$LAST_OUT" '^ring \+17\.00 instr/elem \(300\.88 -> 317\.88, \+5\.65 %\): 2 functions carry \+17\.00 \(100\.0 %\)$' \
		"ring: the change and what carries it"
	assert_eq "$(grep -A1 '^ring +17' "$LAST_OUT" | tail -1 | tr -s ' ')" " old change new row" \
		"ring: its rows below it"
	assert_eq "$(grep -A2 '^ring +17' "$LAST_OUT" | tail -1)" \
		"       95.03      +17.00       112.03  perf-profile.calltrace.instructions-pp.page_pool_put_unrefed_netmem.__xdp_return.xdp_return_buff.xdp_test_run_batch.constprop.0.__sys_bpf.entry_SYSCALL_64" \
		"ring's first row: the deepest chain that carries +17, leaf first"
	assert_match "$LAST_OUT" "^ +0\\.00 +\\+5\\.00 +5\\.00  perf-profile\\.calltrace\\.instructions-pp\\.page_pool_dma_sync_for_device\\.page_pool_put_unrefed_netmem\\.__xdp_return\\.xdp_return_buff\\.$chain\$" \
		"a new chain"
	assert_match "$LAST_OUT" '^ +95\.03 +\+17\.00 +112\.03  perf-profile\.children\.instructions-pp\.page_pool_put_unrefed_netmem$' \
		"a function with all it calls"
	assert_match "$LAST_OUT" '^ +81\.03 +\+12\.00 +93\.03  perf-profile\.self\.instructions-pp\.page_pool_put_unrefed_netmem$' \
		"the function alone"
	assert_match "$LAST_OUT" '^ +0\.00 +\+5\.00 +5\.00  perf-profile\.self\.instructions-pp\.page_pool_dma_sync_for_device$' "a new one"
	assert_eq "$(prof_rows "$LAST_OUT" ring | awk '{ print $1 }' | uniq | tr '\n' ' ')" \
		"calltrace children self " "ring: calltrace, children, self, as LKP lists them"
	assert_eq "$(prof_rows "$LAST_OUT" ring | awk 'k != $1 { k = $1; m = 1e9 } $2 > m { print } { m = $2 }')" "" \
		"ring: each kind's rows, largest change first"
	assert_match "$LAST_OUT" '^slow \+53\.00 instr/elem .*: 1 function carries \+53\.00 \(100\.0 %\)$' "slow"
	assert_match "$LAST_OUT" "^ +0\\.00 +\\+53\\.00 +53\\.00  perf-profile\\.calltrace\\.instructions-pp\\.ppb_burn\\.ppb_xdp_bare\\.$chain\$" \
		"the planted program, by name, in its chain"
	assert_match "$LAST_OUT" '^ +0\.00 +\+53\.00 +53\.00  perf-profile\.self\.instructions-pp\.ppb_burn$' "and alone"
	assert_match "$LAST_OUT" '^fast \+0\.02 instr/elem .*: no function changed by 0\.1 or more$' "fast: none"
	assert_eq "$(prof_rows "$LAST_OUT" fast)" "" "fast: no row"
	assert_eq "$(grep -c 'native_sched_clock' "$LAST_OUT")" 0 "a change below 0.1 is not named"
	# the floor
	expect_exit 0 "$PPBENCH" compare --profile-floor 15 "$old" "$new"
	assert_eq "$(prof_rows "$LAST_OUT" ring | sort -u | tr '\n' ' ')" "calltrace 17.00 children 17.00 " \
		"--profile-floor 15: ring's rows of 15 or more, no self row (+12, +5)"
	assert_match "$LAST_OUT" '^ring \+17\.00 .*: no function changed by 15 or more$' "the head says the floor"
	expect_exit 2 "$PPBENCH" compare --profile-floor 0 "$old" "$new"
	expect_one_line_error "profile-floor"
	# an older file: self rows only, and the file named
	jq 'del(.scenarios[].profile.callgraph)' "$old" >"$TMPD/older.json"
	expect_exit 0 "$PPBENCH" compare "$TMPD/older.json" "$new"
	assert_match "$LAST_OUT" "^  self rows only: $TMPD/older\\.json has no call graph\$" "said"
	assert_eq "$(prof_rows "$LAST_OUT" ring | awk '{ print $1 }' | sort -u)" self "ring: self rows only"
	assert_match "$LAST_OUT" '^ +81\.03 +\+12\.00 +93\.03  perf-profile\.self\.instructions-pp\.page_pool_put_unrefed_netmem$' \
		"the same self rows"
	# each figure once, in its own unit
	assert_eq "$(grep -c ' ring instr/elem$' "$LAST_OUT")" 1 "ring's figure once"
	! grep -qE 'guest ns/elem|cpu0 run' "$LAST_OUT" || fail "a figure repeated as guest ns or cpu0's"
	assert_match "$LAST_OUT" '^each figure once: guest ns and a lone CPU' "and the legend says why"
	expect_exit 0 "$PPBENCH" compare --markdown "$old" "$new"
	# shellcheck disable=SC2016 # (backquotes of Markdown)
	assert_match "$LAST_OUT" '^\| 0\.00 \| \+53\.00 \| 53\.00 \| `perf-profile\.self\.instructions-pp\.ppb_burn` \|$' \
		"Markdown"
	! grep -q 'guest ns/elem' "$LAST_OUT" || fail "Markdown: guest ns repeated"
	expect_exit 0 "$PPBENCH" compare --json "$TMPD/c.json" "$old" "$new"
	jq -e '.comparisons[0].profiles | length == 3 and
		(.[] | select(.scenario == "slow") | .change == 53 and .explained == 53 and
			.floor == 0.1 and .call_graphs and
			(.rows[0] | .kind == "calltrace" and .change == 53 and
				.chain == "ppb_burn.ppb_xdp_bare.xdp_test_run_batch.constprop.0.__sys_bpf.entry_SYSCALL_64" and
				.name == "perf-profile.calltrace.instructions-pp." + .chain) and
			(.rows[-1] | .kind == "self" and .function == "ppb_burn" and .module == "bpf" and
				.group == "bpf" and .old == 0 and .new == 53)) and
		(.[] | select(.scenario == "ring") | [.rows[].kind] | length == 16) and
		(.[] | select(.scenario == "fast") | .rows == [])' "$TMPD/c.json" >/dev/null ||
		fail "JSON profiles: $(jq -c '.comparisons[0].profiles' "$TMPD/c.json")"
	jq -e '[.comparisons[0].rows[] | select(.figure == "ns") | .repeats] | all(. == "cycles")' \
		"$TMPD/c.json" >/dev/null || fail "JSON: the guest ns rows say they repeat the figure"
	# --org, --ktap and the exports keep working on files with profiles
	expect_exit 0 "$PPBENCH" compare --org "$old" "$new"
	assert_match "$LAST_OUT" '^\| slow +\| +5297 \| +5351 \|' "org: slow's row"
	assert_match "$LAST_OUT" '^#\+TBLFM: ' "org: its formula"
	expect_exit 0 "$PPBENCH" compare --ktap "$old" "$new"
	assert_match "$LAST_OUT" '^1\.\.4$' "ktap: the plan"
	assert_match "$LAST_OUT" '^ok 4 slow instr/elem: \+1\.0%' "ktap: slow"
	expect_exit 0 "$PPBENCH" export lkp "$new"
	assert_match "$LAST_OUT" '^ppbench\.ring\.path_fentry_instructions_per_elem: 141\.9055239$' \
		"lkp: bench's path figure, its method in the name"
	assert_match "$LAST_OUT" '^ppbench\.ring\.path_profile_instructions_per_elem: 167\.66$' \
		"lkp: the profile's beside it"
	lkp_check "$LAST_OUT"
	assert_match "$LAST_OUT" "^ppbench\\.ring\\.perf-profile\\.calltrace\\.instructions-pp\\.page_pool_put_unrefed_netmem\\.__xdp_return\\.xdp_return_buff\\.$chain: 112\\.03\$" \
		"lkp: a chain, leaf first, per element"
	assert_match "$LAST_OUT" '^ppbench\.slow\.perf-profile\.children\.instructions-pp\.ppb_xdp_bare: 62$' \
		"lkp: a function with all it calls"
	assert_match "$LAST_OUT" '^ppbench\.slow\.perf-profile\.self\.instructions-pp\.ppb_burn: 53$' "lkp: alone"
	assert_match "$LAST_OUT" '^ppbench\.fast\.perf-profile\.self\.instructions-pp\.user: 0\.05$' \
		"lkp: [user] without its brackets"
	! grep -q 'unmapped' "$LAST_OUT" || fail "lkp: [unmapped]'s 0.01, below the chains' floor"
	expect_exit 0 "$PPBENCH" export lkp "$TMPD/older.json"
	assert_eq "$(grep -c 'perf-profile\.\(calltrace\|children\)' "$LAST_OUT")" 0 \
		"lkp: a file without a call graph has no calltrace or children rows"
	assert_match "$LAST_OUT" '^ppbench\.ring\.perf-profile\.self\.instructions-pp\.page_pool_put_unrefed_netmem: 81\.03$' \
		"lkp: but its self rows"
	expect_exit 0 "$PPBENCH" export otava "$old" "$new"
	expect_exit 0 "$PPBENCH" export bmf "$new"
	assert_eq "$(jq -c '."ppbench.ring" | [."path-fentry-instructions-per-elem".value,
		."path-profile-instructions-per-elem".value]' "$LAST_OUT")" "[141.9055239,167.66]" \
		"bmf: both path figures, each named by its method"
	expect_exit 0 "$PPBENCH" export kcidb --origin ppbench_ci "$new"
	assert_eq "$(jq -c '[.tests[] | select(.path | startswith("ppbench.ring.")) | .path]' \
		"$LAST_OUT")" '["ppbench.ring.path.fentry","ppbench.ring.path.profile"]' "kcidb"
	# a side without a profile: no profile section
	expect_exit 0 "$PPBENCH" compare "$DATA/icount.json" "$new"
	! grep -q '^profiles:' "$LAST_OUT" || fail "a profile diff with one side unprofiled"
}

# Path figures of two methods never compare: bench's fentry figure and a
# profile's count different things. vm --profile keeps bench's where it was
# and puts the profile's beside it, so each compares with its own kind; a
# file whose path_cost_cycles is a profile's (planted here) against one of
# fentry's gets no change, and every gate on them is refused in one line.
test_profile_methods_never_mix() {
	local new=$DATA/prof-new.json mixed=$TMPD/mixed.json i
	# a file without a profile against one with: fentry's figure against fentry's
	expect_exit 0 "$PPBENCH" compare "$DATA/icount.json" "$new"
	assert_match "$LAST_OUT" '^ +141\.84 +0\.0% \? +141\.91 +ring path instr/elem \(fentry\)$' \
		"ring: fentry's figure on both sides"
	assert_match "$LAST_OUT" '^ +6781\.98 +0\.0% \? +6782\.11 +slow path instr/elem \(fentry\)$' \
		"slow: fentry's figure on both sides"
	! grep -qE '\(profile\)$|method differs' "$LAST_OUT" || fail "a profile's row with one side profiled"
	# two profiled files: fentry's with fentry's, the profile's with the profile's
	expect_exit 0 "$PPBENCH" compare "$DATA/prof-old.json" "$new"
	assert_match "$LAST_OUT" '^ +141\.84 +0\.0% \? +141\.91 +ring path instr/elem \(fentry\)$' "fentry's"
	assert_match "$LAST_OUT" '^ +150\.66 +\+11\.3% \? +167\.66 +ring path instr/elem \(profile\)$' \
		"the profile's"
	# planted: the profile's figure as path_cost_cycles, against fentry's
	jq '.scenarios |= map(if .path_cost_profile then .path_cost_cycles = .path_cost_profile |
		del(.path_cost_profile) else . end)' "$new" >"$mixed"
	expect_exit 0 "$PPBENCH" compare "$DATA/icount.json" "$mixed"
	for i in ring fast slow; do
		assert_match "$LAST_OUT" "^ +method differs \\(fentry, profile\\) +$i path instr/elem\$" \
			"$i: method differs"
	done
	! grep -E '[0-9]%.* path instr/elem' "$LAST_OUT" || fail "a path figure's %change across methods"
	expect_exit 0 "$PPBENCH" compare --markdown "$DATA/icount.json" "$mixed"
	assert_match "$LAST_OUT" '^\| ring path instr/elem \| \| \| method differs \(fentry, profile\) \|' \
		"Markdown"
	expect_exit 0 "$PPBENCH" compare --json - "$DATA/icount.json" "$mixed"
	jq -e '[.comparisons[0].rows[] | select(.figure == "path")] | length == 3 and
		all(.methods_differ == ["fentry", "profile"] and .change_pct == null and
			.testable == false and .method == null)' "$LAST_OUT" >/dev/null ||
		fail "JSON: $(jq -c '.comparisons[0].rows[] | select(.figure == "path")' "$LAST_OUT")"
	expect_exit 0 "$PPBENCH" compare --ktap --metric path "$DATA/icount.json" "$mixed"
	assert_match "$LAST_OUT" '^ok 1 ring path instr/elem: method differs \(fentry, profile\) # SKIP ' \
		"KTAP: a skip"
	# a gate or a limit on them: exit 2, one line naming both methods
	expect_exit 2 "$PPBENCH" compare --fail-above 1 --metric path --old "$DATA/icount.json" \
		"$DATA/icount2.json" --new "$mixed" "$mixed"
	expect_one_line_error "--fail-above on path: ring's path figures are of two methods, fentry and profile"
	expect_exit 2 "$PPBENCH" compare --limit ring:path=1000 "$DATA/icount.json" "$mixed"
	expect_one_line_error "--limit ring:path=1000: ring's path figures are of two methods, fentry and profile"
	expect_exit 0 "$PPBENCH" compare --limit ring:path=1000 "$mixed"
	assert_match "$LAST_OUT" '^ring:path=1000 .* path instr/elem \(profile\) +167\.66 +ok$' \
		"one file: its limit line names the method"
	# trend: a series whose path figures change method has no path series, said in a
	# line; with a profile beside fentry's (s2) the path series is fentry's
	mkdir -p "$TMPD/s" "$TMPD/s2"
	for i in 1 2 3 4 5 6 7 8; do
		jq --arg l "p$i" '.label = $l' "$([ $i -le 4 ] && echo "$DATA/icount.json" || echo "$mixed")" \
			>"$TMPD/s/p$i.json"
		jq --arg l "p$i" '.label = $l' "$([ $i -le 4 ] && echo "$DATA/icount.json" || echo "$new")" \
			>"$TMPD/s2/p$i.json"
	done
	expect_exit 0 "$PPBENCH" trend --json "$TMPD/t.json" "$TMPD/s"
	assert_match "$LAST_ERR" "^ppbench trend: warning: ring path: fentry in .*p1\\.json, profile in .*p5\\.json: figures of two methods make no series; left out$" \
		"trend: the line names both methods"
	assert_eq "$(jq '[.series[] | select(.figure == "path")] | length' "$TMPD/t.json")" 0 \
		"no path series"
	expect_exit 2 "$PPBENCH" trend --fail-on-regression 5 --metric path "$TMPD/s"
	expect_one_line_error "--fail-on-regression on path: ring path: fentry in .*, profile in "
	expect_exit 0 "$PPBENCH" trend --json - "$TMPD/s2"
	assert_eq "$(jq -c '[.series[] | select(.figure == "path") | .method] | unique' "$LAST_OUT")" \
		'["fentry"]' "one method: a path series, named by it"
}

test_profile_plot() {
	command -v rsvg-convert >/dev/null || skip "rsvg-convert missing (scripts/install-deps.sh --tests)"
	[ -x "$TOP/build/tests/png_check" ] || make -s -C "$TOP" build/tests/png_check >/dev/null ||
		fail "cannot build build/tests/png_check"
	local svg=$TMPD/p.svg g
	expect_exit 0 "$PPBENCH" plot --profile "$DATA/prof-old.json" "$DATA/prof-new.json" -o "$svg"
	assert_eq "$(grep -c '<g class="scenario">' "$svg")" 3 "a panel per profiled scenario"
	assert_match "$svg" '>instructions per element</text>' "the axis counts instructions"
	for g in page_pool ptr_ring "page allocator" xdp test_run skb bpf other user unmapped; do
		assert_match "$svg" ">$g \\(" "legend: $g"
	done
	assert_match "$svg" '<title>slow, prof-new: ppb_burn \[bpf\] 53\.00 instr/elem \(bpf\)</title>' \
		"a piece per function, named"
	assert_match "$svg" '>path 167\.7</text>' "the path figure"
	rsvg-convert -o "$TMPD/p.png" "$svg" || fail "rsvg-convert cannot render it"
	"$TOP/build/tests/png_check" "$TMPD/p.png" --color 0072b2 --color 009e73 --color d55e00 ||
		fail "the picture misses page_pool, the page allocator or bpf"
	# the plain plot of instruction files: their unit, not the TSC's
	expect_exit 0 "$PPBENCH" plot "$DATA/prof-old.json" -o "$TMPD/i.svg"
	assert_match "$TMPD/i.svg" '>instructions per element</text>' "plot's axis"
	assert_match "$TMPD/i.svg" "qemu's instruction clock \(-icount shift=0,sleep=off\)" "subtitle"
	! grep -q 'TSC cycles\|GHz' "$TMPD/i.svg" || fail "an instruction file plotted as TSC cycles"
	# bad input: one line, exit 2, no file
	expect_exit 2 "$PPBENCH" plot --profile "$DATA/icount.json" -o "$TMPD/x.svg"
	expect_one_line_error "no scenario of the files has a profile"
	expect_exit 2 "$PPBENCH" plot "$DATA/icount.json" "$DATA/base.json" -o "$TMPD/x.svg"
	expect_one_line_error "figures of two clocks never share an axis"
	expect_exit 2 "$PPBENCH" plot --metric ns "$DATA/icount.json" -o "$TMPD/x.svg"
	expect_one_line_error "guest ns are the same instructions"
	[ ! -e "$TMPD/x.svg" ] || fail "a refused plot left a file"
}

# qemu 10.0 through a wrapper script on PATH (as scripts/vm/qemu-get.sh
# makes them): the symbols of the binary it runs, and the API 3 build.
test_profile_plugin_behind_wrapper() {
	need_guest_tools
	stand_in_qemu 10.0.2 elf
	stand_in_guest
	mkdir -p "$TMPD/root"
	mv "$TMPD/bin/qemu-system-x86_64" "$TMPD/root/"
	printf '#!/bin/sh\nexport LD_LIBRARY_PATH=/nowhere\nexec %s -L /x "$@"\n' \
		"$TMPD/root/qemu-system-x86_64" >"$TMPD/bin/qemu-system-x86_64"
	chmod +x "$TMPD/bin/qemu-system-x86_64"
	ring_capture "$TMPD/cap"
	expect_exit 0 vm_fake "$DATA/icount.json" "$TMPD/cap" -q --profile -- bench --json "$TMPD/r.json"
	grep -qx "VM_QPLUGIN='$TMPD/lib/vm/qprof-v3.so'" "$TMPD/job.conf" ||
		fail "job.conf: not the API 3 build: $(grep QPLUGIN "$TMPD/job.conf")"
	# a wrapper that runs no qemu binary this can find: no plugin support seen
	# shellcheck disable=SC2016 # (the wrapper's own variable)
	printf '#!/bin/sh\nexec "$QEMU_HERE" "$@"\n' >"$TMPD/bin/qemu-system-x86_64"
	expect_exit 2 env QEMU_HERE="$TMPD/root/qemu-system-x86_64" PATH="$TMPD/bin:$PATH" \
		TMPDIR="$TMPD/tmp" "$PPBENCH" vm --profile -- bench --json "$TMPD/r.json"
	expect_one_line_error "qemu 10\.0\.2 .* has no TCG plugin support \(neither it nor a qemu binary it runs exports"
}

# recipe: the profile at the top of its file, the report after its output.
test_profile_recipe_host_side() {
	need_guest_tools
	stand_in_qemu 7.2.22 elf
	stand_in_guest
	printf '{\n  "recipe": "lf-drop",\n  "backend": "fentry",\n  "elems": 4096,\n  "pools": []\n}\n' \
		>"$TMPD/recipe.json"
	make_capture "$TMPD/cap" <<'EOS'
tag 1 recipe lf-drop 1000
fn 1 page_pool_put_unrefed_netmem 81.03
fn 1 __htab_map_lookup_elem 776
EOS
	expect_exit 0 vm_fake "$TMPD/recipe.json" "$TMPD/cap" -q --profile -- recipe lf-drop \
		--json "$TMPD/r.json"
	assert_match "$LAST_OUT" '^profile recipe lf-drop: 1,000 elements, 8 windows$' "the recipe's profile"
	jq -e '.recipe == "lf-drop" and .pools == [] and .profile.per_elem == 857.03 and
		.profile.groups[0].name == "page_pool" and
		(.profile.functions[0] | .name == "__htab_map_lookup_elem" and .group == "bpf")' \
		"$TMPD/r.json" >/dev/null || fail "the recipe's file: $(head -c 800 "$TMPD/r.json")"
}

# A capture the guest left damaged: one line naming the file and the line,
# exit 1, the result file as the command wrote it, nothing left.
test_profile_damaged_capture() {
	need_guest_tools
	stand_in_qemu 7.2.22 elf
	stand_in_guest
	ring_capture "$TMPD/cap"
	sed -i '$d' "$TMPD/cap/qprof.txt" # (its "end" line)
	expect_exit 1 vm_fake "$DATA/icount.json" "$TMPD/cap" -q --profile -- bench --json "$TMPD/r.json"
	expect_one_line_error "--profile: the guest's capture: .*/profile/qprof\.txt ends before its 'end' line"
	cmp -s "$TMPD/r.json" "$DATA/icount.json" || fail "the result file changed"
	ring_capture "$TMPD/cap2"
	echo "9 scenario ring" >"$TMPD/cap2/tags"
	rm "$TMPD/cap2"/bpf-*
	expect_exit 1 vm_fake "$DATA/icount.json" "$TMPD/cap2" -q --profile -- bench --json "$TMPD/r.json"
	expect_one_line_error "--profile: qprof\.txt counts tag 3, which 'tags' does not list"
	cmp -s "$TMPD/r.json" "$DATA/icount.json" || fail "the result file changed"
	expect_exit 1 vm_fake "$DATA/icount.json" "" -q --profile -- bench --json "$TMPD/r.json"
	expect_one_line_error "--profile: the guest's capture: .*/profile/qprof\.txt: No such file"
	assert_eq "$(vm_dirs)" "" "no work directory left"
}

# A kernel with DWARF built here (gcc -g -O1): three functions on lines 1-3
# of DIR/net/core/page_pool.c, in DIR/vmlinux, its _text at 0x400000.
tiny_vmlinux() { # DIR
	command -v gcc >/dev/null && command -v nm >/dev/null || skip "no gcc or nm for a vmlinux"
	mkdir -p "$1/net/core"
	cat >"$1/net/core/page_pool.c" <<'EOC'
int page_pool_put_unrefed_netmem(int x) { return x * 3 + 1; }
int page_pool_alloc_netmems(int x) { return x ^ 5; }
int xdp_test_run_batch(int x) { return x - 1; }
EOC
	(cd "$1" && gcc -g -O1 -nostdlib -static -no-pie -Wl,-e,xdp_test_run_batch \
		-Wl,--defsym,_text=0x400000 -o vmlinux net/core/page_pool.c) || fail "gcc"
}

# A capture of ring (1000 elements) on the tiny kernel, moved by SHIFT (its
# _text at 0xffffffff81000000 + SHIFT): each of its functions one block, a
# byte an instruction, run N1, N2 and N3 times; META's lines end its meta.
lines_capture() { # DIR VMLINUX SHIFT N1 N2 N3 META
	local dir=$1 text=$((0xffffffff81000000 + $3)) n=("$4" "$5" "$6") i=0 sum=0 a s t name
	mkdir -p "$dir"
	echo "1 scenario ring recipe=lf-drop" >"$dir/tags"
	printf '%016x T _text\n%016x T _stext\n' $text $text >"$dir/kallsyms"
	printf 'qprof 1\napi 1 0 1\ntarget x86_64\n' >"$dir/qprof.txt"
	while read -r a s t name; do
		printf '%016x T %s\n' $((text + 0x$a - 0x400000)) "$name" >>"$dir/kallsyms"
		printf 'tb %d %x %d %s -\n' $((i + 1)) $((text + 0x$a - 0x400000)) $((0x$s)) \
			"$(printf '1%.0s' $(seq $((0x$s))))" >>"$dir/qprof.txt"
		sum=$((sum + 0x$s * n[i]))
		i=$((i + 1))
	done < <(nm -S -n "$2" | awk 'NF == 4 && $3 == "T"')
	printf '%016x T _etext\n' $((text + 0x100000)) >>"$dir/kallsyms"
	{
		echo "tag 1 windows 8 spans 8 elems 1000 errors 0 insns $sum"
		for i in 0 1 2; do echo "c $((i + 1)) ${n[i]}"; done
		echo end
	} >>"$dir/qprof.txt"
	printf 'arch x86-64\nrelease 7.3.4+deb13-amd64\nqemu 7.2.22\napi 1\n%s\n' "$7" >"$dir/meta"
}

# Per source line, with the kernel's debug info: the path's kernel functions'
# instructions per element at each file:line in the report and the JSON (the
# boot moved by KASLR, the frame's function left out); compare names the lines
# that moved; without debug info, one line says why and the rest stays.
test_profile_lines() {
	local k=$TMPD/k a=$TMPD/a.json b=$TMPD/b.json s1 s2 pe
	need_guest_tools
	stand_in_qemu 7.2.22 elf
	stand_in_guest
	tiny_vmlinux "$k"
	s1=$((0x$(nm -S "$k/vmlinux" | awk '$4 == "page_pool_put_unrefed_netmem" { print $2 }')))
	s2=$((0x$(nm -S "$k/vmlinux" | awk '$4 == "page_pool_alloc_netmems" { print $2 }')))
	lines_capture "$TMPD/ca" "$k/vmlinux" 0x2a00000 1000 2000 3000 "debug_info $k/vmlinux"
	lines_capture "$TMPD/cb" "$k/vmlinux" 0x1200000 4000 2000 3000 "debug_info $k/vmlinux"
	expect_exit 0 vm_fake "$DATA/icount.json" "$TMPD/ca" -q --profile -- bench --json "$a"
	assert_match "$LAST_OUT" "^ +$s1\.00  net/core/page_pool\.c:1 +page_pool_put_unrefed_netmem$" \
		"a line in the report"
	assert_match "$LAST_OUT" "^ +$((s1 + 2 * s2))\.00  in 2 lines, of the path's $((s1 + 2 * s2))\.00 in the kernel; 0\.00 where" \
		"all of the path's at a line"
	! grep -q 'page_pool\.c:3' "$LAST_OUT" || fail "the frame's function has lines"
	jq -e --arg k "$k/vmlinux" --argjson s1 $s1 --argjson s2 $s2 '.scenarios[] |
		select(.name == "ring") | .profile.lines | .debug_info == $k and
		.per_elem == $s1 + 2 * $s2 and .no_line_per_elem == 0 and
		(.rows | sort_by(.line)) == [{line: "net/core/page_pool.c:1",
			function: "page_pool_put_unrefed_netmem", instructions: (1000 * $s1),
			per_elem: $s1}, {line: "net/core/page_pool.c:2",
			function: "page_pool_alloc_netmems", instructions: (2000 * $s2),
			per_elem: (2 * $s2)}] and .rows[0].per_elem >= .rows[1].per_elem' \
		"$a" >/dev/null || fail "the lines in the file: $(jq -c '.scenarios[0].profile.lines' "$a")"
	expect_exit 0 vm_fake "$DATA/icount.json" "$TMPD/cb" -q --profile -- bench --json "$b"
	expect_exit 0 "$PPBENCH" compare "$a" "$b"
	pe=$((3 * s1))
	assert_match "$LAST_OUT" "^ +$s1\.00 +\+300\.0% +$((4 * s1))\.00  net/core/page_pool\.c:1 \+$pe\.00 \(page_pool_put_unrefed_netmem\)$" \
		"compare: the line that moved, and by how much"
	! grep -q 'page_pool\.c:2 ' "$LAST_OUT" || fail "compare: a line that did not move"
	expect_exit 0 "$PPBENCH" compare "$a" "$a"
	assert_match "$LAST_OUT" "^no source line moved by 0\.1 or more$" "compare: none moved, in one line"
	expect_exit 0 "$PPBENCH" compare --markdown "$a" "$b"
	# shellcheck disable=SC2016 # (backquotes of Markdown)
	assert_match "$LAST_OUT" "^\| $s1\.00 \| \+300\.0% \| $((4 * s1))\.00 \| \`net/core/page_pool\.c:1\` \| \+$pe\.00 \|" \
		"compare --markdown"
	expect_exit 0 "$PPBENCH" compare --json "$TMPD/c.json" "$a" "$b"
	jq -e --argjson pe $pe '.comparisons[0].profiles[] | select(.scenario == "ring") | .lines ==
		[{line: "net/core/page_pool.c:1", function: "page_pool_put_unrefed_netmem",
		  old: ($pe / 3), new: ($pe / 3 * 4), change: $pe}]' "$TMPD/c.json" >/dev/null ||
		fail "compare's JSON: $(jq -c '.comparisons[0].profiles' "$TMPD/c.json")"
	# without debug info: one line, and the rest as it was; no line rows in compare
	lines_capture "$TMPD/cn" "$k/vmlinux" 0x2a00000 1000 2000 3000 "debug_info_why no vmlinux here"
	expect_exit 0 vm_fake "$DATA/icount.json" "$TMPD/cn" -q --profile -- bench --json "$TMPD/n.json"
	assert_eq "$(grep -c 'no source lines\|page_pool\.c:' "$LAST_OUT")" 1 "one line"
	assert_match "$LAST_OUT" "^no source lines: no vmlinux here$" "why"
	assert_match "$LAST_OUT" "^ +$s1\.00 .* page_pool_put_unrefed_netmem$" "the rest stays"
	jq -e '.scenarios[] | select(.name == "ring") | .profile | has("lines") | not' \
		"$TMPD/n.json" >/dev/null || fail "lines without debug info"
	expect_exit 0 "$PPBENCH" compare "$TMPD/n.json" "$b"
	! grep -q 'source line' "$LAST_OUT" || fail "compare: lines with one side without"
}

# Where vm finds the kernel's debug info (scripts/vm/kernel.sh): --debug-info
# FILE; beside a --kernel image, or at the top of its build tree; a Debian
# kernel's -dbg package in the cache, of its version only; else why not.
# vm's checks of --debug-info come before anything runs, one line each.
test_profile_debug_info_at_hand() {
	local kd=$TMPD/kdir t=$TMPD/tree k=$TMPD/k dbg
	need_guest_tools
	# shellcheck source=scripts/vm/kernel.sh
	. "$TOP/scripts/vm/kernel.sh"
	KCACHE=$TMPD/kc
	dbg=$KCACHE/newest/dbg
	mkdir -p "$kd" "$t/arch/x86/boot" "$dbg"
	echo 7.3.4+deb13-amd64 >"$kd/RELEASE"
	kernel_debug_info "$kd" /x/vmlinux
	assert_eq "$DEBUG_INFO" /x/vmlinux "--debug-info FILE"
	: >"$t/arch/x86/boot/bzImage"
	: >"$t/vmlinux"
	VM_KERNEL=$t/arch/x86/boot/bzImage kernel_debug_info "$kd"
	assert_eq "$DEBUG_INFO" "$(realpath "$t/vmlinux")" "the build tree's"
	VM_KERNEL=$TMPD/bzImage kernel_debug_info "$kd"
	assert_match "$DEBUG_WHY" "^no vmlinux beside $TMPD/bzImage or at the top of its build tree" \
		"a lone image"
	K_KEY=newest K_PKG=linux-image-7.3.4+deb13-amd64 K_VER=7.3.4-1~bpo13+1
	: >"$dbg/vmlinux"
	kernel_debug_info "$kd"
	assert_match "$DEBUG_WHY" "^7\.3\.4\+deb13-amd64's debug info \(linux-image-7\.3\.4\+deb13-amd64-dbg\) is not in the kernel cache: --debug-info debian downloads it" \
		"not cached, and how to have it"
	echo "linux-image-7.3.4+deb13-amd64-dbg 7.3.4-1~bpo13+1" >"$dbg/STAMP"
	kernel_debug_info "$kd"
	assert_eq "$DEBUG_INFO" "$dbg/vmlinux" "cached"
	K_VER=7.3.4-2 kernel_debug_info "$kd"
	assert_eq "$DEBUG_INFO" "" "another version's is not this kernel's"
	# vm's checks; FILE goes to the job whole
	stand_in_qemu 7.2.22 elf
	stand_in_guest
	tiny_vmlinux "$k"
	expect_exit 2 vm --debug-info debian -- bench
	expect_one_line_error "error: --debug-info gives --profile's source lines: give --profile too$"
	expect_exit 2 vm --profile --debug-info "$TMPD/none" -- bench
	expect_one_line_error "error: --debug-info $TMPD/none: No such file or directory$"
	expect_exit 2 vm --profile --debug-info "$k/net/core/page_pool.c" -- bench
	expect_one_line_error "page_pool\.c: not an ELF file"
	expect_exit 2 vm --profile --kernel "$k/vmlinux" --debug-info debian -- bench
	expect_one_line_error "error: --debug-info debian fetches a Debian kernel's, and --kernel boots your own"
	ring_capture "$TMPD/cap"
	(cd "$k" && expect_exit 0 vm_fake "$DATA/icount.json" "$TMPD/cap" -q --profile \
		--debug-info vmlinux -- bench --json "$TMPD/r.json") || fail "vm --debug-info FILE"
	grep -qx "VM_DEBUG_INFO='$k/vmlinux'" "$TMPD/job.conf" ||
		fail "job.conf: $(grep DEBUG "$TMPD/job.conf")"
}
