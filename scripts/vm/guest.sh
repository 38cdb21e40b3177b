# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# A ppbench guest: its initramfs and its qemu command line, shared by the
# kernel matrix (scripts/kernel-matrix.sh) and `ppbench vm` (scripts/vm/run).
# Sourced after scripts/vm/kernel.sh.

GUEST_MEM_MB=${GUEST_MEM_MB:-1024}
# Host tools the guests get with their shared libraries (the NIC tests and
# vm's NICs need netns, neighbours and ethtool -S, which busybox lacks; jq reads
# the one-line JSON objects of load, gen and watch, which the sed helpers of
# the guest tests cannot).
HOST_TOOLS=(/usr/sbin/ip /usr/sbin/ethtool /usr/bin/jq)
NIC_MACS="52:54:00:00:00:01 52:54:00:00:00:02"
# The virtio-net pair (vm --nic=virtio-net; in the kernel matrix beside the
# vmxnet3 pair, on a hub of its own).
VNIC_MACS="52:54:00:00:01:01 52:54:00:00:01:02"
# qemu's instruction clock: the guest's TSC and ktime advance one tick per
# guest instruction (shift=0) and jump over idle time (sleep=off).
ICOUNT_OPTS="shift=0,sleep=off"
# GUEST_ARCH: x86-64 (qemu-system-x86_64, the console on the first 8250 UART,
# ttyS0) or arm64 (qemu-system-aarch64 -M virt, whose one PL011 UART is
# ttyAMA0). An arm64 guest's busybox and tools come from GUEST_SYSROOT
# (scripts/vm/sysroot.sh): the host's are x86-64 programs.
GUEST_ARCH=${GUEST_ARCH:-x86-64}
GUEST_SYSROOT=${GUEST_SYSROOT:-}

# guest_qemu: the qemu program of GUEST_ARCH.
guest_qemu() {
	case "$GUEST_ARCH" in
	arm64) echo qemu-system-aarch64 ;;
	*) echo qemu-system-x86_64 ;;
	esac
}

# guest_console: the kernel's name of the console (console= on its command line).
guest_console() {
	case "$GUEST_ARCH" in
	arm64) echo ttyAMA0 ;;
	*) echo ttyS0 ;;
	esac
}

is_static() { ! readelf -l "$1" 2>/dev/null | grep 'program interpreter' >/dev/null; }

# copy_with_libs ROOT BINARY: the binary and the shared libraries ldd names, at
# the same paths (the guest's loader finds them in the multiarch directories).
copy_with_libs() {
	local root=$1 bin=$2 lib
	install -D -m 0755 "$bin" "$root$bin"
	for lib in $(ldd "$bin" | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'); do
		[ -e "$root$lib" ] || install -D -m 0755 "$(readlink -f "$lib")" "$root$lib"
	done
}

# guest_root ROOT KERNELDIR PPBENCH INIT: what every guest's initramfs holds:
# busybox, the static ppbench, INIT as /init, the kernel's modules, its config
# as /boot/config-RELEASE (probe and libbpf's __kconfig read CONFIG_* there: the
# guests have no /proc/config.gz) and the host tools (of GUEST_SYSROOT's
# architecture when it is set).
guest_root() {
	local root=$1 kdir=$2 rel t
	rel=$(cat "$kdir/RELEASE")
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,dev,proc,sys,tmp,run,root,boot,modules}
	install -m 0755 "$GUEST_SYSROOT/bin/busybox" "$root/bin/busybox"
	install -m 0755 "$3" "$root/bin/ppbench"
	install -m 0755 "$4" "$root/init"
	cp "$kdir"/modules/*.ko "$root/modules/" 2>/dev/null || true
	[ ! -f "$kdir/modules/ORDER" ] || cp "$kdir/modules/ORDER" "$root/modules/"
	[ ! -f "$kdir/config" ] || cp "$kdir/config" "$root/boot/config-$rel"
	for t in "${HOST_TOOLS[@]}"; do
		if [ -n "$GUEST_SYSROOT" ]; then
			sysroot_copy_with_libs "$GUEST_SYSROOT" "$root" "$t" || return 1
		else
			copy_with_libs "$root" "$t"
		fi
	done
	# The kernel opens /dev/console before /init runs; without the node the
	# guest's first output would go nowhere (init reopens it after devtmpfs).
	mknod -m 600 "$root/dev/console" c 5 1 2>/dev/null || true
}

# guest_inputs ROOT INPUTS: the files a command reads into ROOT/vm/in/N/, each
# under its own name, where the command's line names them (ppbench vm rewrote
# it to /vm/in/N/BASENAME). INPUTS has "N PATH" a line, PATH absolute and as
# it is (blanks included). A file that cannot be copied: its path on stdout, 1.
guest_inputs() {
	local line n path
	while IFS= read -r line; do
		n=${line%% *}
		path=${line#* }
		if ! mkdir -p "$1/vm/in/$n" ||
			! install -m 0644 "$path" "$1/vm/in/$n/${path##*/}" 2>/dev/null; then
			echo "$path"
			return 1
		fi
	done <"$2"
}

