#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers sourced by every tests/integration/test_*.sh file. A test is a
# function test_NAME; it fails by returning non-zero (or via fail), and skips
# with skip "reason" (exit code 249, reason printed as "SKIP: reason").

SKIP_RC=249
# shellcheck source=tests/netns.sh
. "$TOP/tests/netns.sh"

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit $SKIP_RC
}

# What a real boot or the browser needs and this machine lacks (qemu, a
# cached kernel, the cross tools, the guest's packing tools, chromium): a skip
# here, a failure under CI=true or PPBENCH_REQUIRE_KERNELS=1, where they must
# run (as the kernel matrix does; make test installs what they need).
unavailable() {
	if [ "${CI:-}" = true ] || [ "${PPBENCH_REQUIRE_KERNELS:-0}" = 1 ]; then
		fail "$* (it must run here: CI/PPBENCH_REQUIRE_KERNELS)"
	fi
	skip "$*"
}

# What this host's kernel refuses root (live-frames BPF_PROG_RUN, fentry), as
# tests/tools/host_can.c finds it with plain libbpf calls, not with the code
# under test: a skip that names the refusal. No install can change it.
needs_host() { # live-frames|fentry
	local why tool=$TOP/build/tests/host-can
	[ -x "$tool" ] || fail "no $tool (make build/tests/host-can)"
	why=$("$tool" "$1") || skip "this host refuses $why"
}

# expect_exit CODE CMD...: run CMD, require exit CODE; its stderr goes to $LAST_ERR.
expect_exit() {
	local want=$1 rc
	shift
	LAST_ERR=$(mktemp)
	LAST_OUT=$(mktemp)
	"$@" >"$LAST_OUT" 2>"$LAST_ERR"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "command: $*"
		echo "stdout:"; sed 's/^/  /' "$LAST_OUT"
		echo "stderr:"; sed 's/^/  /' "$LAST_ERR"
		fail "exit code $rc, expected $want"
	fi
}

# The error of a bad-input run is exactly one line that names the problem.
expect_one_line_error() { # pattern
	local n
	n=$(wc -l <"$LAST_ERR")
	[ "$n" -eq 1 ] || { cat "$LAST_ERR"; fail "stderr has $n lines, expected one error line"; }
	grep -qiE -- "$1" "$LAST_ERR" || fail "error '$(cat "$LAST_ERR")' does not match /$1/"
}

assert_eq() { # actual expected what
	[ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
}

assert_ge() { # actual min what
	[ "$1" -ge "$2" ] 2>/dev/null || fail "$3: got '$1', expected >= $2"
}

assert_le() { # actual max what
	[ "$1" -le "$2" ] 2>/dev/null || fail "$3: got '$1', expected <= $2"
}

assert_match() { # file-or-string pattern what
	if [ -f "$1" ]; then
		grep -qE -- "$2" "$1" || { sed 's/^/  /' "$1"; fail "$3: /$2/ not found"; }
	else
		printf '%s\n' "$1" | grep -qE -- "$2" || fail "$3: /$2/ not found in '$1'"
	fi
}

# jq_get FILE FILTER: one value from a JSON file; fails the test on bad JSON
# or a missing (null) value. false and 0 are values.
jq_get() {
	local v
	v=$(jq -r "$2" "$1" 2>/dev/null) || { echo "JSON:"; head -c 2000 "$1"; fail "jq '$2' failed on $1"; }
	[ "$v" != null ] || { echo "JSON:"; head -c 2000 "$1"; fail "jq '$2': missing in $1"; }
	printf '%s\n' "$v"
}

# Wait until a process prints PATTERN to FILE (max SECONDS).
wait_for_output() { # file pattern seconds
	local i
	for ((i = 0; i < $3 * 10; i++)); do
		grep -qE -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	sed 's/^/  /' "$1"
	fail "timed out waiting for /$2/"
}

# A scratch directory removed when the test ends.
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT

# The net-namespace inode a process lives in.
netns_of() { readlink "/proc/$1/ns/net" | grep -o '[0-9][0-9]*'; }

# Fail if a namespace inode is still held by anything (after a grace period:
# the kernel frees an unreferenced namespace asynchronously).
assert_netns_gone() { # inode what
	local i
	for i in $(seq 30); do
		netns_inodes | grep -qx "$1" || return 0
		sleep 0.1
	done
	fail "$2: network namespace $1 is still referenced"
}

# A bench output's shape: numbers (and n/a) as N, runs of blanks as one, the
# banner without its observer's words, and without the lines a run prints only
# on some machines (NOTE:, WARNING:, UNSTABLE:, indented or not, and the
# continuations of the unindented ones).
bench_shape() {
	# (lines a run prints only when its figures call for them: the notes, and the
	# machine-speed line, which needs a correlation that a spread of zero lacks)
	awk '/^ *(NOTE|WARNING|UNSTABLE)/ { cont = 1; next }
	     /^ *machine speed:/ { next }
	     cont && /^      / { next }
	     { cont = 0; print }' |
		sed -E -e 's/^(ppbench bench: TSC [0-9.]+ GHz, observer) .*/\1/' \
			-e 's#n/a#N#g' -e 's/[-+]?[0-9]+([.,][0-9]+)*/N/g' -e 's/ +/ /g' -e 's/ $//'
}

# What a guest's initramfs is packed with, for the tests that run vm with a
# stand-in guest or pack one: else skip, naming the package.
need_guest_tools() {
	local p
	for p in cpio gzip readelf flock; do
		command -v $p >/dev/null || unavailable "no $p (scripts/install-deps.sh --kernels)"
	done
	[ -x /bin/busybox ] || unavailable "no /bin/busybox (busybox-static)"
}

# The STRINGs no line of FILE contains (with -x: no line is), one a line, in
# their order: one awk where a grep each made tens of processes per page. An
# unreadable FILE contains none.
absent() { # [-x] file string...
	local whole=0
	[ "$1" = -x ] && whole=1 && shift
	if [ ! -r "$1" ]; then
		shift
		printf '%s\n' "$@"
		return
	fi
	awk -v whole=$whole '
		BEGIN { n = ARGC; for (i = 2; i < n; i++) s[i] = ARGV[i]; ARGC = 2 }
		{ for (i in s) if (whole ? $0 == s[i] : index($0, s[i])) delete s[i] }
		END { for (i = 2; i < n; i++) if (i in s) print s[i] }' "$@"
}

# The long options 'ppbench CMD --help' lists, one a line.
options_of() { # cmd
	"$PPBENCH" "$1" --help | sed -nE 's/^ +(-[a-zA-Z], )?(--[a-z0-9-]+).*/\2/p'
}
