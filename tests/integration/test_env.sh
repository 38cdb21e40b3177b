#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The private veth environment: set up right, removed on every exit path.

test_env_setup() {
	local f=$TMPD/info
	expect_exit 0 "$PPBENCH" env -- sh -c '
		readlink /proc/self/ns/net > '"$f"'
		nsenter --net="$PPB_NS_B" readlink /proc/self/ns/net >> '"$f"'
		ip -br addr show "$PPB_IF_A" && ip -br link show "$PPB_IF_A" | grep -q UP &&
		ping -c 1 -W 2 "$PPB_IP_B" >/dev/null &&
		nsenter --net="$PPB_NS_B" ping -c 1 -W 2 "$PPB_IP_A" >/dev/null &&
		ip neigh show "$PPB_IP_B" | grep -q PERMANENT &&
		[ "$(cat /proc/sys/net/ipv6/conf/$PPB_IF_A/disable_ipv6)" = 1 ] &&
		! ip link show | grep -q "^[0-9]*: eth"'
	assert_match "$LAST_OUT" '10\.77\.0\.1/24' "side A address"
	local a b
	a=$(sed -n '1s/[^0-9]//gp' "$f")
	b=$(sed -n '2s/[^0-9]//gp' "$f")
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ] || fail "two distinct namespaces expected"
	[ "$a" != "$(netns_of $$)" ] || fail "command ran in the root namespace"
	assert_netns_gone "$a" "side A"
	assert_netns_gone "$b" "side B"
}

test_env_exit_status() {
	expect_exit 7 "$PPBENCH" env -- sh -c 'exit 7'
	expect_exit 0 "$PPBENCH" env --side b -- sh -c '[ "$(readlink /proc/self/ns/net)" = \
		"$(readlink "$PPB_NS_B")" ]'
	expect_exit 127 "$PPBENCH" env -- /nonexistent/cmd
	expect_one_line_error "cannot run '/nonexistent/cmd'"
}

# Start 'ppbench env -- sleep' in the background and wait until it is up.
start_env_sleeper() { # file
	"$PPBENCH" env -- sh -c 'readlink /proc/self/ns/net > '"$1"'.ns; echo $$ > '"$1"'.pid; exec sleep 60' \
		>/dev/null 2>&1 &
	SLEEPER_PID=$!
	wait_for_output "$1.pid" '[0-9]' 10
	SLEEPER_NS=$(grep -o '[0-9][0-9]*' "$1.ns")
	SLEEPER_CHILD=$(cat "$1.pid")
}

check_signal() { # SIG
	start_env_sleeper "$TMPD/$1"
	kill -"$1" "$SLEEPER_PID"
	# env forwards the signal: its command (sleep 60) ends, and env with it
	for _ in $(seq 100); do kill -0 "$SLEEPER_PID" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$SLEEPER_PID" 2>/dev/null && fail "$1: ppbench env still runs 10 s after SIG$1"
	wait "$SLEEPER_PID" 2>/dev/null
	for _ in $(seq 50); do kill -0 "$SLEEPER_CHILD" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$SLEEPER_CHILD" 2>/dev/null && fail "$1: command still running"
	assert_netns_gone "$SLEEPER_NS" "after SIG$1"
}

test_env_sigint() {
	check_signal INT
}

test_env_sigterm() {
	check_signal TERM
}

test_env_sigkill() {
	check_signal KILL
}

test_env_two_at_once() {
	local out1=$TMPD/one out2=$TMPD/two
	"$PPBENCH" env -- sh -c 'echo $PPB_IF_A; sleep 1; ping -c 2 -W 2 $PPB_IP_B >/dev/null && echo ok' \
		>"$out1" 2>&1 &
	local p1=$!
	"$PPBENCH" env -- sh -c 'echo $PPB_IF_A; sleep 1; ping -c 2 -W 2 $PPB_IP_B >/dev/null && echo ok' \
		>"$out2" 2>&1 &
	local p2=$!
	wait $p1 || fail "first env failed: $(cat "$out1")"
	wait $p2 || fail "second env failed: $(cat "$out2")"
	assert_match "$out1" '^ok$' "first env traffic"
	assert_match "$out2" '^ok$' "second env traffic"
	[ "$(head -1 "$out1")" != "$(head -1 "$out2")" ] || fail "both envs used the same names"
}
