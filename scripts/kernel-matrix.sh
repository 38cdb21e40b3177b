#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernel matrix: boot stock Debian kernels under qemu (TCG: no KVM needed)
# with a small initramfs holding a static ppbench, run the guest tests of
# tests/guest/ inside, and report them as "PASS|FAIL|SKIP kernel-TAG/NAME".
#
#   scripts/kernel-matrix.sh                      every kernel, every guest test
#   scripts/kernel-matrix.sh --kernels 6.12 --tests 'probe_* env_veth'
#   V=1 scripts/kernel-matrix.sh                  also show each guest's console
#
# Options:
#   --kernels LIST   6.1, 6.12, newest (trixie-backports' linux-image-amd64),
#                    newest-rt, newest-cloud (its other flavours), or any
#                    linux-image-* package of the host's apt sources or of
#                    trixie-backports (meta or exact); arm64:SPEC for an arm64
#                    kernel (arm64:newest is trixie-backports' linux-image-arm64,
#                    arm64:newest-16k its 16K-page flavour, under qemu-system-aarch64);
#                    comma/space separated (default: $PPB_KERNELS or
#                    "6.1 6.12 newest arm64:newest arm64:newest-16k")
#   --tests LIST     guest test names or globs, without test_ (default: $PPB_GUEST_TESTS, all)
#   --stall SEC      end a guest whose console printed no new test line for SEC
#                    seconds (default: $PPB_STALL_LIMIT or 480); a guest whose
#                    kernel reports a CPU stuck for 60 s is ended at once
#   --cap SEC        end the whole matrix after SEC seconds (default:
#                    $PPB_MATRIX_CAP or 3000, well under CI's 90 minutes)
#   --clock CLOCK    tcg (plain emulation) or icount (qemu's instruction clock,
#                    as ppbench vm runs: its vCPUs take turns) for every guest
#                    (default: $PPB_MATRIX_CLOCK, else icount but 6.1 under tcg)
#   --serial         boot the guests one after the other (default: as many at a
#                    time as the host has 2 CPUs and the memory for)
#   --keep           keep the work directory (initramfs, console logs)
#   --list           list the guest tests and exit
# Environment: PPBENCH_KCACHE (kernel cache, default /var/cache/ppbench-kernels);
# QEMU (default qemu-system-x86_64; arm64 guests: qemu-system-aarch64); PPB_TEST_TIMEOUT (per guest test, default 400);
# PPB_KERNEL_APPEND (more kernel command line, e.g. loglevel=7 with V=1);
# CI=true or PPBENCH_REQUIRE_KERNELS=1 turn "cannot run here" SKIPs into FAILs.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
STATIC_BUILD=build/static
QEMU=${QEMU:-qemu-system-x86_64}
# The kernels, their cache, the initramfs and the qemu command line are
# scripts/vm/'s, which ppbench vm shares.
# shellcheck source=scripts/vm/kernel.sh
. "$TOP/scripts/vm/kernel.sh"
# shellcheck source=scripts/vm/guest.sh
. "$TOP/scripts/vm/guest.sh"
# shellcheck source=scripts/vm/sysroot.sh
. "$TOP/scripts/vm/sysroot.sh"
# shellcheck source=scripts/vm/cross.sh
. "$TOP/scripts/vm/cross.sh"

kernels=${PPB_KERNELS:-}
tests=${PPB_GUEST_TESTS:-}
# Limits are no-progress limits and a cap, never one machine's speed, which
# differs between machines of our kind. A guest is ended only when its
# console has printed no new test line for stall_limit seconds, longer than
# the guest's own per-test limit (PPB_TEST_TIMEOUT, 400 s), which fires first
# and names the test. matrix_cap bounds a matrix that keeps progressing.
stall_limit=${PPB_STALL_LIMIT:-480}
matrix_cap=${PPB_MATRIX_CAP:-3000}
serial=0
keep=0
clock=${PPB_MATRIX_CLOCK:-}
V=${V:-0}

