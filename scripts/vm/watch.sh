# SPDX-License-Identifier: GPL-2.0
#
# The kernel matrix's limits on a running guest, and what it says of a guest
# that did not reach its end (sourced by kernel-matrix.sh and by
# tests/integration/test_matrix_limits.sh). The limits are no-progress
# limits and a cap, never one machine's speed.

# progress_lines FILE: how many test lines (start or result) the console has.
progress_lines() {
	grep -acE '^(PPB-MATRIX|PPB-RUN|PASS|FAIL|SKIP) ' "$1" || true
}

# hung_kernel CONSOLE: the kernel's last soft-lockup report if it is its
# CPU's second or later and says it has been stuck for HUNG_KERNEL_S (60)
# seconds or more, else nothing. A kernel that runs no task on a CPU for a
# minute does not finish its test: waiting for the stall limit only costs the
# host minutes more. (Under plain TCG a guest's clock is the host's: a qemu
# the host starved comes back to one late report per CPU, and runs on.)
HUNG_KERNEL_S=60
hung_kernel() {
	local l s cpu
	l=$(grep -aoE 'BUG: soft lockup - CPU#[0-9]+ stuck for [0-9]+s! \[[^]]*\]' "$1" | tail -n 1)
	[ -n "$l" ] || return 0
	s=${l#*stuck for }
	s=${s%%s!*}
	cpu=${l#*CPU#}
	cpu=${cpu%% *}
	[ "$s" -ge "$HUNG_KERNEL_S" ] &&
		[ "$(grep -acE "BUG: soft lockup - CPU#$cpu stuck for" "$1")" -ge 2 ] && echo "$l"
	return 0
}

# watch_guest PID CONSOLE STALL DEADLINE CAP: wait for process PID (qemu)
# writing CONSOLE. End it when CONSOLE has shown no new test line for STALL
# seconds, when its kernel reports a CPU stuck (hung_kernel), or at the epoch
# second DEADLINE (the cap of CAP seconds). Prints
# the reason when it ended the guest, nothing when the guest ended by itself.
# Each test's host seconds go to CONSOLE.host as "NAME SECONDS": under the
# instruction clock a guest's own seconds count its idle waits, which cost the
# host nothing, so only the host's seconds say where the host's time went.
watch_guest() {
	local pid=$1 log=$2 stall=$3 deadline=$4 cap=$5
	local n lines=-1 last now cur="" cur_t run why="" lockup

	last=$(date +%s)
	cur_t=$last
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		now=$(date +%s)
		n=$(progress_lines "$log")
		if [ "$n" != "$lines" ]; then
			lines=$n
			last=$now
			run=$(grep -a '^PPB-RUN ' "$log" | tail -n 1 | tr -d '\r' || true)
			run=${run#PPB-RUN }
			if [ "$run" != "$cur" ]; then
				[ -z "$cur" ] || echo "$cur $((now - cur_t))" >>"$log.host"
				cur=$run
				cur_t=$now
			fi
		fi
		lockup=$(hung_kernel "$log")
		if [ -n "$lockup" ]; then
			why="the guest kernel hung${cur:+ during $cur}: $lockup"
		elif [ $((now - last)) -ge "$stall" ]; then
			if [ -n "$cur" ]; then
				why="no new test line for $stall s: $cur had run $((now - cur_t)) s"
			else
				why="no test line $stall s after qemu started (boot stuck)"
			fi
		elif [ "$now" -ge "$deadline" ]; then
			why="the matrix cap of $cap s was reached${cur:+ during $cur (it had run $((now - cur_t)) s)}"
		fi
		if [ -n "$why" ]; then
			kill -TERM "$pid" 2>/dev/null
			for _ in 1 2 3 4 5; do kill -0 "$pid" 2>/dev/null && sleep 1; done
			kill -KILL "$pid" 2>/dev/null
			echo "$why"
			return 0
		fi
	done
	[ -z "$cur" ] || echo "$cur $(($(date +%s) - cur_t))" >>"$log.host"
}

# unfinished_tests CONSOLE RESULTS TAG: the tests the guest planned (its PLAN
# line) that have no PASS, FAIL or SKIP line for kernel-TAG in RESULTS.
unfinished_tests() {
	local t
	for t in $(sed -n 's/^PPB-MATRIX PLAN//p' "$1" | head -n 1); do
		grep -qE "^(PASS|FAIL|SKIP) kernel-$3/$t(:| \(took |\$)" "$2" || echo "$t"
	done
}

# crash_excerpt CONSOLE: the kernel's report of a crash from its first line,
# where the cause is (a panic's last lines show only the trace), at most 40
# lines; nothing if the console shows none.
crash_excerpt() {
	local first
	first=$(grep -v '^$' "$1" | grep -naE -m1 \
		'BUG:|Oops|general protection|invalid opcode|int3:|WARNING: CPU|Kernel panic' |
		cut -d: -f1)
	[ -n "$first" ] || return 0
	grep -v '^$' "$1" | sed -n "${first},$((first + 39))p"
}
