#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# A newer qemu than the host's, unpacked privately: Debian's qemu-system-x86
# and qemu-system-arm of another suite (default bookworm-backports), which
# may take the other build of vm --profile's plugin (user/lab/vm/vm_profile.c),
# downloaded through the kernels' private apt configuration of that suite
# (scripts/vm/kernel.sh, use_suite) and unpacked with dpkg-deb -x. Nothing is
# installed into the host's dpkg and no apt source of the host changes.
#
#   scripts/vm/qemu-get.sh [SUITE]   prints the directory of the wrappers:
#       PATH=$(scripts/vm/qemu-get.sh):$PATH ppbench vm ...   boots with it
#   . scripts/vm/qemu-get.sh; qemu_get [SUITE]   sets Q_BIN (that directory),
#       Q_VERSION (the package version) and Q_WHY (why not, on failure)
#
# It lands in $KCACHE/qemu-SUITE/ (KCACHE: /var/cache/ppbench-kernels, or
# ~/.cache/ppbench-kernels where that cannot be written):
#   debs/      the .deb files (kept: downloaded again only for a new version)
#   root/      them unpacked (usr/bin, usr/share/qemu, usr/share/seabios, ...)
#   bin/       qemu-system-x86_64 and qemu-system-aarch64: wrappers that run
#              root's binaries with root's firmware (-L) and modules
#              (QEMU_MODULE_DIR), and root's libraries first (LD_LIBRARY_PATH)
#   STAMP      "SUITE VERSION": what root/ holds
# The qemu binaries link against Debian 12's libraries (bookworm-backports is
# built against bookworm); a library they lack is named and refused.

QEMU_GET_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/vm/kernel.sh
. "$QEMU_GET_DIR/kernel.sh"

QEMU_PKGS=(qemu-system-x86 qemu-system-arm qemu-system-common qemu-system-data seabios)

# qemu_wrapper ROOT PROGRAM OUT DESC: a script that runs ROOT's PROGRAM as if installed.
qemu_wrapper() {
	local root=$1 prog=$2 out=$3 lib=$1/usr/lib/x86_64-linux-gnu
	cat >"$out.tmp" <<-EOF
		#!/bin/sh
		# Written by scripts/vm/qemu-get.sh: qemu $4 unpacked in $root
		export QEMU_MODULE_DIR=$lib/qemu
		export LD_LIBRARY_PATH=$lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
		exec $root/usr/bin/$prog -L $root/usr/share/qemu -L $root/usr/share/seabios "\$@"
	EOF
	chmod 0755 "$out.tmp" && mv "$out.tmp" "$out"
}

# qemu_unpack DIR SUITE VERSION: DIR/root and DIR/bin for these packages.
qemu_unpack() {
	local dir=$1 suite=$2 ver=$3 p v deb missing debs=()
	mkdir -p "$dir/debs"
	for p in "${QEMU_PKGS[@]}"; do
		v=$ver
		# (seabios has versions of its own)
		if [ "$p" = seabios ]; then
			v=$(apt-cache policy seabios 2>/dev/null | sed -n 's/^ *Candidate: //p')
		fi
		deb=$(download "$dir/debs" "$p" "$v") || return 1
		debs+=("$deb")
	done
	rm -rf "$dir/root.new" "$dir/bin.new"
	mkdir -p "$dir/root.new" "$dir/bin.new"
	for deb in "${debs[@]}"; do
		dpkg-deb -x "$deb" "$dir/root.new" || return 1
	done
	missing=$(for p in qemu-system-x86_64 qemu-system-aarch64; do
		LD_LIBRARY_PATH=$dir/root.new/usr/lib/x86_64-linux-gnu ldd "$dir/root.new/usr/bin/$p"
	done | sed -n 's/^[[:space:]]*\([^ ]*\) => not found.*/\1/p' | sort -u | paste -sd' ' -)
	if [ -n "$missing" ]; then
		echo "$suite's qemu needs libraries this host lacks: $missing" >&2
		return 1
	fi
	rm -rf "$dir/root" "$dir/STAMP"
	mv "$dir/root.new" "$dir/root"
	qemu_wrapper "$dir/root" qemu-system-x86_64 "$dir/bin.new/qemu-system-x86_64" "$ver ($suite)" &&
		qemu_wrapper "$dir/root" qemu-system-aarch64 "$dir/bin.new/qemu-system-aarch64" \
			"$ver ($suite)" || return 1
	rm -rf "${dir:?}/bin"
	mv "$dir/bin.new" "$dir/bin"
	echo "$suite $ver" >"$dir/STAMP"
}

# qemu_get [SUITE]: the suite's qemu, downloaded and unpacked once per version.
qemu_get() {
	local suite=${1:-bookworm-backports} dir ver own_work=
	Q_BIN="" Q_VERSION="" Q_WHY=""
	kcache_use
	dir=$KCACHE/qemu-$suite
	if [ -z "${VM_WORK:-}" ]; then
		VM_WORK=$(mktemp -d) || return 1
		own_work=$VM_WORK
	fi
	# qemu runs on the host: its packages are of the host's architecture.
	# Package lists of a day ago still name the newest qemu.
	VM_ARCH=x86-64 VM_APT_FRESH=${VM_APT_FRESH:-86400} use_suite "$suite"
	ver=$(apt-cache policy qemu-system-x86 2>/dev/null | sed -n 's/^ *Candidate: //p')
	if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
		if [ -f "$dir/STAMP" ]; then
			ver=$(cut -d' ' -f2 "$dir/STAMP")
			say "qemu: apt has no candidate in $suite; using the unpacked $ver"
		else
			Q_WHY="no qemu-system-x86 in $suite (apt configuration ${APT_CONFIG:-of this machine})"
		fi
	elif [ ! -f "$dir/STAMP" ] || [ "$(cat "$dir/STAMP")" != "$suite $ver" ]; then
		mkdir -p "$dir"
		(flock 9 && qemu_unpack "$dir" "$suite" "$ver") 9>"$KCACHE/.lock" 2>"$VM_WORK/qemu-get.err" ||
			Q_WHY="cannot download or unpack $suite's qemu $ver: $(tail -n 1 "$VM_WORK/qemu-get.err")"
	fi
	[ -z "$own_work" ] || rm -rf "$own_work"
	[ -z "$Q_WHY" ] || return 1
	Q_BIN=$dir/bin
	# shellcheck disable=SC2034 # for the caller
	Q_VERSION=$ver
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -uo pipefail
	VM_SAY=qemu-get
	if ! qemu_get "${1:-}" >&2; then
		echo "qemu-get: $Q_WHY" >&2
		exit 1
	fi
	echo "$Q_BIN"
fi