usage() {
	sed -n '3,33s/^# \{0,1\}//p' "$0"
	exit "${1:-0}"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--kernels) kernels=${2?}; shift ;;
	--kernels=*) kernels=${1#*=} ;;
	--tests) tests=${2?}; shift ;;
	--tests=*) tests=${1#*=} ;;
	--stall) stall_limit=${2?}; shift ;;
	--stall=*) stall_limit=${1#*=} ;;
	--cap) matrix_cap=${2?}; shift ;;
	--cap=*) matrix_cap=${1#*=} ;;
	--clock) clock=${2?}; shift ;;
	--clock=*) clock=${1#*=} ;;
	--serial) serial=1 ;;
	--keep) keep=1 ;;
	--list) list_only=1 ;;
	-h | --help) usage 0 ;;
	*) echo "kernel-matrix: unknown option '$1'" >&2; usage 2 >&2 ;;
	esac
	shift
done
kernels=$(echo "${kernels:-6.1 6.12 newest arm64:newest arm64:newest-16k}" | tr ',' ' ')
# The arm64 guests (arm64:SPEC) run the version-specific tests only, unless
# --tests names others: what differs on arm64 is below the tool (BTF layouts,
# fentry targets, the NIC driver), the rest runs the x86-64 guests' code.
has_arm64=0
case " $kernels " in *" arm64:"*) has_arm64=1 ;; esac
tests=$(echo "$tests" | tr ',' ' ')


# ---- guest test list (the same parsing as the guest's runner) ---------------
guest_test_files() {
	echo "$TOP/tests/guest/tests.sh"
	for f in "$TOP"/tests/guest/*.sh; do
		case "${f##*/}" in lib.sh | tests.sh) ;; *) echo "$f" ;; esac
	done
}
guest_tests() {
	local f
	for f in $(guest_test_files); do
		sed -n 's/^test_\([a-z0-9_]*\) *().*$/\1/p' "$f"
	done
}
if [ "${list_only:-0}" = 1 ]; then
	guest_tests
	exit 0
