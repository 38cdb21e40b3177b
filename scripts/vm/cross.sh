# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The static ppbench of the arm64 guests, built on this x86-64 host (make
# CROSS=arm64, into build/arm64): Debian's cross compiler, the arm64 sysroot
# (scripts/vm/sysroot.sh) and, for the BPF objects, the BTF of the newest
# Debian arm64 kernel, carved out of its Image when the kernel is cached
# (scripts/vm/kernel.sh, image_btf): the BPF programs are CO-RE, so one
# arm64 kernel's types relocate onto the others', as the x86-64 build's do
# from the host's kernel. Sourced after kernel.sh and sysroot.sh.

# cross_build TREE: build TREE/build/arm64/ppbench; sets CROSS_SYSROOT.
# Fails with the reason on stderr (the build's log in $VM_WORK/cross.log).
cross_build() {
	local tree=$1 btf
	CROSS_SYSROOT=$(sysroot_get arm64) || return 1
	if ! (VM_ARCH=arm64 && kernel_get newest >&2) 2>"$VM_WORK/cross-kernel.log"; then
		echo "no arm64 kernel to build the BPF objects against: $(tail -n 1 "$VM_WORK/cross-kernel.log")" >&2
		return 1
	fi
	btf=$KCACHE/arm64-newest/kernel/vmlinux.btf
	[ -s "$btf" ] || { echo "no BTF at $btf" >&2; return 1; }
	mkdir -p "$tree/build"
	if ! flock "$tree/build/.arm64.lock" make -C "$tree" --no-print-directory -j"$(nproc)" CROSS=arm64 \
		SYSROOT="$CROSS_SYSROOT" VMLINUX_BTF="$btf" build/arm64/ppbench >"$VM_WORK/cross.log" 2>&1; then
		echo "make CROSS=arm64 failed: $(grep -m1 -iE 'error' "$VM_WORK/cross.log" || tail -n 1 "$VM_WORK/cross.log")" >&2
		return 1
	fi
}

# cross_cc: the C compiler of a static arm64 helper (udp_sink), as "CC FLAGS".
cross_cc() {
	echo "aarch64-linux-gnu-gcc --sysroot=$CROSS_SYSROOT"
}
