#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages ppbench needs, and only those that are missing.
#   scripts/install-deps.sh            build + run (make, make bench)
#   scripts/install-deps.sh --tests    + what the test suite uses
#   scripts/install-deps.sh --kernels  + what the qemu kernel matrix uses
#   scripts/install-deps.sh --kernel-build  + what building a kernel needs (ppbench-bisect)
#   scripts/install-deps.sh --check    only report what is missing (exit 1 if any)
set -euo pipefail

# libjansson-dev reads JSON; liblowdown-dev writes the manual pages, and
# libbsd-dev and libmd-dev are what it links statically (make STATIC=1, the
# kernel matrix's guests); libdw-dev reads a kernel's DWARF (vm --profile's
# lines, the lab only).
build_pkgs=(make gcc libc6-dev clang llvm libbpf-dev libxdp-dev bpftool libelf-dev zlib1g-dev
	    libzstd-dev libjansson-dev liblowdown-dev libbsd-dev libmd-dev libdw-dev pkg-config
	    iproute2 ethtool)
# libclang-rt-dev: clang's sanitizer and libFuzzer runtimes (the sanitized
# build and the fuzz targets); clang only recommends them, and recommends are
# not installed here.
# strace: kills bench at the fsync of its result (test_outfile.sh). chromium and
# nodejs: the flame graph's test in a real browser (test_flame.sh), driven by npm's
# playwright-core, which goes into NPM_DIR as tests/browser/package-lock.json pins
# it (1.61, the last that runs on Debian 12's nodejs 18); it downloads no browser.
test_pkgs=(jq procps util-linux iputils-ping librsvg2-bin groff-base man-db bsdextrautils
	clang-format libclang-rt-dev strace chromium nodejs)
NPM_DIR=${PPBENCH_NPM_DIR:-/var/cache/ppbench-npm}
LOCK=$(cd "$(dirname "$0")/.." && pwd)/tests/browser/package-lock.json
# The kernel matrix: qemu (TCG), a static busybox for the guests, cpio + gzip
# for the initramfs, xz/zstd for compressed modules, readelf (binutils) to
# check that what goes into a guest is static, jq for the guests (copied in with
# its libraries), mmdebstrap for the chroot in which the upstream page_pool
# benchmark module is built with its kernel's own compiler. The arm64 guest:
# qemu-system-arm (qemu-system-aarch64) and Debian's cross compiler with its C
# library (libc6-dev-arm64-cross: the compiler links its crt files and libc.a); the
# libraries, busybox and tools are Debian's arm64 packages, unpacked into a
# private sysroot (scripts/vm/sysroot.sh), never installed.
kernel_pkgs=(qemu-system-x86 busybox-static cpio xz-utils zstd binutils jq mmdebstrap
	qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross)

# Building a kernel from its source (ppbench-bisect, or by hand for vm
# --kernel), besides the build's make, gcc and libelf (objtool,
# resolve_btfids): kconfig's flex and bison, bc, pahole (dwarves: without it
# kconfig drops the BTF ppbench needs), OpenSSL's headers (configs that sign
# modules) and cpio (the headers archive some configs build in).
kbuild_pkgs=(flex bison bc dwarves libssl-dev cpio)

want=("${build_pkgs[@]}")
check_only=0
npm=0
for arg in "$@"; do
	case "$arg" in
	--tests)
		want+=("${test_pkgs[@]}")
		# (nodejs from elsewhere than Debian may bring its own npm)
		command -v npm >/dev/null || want+=(npm)
		npm=1
		;;
	--kernels) want+=("${kernel_pkgs[@]}") ;;
	--kernel-build) want+=("${kbuild_pkgs[@]}") ;;
	--check) check_only=1 ;;
	-h | --help)
		sed -n '3,10s/^# \{0,1\}//p' "$0"
		exit 0
		;;
	*)
		echo "install-deps.sh: unknown option '$arg'" >&2
		exit 2
		;;
	esac
done

# The npm packages of the tests: current when NPM_DIR holds the lock file's copy and
# what it installed.
npm_current() {
	cmp -s "$LOCK" "$NPM_DIR/package-lock.json" && [ -d "$NPM_DIR/node_modules/playwright-core" ]
}

npm_install() {
	echo "install-deps: installing tests/browser's npm packages into $NPM_DIR"
	mkdir -p "$NPM_DIR"
	cp "$(dirname "$LOCK")/package.json" "$LOCK" "$NPM_DIR/"
	# --ignore-scripts: no package's install script runs (nor fetches a browser)
	(cd "$NPM_DIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts --no-audit \
		--no-fund --loglevel=error >/dev/null)
}

missing=()
for p in "${want[@]}"; do
	# dpkg-query prints "install ok installed" only for a fully installed package.
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
npm_missing=0
[ $npm -eq 0 ] || npm_current || npm_missing=1
what=${missing[*]}
[ $npm_missing -eq 0 ] || what+="${what:+ }playwright-core (npm, in $NPM_DIR)"

if [ -z "$what" ]; then
	echo "install-deps: all ${#want[@]} packages present"
	exit 0
fi
if [ $check_only -eq 1 ]; then
	echo "install-deps: missing: $what"
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing $what; run as root" >&2
	exit 1
fi

if [ ${#missing[@]} -gt 0 ]; then
	echo "install-deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# A fresh machine may have empty package lists: update once, then install.
	if ! apt-get install -qq -y --no-install-recommends "${missing[@]}" >/dev/null; then
		apt-get -qq update
		apt-get install -qq -y --no-install-recommends "${missing[@]}" >/dev/null
	fi
fi
[ $npm_missing -eq 0 ] || npm_install
echo "install-deps: done"
