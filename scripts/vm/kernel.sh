# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Kernels for qemu guests, shared by the kernel matrix (scripts/kernel-matrix.sh)
# and `ppbench vm` (scripts/vm/run): Debian's kernel packages, resolved and
# downloaded through apt (a private configuration for suites the host does not
# name) and unpacked into a cache, or a kernel image and modules the user built.
# Either way the result is a kernel directory holding vmlinuz, RELEASE, STAMP,
# config (when known) and modules/ with the MODULES below as plain .ko files.
#
# The caller sets VM_WORK (a scratch directory) and may set VM_SAY (the prefix
# of progress lines, default "kernel-matrix") or VM_SAY_FD (where they go),
# and VM_ARCH: x86-64 (the default) or arm64, whose packages are read through
# a private apt configuration of that architecture (APT::Architecture), never
# through the host's dpkg architectures.

KCACHE=${PPBENCH_KCACHE:-/var/cache/ppbench-kernels}

# kcache_use: KCACHE, or the user's own cache where KCACHE cannot be written
# (vm needs no root on the host: qemu emulates).
kcache_use() {
	if ! mkdir -p "$KCACHE" 2>/dev/null || [ ! -w "$KCACHE" ]; then
		KCACHE=${XDG_CACHE_HOME:-$HOME/.cache}/ppbench-kernels
		mkdir -p "$KCACHE"
	fi
}
# Modules the guests load. Changing this list re-extracts the cached packages.
MODULES=(veth pktgen vmxnet3 virtio_pci virtio_net)
# arm64 guests also need virtio-serial (vm's channels: -M virt has one UART),
# which Debian 12's arm64 6.1 builds as modules and later kernels build in.
MODULES_ARM64=(virtio_pci virtio_console)

# guest_module_list: VM_ARCH's modules, one a line.
guest_module_list() {
	printf '%s\n' "${MODULES[@]}"
	[ "${VM_ARCH:-x86-64}" != arm64 ] || printf '%s\n' "${MODULES_ARM64[@]}"
}

# tag, meta-package, suite, NIC mode. Debian 12's default kernel (6.1) has no
# linux-image-6.1-amd64 meta-package: linux-image-amd64 is the 6.1 one.
# Suite "-": the host's own apt sources; any other suite is read through a
# private apt configuration under the kernel cache (the host's sources are
# never changed). "newest" follows trixie-backports' linux-image-amd64, so
# the matrix moves to each new Debian kernel by itself; its tag becomes the
# version it resolves to (7.3 for 7.3.4).
# NIC mode: xdp = two vmxnet3 NICs on a hub, native XDP expected;
# none = no NICs, the NIC tests skip with NIC_SKIP_<tag>.
# newest-FLAVOUR: the newest kernel of one of Debian's other flavours, tagged
# VERSION-FLAVOUR (7.3-rt): rt (PREEMPT_RT), cloud (for cloud VMs: fewer
# drivers) and, on arm64, 16k (16K pages).
KERNELS_KNOWN=(
	"6.1 linux-image-amd64 - none"
	"6.12 linux-image-6.12-amd64 - xdp"
	"newest linux-image-amd64 trixie-backports xdp"
	"newest-rt linux-image-rt-amd64 trixie-backports xdp"
	"newest-cloud linux-image-cloud-amd64 trixie-backports xdp"
)
# arm64 kernels, the same way (qemu-system-aarch64 -M virt has vmxnet3 as a
# PCI device, and Debian's arm64 kernels build it as a module).
KERNELS_KNOWN_ARM64=(
	"6.1 linux-image-arm64 - none"
	"6.12 linux-image-6.12-arm64 - xdp"
	"newest linux-image-arm64 trixie-backports xdp"
	"newest-rt linux-image-rt-arm64 trixie-backports xdp"
	"newest-16k linux-image-arm64-16k trixie-backports xdp"
	"newest-cloud linux-image-cloud-arm64 trixie-backports xdp"
)
# The suites a linux-image-* package named by the user is looked for in, in
# this order: the host's own (bookworm), then those the matrix reaches through
# a private apt configuration (bookworm-backports has no kernel of its own).
PKG_SUITES=(- trixie-backports)
# shellcheck disable=SC2034 # read through ${!name}
NIC_SKIP_6_1="vmxnet3 in 6.1 has no native XDP (EOPNOTSUPP): no page_pool NIC under qemu for this kernel, so this guest has no NICs"