fi
# A selection that matches nothing is a typo, not a pass.
for p in $tests; do
	hit=0
	for n in $(guest_tests); do
		# shellcheck disable=SC2254
		case "$n" in ${p#test_}) hit=1 ;; esac
	done
	if [ $hit = 0 ]; then
		echo "kernel-matrix: no guest test matches '$p' (--list shows them)" >&2
		exit 2
	fi
done

# ---- reporting ----------------------------------------------------------------
nfail=0
finished=0
# The matrix must not vanish silently: an unexpected exit is a failure.
trap 'rc=$?; if [ $finished = 0 ]; then echo "FAIL kernel-matrix: script stopped unexpectedly (exit $rc)"; fi' EXIT

fail_line() { # name reason
	nfail=$((nfail + 1))
	echo "FAIL $1: $2"
}

# Something this machine lacks: SKIP locally, FAIL where the matrix must run.
unavailable() { # reason
	if [ "${CI:-}" = true ] || [ "${PPBENCH_REQUIRE_KERNELS:-0}" = 1 ]; then
		fail_line kernel-matrix "$1 (the matrix must run here: CI/PPBENCH_REQUIRE_KERNELS)"
	else
		echo "SKIP kernel-matrix: $1"
	fi
}

finish() {
	finished=1
	[ $nfail -eq 0 ]
	exit $?
}

# ---- preflight ------------------------------------------------------------------
missing=()
for c in "$QEMU" cpio gzip dpkg-deb apt-get apt-cache timeout flock readelf; do
	command -v "$c" >/dev/null || missing+=("$c")
done
if [ ${#missing[@]} -gt 0 ]; then
	unavailable "missing ${missing[*]} (scripts/install-deps.sh --kernels)"
	finish
fi
# arm64 guests: their qemu and the cross compiler, or those guests skip.
arm64_why=
for c in "${QEMU_ARM64:-qemu-system-aarch64}" aarch64-linux-gnu-gcc; do
	[ $has_arm64 = 0 ] || command -v "$c" >/dev/null || arm64_why="${arm64_why:+$arm64_why, }$c"
done
[ -z "$arm64_why" ] || arm64_why="missing $arm64_why (scripts/install-deps.sh --kernels)"
if [ ! -x /bin/busybox ] || ! is_static /bin/busybox; then
	unavailable "no static /bin/busybox (package busybox-static; scripts/install-deps.sh --kernels)"
	finish
fi
for t in "${HOST_TOOLS[@]}"; do
	if [ ! -x "$t" ]; then
		unavailable "$t missing (scripts/install-deps.sh --kernels)"
		finish
	fi
done
mem_mb=$(awk '/^MemAvailable:/ {print int($2 / 1024)}' /proc/meminfo)
if [ "$mem_mb" -lt $((GUEST_MEM_MB + 256)) ]; then
	unavailable "only ${mem_mb} MiB of memory available, a guest needs ${GUEST_MEM_MB} MiB"
	finish
fi
# Under TCG a guest keeps about one host CPU busy, though it has 2 vCPUs (its
# vCPUs take turns in one thread): boot as many at a time as the host has
# CPUs and memory for. Nothing in a guest is
# limited by time, only by progress (scripts/vm/watch.sh), so guests that
# share the CPUs are slower, not wrong. PPB_MATRIX_SLOTS overrides.
slots=${PPB_MATRIX_SLOTS:-$(nproc)}
[ $slots -le $((mem_mb / (GUEST_MEM_MB + 256))) ] || slots=$((mem_mb / (GUEST_MEM_MB + 256)))
[ $slots -ge 1 ] && [ $serial = 0 ] || slots=1
kcache_use

t_start=$(date +%s.%N)
matrix_deadline=$(($(date +%s) + matrix_cap))
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ppbench-matrix.XXXXXX")
VM_WORK=$work
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	local rc=$? f
	for f in "$work"/*/qpid; do
		[ ! -f "$f" ] || kill -KILL "$(cat "$f")" 2>/dev/null || true
	done
	if [ "$keep" = 1 ]; then
		say "work directory kept: $work"
	else
		rm -rf "$work"
	fi
	if [ "$finished" = 0 ]; then
		echo "FAIL kernel-matrix: script stopped unexpectedly (exit $rc)"
	fi
}
trap cleanup EXIT

# ---- static ppbench ---------------------------------------------------------------
say "building static ppbench ($STATIC_BUILD)"
mkdir -p "$TOP/build"
# (ppbench vm builds the same, perhaps at the same time: scripts/vm/run)
if ! flock "$TOP/build/.static.lock" make -C "$TOP" --no-print-directory -j"$(nproc)" \
	"$STATIC_BUILD/ppbench" "$STATIC_BUILD/bpf_tests" >"$work/build.log" 2>&1; then
	fail_line kernel-matrix/build "make $STATIC_BUILD/ppbench failed"
	tail -n 20 "$work/build.log" | sed 's/^/    /'
	finish
fi
PPB_STATIC=$TOP/$STATIC_BUILD/ppbench
if ! is_static "$PPB_STATIC"; then
	fail_line kernel-matrix/build "$PPB_STATIC is not statically linked"
	finish
fi
# The UDP receiver of the NIC tests (XDP_PASS must reach a socket). Built here,
# not by the Makefile's test-tool rule, which links against the host's libc.
UDP_SINK=$work/udp_sink
if ! ${CC:-cc} -O2 -Wall -static -o "$UDP_SINK" "$TOP/tests/tools/udp_sink.c" \
	>"$work/udp_sink.log" 2>&1 || ! is_static "$UDP_SINK"; then
	fail_line kernel-matrix/build "cannot build a static tests/tools/udp_sink"
	sed 's/^/    /' "$work/udp_sink.log"
	finish
fi

# The arm64 guests' ppbench and udp_sink, cross-built (scripts/vm/cross.sh).
if [ $has_arm64 = 1 ] && [ -z "$arm64_why" ]; then
	say "building the static arm64 ppbench (build/arm64)"
	# (not in a subshell: it sets CROSS_SYSROOT)
	if ! cross_build "$TOP" 2>"$work/cross.why"; then
		fail_line kernel-matrix/build-arm64 "$(cat "$work/cross.why")"
		# (no log when it failed before make)
		[ ! -f "$work/cross.log" ] || tail -n 20 "$work/cross.log" | sed 's/^/    /'
		arm64_why="no arm64 ppbench"
	fi
fi
if [ $has_arm64 = 1 ] && [ -z "$arm64_why" ]; then
	UDP_SINK_ARM64=$work/udp_sink-arm64
	# shellcheck disable=SC2046 # the compiler and its flags
	if ! $(cross_cc) -O2 -Wall -static -o "$UDP_SINK_ARM64" "$TOP/tests/tools/udp_sink.c" \
		>"$work/udp_sink-arm64.log" 2>&1 || ! is_static "$UDP_SINK_ARM64"; then
		fail_line kernel-matrix/build-arm64 "cannot build a static arm64 tests/tools/udp_sink"
		sed 's/^/    /' "$work/udp_sink-arm64.log"
		arm64_why="no arm64 udp_sink"
	fi
fi

# The architecture of guest TAG: arm64-* are arm64 guests.
guest_arch() {
	case "$1" in
	arm64-*) echo arm64 ;;
	*) echo x86-64 ;;
	esac
}

# ---- initramfs --------------------------------------------------------------------
# The tests a kernel runs. The oldest and the newest kernel of the matrix run
# them all; a kernel between them runs those that exercise what differs by
# version below the tool (BTF layouts and CO-RE reads, fentry targets, the
# tracepoints, both accounting backends' counts, bulk returns, the kernel's
# own checks). The rest (bench end to end, load and watch on a NIC, signals)
# runs the same code on every version, and under TCG each such test costs
# tens of seconds per kernel, which three full guests could not fit in the
# suite's time.
MIDDLE_TESTS="probe_* env_veth modules_loaded nic_present nic_hub acct_* observer_loads
	nic_load_tx_bulk upstream_module_crosscheck virtio_present counters_* kernel_clean"

# A kernel of larger pages (Debian's arm64 16K flavour) runs what follows the
# page size: the page shift of the BPF programs, page_pool's alloc cache and
# the counts that depend on it; the rest is the 4K arm64 guest's.
PAGE_TESTS="probe_* page_* acct_backends_lf_drop acct_backends_slow_b1 kernel_clean"

tests_for() { # KSPEC -> the test patterns of that kernel ('' = all)
	local first last x86
	x86=$(printf '%s\n' $kernels | grep -v '^arm64:' | paste -sd ' ' -)
	first=${x86%% *}
	last=${x86##* }
	if [ -n "$tests" ]; then
		echo "$tests"
	elif [ "${1%-16k}" != "$1" ]; then
		echo "$PAGE_TESTS"
	elif [ "${1#arm64:}" = "$1" ] && { [ "$1" = "$first" ] || [ "$1" = "$last" ]; }; then
		echo "$tests"
	else
		echo "$MIDDLE_TESTS" | tr '\n\t' '  '
	fi
}

# The guest tests kernel KSPEC would run, and how many: what a skip of its
# guest leaves unrun, named on the skip's line.
unrun() { # KSPEC
	local pats n p out=() hit
	pats=$(tests_for "$1")
	for n in $(guest_tests); do
		hit=0
		[ -n "$pats" ] || hit=1
		for p in $pats; do
			# shellcheck disable=SC2254
			case "$n" in ${p#test_}) hit=1 ;; esac
		done
		[ $hit = 0 ] || out+=("$n")
	done
	echo "${#out[@]} guest tests not run: ${out[*]}"
}

# make_initrd TAG NICMODE TESTS -> $work/TAG/initrd.gz
make_initrd() {
	local tag=$1 nicmode=$2 kdir=$work/$1/kernel root=$work/$1/root ppb=$PPB_STATIC sink=$UDP_SINK
	local GUEST_SYSROOT=
	if [ "$(guest_arch "$tag")" = arm64 ]; then
		ppb=$TOP/build/arm64/ppbench sink=$UDP_SINK_ARM64 GUEST_SYSROOT=$CROSS_SYSROOT
	fi
	guest_root "$root" "$kdir" "$ppb" "$TOP/scripts/vm/init"
	mkdir -p "$root"/{upstream,tests}
	install -m 0755 "$sink" "$root/bin/udp_sink"
	[ "$ppb" != "$PPB_STATIC" ] || install -m 0755 "$TOP/$STATIC_BUILD/bpf_tests" "$root/bin/"
	install -m 0644 "$TOP"/tests/guest/*.sh "$root/tests/"
	# Not in /modules: init would insmod it, and loading it runs the benchmark.
	cp "$work/$tag/upstream/bench_page_pool.ko" "$work/$tag/upstream/BUILT" \
		"$work/$tag/upstream/WHY" "$root/upstream/" 2>/dev/null || true
	local nic_skip_var="NIC_SKIP_${tag%%-*}"
	nic_skip_var=${nic_skip_var//./_}
	{
		echo "# Written by scripts/kernel-matrix.sh"
		echo "PPB_MODE=tests"
		echo "PPB_KERNEL_TAG='$tag'"
		echo "PPB_KERNEL_PKG='$(cut -d' ' -f1,2 "$kdir/STAMP")'"
		echo "PPB_TESTS='$3'"
		echo "PPB_NIC_MODE='$nicmode'"
		if [ "$nicmode" != none ]; then
			echo "PPB_NIC_MACS='$NIC_MACS'"
		else
			echo "PPB_NIC_SKIP='${!nic_skip_var:-this guest is booted without NICs}'"
		fi
		# every guest has the virtio-net pair (guest_args' NIC modes both and virtio)
		echo "PPB_VNIC_MACS='$VNIC_MACS'"
		[ -z "${PPB_TEST_TIMEOUT:-}" ] || echo "PPB_TEST_TIMEOUT='$PPB_TEST_TIMEOUT'"
		echo "PPB_VERBOSE='$V'"
	} >"$root/etc/ppbench-guest.conf"
	guest_pack "$root" "$work/$tag/initrd.gz"
}

# ---- boot ------------------------------------------------------------------------
# shellcheck source=scripts/vm/watch.sh
. "$TOP/scripts/vm/watch.sh"
# shellcheck source=scripts/upstream-module.sh
. "$TOP/scripts/upstream-module.sh"

# The clock of a guest. Under icount idle waits cost no wall time, and the
# upstream module's cross-check gets the instruction clock, where its method
# error is the same from boot to boot. Debian's 6.1 hangs under icount while it
# brings up its second CPU, which its cross-CPU tests need: it stays on tcg.
clock_of() { # TAG
	if [ -n "$clock" ]; then
		echo "$clock"
		return
	fi
	case "$1" in
	6.1 | 6.1-*) echo tcg ;;
	*) echo icount ;;
	esac
}

# in_patterns NAME PATTERNS: NAME matches one of the globs.
in_patterns() {
	local n=$1 p
	shift
	for p in "$@"; do
		# shellcheck disable=SC2254 # a glob on purpose
		case "$n" in $p) return 0 ;; esac
	done
	return 1
}

# runs_module_check TAG: the guest has the upstream module and its tests
# (PPB_TESTS: names or globs; none, all) take in upstream_module_crosscheck.
runs_module_check() {
	local t -
	set -f # (the words are globs against test names, not files)
	[ -f "$work/$1/upstream/bench_page_pool.ko" ] || return 1
	t=$(sed -n "s/^PPB_TESTS='\(.*\)'\$/\1/p" "$work/$1/root/etc/ppbench-guest.conf")
	# shellcheck disable=SC2086 # words of globs
	[ -z "$t" ] || in_patterns upstream_module_crosscheck $t
}

# boot TAG NICMODE: run the guest; console in $work/TAG/console.log, qemu's
# own messages in qemu.err, exit status in rc, wall time in secs, and in why
# the reason when the host ended it. The guest is ended only when its console
# shows no new test line for stall_limit seconds, when its kernel hangs
# (watch_guest), or at the matrix cap.
boot() {
	local tag=$1 nicmode=$2 d=$work/$1 rc=0 t0 qpid why
	local GUEST_ARCH GUEST_QEMU=$QEMU
	GUEST_ARCH=$(guest_arch "$tag")
	[ "$GUEST_ARCH" = x86-64 ] || GUEST_QEMU=${QEMU_ARM64:-qemu-system-aarch64}
	# vmxnet3's pair where its driver has XDP, and always virtio-net's
	local qnics=virtio
	[ "$nicmode" = none ] || qnics=both
	guest_args "$d/kernel" "$d/initrd.gz" "$(clock_of "$tag")" 2 "$qnics" "${PPB_KERNEL_APPEND:-}"
	# Plain TCG with a host thread per vCPU (MTTCG) can leave both vCPUs of
	# Debian's 6.1 in soft lockup on a loaded host: one thread for both
	# vCPUs, which take turns as under the instruction clock.
	GUEST_ARGS=("${GUEST_ARGS[@]/#tcg/tcg,thread=single}")
	# x86-64: with ERMS and FSRM the kernel copies and clears memory with rep
	# movsb/stosb, which TCG runs an iteration per block; without them 8
	# bytes an instruction, which costs the host less. Only the
	# upstream module's cross-check depends on the CPU (its bounds are the
	# method error on ppbench vm's -cpu max), so a guest that runs it keeps
	# -cpu max whole.
	[ "$GUEST_ARCH" != x86-64 ] || runs_module_check "$tag" ||
		GUEST_ARGS=("${GUEST_ARGS[@]/#max/max,-erms,-fsrm}")
	t0=$(date +%s.%N)
	guest_start "$d/console.log" "$d/qemu.err"
	qpid=$GUEST_PID
	# No guest outlives its watch (this runs in a subshell of its own).
	echo "$qpid" >"$d/qpid"
	# (expanded now: the local is gone when the trap runs)
	trap "kill -KILL $qpid 2>/dev/null" EXIT
	why=$(watch_guest "$qpid" "$d/console.log" "$stall_limit" "$matrix_deadline" "$matrix_cap")
	[ -z "$why" ] || echo "$why" >"$d/why"
	wait "$qpid" || rc=$?
	echo $rc >"$d/rc"
	elapsed "$t0" >"$d/secs"
}

# boot_checked TAG NICMODE: boot; under TCG a stock kernel may oops while
# booting, before any test of ours ran (at random, in the scheduler): then
# boot it once more.
boot_checked() {
	boot "$1" "$2"
	if boot_crashed "$1"; then
		say "$1: the guest crashed while booting, before its tests ($(boot_crash_line "$1")); booting it once more"
		mv "$work/$1/console.log" "$work/$1/console.crash1.log"
		rm -f "$work/$1/rc" "$work/$1/why"
		boot "$1" "$2"
	fi
}

# The tests of a split kernel's second guest: the NIC tests and one long one,
# about half of the whole by time, so that the pool's guests end close
# together.
SECOND_GUEST_TESTS="nic_* acct_pp_stats_crosscheck kernel_clean"

# The test that needs ppbench vm's CPU whole (boot's comment): with the
# upstream module built, a third guest of the split kernel runs it alone, so
# that the two long guests can drop ERMS and FSRM.
THIRD_GUEST_TESTS="upstream_module_crosscheck kernel_clean"

# split_guest TAG NICMODE: initrds of one kernel: TAG-2 with
# SECOND_GUEST_TESTS, TAG-3 with THIRD_GUEST_TESTS when the upstream module
# is there (late_boot), and TAG with the rest (each ends with kernel_clean).
split_guest() {
	local tag=$1 nicmode=$2 rest="" n third="" g all -
	[ ! -f "$work/$tag/upstream/bench_page_pool.ko" ] || third=$THIRD_GUEST_TESTS
	all=$(guest_tests)
	set -f # (the test words are globs against test names, not files)
	for n in $all; do
		# shellcheck disable=SC2086 # words of globs
		if [ "$n" = kernel_clean ] || ! in_patterns "$n" $SECOND_GUEST_TESTS $third; then
			rest="$rest $n"
		fi
	done
	set +f
	make_initrd "$tag" "$nicmode" "$rest"
	for g in 2 3; do
		[ $g = 2 ] || [ -n "$third" ] || continue
		mkdir -p "$work/$tag-$g"
		ln -s "$(readlink "$work/$tag/kernel")" "$work/$tag-$g/kernel"
		ln -s "$(readlink -f "$work/$tag/upstream")" "$work/$tag-$g/upstream"
	done
	make_initrd "$tag-2" "$nicmode" "$SECOND_GUEST_TESTS"
	[ -z "$third" ] || {
		make_initrd "$tag-3" "$nicmode" "$third"
		late_boot+=("$tag-3 $nicmode")
	}
}

# boot_crashed TAG: the kernel oopsed or panicked before the guest's tests began.
boot_crashed() {
	local log=$work/$1/console.log
	[ -f "$log" ] && [ ! -f "$work/$1/why" ] && ! grep -aq '^PPB-MATRIX BEGIN' "$log" &&
		grep -aqE 'Kernel panic|Oops|BUG:' "$log"
}

boot_crash_line() {
	tr -d '\r' <"$work/$1/console.log" | grep -aE -m1 'Kernel panic|Oops|BUG:' |
		sed 's/^\[[^]]*\] *//' | cut -c1-100
}

# guest_total TAG: where the guest's time went: its tests' total and the slowest.
guest_total() {
	local tag=$1 d=$work/$1 secs tests slow hslow
	secs=$(cat "$d/secs")
	tests=$(sed -n 's/^PPB-MATRIX END .*seconds=\([0-9]*\).*/\1/p' "$d/console.txt")
	slow=$(sed -n 's|^[A-Z]* kernel-[^/]*/\([a-z0-9_]*\).* (took \([0-9.]*\) s)$|\2 \1|p' \
		"$d/results" | sort -rn | head -n 3 | awk '{printf "%s%s %s s", (NR > 1 ? ", " : ""), $2, $1}')
	hslow=$(sort -k2,2rn "$d/console.log.host" 2>/dev/null | head -n 3 |
		awk '{printf "%s%s %s s", (NR > 1 ? ", " : ""), $1, $2}')
	# (under icount a guest's seconds are its instructions / 10^9, idle included)
	say "$tag: $(kernel_desc "$d/kernel"): qemu ran ${secs} s ($(clock_of "$tag")), tests ${tests:-?} s of guest time${slow:+ (slowest: $slow)}${hslow:+; of host time: $hslow}"
}

# report TAG: turn the console into PASS/FAIL/SKIP kernel-TAG/NAME lines.
report() {
	local tag=$1 d=$work/$1 rc secs log why t
	rc=$(cat "$d/rc")
	secs=$(cat "$d/secs")
	log=$d/console.txt
	# Serial line ends are CRLF, and the firmware clears the screen with escapes.
	tr -d '\r' <"$d/console.log" | sed 's/\x1bc//g; s/\x1b\[[0-9;?]*[a-zA-Z]//g' >"$log"
	if [ "$V" = 1 ]; then
		say "$tag: console:"
		sed "s/^/  [$tag] /" "$log"
	fi
	if ! grep -q '^PPB-MATRIX BEGIN' "$log"; then
		# Nothing at all on the console and an error exit: qemu itself failed.
		if [ ! -s "$log" ] && [ ! -f "$d/why" ] && [ "$rc" != 0 ]; then
			unavailable "qemu failed to start the $tag guest (exit $rc): $(tail -n 1 "$d/qemu.err" | grep . || echo 'no message')"
			return
		fi
	fi
	# Result lines between the markers, prefixed with the kernel; a FAIL's
	# indented detail lines follow it.
	# (With V=1 the console above already showed them.)
	awk -v tag="kernel-$tag" -v verbose="$V" '
		/^PPB-MATRIX BEGIN/ { on = 1; next }
		/^PPB-MATRIX END/ { on = 0; next }
		!on { next }
		/^(PASS|FAIL|SKIP) [a-z0-9_]+(: .*)?( \(took [0-9.]+ s\))?$/ { sub(/ /, " " tag "/"); print; next }
		/^    / && verbose != 1 { print }
	' "$log" | tee "$d/results"
	nfail=$((nfail + $(grep -c '^FAIL ' "$d/results" || true)))
	guest_total "$tag"
	if grep -q '^PPB-MATRIX BEGIN' "$log" && grep -q '^PPB-MATRIX END' "$log"; then
		return
	fi
	# No end marker: the guest crashed, hung or was cut off.
	if [ -f "$d/why" ]; then
		why=$(cat "$d/why")
	elif grep -q 'Kernel panic' "$log"; then
		why="kernel panic: $(grep -m1 'Kernel panic' "$log" | sed 's/^\[[^]]*\] *//')"
	elif [ "$rc" != 0 ]; then
		why="qemu exited $rc: $(tail -n 1 "$d/qemu.err")"
	else
		why="guest powered off before the end marker"
	fi
	if ! grep -q '^PPB-MATRIX PLAN' "$log"; then
		fail_line "kernel-$tag/boot" "$why; the tests never started"
	else
		fail_line "kernel-$tag/guest" "$why"
		for t in $(unfinished_tests "$log" "$d/results" "$tag"); do
			fail_line "kernel-$tag/$t" "not finished ($why)"
		done
	fi
	if [ -n "$(crash_excerpt "$log")" ]; then
		echo "    the kernel's report, from its first line:"
		crash_excerpt "$log" | sed 's/^/    | /'
	fi
	echo "    last console lines:"
	grep -v '^$' "$log" | tail -n 25 | sed 's/^/    | /'
}

# ---- main --------------------------------------------------------------------------
to_boot=()
# the short guests, booted after all others: they fill the pool's last gaps
late_boot=()
for k in $kernels; do
	rc=0
	VM_ARCH=x86-64
	if [ "${k#arm64:}" != "$k" ]; then
		VM_ARCH=arm64
		if [ -n "$arm64_why" ]; then
			unavailable "arm64 guest $k: $arm64_why; $(unrun "$k")"
			continue
		fi
	fi
	kernel_get "${k#arm64:}" || rc=$?
	if [ $rc = 2 ]; then
		echo "kernel-matrix: unknown kernel '$k' (6.1, 6.12, newest, newest-rt, newest-cloud, a linux-image-* package, or arm64: before any of them or newest-16k)" >&2
		finished=1
		exit 2
	elif [ $rc != 0 ]; then
		unavailable "$K_WHY; $(unrun "$k")"
		continue
	fi
	tag=$K_TAG key=$K_KEY ver=$K_VER suite=$K_SUITE nicmode=$K_NICMODE
	[ "$VM_ARCH" = x86-64 ] || tag=arm64-$tag
	# two kernels of one version (an exact package beside its meta-package)
	[ ! -e "$work/$tag" ] || tag=$tag-$ver
	mkdir -p "$work/$tag"
	ln -s "$KCACHE/$key/kernel" "$work/$tag/kernel"
	t0=$(date +%s.%N)
	if [ "$VM_ARCH" = arm64 ]; then
		mkdir -p "$work/$tag/upstream"
		echo "the upstream module is built for the x86-64 guests only (its chroot of the kernel's release runs the kernel's own compiler, of the host's architecture)" \
			>"$work/$tag/upstream/WHY"
	elif why=$( (flock 9 && upstream_module "$key" "$(cat "$KCACHE/$key/kernel/RELEASE")" "$ver" \
		"$suite" "$(debian_mirror)") 9>"$KCACHE/.lock"); then
		ln -s "$KCACHE/$key/upstream" "$work/$tag/upstream"
		[ ! -f "$work/$tag/upstream/BUILT" ] ||
			say "$tag: bench_page_pool.ko $(cat "$work/$tag/upstream/BUILT") ($(elapsed "$t0") s)"
	else
		say "$tag: no bench_page_pool.ko: $why"
		mkdir -p "$work/$tag/upstream"
		echo "$why" >"$work/$tag/upstream/WHY"
	fi
	sel=$(tests_for "$k")
	if [ -z "$tests" ] && [ -n "$sel" ]; then
		if [ "$sel" = "$PAGE_TESTS" ]; then
			say "$tag: a kernel of larger pages: the page-size tests only ($sel)"
		elif [ "$VM_ARCH" = arm64 ]; then
			say "$tag: an arm64 guest: the version-specific tests only ($sel)"
		else
			say "$tag: between the oldest and the newest kernel: the version-specific tests only ($sel)"
		fi
	fi
	if [ -z "$sel" ] && [ "$nicmode" != none ] && [ "$slots" -ge 2 ]; then
		# A kernel that runs every test is the longest guest by far: about
		# half of its tests go to a second guest of the same kernel.
		split_guest "$tag" "$nicmode"
		to_boot=("$tag $nicmode" "$tag-2 $nicmode" ${to_boot[@]+"${to_boot[@]}"})
	else
		make_initrd "$tag" "$nicmode" "$sel"
		to_boot+=("$tag $nicmode")
	fi
done
unset APT_CONFIG
VM_ARCH=x86-64
to_boot+=(${late_boot[@]+"${late_boot[@]}"})

if [ ${#to_boot[@]} -gt 0 ]; then
	say "booting ${#to_boot[@]} guest(s), $slots at a time"
	declare -A booted=()
	next=0
	# A pool, not batches: a slot takes the next guest as soon as it is free,
	# and each guest is reported as it ends.
	while [ $next -lt ${#to_boot[@]} ] || [ ${#booted[@]} -gt 0 ]; do
		if [ $next -lt ${#to_boot[@]} ] && [ ${#booted[@]} -lt "$slots" ]; then
			read -r tag nicmode <<<"${to_boot[$next]}"
			next=$((next + 1))
			if [ "$(date +%s)" -ge "$matrix_deadline" ]; then
				fail_line "kernel-$tag/boot" "not booted: the matrix cap of ${matrix_cap} s was reached"
				continue
			fi
			boot_checked "$tag" "$nicmode" &
			booted[$!]=$tag
			continue
		fi
		done_pid=
		wait -n -p done_pid "${!booted[@]}" || true
		[ -n "$done_pid" ] || break
		tag=${booted[$done_pid]}
		unset "booted[$done_pid]"
		if [ -f "$work/$tag/rc" ]; then
			report "$tag"
		elif [ -f "$work/$tag/console.log" ]; then
			fail_line "kernel-$tag/boot" "the host's watch of the guest stopped unexpectedly"
		fi
	done
fi
say "done in $(elapsed "$t_start") s"
finish
