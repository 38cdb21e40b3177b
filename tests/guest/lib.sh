# SPDX-License-Identifier: GPL-2.0
#
# Kernel-matrix guest: test helpers and the test runner (busybox sh).
#
#   sh /tests/lib.sh run 'PATTERNS'   run the selected tests (init does this)
#   sh /tests/lib.sh one NAME         run test_NAME alone (the runner does this)
#
# A test is a function test_NAME in /tests/tests.sh (or any other
# /tests/*.sh). It passes by returning 0, fails with `fail "why"` (or by
# returning non-zero) and skips with `skip "reason"`. Each test runs in its own
# shell under a timeout, so it may exit, cd, set traps and leave variables
# behind; it must undo what it changes in the guest (namespaces, links, XDP).
# The runner prints exactly one line per test on the console:
#   PASS NAME | FAIL NAME: why | SKIP NAME: reason
# between "PPB-MATRIX BEGIN" and "PPB-MATRIX END" markers, and the test's own
# output (indented) after a FAIL, or only its `note` lines otherwise. The host
# prefixes the kernel: kernel-6.12/NAME.

PPBENCH=/bin/ppbench
# The host's iproute2 and ethtool (with their libraries). Always call them by
# full path: busybox sh runs its own "ip" applet for a bare "ip".
IP=/usr/sbin/ip
# shellcheck disable=SC2034 # used by the tests
ETHTOOL=/usr/sbin/ethtool
SKIP_RC=249
# Scratch directory of the current test, emptied between tests.
T=/tmp/t

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit $SKIP_RC
}

# note TEXT: a line the matrix log shows under the test's result line even
# when it passes (what a kernel chose, say), unlike the rest of its output.
note() {
	echo "NOTE: $*"
}

# run_ok CMD...: CMD must exit 0. Its output stays in the test's log.
run_ok() {
	"$@"
	_rc=$?
	[ $_rc -eq 0 ] || fail "'$*' exited $_rc"
}

# expect_exit CODE CMD...
expect_exit() {
	_want=$1
	shift
	"$@"
	_rc=$?
	[ $_rc -eq "$_want" ] || fail "'$*' exited $_rc, expected $_want"
}