# Progress lines: on stdout, or as "info LINE" on file descriptor VM_SAY_FD
# when set (vm keeps stdout for the guest command's own output).
say() {
	if [ -n "${VM_SAY_FD:-}" ]; then
		echo "info $*" >&"$VM_SAY_FD"
	else
		echo "${VM_SAY:-kernel-matrix}: $*"
	fi
}

# The Debian mirror the host's own sources name (read, never changed).
debian_mirror() {
	local u
	u=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
		2>/dev/null | grep -v '^ *#' | grep -oE '(https?|file)://[^ ]*/debian/?( |$)' |
		head -n 1 | tr -d ' ')
	echo "${u:-http://deb.debian.org/debian}"
}

# The host's own Debian sources as sources.list lines, from what apt reads
# (either format of /etc/apt/sources.list.d), for a private configuration of
# another architecture: "deb URI SUITE COMPONENT" for each, signed by Debian.
host_debian_sources() {
	env -u APT_CONFIG apt-cache policy 2>/dev/null |
		sed -n 's|^ *[0-9]* \(https\{0,1\}://[^ ]*/debian[^ ]*\) \([^/ ]*\)/\([^ ]*\) .*|\1 \2 \3|p' |
		sort -u | sed 's|^|deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] |'
}

# use_suite SUITE: point APT_CONFIG at a private configuration naming only
# SUITE, with its own lists and cache under $KCACHE/apt/SUITE ("-": the
# host's configuration). Its lists are refreshed once per VM_WORK. With
# VM_ARCH=arm64 every suite is private ($KCACHE/apt/SUITE-arm64, "-" being
# host-arm64: the host's Debian sources) and names arm64 alone.
use_suite() {
	local suite=$1 a=$KCACHE/apt/$1 arch=
	[ "${VM_ARCH:-x86-64}" != arm64 ] || { arch=arm64; a=$KCACHE/apt/${suite/#-/host}-arm64; }
	if [ "$suite" = - ] && [ -z "$arch" ]; then
		unset APT_CONFIG
		return 0
	fi
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial"
	touch "$a/status"
	if [ "$suite" = - ]; then
		host_debian_sources
	else
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(debian_mirror) $suite main"
	fi >"$a/sources.list"
	cat >"$a/apt.conf" <<-EOF
		Dir::Etc::sourcelist "$a/sources.list";
		Dir::Etc::sourceparts "-";
		Dir::State::Lists "$a/lists";
		Dir::State::status "$a/status";
		Dir::Cache "$a/cache";
		APT::Sandbox::User "root";
	EOF
	[ -z "$arch" ] || printf 'APT::Architecture "%s";\nAPT::Architectures { "%s"; };\n' \
		"$arch" "$arch" >>"$a/apt.conf"
	export APT_CONFIG=$a/apt.conf
	suite=${a##*/}
	# VM_APT_FRESH=SECONDS: lists younger than that are used as they are
	# (ppbench vm, which runs often; the matrix refreshes them once a run).
	if [ -n "${VM_APT_FRESH:-}" ] && [ -n "$(find "$a/updated" -newermt "-$VM_APT_FRESH seconds" \
		2>/dev/null)" ]; then
		touch "$VM_WORK/updated-$suite"
	fi
	if [ ! -f "$VM_WORK/updated-$suite" ]; then
		touch "$VM_WORK/updated-$suite"
		say "$suite: apt-get update (private configuration $a/apt.conf)" >&2
		if apt-get -qq update >"$VM_WORK/update-$suite.log" 2>&1; then
			touch "$a/updated"
		else
			say "$suite: apt-get update failed: $(tail -n 1 "$VM_WORK/update-$suite.log")" >&2
		fi
	fi
}

# apt_stamp: what apt's answers depend on under the current APT_CONFIG (the
# modification time of its package lists' directory, the size and content
# time of its status file, the host's preferences): an answer given under
# one stamp holds while it is unchanged. (use_suite touches a private
# suite's empty status file: its size, not its time, says it is unchanged.)
apt_stamp() {
	local a=${APT_CONFIG:-}
	a=${a%/apt.conf}
	if [ -n "$a" ]; then
		stat -c %Y "$a/lists" && stat -c %s "$a/status"
	else
		stat -c %Y /var/lib/apt/lists /var/lib/dpkg/status
	fi 2>/dev/null | tr '\n' .
	stat -c %Y /etc/apt/preferences /etc/apt/preferences.d 2>/dev/null | tr '\n' .
}

# resolve_once PKG: resolve_apt's answer, from $KCACHE/apt/resolved where
# it was given under the same apt_stamp. Each question loads apt's package
# cache, and vm asks a few each time it names a kernel.
resolve_once() {
	local key hit r=0 f=$KCACHE/apt/resolved
	key="${APT_CONFIG:-host} $1 $(apt_stamp)"
	hit=$(grep -F "$key " "$f" 2>/dev/null | tail -n 1)
	if [ -n "$hit" ]; then
		hit=${hit#"$key "}
		[ "$hit" != - ] || return 1
		echo "$hit"
		return 0
	fi
	hit=$(resolve_apt "$1") || r=$?
	# one short line, appended whole (O_APPEND), so vms side by side may write
	mkdir -p "${f%/*}" && echo "$key ${hit:--}" >>"$f"
	[ $r = 0 ] && echo "$hit"
	return $r
}

# resolve_apt PKG -> "name version" of the exact kernel package (follows meta-packages).
resolve_apt() {
	local pkg=$1 dep ver _
	for _ in 1 2 3; do
		dep=$(apt-cache depends "$pkg" 2>/dev/null |
			sed -n 's/^ *|\{0,1\}Depends: \(linux-image-[^ <>]*\)$/\1/p' | head -n 1)
		[ -n "$dep" ] || break
		pkg=$dep
	done
	ver=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || return 1
	echo "$pkg $ver"
}

# resolve_pkg PKG: "name version suite" of a linux-image-* package in the
# first of PKG_SUITES that has it (the host's lists updated only when no suite
# has it: resolve's fresh-machine case). Leaves APT_CONFIG unset.
resolve_pkg() {
	local pkg=$1 s r
	for s in "${PKG_SUITES[@]}"; do
		use_suite "$s"
		if r=$(resolve_once "$pkg"); then
			echo "$r $s"
			return 0
		fi
	done
	r=$(resolve "$pkg" -) && echo "$r -"
}

resolve() { # PKG SUITE
	use_suite "$2"
	if resolve_once "$1"; then
		return 0
	fi
	# A fresh machine has empty package lists: update once, then ask again.
	if [ "$2" = - ] && [ ! -f "$VM_WORK/updated-host" ] && [ "$(id -u)" = 0 ]; then
		touch "$VM_WORK/updated-host"
		# stderr: stdout is the answer
		say "apt-get update (no candidate for $1)" >&2
		apt-get -qq update >/dev/null 2>&1 || true
		resolve_once "$1"
		return
	fi
	return 1
}

# download DIR PKG VERSION: DIR/PKG_*.deb of that version (kept if present).
download() {
	local dir=$1 pkg=$2 ver=$3 deb
	deb=$(find "$dir" -maxdepth 1 -name "${pkg}_*.deb" | head -n 1)
	if [ -n "$deb" ] && [ "$(dpkg-deb -f "$deb" Version 2>/dev/null)" = "$ver" ]; then
		echo "$deb"
		return 0
	fi
	rm -f "$dir/${pkg}"_*.deb
	say "downloading $pkg $ver" >&2
	# _apt cannot write to a root-only cache; downloading as root is fine here.
	if ! (cd "$dir" && apt-get download -o APT::Sandbox::User=root "$pkg=$ver") \
		>"$VM_WORK/dl-$pkg.log" 2>&1; then
		tail -n 5 "$VM_WORK/dl-$pkg.log" >&2
		return 1
	fi
	find "$dir" -maxdepth 1 -name "${pkg}_*.deb" | head -n 1
}

# The parts of a split kernel package: since 6.16 linux-image-VERSION is a
# meta package whose linux-binary- (vmlinuz), linux-modules- (.ko files) and
# linux-base- (config, System.map) dependencies of the same version hold the
# kernel. Older kernels have all of it in the linux-image package itself.
kernel_parts() { # DEB
	dpkg-deb -f "$1" Depends | tr ',' '\n' |
		sed -n 's/^ *\(linux-\(binary\|modules\|base\)-[^ ]*\) (= .*/\1/p'
}

# kernel_desc KERNELDIR: "RELEASE (PACKAGE VERSION[, split: PARTS])", exactly
# what a guest boots; "RELEASE (IMAGE)" for a kernel given by path.
kernel_desc() {
	local parts=
	[ ! -f "$1/PACKAGES" ] ||
		parts=$(awk 'NR > 1 { sub(/^linux-/, "", $1); sub(/-.*/, "", $1); printf "%s%s", (NR > 2 ? "+" : ""), $1 }' \
			"$1/PACKAGES")
	echo "$(cat "$1/RELEASE") ($(cut -d' ' -f1,2 "$1/STAMP")${parts:+, split: $parts})"
}

# plain_module SRC DEST: a module, compressed (.ko.xz/.zst/.gz) or not, as a plain .ko.
plain_module() {
	case "$1" in
	*.ko.xz) xz -dc "$1" >"$2" ;;
	*.ko.zst) zstd -qdc "$1" >"$2" ;;
	*.ko.gz) gzip -dc "$1" >"$2" ;;
	*) cp "$1" "$2" ;;
	esac
}