# guest_pack ROOT INITRD
guest_pack() {
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$2"
}

# qemu_version QEMU: its release, "10.0.2" ("QEMU emulator version 10.0.2 (Debian ...)").
qemu_version() {
	"$1" -version 2>/dev/null | sed -n '1s/.*[Vv]ersion \([0-9][0-9.]*\).*/\1/p'
}

# guest_args KERNELDIR INITRD CLOCK CPUS NICMODE APPEND: the qemu options of a
# guest of GUEST_QEMU (default: GUEST_ARCH's qemu), in the array GUEST_ARGS,
# with the kernel command line of every guest, ppbench vm's and the kernel
# matrix's alike, and APPEND. CLOCK is tcg (plain emulation, one host thread
# per vCPU) or icount (the instruction clock: vCPUs take turns in one
# thread). The console is serial 0 on stdout (-nographic). arm64: qemu's virt
# machine with the most capable CPU it emulates (-cpu max, as on x86-64).
# NICMODE: none, xdp (two vmxnet3 NICs, NIC_MACS), virtio (two virtio-net
# NICs, VNIC_MACS) or both (the two pairs, on hubs of their own).
guest_args() {
	local kdir=$1 initrd=$2 clock=$3 cpus=$4 nicmode=$5 append=$6 img ver
	# x86-64: the kernel's ELF at its PVH entry, where kernel.sh could unpack
	# it (x86_pvh): the same kernel as its vmlinuz, without the decompressor's
	# run under emulation and without KASLR.
	img=$kdir/vmlinuz
	[ "$GUEST_ARCH" = arm64 ] || [ ! -f "$kdir/vmlinux.pvh" ] || img=$kdir/vmlinux.pvh
	GUEST_ARGS=(-accel tcg -cpu max -smp "$cpus" -m "$GUEST_MEM_MB" -nographic -no-reboot
		-kernel "$img" -initrd "$initrd")
	# pauth-impdef: pointer authentication (the kernel signs return addresses)
	# with qemu's own cheap algorithm instead of QARMA5, which is slow to
	# emulate: the same instructions execute, only faster.
	[ "$GUEST_ARCH" != arm64 ] ||
		GUEST_ARGS=(-M virt "${GUEST_ARGS[@]/#max/max,pauth-impdef=on}")
	append=$(guest_cmdline "$kdir" "$append")
	# which qemu ran it: its -cpu max, and so the kernel's code alternatives,
	# differ by release
	ver=$(qemu_version "${GUEST_QEMU:-$(guest_qemu)}")
	[ -z "$ver" ] || append="$append ppbench.qemu=$ver"
	if [ "$clock" = icount ]; then
		GUEST_ARGS+=(-icount "$ICOUNT_OPTS")
		append="$append ppbench.clock=icount:$ICOUNT_OPTS"
	else
		# plain emulation: results say so, and never compare with a host's
		append="$append ppbench.clock=tcg"
	fi
	# x86-64, one CPU, no NIC (vm's default guest): no local APIC timer, so no
	# calibration of it, which spins 100 ms of guest time on rdtsc and PAUSE,
	# and TCG leaves its execution loop at every PAUSE; the tick comes from
	# the HPET. Not with a second CPU, whose tick the HPET would broadcast,
	# nor with NICs, whose receive rings run dry and XDP_TX stalls without
	# the APIC timer.
	[ "$GUEST_ARCH" = arm64 ] || [ "$cpus" != 1 ] || [ "$nicmode" != none ] ||
		append="noapictimer $append"
	GUEST_ARGS+=(-append "console=$(guest_console) panic=-1 quiet $append")
	case "$nicmode" in
	none) GUEST_ARGS+=(-nic none) ;;
	virtio) guest_nic_pair virtio-net-pci 1 $VNIC_MACS ;;
	both)
		guest_nic_pair vmxnet3 0 $NIC_MACS
		guest_nic_pair virtio-net-pci 1 $VNIC_MACS
		;;
	*) guest_nic_pair vmxnet3 0 $NIC_MACS ;;
	esac
}

