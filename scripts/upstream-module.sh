# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The upstream page_pool benchmark module for a guest kernel (sourced by
# kernel-matrix.sh). bench_page_pool.ko is built from the kernel's own Debian
# packages at test time, never from a copy in this repository:
#   - its source, tools/testing/selftests/net/bench/page_pool/ (upstream since
#     6.17), from linux-source-X.Y of the kernel's exact version;
#   - linux-headers-RELEASE of that version, with the compiler it names
#     (linux-headers-7.3.4 depends on gcc-14-for-host) and the linux-kbuild
#     host tools it pulls in (built against glibc 2.38 or newer).
# Neither runs on Debian 12 (gcc 12, glibc 2.36), so the build runs in a
# throw-away chroot of the kernel's own Debian release (trixie for
# trixie-backports), made by mmdebstrap from the same mirror; the host's apt
# configuration is not touched. The module is cached beside the kernel.

UPSTREAM_MODULE_SINCE=6.17
UPSTREAM_MODULE_DIR=tools/testing/selftests/net/bench/page_pool

# version_ge A B: version A (1.2.3...) is at least B.
version_ge() {
	[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}

# upstream_module KEY RELEASE VERSION SUITE MIRROR: make $KCACHE/KEY/upstream
# hold bench_page_pool.ko and BUILT (how it was built), or WHY (one line: why
# this kernel has no module). A reason that may pass (a failed download) is
# printed and not cached, so the next run tries again. APT_CONFIG must name
# SUITE's private configuration (use_suite).
upstream_module() {
	local key=$1 rel=$2 ver=$3 suite=$4 mirror=$5
	local dir=$KCACHE/$1/upstream stamp="$2 $3" xy dist x why
	if [ -f "$dir/STAMP" ] && [ "$(cat "$dir/STAMP")" = "$stamp" ]; then
		return 0
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	xy=$(echo "$ver" | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
	if ! version_ge "$xy" "$UPSTREAM_MODULE_SINCE"; then
		echo "bench_page_pool_simple is upstream since $UPSTREAM_MODULE_SINCE; kernel $ver has none" \
			>"$dir/WHY"
		echo "$stamp" >"$dir/STAMP"
		return 0
	fi
	if [ "$suite" = - ]; then
		echo "the module is built only for kernels of a private suite (a chroot of that Debian release); $ver comes from this machine's apt sources" \
			>"$dir/WHY"
		echo "$stamp" >"$dir/STAMP"
		return 0
	fi
	if ! command -v mmdebstrap >/dev/null; then
		echo "mmdebstrap is missing (scripts/install-deps.sh --kernels installs it)"
		return 1
	fi
	dist=${suite%-backports}
	# under the matrix work directory, which its exit trap removes
	x=$(mktemp -d "$work/upstream.XXXXXX")
	why=$(build_upstream_module "$x" "$rel" "$ver" "$suite" "$dist" "$mirror" "$xy")
	if [ -z "$why" ]; then
		cp "$x/root/build/bench_page_pool.ko" "$x/BUILT" "$dir/"
		echo "$stamp" >"$dir/STAMP"
	fi
	rm -rf "$x"
	[ -z "$why" ] || {
		echo "$why"
		return 1
	}
}

# build_upstream_module X RELEASE VERSION SUITE DIST MIRROR X.Y: build in X;
# prints nothing on success, the reason otherwise.
build_upstream_module() {
	local x=$1 rel=$2 ver=$3 suite=$4 dist=$5 mirror=$6 xy=$7 key
	local src hdr=/usr/src/linux-headers-$2 have cc need
	key="[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]"
	say "$rel: building bench_page_pool.ko: a $dist chroot with linux-headers-$rel" >&2
	# --variant=apt: only Essential packages, apt and what the headers depend on
	# (their compiler, but not binutils: as and ld come on their own).
	if ! mmdebstrap --variant=apt --include="make,binutils,linux-headers-$rel" "$dist" "$x/root" \
		"deb $key $mirror $dist main" "deb $key $mirror $suite main" >"$x/mmdebstrap.log" 2>&1; then
		echo "mmdebstrap $dist with linux-headers-$rel failed: $(grep -E '^E:' "$x/mmdebstrap.log" | tail -n 1)"
		return
	fi
	# shellcheck disable=SC2016 # dpkg-query's format, not the shell's
	have=$(chroot "$x/root" dpkg-query -W -f '${Version}' "linux-headers-$rel" 2>/dev/null)
	if [ "$have" != "$ver" ]; then
		echo "$dist's linux-headers-$rel is ${have:-missing}, the kernel is $ver"
		return
	fi
	src=$(download "$x" "linux-source-$xy" "$ver") || {
		echo "cannot download linux-source-$xy $ver from $suite"
		return
	}
	mkdir -p "$x/root/build"
	if ! dpkg-deb --fsys-tarfile "$src" | tar -xO "./usr/src/linux-source-$xy.tar.xz" |
		tar -xJ -C "$x" --wildcards "*/$UPSTREAM_MODULE_DIR/*" 2>"$x/tar.log" ||
		! cp "$x/linux-source-$xy/$UPSTREAM_MODULE_DIR"/* "$x/root/build/" 2>>"$x/tar.log"; then
		echo "linux-source-$xy $ver has no $UPSTREAM_MODULE_DIR"
		return
	fi
	rm -f "$src"
	# objtool reads /proc/self/limits: the chroot gets a /proc of its own in a
	# private mount namespace, which ends with the build.
	# shellcheck disable=SC2016 # expanded by the inner sh
	if ! unshare -m --propagation private sh -c \
		'mount -t proc proc "$1/proc" && chroot "$1" make -C "$2" M=/build modules' \
		- "$x/root" "$hdr" >"$x/make.log" 2>&1 || [ ! -f "$x/root/build/bench_page_pool.ko" ]; then
		echo "make -C $hdr M=$UPSTREAM_MODULE_DIR modules failed: $(grep -iE 'error' "$x/make.log" | head -n 1)"
		return
	fi
	need=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$x/root$hdr/.config")
	cc=$(chroot "$x/root" "${need%% *}" --version 2>/dev/null | head -n 1)
	echo "from linux-source-$xy $ver with linux-headers-$rel; the kernel was built by '$need', the module by '$cc' in a $dist chroot (mmdebstrap)" \
		>"$x/BUILT"
}