# image_btf IMAGE OUT: the kernel's BTF (its .BTF section) carved out of an
# uncompressed kernel image into OUT, as /sys/kernel/btf/vmlinux would give
# it: the header (magic 0xeb9f, version 1, 24 bytes) followed by types and
# strings. An arm64 Image is the kernel's sections laid out as in memory, so
# the section is there byte for byte; of several candidates the largest wins
# (the kernel's own BTF is megabytes). bpftool reads OUT as raw BTF. Fails
# when there is none (a kernel without CONFIG_DEBUG_INFO_BTF).
image_btf() {
	local img=$1 out=$2 off to tl so sl size best=0 boff=
	for off in $(LC_ALL=C grep -obUaP '\x9f\xeb\x01\x00\x18\x00\x00\x00' "$img" | cut -d: -f1); do
		read -r to tl so sl < <(od -An -tu4 -j $((off + 8)) -N 16 "$img")
		[ "${to:-1}" = 0 ] && [ "$tl" -le "$so" ] || continue
		size=$((24 + so + sl))
		[ "$size" -gt "$best" ] || continue
		best=$size
		boff=$off
	done
	[ -n "$boff" ] || return 1
	# (not tail | head: under pipefail, tail's SIGPIPE fails the copy)
	dd if="$img" of="$out" bs=1M iflag=skip_bytes,count_bytes skip="$boff" count="$best" \
		status=none && [ "$(stat -c %s "$out")" = "$best" ]
}