assert_eq() { # actual expected what
	[ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
}

# json_get FILE KEY: the first scalar "KEY": value in ppbench's pretty-printed
# JSON, strings without quotes (the guest has no jq). Nested keys are found
# too; give the key that is unique in the file.
json_get() {
	sed -n "s/^ *\"$2\": \(.*\)\$/\1/p" "$1" | head -n 1 | sed 's/,$//; s/^"\(.*\)"$/\1/'
}

# json_list FILE KEY: the string elements of array KEY, one per line.
json_list() {
	sed -n "/^ *\"$2\": \[\$/,/^ *\]/p" "$1" | sed -n 's/^ *"\([^"]*\)",\{0,1\}$/\1/p'
}

# probe_json FILE [IFACE]: ppbench probe --json FILE, which must succeed.
probe_json() {
	run_ok "$PPBENCH" probe ${2:+"$2"} --json "$1"
}

# wait_until SECONDS CMD...: poll CMD every 0.1 s until it succeeds.
wait_until() {
	_n=$(($1 * 10))
	shift
	while [ $_n -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}

# ---- NICs ------------------------------------------------------------------
# Guests booted with NICs have two vmxnet3 devices on one qemu hub:
# PPB_NIC_A and PPB_NIC_B (found by MAC, normally eth0 and eth1), both up.

# need_nics: skip unless this guest has NICs with native XDP.
need_nics() {
	[ "${PPB_NIC_MODE:-none}" != none ] || skip "${PPB_NIC_SKIP:-this guest has no NICs}"
	[ -n "${PPB_NIC_A:-}" ] && [ -n "${PPB_NIC_B:-}" ] ||
		fail "NICs with MACs ${PPB_NIC_MACS:-?} not found (is vmxnet3.ko loaded?)"
}

nic_driver() { # iface
	basename "$(readlink "/sys/class/net/$1/device/driver" 2>/dev/null)"
}

nic_is_up() { # iface: administratively up with carrier
	[ "$(cat "/sys/class/net/$1/operstate" 2>/dev/null)" = up ]
}

# nic_split: NIC A into namespace nsa as 10.0.0.1, NIC B in the root namespace
# as 10.0.0.2, with permanent neighbours both ways (an XDP_DROP program on B
# would drop ARP too). IPv6 is off on both: its router solicitations and MLD
# reports would reach the other NIC at random times and spoil exact packet
# counts. Undo with nic_join; tests call it from an EXIT trap.
nic_split() {
	_mac_a=$(cat "/sys/class/net/$PPB_NIC_A/address")
	_mac_b=$(cat "/sys/class/net/$PPB_NIC_B/address")
	echo 1 >"/proc/sys/net/ipv6/conf/$PPB_NIC_B/disable_ipv6"
	# A's settings start afresh in nsa: switch IPv6 off there before it is up.
	"$IP" netns add nsa &&
		"$IP" link set "$PPB_NIC_A" netns nsa &&
		"$IP" netns exec nsa sh -c "echo 1 >/proc/sys/net/ipv6/conf/$PPB_NIC_A/disable_ipv6" &&
		"$IP" -n nsa link set lo up &&
		"$IP" -n nsa addr add 10.0.0.1/24 dev "$PPB_NIC_A" &&
		"$IP" -n nsa link set "$PPB_NIC_A" up &&
		"$IP" -n nsa neigh replace 10.0.0.2 lladdr "$_mac_b" dev "$PPB_NIC_A" nud permanent &&
		"$IP" addr add 10.0.0.2/24 dev "$PPB_NIC_B" &&
		"$IP" link set "$PPB_NIC_B" up &&
		"$IP" neigh replace 10.0.0.1 lladdr "$_mac_a" dev "$PPB_NIC_B" nud permanent ||
		fail "cannot put $PPB_NIC_A into namespace nsa"
}

nic_join() {
	"$IP" -n nsa link set "$PPB_NIC_A" netns 1 2>/dev/null
	"$IP" netns del nsa 2>/dev/null
	"$IP" addr flush dev "$PPB_NIC_B" 2>/dev/null
	"$IP" neigh flush dev "$PPB_NIC_B" 2>/dev/null
	echo 0 >"/proc/sys/net/ipv6/conf/$PPB_NIC_B/disable_ipv6"
	"$IP" link set "$PPB_NIC_A" up 2>/dev/null
	"$IP" link set "$PPB_NIC_B" up 2>/dev/null
}

# ---- runner -----------------------------------------------------------------

test_files() {
	echo /tests/tests.sh
	for _f in /tests/*.sh; do
		case "$_f" in /tests/lib.sh | /tests/tests.sh) ;; *) echo "$_f" ;; esac
	done
}

load_tests() {
	for _f in $(test_files); do
		# shellcheck disable=SC1090
		[ -f "$_f" ] && . "$_f"
	done
}

# All test names, in the order they are written.
list_tests() {
	for _f in $(test_files); do
		[ -f "$_f" ] && sed -n 's/^test_\([a-z0-9_]*\) *().*$/\1/p' "$_f"
	done
}

# Names matching any of the patterns (space/comma separated globs, with or
# without the test_ prefix); all tests when there is no pattern. kernel_clean
# goes last wherever it is written, since it checks what all others did.
select_tests() { # patterns
	_pats=$(echo "$1" | tr ',' ' ')
	for _name in $(list_tests | grep -vx kernel_clean) $(list_tests | grep -x kernel_clean); do
		[ -z "$_pats" ] && { echo "$_name"; continue; }
		for _p in $_pats; do
			# shellcheck disable=SC2254 # a glob on purpose
			case "$_name" in ${_p#test_}) echo "$_name"; break ;; esac
		done
	done
}

# A generous cap, not a speed: the slowest test takes about 50 s on the
# slower machines of our kind; this leaves room for one 3x slower still and
# a busy host. The host's no-progress limit is longer, so this fires first
# and names the test.
DEFAULT_TEST_TIMEOUT=400

run_tests() { # patterns
	_timeout=${PPB_TEST_TIMEOUT:-$DEFAULT_TEST_TIMEOUT}
	_sel=$(select_tests "$1")
	_pass=0
	_fail=0
	_skip=0
	_start=$(cut -d' ' -f1 /proc/uptime)
	# A line of its own: SeaBIOS leaves terminal escapes on the console's last line.
	echo
	echo "PPB-MATRIX BEGIN kernel=$(uname -r) tag=${PPB_KERNEL_TAG:-?} cpus=$(nproc)"
	# shellcheck disable=SC2086 # one line of names
	echo "PPB-MATRIX PLAN" $_sel
	for _name in $_sel; do
		rm -rf "$T"
		mkdir -p "$T"
		# The host's no-progress watch reads this to name a test that hangs.
		echo "PPB-RUN $_name"
		_t0=$(cut -d' ' -f1 /proc/uptime)
		timeout -k 5 "$_timeout" sh /tests/lib.sh one "$_name" >/tmp/out 2>&1 </dev/null
		_rc=$?
		_took=$(echo "$_t0 $(cut -d' ' -f1 /proc/uptime)" | awk '{printf "%.1f", $2 - $1}')
		_why=
		case $_rc in
		0) _res=PASS ;;
		"$SKIP_RC")
			_res=SKIP
			_why=$(sed -n 's/^SKIP: //p' /tmp/out | tail -n 1)
			;;
		*)
			_res=FAIL
			_why=$(sed -n 's/^FAIL: //p' /tmp/out | tail -n 1)
			case $_rc in
			124 | 137 | 143)
				_why="no result after ${_timeout} s (PPB_TEST_TIMEOUT), stopped (exit $_rc)${_why:+; $_why}"
				;;
			esac
			[ -n "$_why" ] || _why="exit code $_rc"
			;;
		esac
		case $_res in
		PASS) _pass=$((_pass + 1)); echo "PASS $_name (took $_took s)" ;;
		SKIP) _skip=$((_skip + 1)); echo "SKIP $_name: ${_why:-no reason given} (took $_took s)" ;;
		FAIL) _fail=$((_fail + 1)); echo "FAIL $_name: $_why (took $_took s)" ;;
		esac
		if [ $_res = FAIL ] || [ "${PPB_VERBOSE:-0}" = 1 ]; then
			tail -n 80 /tmp/out | sed 's/^/    /'
		else
			sed -n 's/^NOTE: /    /p' /tmp/out
		fi
	done
	_secs=$(echo "$_start $(cut -d' ' -f1 /proc/uptime)" | awk '{printf "%.0f", $2 - $1}')
	echo "PPB-MATRIX END passed=$_pass failed=$_fail skipped=$_skip seconds=$_secs"
}

case "${1:-}" in
run)
	run_tests "${2:-}"
	;;
one)
	load_tests
	cd "$T" || exit 1
	"test_$2"
	_rc=$?
	# A test that returns non-zero without saying why still fails.
	[ $_rc -eq 0 ] || [ $_rc -eq $SKIP_RC ] || echo "FAIL: test_$2 returned $_rc"
	exit $_rc
	;;
esac
