# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# A sysroot of Debian's packages of another architecture (arm64), for the
# cross build of the static ppbench an arm64 guest runs and for what that
# guest needs besides it (busybox, ip, ethtool, jq and their libraries). The
# packages come from the host's own Debian release through a private apt
# configuration with APT::Architecture (scripts/vm/kernel.sh, use_suite): the
# host's dpkg architectures and apt sources are never changed, nothing is
# installed, the packages are only unpacked into $KCACHE/ARCH-sysroot/root.
# Sourced after scripts/vm/kernel.sh; the caller sets VM_WORK.

# What the cross build links statically (headers and .a files) and what the
# guest runs; apt adds their dependencies (libc6 and the tools' libraries).
# (lowdown.pc requires libbsd and libmd: their -dev packages, for pkg-config.)
SYSROOT_BUILD_PKGS=(libc6-dev linux-libc-dev libbpf-dev libxdp-dev libelf-dev zlib1g-dev
	libzstd-dev libjansson-dev liblowdown-dev libbsd-dev libmd-dev)
SYSROOT_GUEST_PKGS=(busybox-static iproute2 ethtool jq)
# The library directory of the sysroot's architecture (arm64 is the only one).
SYSROOT_TRIPLET=aarch64-linux-gnu

# sysroot_get ARCH: make $KCACHE/ARCH-sysroot/root hold those packages and
# their dependencies, of the versions apt names today; unpack again only
# when that set changes. Prints the root; fails with the reason on stderr.
sysroot_get() {
	local arch=$1 dir=$KCACHE/$1-sysroot rc=0
	(
		VM_ARCH=$arch
		use_suite - || exit 1
		local arc stamp f pkg ver
		arc=$(apt-config shell a Dir::Cache::archives/d | sed -n "s/^a='\(.*\)'$/\1/p")
		# A simulation with an empty status: the whole closure, "PACKAGE VERSION" a line.
		stamp=$(apt-get -s install -y --no-install-recommends "${SYSROOT_BUILD_PKGS[@]}" \
			"${SYSROOT_GUEST_PKGS[@]}" 2>"$VM_WORK/sysroot.err" |
			sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1 \2/p' | sort)
		[ -n "$stamp" ] ||
			{ echo "apt cannot resolve the $arch packages: $(tail -n 1 "$VM_WORK/sysroot.err")" >&2; exit 1; }
		if [ -f "$dir/STAMP" ] && [ "$(cat "$dir/STAMP")" = "$stamp" ] && [ -d "$dir/root" ]; then
			exit 0
		fi
		say "$arch sysroot: $(echo "$stamp" | wc -l) packages (private apt configuration $APT_CONFIG)" >&2
		apt-get -qq -d install -y --no-install-recommends -o APT::Sandbox::User=root \
			"${SYSROOT_BUILD_PKGS[@]}" "${SYSROOT_GUEST_PKGS[@]}" >"$VM_WORK/sysroot.log" 2>&1 ||
			{ echo "cannot download the $arch packages: $(tail -n 1 "$VM_WORK/sysroot.log")" >&2; exit 1; }
		rm -rf "$dir/root.new"
		mkdir -p "$dir/root.new"
		while read -r pkg ver; do
			f=$(find "$arc" -maxdepth 1 -name "${pkg}_${ver//:/%3a}_*.deb" | head -n 1)
			[ -n "$f" ] && dpkg-deb -x "$f" "$dir/root.new" ||
				{ echo "cannot unpack $pkg $ver from $arc" >&2; exit 1; }
		done <<<"$stamp"
		rm -rf "$dir/root"
		mv "$dir/root.new" "$dir/root"
		echo "$stamp" >"$dir/STAMP"
	) || rc=$?
	[ $rc = 0 ] || return 1
	echo "$dir/root"
}

# sysroot_real SYSROOT PATH: PATH's file inside SYSROOT, its symbolic links
# followed inside SYSROOT (an absolute link names a path of the sysroot).
sysroot_real() {
	local sys=$1 p=$2 t n
	for n in 1 2 3 4 5 6 7 8; do
		[ -L "$sys$p" ] || break
		t=$(readlink "$sys$p")
		case "$t" in
		/*) p=$t ;;
		*) p=$(dirname "$p")/$t ;;
		esac
	done
	echo "$sys$p"
}

# sysroot_copy_with_libs SYSROOT ROOT PATH: the program PATH names (the
# host's path of a tool, /usr/sbin/ip: found by its name in SYSROOT's bin
# directories, which Debian 12's packages do not merge into /usr) into ROOT
# at PATH, with its program interpreter and the shared libraries it needs,
# found in SYSROOT's library directories (ldd cannot run a program of
# another architecture: the ELF's NEEDED entries say).
sysroot_copy_with_libs() {
	local sys=$1 root=$2 bin=$3 f lib d found src=
	local -a todo=()
	for d in /usr/sbin /usr/bin /sbin /bin; do
		[ -e "$sys$d/${bin##*/}" ] && { src=$d/${bin##*/}; break; }
	done
	[ -n "$src" ] || { echo "no ${bin##*/} in $sys" >&2; return 1; }
	src=$(sysroot_real "$sys" "$src")
	install -D -m 0755 "$src" "$root$bin" || return 1
	f=$(readelf -l "$src" 2>/dev/null | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	[ -z "$f" ] || install -D -m 0755 "$(sysroot_real "$sys" "$f")" "$root$f"
	for lib in $(readelf -d "$src" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		todo+=("lib:$lib")
	done
	while [ ${#todo[@]} -gt 0 ]; do
		lib=${todo[0]#lib:}
		todo=("${todo[@]:1}")
		found=
		for d in "/lib/$SYSROOT_TRIPLET" "/usr/lib/$SYSROOT_TRIPLET" /lib /usr/lib; do
			[ -e "$sys$d/$lib" ] && { found=$d/$lib; break; }
		done
		[ -n "$found" ] || { echo "no $lib for $bin in $sys" >&2; return 1; }
		[ ! -e "$root$found" ] || continue
		src=$(sysroot_real "$sys" "$found")
		install -D -m 0755 "$src" "$root$found" || return 1
		for f in $(readelf -d "$src" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			todo+=("lib:$f")
		done
	done
}