# arm64_kernel KERNELDIR: an arm64 vmlinuz as qemu-system-aarch64 boots it
# and BTF to build against: a gzip'd Image is unpacked (Debian's older
# kernels), and vmlinux.btf is carved out of the Image (image_btf).
arm64_kernel() {
	local k=$1
	if [ "$(head -c 2 "$k/vmlinuz" | od -An -tx1 | tr -d ' ')" = 1f8b ]; then
		gzip -dc "$k/vmlinuz" >"$k/vmlinuz.raw" && mv "$k/vmlinuz.raw" "$k/vmlinuz" || return 1
	fi
	image_btf "$k/vmlinuz" "$k/vmlinux.btf"
}

# x86_pvh IMAGE OUT: the kernel inside an x86-64 bzImage, uncompressed (its
# ELF vmlinux), into OUT, where the kernel has a PVH entry point (CONFIG_PVH:
# the Xen PHYS32_ENTRY note), at which qemu starts the kernel directly from
# its ELF. The bzImage's own decompressor would otherwise unpack it inside
# the guest, under emulation, at every boot. Fails for any other image (not a bzImage, a
# compression other than zstd, xz and gzip, no PVH note).
x86_pvh() {
	local img=$1 out=$2 setup off len dec
	[ "$(od -An -c -j 514 -N 4 "$img" 2>/dev/null | tr -d ' ')" = HdrS ] || return 1
	setup=$(od -An -tu1 -j $((0x1f1)) -N 1 "$img" | tr -d ' ')
	[ "$setup" != 0 ] || setup=4
	# the payload: its offset from the protected-mode code, and its length,
	# which ends with the uncompressed size (4 bytes) the build appends
	read -r off len < <(od -An -tu4 -j $((0x248)) -N 8 "$img")
	off=$(((setup + 1) * 512 + off))
	case "$(od -An -tx1 -j "$off" -N 6 "$img" | tr -d ' ')" in
	28b52ffd*) dec="zstd -dcq" ;;
	fd377a585a00) dec="xz -dcq" ;;
	1f8b*) dec="gzip -dcq" ;;
	*) return 1 ;;
	esac
	dd if="$img" bs=1M iflag=skip_bytes,count_bytes skip="$off" count=$((len - 4)) status=none |
		$dec >"$out.new" 2>/dev/null &&
		[ "$(head -c 4 "$out.new" | od -An -c | tr -d ' ')" = 177ELF ] &&
		readelf -n "$out.new" 2>/dev/null | grep -qE 'PHYS32_ENTRY|\(0x00000012\)' &&
		mv "$out.new" "$out" && return 0
	rm -f "$out.new"
	return 1
}