# guest_cmdline KERNELDIR APPEND: the words every guest's kernel boots with,
# then APPEND. They keep deferred work out of bench's timed spans: the
# instruction clock counts every instruction of the guest, and work that runs
# where a tick happens to fall moves a figure from boot to boot.
guest_cmdline() {
	local w
	# RCU callbacks in a kthread (offloaded), not in a softirq after the tick:
	# each live-frames BPF_PROG_RUN creates and destroys a page_pool, whose
	# teardown frees its IDs' xarray nodes and its allocator through RCU.
	w="rcu_nocbs=all"
	# The soft-lockup watchdog's hrtimer queues work for the CPU's stopper
	# thread every 4 s, which preempts even bench's SCHED_FIFO chunks
	# (fifo_chunks, user/core/instr/instrument.h). The kernel matrix's guests turn it back on
	# (scripts/vm/init): their host ends a guest by its lockup reports.
	w="$w nowatchdog"
	# DAMON_STAT (7.x, on by default) samples memory accesses from a kthread
	# every few milliseconds, which lazy preemption runs inside a span.
	! grep -qx 'CONFIG_DAMON_STAT=y' "$1/config" 2>/dev/null || w="$w damon_stat.enabled=N"
	echo "$w${2:+ $2}"
}

# guest_start CONSOLE QEMU_ERR: GUEST_QEMU (default: GUEST_ARCH's) started
# with GUEST_ARGS in the background, the guest's console into CONSOLE and
# qemu's own messages into QEMU_ERR; its PID in GUEST_PID.
guest_start() {
	"${GUEST_QEMU:-$(guest_qemu)}" "${GUEST_ARGS[@]}" </dev/null >"$1" 2>"$2" 3>&- &
	GUEST_PID=$!
}

# guest_nic_pair DEVICE HUB MAC_A MAC_B: two NICs of qemu's DEVICE on hub HUB.
# romfile= drops the iPXE option ROMs: we boot -kernel, never from the
# network, and the firmware would spend emulated time loading them.
# virtio-net: the hub's ports carry no virtio-net header, so qemu offers no
# receive offloads (GRO_HW, checksum), which native XDP refuses; one queue
# pair, so XDP_TX shares the TX queue under a lock; an RX ring of 1024 (the
# most qemu allows), as vmxnet3's rings are enlarged for the tests.
guest_nic_pair() {
	local dev=$1 hub=$2 mac opts= i=0
	[ "$dev" != virtio-net-pci ] || opts=,rx_queue_size=1024
	for mac in "$3" "$4"; do
		GUEST_ARGS+=(-netdev "hubport,id=h$hub$i,hubid=$hub"
			-device "$dev,netdev=h$hub$i,mac=$mac,romfile=$opts")
		i=$((i + 1))
	done
}