# kernel_pvh KERNELDIR: KERNELDIR/vmlinux.pvh from its vmlinuz (x86_pvh), once:
# a kernel without one leaves vmlinux.pvh.none, and boots its vmlinuz.
kernel_pvh() {
	[ "${VM_ARCH:-x86-64}" != arm64 ] || return 0
	[ ! -e "$1/vmlinux.pvh" ] && [ ! -e "$1/vmlinux.pvh.none" ] || return 0
	x86_pvh "$1/vmlinuz" "$1/vmlinux.pvh" || : >"$1/vmlinux.pvh.none"
}

# fetch_kernel KEY PKG VERSION: make $KCACHE/KEY/kernel hold vmlinuz, config,
# modules/, RELEASE and PACKAGES for that package; download only when the
# package changed. KEY is the tag for the kernels of the table, the package
# name for others.
fetch_kernel() {
	local tag=$1 pkg=$2 ver=$3 dir=$KCACHE/$1 deb x f m part debs=()
	local stamp
	stamp="$pkg $ver modules=$(guest_module_list | paste -sd' ' -)"
	if [ -f "$dir/kernel/STAMP" ] && [ "$(cat "$dir/kernel/STAMP")" = "$stamp" ]; then
		return 0
	fi
	mkdir -p "$dir"
	deb=$(download "$dir" "$pkg" "$ver") || return 1
	debs=("$deb")
	# (grep reads it all: under pipefail, -q's early exit fails dpkg-deb with SIGPIPE)
	if ! dpkg-deb -c "$deb" | grep '/vmlinuz' >/dev/null; then
		for part in $(kernel_parts "$deb"); do
			f=$(download "$dir" "$part" "$ver") || return 1
			debs+=("$f")
		done
	fi
	x=$dir/.x
	rm -rf "$x" "$dir/kernel.new"
	mkdir -p "$dir/kernel.new/modules"
	for f in "${debs[@]}"; do
		say "$tag: unpacking ${f##*/}"
		dpkg-deb -x "$f" "$x"
		echo "$(dpkg-deb -f "$f" Package) $(dpkg-deb -f "$f" Version)" >>"$dir/kernel.new/PACKAGES"
	done
	f=$(find "$x/boot" "$x/usr/lib/modules" "$x/lib/modules" -name 'vmlinuz*' 2>/dev/null | head -n 1)
	if [ -z "$f" ]; then
		echo "no vmlinuz in ${debs[*]##*/}" >&2
		rm -rf "$x"
		return 1
	fi
	cp "$f" "$dir/kernel.new/vmlinuz"
	if [ "${VM_ARCH:-x86-64}" = arm64 ] && ! arm64_kernel "$dir/kernel.new"; then
		echo "no BTF in the arm64 image of ${debs[*]##*/}" >&2
		rm -rf "$x"
		return 1
	fi
	case "$f" in
	*/vmlinuz-*) echo "${f##*/vmlinuz-}" ;;
	*) basename "$(dirname "$f")" ;;
	esac >"$dir/kernel.new/RELEASE"
	f=$(find "$x/boot" -name 'config-*' 2>/dev/null | head -n 1)
	[ -n "$f" ] || f=$(find "$x/usr/lib/modules" "$x/lib/modules" -maxdepth 2 -name config \
		2>/dev/null | head -n 1)
	[ -z "$f" ] || cp "$f" "$dir/kernel.new/config"
	f=$(find "$x/lib/modules" "$x/usr/lib/modules" -mindepth 1 -maxdepth 1 -type d 2>/dev/null |
		head -n 1)
	[ -z "$f" ] || copy_modules "$f" "$dir/kernel.new" "$tag"
	echo "$stamp" >"$dir/kernel.new/STAMP"
	rm -rf "$x" "$dir/kernel"
	mv "$dir/kernel.new" "$dir/kernel"
}

# kernels_known: the rows of VM_ARCH's table, one a line.
kernels_known() {
	if [ "${VM_ARCH:-x86-64}" = arm64 ]; then
		printf '%s\n' "${KERNELS_KNOWN_ARM64[@]}"
	else
		printf '%s\n' "${KERNELS_KNOWN[@]}"
	fi
}

# kernel_row SPEC: the KERNELS_KNOWN row of SPEC ("tag meta suite nicmode"),
# or for any linux-image-* package "PKG PKG - -" (tagged by its version and
# set up like the table's kernel of that version); fails for anything else.
kernel_row() {
	local r
	while read -r r; do
		[ "${r%% *}" = "$1" ] && { echo "$r"; return 0; }
	done < <(kernels_known)
	case "$1" in
	linux-image-*) echo "$1 $1 - -" ;;
	*) return 1 ;;
	esac
}

# kernel_get SPEC: resolve SPEC (6.1, 6.12, newest, newest-FLAVOUR or a
# linux-image-* package of PKG_SUITES) and make its cached kernel directory.
# Sets K_TAG (the version, 7.3 for newest; 7.3-rt for a flavour), K_KEY (the cache key), K_PKG, K_VER, K_SUITE, K_NICMODE, K_WHERE and
# K_DIR. Returns 2 for an unknown SPEC, 1 with K_WHY when this machine cannot
# have that kernel. With VM_ARCH=arm64 the same SPECs name arm64 kernels,
# cached under arm64-KEY.
kernel_get() {
	local row meta resolved= r t0 pre= flavour
	K_WHY=
	[ "${VM_ARCH:-x86-64}" != arm64 ] || pre=arm64-
	row=$(kernel_row "$1") || return 2
	read -r K_TAG meta K_SUITE K_NICMODE <<<"$row"
	if [ "$K_TAG" = "$meta" ] && r=$(resolve_pkg "$meta"); then
		K_SUITE=${r##* }
		resolved=${r% *}
	fi
	use_suite "$K_SUITE"
	K_WHERE="this machine's apt sources"
	[ "$K_SUITE" = - ] || K_WHERE="$K_SUITE (private apt configuration $APT_CONFIG)"
	[ "$K_TAG" != "$meta" ] || [ -n "$resolved" ] ||
		K_WHERE="this machine's apt sources or ${PKG_SUITES[*]:1} (private apt configurations under $KCACHE/apt)"
	if [ -z "$resolved" ] && ! resolved=$(resolve "$meta" "$K_SUITE"); then
		if [ -f "$KCACHE/$pre$K_TAG/kernel/STAMP" ]; then
			say "$K_TAG: apt has no candidate for $meta; using the cached $(cut -d' ' -f1,2 "$KCACHE/$pre$K_TAG/kernel/STAMP")"
			resolved=$(cut -d' ' -f1,2 "$KCACHE/$pre$K_TAG/kernel/STAMP")
		else
			K_WHY="kernel $K_TAG: no package for $meta in $K_WHERE"
			return 1
		fi
	fi
	read -r K_PKG K_VER <<<"$resolved"
	K_KEY=$K_TAG
	flavour=
	case "$K_TAG" in newest-*) flavour=${K_TAG#newest} ;; esac
	if [ "$K_TAG" = "$meta" ] || [ "${K_TAG%%-*}" = newest ]; then
		[ "${K_TAG%%-*}" = newest ] || K_KEY=$K_PKG
		K_TAG=$(echo "$K_VER" | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
		K_TAG=${K_TAG:-custom}
		if [ "$K_NICMODE" = - ]; then
			K_NICMODE=xdp
			while read -r r; do
				[ "${r%% *}" = "$K_TAG" ] && K_NICMODE=${r##* }
			done < <(kernels_known)
		fi
	fi
	K_KEY=$pre$K_KEY
	case "$K_VER" in
	"$K_TAG".*) ;;
	*)
		K_WHY="kernel $K_TAG: $meta resolves to $K_PKG $K_VER, not a $K_TAG kernel"
		return 1
		;;
	esac
	# (a package by name: its flavour from its name, linux-image-7.3.4+deb13-rt-amd64)
	[ -n "$flavour" ] || case "$K_PKG" in
	*-rt-*) flavour=-rt ;;
	*-16k) flavour=-16k ;;
	*-cloud-*) flavour=-cloud ;;
	esac
	K_TAG=$K_TAG$flavour
	t0=$(date +%s.%N)
	if ! (flock 9 && fetch_kernel "$K_KEY" "$K_PKG" "$K_VER" &&
		kernel_pvh "$KCACHE/$K_KEY/kernel") 9>"$KCACHE/.lock"; then
		K_WHY="kernel $K_TAG: cannot download/unpack $K_PKG $K_VER from $K_WHERE"
		return 1
	fi
	K_DIR=$KCACHE/$K_KEY/kernel
	say "$K_TAG: $(kernel_desc "$K_DIR") ready ($(awk -v a="$t0" -v b="$(date +%s.%N)" \
		'BEGIN { printf "%.1f", b - a }') s)"
}

# ---- the kernel's debug info (vm --profile's lines) ------------------------------

# dbg_cached KEY PKG VERSION: the cached vmlinux of Debian's PKG-dbg VERSION
# under $KCACHE/KEY/dbg, or nothing.
dbg_cached() {
	local d=$KCACHE/$1/dbg
	[ -f "$d/vmlinux" ] && [ "$(cat "$d/STAMP" 2>/dev/null)" = "$2-dbg $3" ] && echo "$d/vmlinux"
}

# dbg_fetch KEY PKG VERSION SUITE RELEASE: $KCACHE/KEY/dbg/vmlinux, the
# vmlinux with DWARF of Debian's PKG-dbg package of that VERSION (a .deb of
# gigabytes, its vmlinux a fraction of them): only the vmlinux is
# extracted (boot/vmlinux-RELEASE, or lib/modules/RELEASE/vmlinux that it
# links to), and the .deb is removed. A lock of its own: the kernels' lock
# would hold every other vm for the minutes this takes.
dbg_fetch() {
	local key=$1 pkg=$2-dbg ver=$3 suite=$4 rel=$5 d=$KCACHE/$1/dbg deb f
	(
		flock 9
		dbg_cached "$key" "$2" "$ver" >/dev/null && exit 0
		use_suite "$suite"
		rm -rf "$d/vmlinux" "$d/STAMP" "$d/x" && mkdir -p "$d/x" || exit 1
		deb=$(download "$d" "$pkg" "$ver") || exit 1
		say "$rel: extracting the vmlinux of ${deb##*/}"
		# (tar fails on the member it does not find: the file decides)
		dpkg-deb --fsys-tarfile "$deb" | tar -xf - -C "$d/x" \
			"./usr/lib/debug/boot/vmlinux-$rel" "./usr/lib/debug/lib/modules/$rel/vmlinux" \
			2>/dev/null
		f=$(readlink -f "$d/x/usr/lib/debug/boot/vmlinux-$rel")
		[ -s "$f" ] || f=$d/x/usr/lib/debug/lib/modules/$rel/vmlinux
		[ -s "$f" ] && mv "$f" "$d/vmlinux" && rm -rf "$d/x" "$deb" || exit 1
		echo "$pkg $ver" >"$d/STAMP"
	) 9>"$KCACHE/$1.dbg.lock"
}

# kernel_debug_info KERNELDIR [FILE|debian]: the vmlinux with DWARF of that
# kernel (vm --profile's source lines) where one is at hand: FILE; beside a
# --kernel image (VM_KERNEL) or at the top of its build tree; a Debian
# kernel's (kernel_get's K_*) -dbg package in the cache, downloaded first
# with "debian". Its path into DEBUG_INFO, else why not into DEBUG_WHY.
kernel_debug_info() {
	local want=${2:-} rel f
	DEBUG_INFO='' DEBUG_WHY=''
	if [ -n "$want" ] && [ "$want" != debian ]; then
		DEBUG_INFO=$want
		return
	fi
	rel=$(cat "$1/RELEASE")
	if [ -n "${VM_KERNEL:-}" ]; then
		for f in "${VM_KERNEL%/*}/vmlinux" "${VM_KERNEL%/*}/../../../vmlinux"; do
			[ -f "$f" ] && { DEBUG_INFO=$(realpath "$f"); return; }
		done
		DEBUG_WHY="no vmlinux beside $VM_KERNEL or at the top of its build tree (--debug-info FILE names one)"
		return
	fi
	DEBUG_INFO=$(dbg_cached "$K_KEY" "$K_PKG" "$K_VER") && return
	if [ "$want" != debian ]; then
		DEBUG_WHY="$rel's debug info ($K_PKG-dbg) is not in the kernel cache: --debug-info debian downloads it (over a gigabyte)"
		return
	fi
	say "$rel: its debug info ($K_PKG-dbg)"
	DEBUG_INFO=$(dbg_fetch "$K_KEY" "$K_PKG" "$K_VER" "$K_SUITE" "$rel" &&
		dbg_cached "$K_KEY" "$K_PKG" "$K_VER") ||
		DEBUG_WHY="cannot download or unpack $K_PKG-dbg $K_VER from $K_WHERE"
}

# ---- a kernel given by path ----------------------------------------------------

# modules_release DIR: the release of a modules tree: DIR itself
# (lib/modules/RELEASE, from make modules_install), DIR/lib/modules/RELEASE, or
# a kernel build tree (include/config/kernel.release).
modules_release() {
	local d=$1
	if [ -f "$d/include/config/kernel.release" ]; then
		cat "$d/include/config/kernel.release"
	elif [ -f "$d/modules.dep" ] || [ -f "$d/modules.order" ]; then
		basename "$(cd "$d" && pwd)"
	elif [ "$(find "$d/lib/modules" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l)" = 1 ]; then
		basename "$(find "$d/lib/modules" -mindepth 1 -maxdepth 1 -type d)"
	fi
}

# modules_root DIR: where the .ko files of DIR are (as modules_release finds it).
modules_root() {
	if [ -d "$1/lib/modules" ] && [ ! -f "$1/modules.dep" ] &&
		[ ! -f "$1/include/config/kernel.release" ]; then
		find "$1/lib/modules" -mindepth 1 -maxdepth 1 -type d | head -n 1
	else
		echo "$1"
	fi
}

# module_deps ROOT NAME: NAME's dependencies, deepest first, then NAME itself,
# as paths under ROOT: from modules.dep, or where there is none (Debian's
# packages leave it to depmod at installation) from each module's own
# "depends=" (its .modinfo). Nothing when ROOT has no such module.
module_deps() {
	local root=$1 m=$2 line dep f
	line=$(grep -E "(^|/)$m\.ko(\.[a-z]+)?:" "$root/modules.dep" 2>/dev/null | head -n 1)
	if [ -n "$line" ]; then
		for dep in ${line#*:}; do
			dep=${dep##*/}
			module_deps "$root" "${dep%%.ko*}"
		done
		echo "$root/${line%%:*}"
		return
	fi
	f=$(find "$root" -name "$m.ko*" 2>/dev/null | head -n 1)
	[ -n "$f" ] || return 0
	for dep in $(module_modinfo "$f" depends | tr , ' '); do
		module_deps "$root" "$dep"
	done
	echo "$f"
}

# module_modinfo FILE KEY: KEY's value in the module's .modinfo (NUL-separated
# "key=value" strings), compressed or not.
module_modinfo() {
	case "$1" in
	*.ko.xz) xz -dc "$1" ;;
	*.ko.zst) zstd -qdc "$1" ;;
	*.ko.gz) gzip -dc "$1" ;;
	*) cat "$1" ;;
	esac | tr '\0' '\n' | sed -n "s/^$2=//p" | head -n 1
}

# copy_modules ROOT DEST TAG: the guest's modules (guest_module_list) out of
# the modules tree ROOT into DEST/modules as plain .ko files, each after its
# dependencies, in the order init loads them (DEST/modules/ORDER); a module
# built into the kernel (modules.builtin) needs none.
copy_modules() {
	local root=$1 dest=$2 tag=$3 m p f deps seen=" "
	mkdir -p "$dest/modules"
	for m in $(guest_module_list); do
		grep -qE "(^|/)$m\.ko$" "$root/modules.builtin" 2>/dev/null && continue
		deps=$(module_deps "$root" "$m")
		if [ -z "$deps" ]; then
			say "$tag: module $m not in the package"
			continue
		fi
		for p in $deps; do
			f=${p##*/}
			f=${f%%.ko*}
			case "$seen" in *" $f "*) continue ;; esac
			seen="$seen$f "
			plain_module "$p" "$dest/modules/$f.ko"
			echo "$f" >>"$dest/modules/ORDER"
		done
	done
}

# kernel_from_files IMAGE MODDIR DEST: a kernel directory at DEST for a kernel
# image given by path and its modules tree (MODDIR may be empty: no modules).
# The config comes from the build tree (.config) or the modules tree
# (build/.config, config) or config-RELEASE beside IMAGE; without one the
# guest cannot read CONFIG_* and says so. Module dependencies are loaded
# first: init loads modules/*.ko in the order of modules/ORDER.
kernel_from_files() {
	local img=$1 mdir=$2 dest=$3 rel="" root f
	mkdir -p "$dest/modules"
	cp "$img" "$dest/vmlinuz"
	if [ -n "$mdir" ]; then
		rel=$(modules_release "$mdir")
		root=$(modules_root "$mdir")
		copy_modules "$root" "$dest" "${rel:-kernel}"
		for f in "$mdir/.config" "$mdir/build/.config" "$root/build/.config" "$root/config"; do
			[ -f "$f" ] && { cp "$f" "$dest/config"; break; }
		done
	fi
	[ -n "$rel" ] || rel=$(basename "$img" | sed -n 's/^vmlinuz-//p')
	[ -f "$dest/config" ] || [ -z "$rel" ] || [ ! -f "$(dirname "$img")/config-$rel" ] ||
		cp "$(dirname "$img")/config-$rel" "$dest/config"
	echo "${rel:-unknown}" >"$dest/RELEASE"
	echo "$img ${mdir:-no-modules}" >"$dest/STAMP"
	kernel_pvh "$dest"
}
