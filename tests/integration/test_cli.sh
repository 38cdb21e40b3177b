#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# CLI skeleton and bad input: one-line errors, exit 2 for usage, 1 for runtime.

test_help_and_version() {
	expect_exit 0 "$PPBENCH" --help
	assert_match "$LAST_OUT" '^Commands:' "main help"
	local cmds
	cmds=$(sed -n '/^Commands:/,/^$/p' "$LAST_OUT" | awk 'NF {print $1}' | grep -v Commands:)
	[ -n "$cmds" ] || fail "no commands listed"
	for c in $cmds; do
		expect_exit 0 "$PPBENCH" "$c" --help
		assert_match "$LAST_OUT" "^Usage: ppbench $c " "$c --help usage line"
		assert_match "$LAST_OUT" '^Options:' "$c --help options"
		assert_match "$LAST_OUT" '^Examples:' "$c --help examples"
		assert_match "$LAST_OUT" '^Exit status:' "$c --help exit status"
	done
	expect_exit 0 "$PPBENCH" --version
	assert_match "$LAST_OUT" '^ppbench [0-9]+\.[0-9]+\.[0-9]+$' "--version"
}

test_usage_errors() {
	expect_exit 2 "$PPBENCH"
	expect_one_line_error 'missing command'
	expect_exit 2 "$PPBENCH" frobnicate
	expect_one_line_error "unknown command 'frobnicate'"
	expect_exit 2 "$PPBENCH" probe --frobnicate
	expect_one_line_error "unknown option '--frobnicate'"
	expect_exit 2 "$PPBENCH" probe -Z
	expect_one_line_error "unknown option '-Z'"
	expect_exit 2 "$PPBENCH" probe --json
	expect_one_line_error "option '--json' needs a value"
	expect_exit 2 "$PPBENCH" probe lo extra
	expect_one_line_error "unexpected argument 'extra'"
	expect_exit 2 "$PPBENCH" help frobnicate
	expect_one_line_error "unknown command 'frobnicate'"
	expect_exit 2 "$PPBENCH" env --side c -- true
	expect_one_line_error "--side 'c'"
}

# One voice: every command's bad input is one line "ppbench CMD: error: ...",
# exit 2; without a command, "ppbench: error: ...".
test_errors_name_the_command() {
	local bad cmd
	while IFS='|' read -r cmd bad; do
		# shellcheck disable=SC2086 # the arguments are words
		expect_exit 2 "$PPBENCH" $cmd $bad
		expect_one_line_error "^ppbench $cmd: error: [a-z-]"
	done <<-'EOF'
		load|
		gen|
		bench|--repeat 0
		watch|eth0 extra
		probe|--frobnicate
		compare|
		recipe|nosuch
		trend|
		plot|
		calibrate|--runs 0
		env|--side c
	EOF
	expect_exit 2 "$PPBENCH" frobnicate
	expect_one_line_error "^ppbench: error: unknown command 'frobnicate'$"
	expect_exit 2 "$PPBENCH" load
	expect_one_line_error '^ppbench load: error: missing argument IFACE \[DEV\|N\]$'
}

test_missing_iface() {
	expect_exit 2 "$PPBENCH" probe nosuchif0
	expect_one_line_error "interface 'nosuchif0' does not exist"
}

test_unwritable_json() {
	expect_exit 2 "$PPBENCH" probe --json /nonexistent-dir/probe.json
	expect_one_line_error "cannot write '/nonexistent-dir/probe.json'"
	[ ! -e /nonexistent-dir ] || fail "created something"
}

test_not_root() {
	# A copy nobody can execute, in a directory nobody can reach.
	local d
	d=$(mktemp -d /tmp/ppb-nobody.XXXXXX)
	chmod 755 "$d"
	cp "$PPBENCH" "$d/ppbench"
	chmod 755 "$d/ppbench"
	expect_exit 1 setpriv --reuid=65534 --regid=65534 --clear-groups "$d/ppbench" probe
	rm -rf "$d"
	expect_one_line_error "'probe' needs root"
	expect_exit 1 setpriv --reuid=65534 --regid=65534 --clear-groups "$PPBENCH" env -- true 2>/dev/null ||
		true
}

test_no_capabilities() {
	# Root, but with every capability dropped from the bounding set.
	expect_exit 1 setpriv --inh-caps=-all --bounding-set=-all "$PPBENCH" probe
	expect_one_line_error "'probe' needs root"
	expect_exit 1 setpriv --inh-caps=-all --bounding-set=-all "$PPBENCH" env -- true
	expect_one_line_error "'env' needs root"
}

test_no_btf() {
	expect_exit 1 env PPBENCH_BTF=/nonexistent/vmlinux "$PPBENCH" probe
	expect_one_line_error 'no kernel BTF at /nonexistent/vmlinux'
}

# without_kconfig null|empty CMD...: run CMD in a private mount namespace
# where the kernel's config files (/proc/config.gz, /boot/config-R) are
# unreadable (null: a device node on a nodev tmpfs, which not even root can
# open) or empty. Nothing of it outlives CMD.
without_kconfig() {
	mkdir -p "$TMPD/kc"
	unshare -m bash -c 'mount --make-rprivate / && mount -t tmpfs -o nodev,size=64k tmpfs "$0" &&
		mknod "$0/null" c 1 3 && : >"$0/empty" || exit 99
		for f in /proc/config.gz "/boot/config-$(uname -r)"; do
			[ ! -e "$f" ] || mount --bind "$0/$1" "$f" || exit 99
		done
		shift && exec "$@"' "$TMPD/kc" "$@"
}

# The page_pool programs take the kernel's poison values from its config:
# every command that loads them refuses, in one line, when the config cannot
# be read or lacks the value; probe, which loads none, runs.
test_no_kconfig() {
	local c
	while read -r c; do
		# shellcheck disable=SC2086 # the arguments are words
		expect_exit 1 without_kconfig null "$PPBENCH" $c
		expect_one_line_error "^ppbench ${c%% *}: error: cannot read the kernel config \\(/proc/config.gz or /boot/config-$(uname -r)\\): "
	done <<-EOF
		bench
		calibrate -o $TMPD/p.json
		load lo --skb --duration 1
		recipe lf-drop
		watch --duration 1
	EOF
	[ ! -e "$TMPD/p.json" ] || fail "calibrate wrote a profile"
	expect_exit 1 without_kconfig empty "$PPBENCH" watch --duration 1
	expect_one_line_error "the kernel config [^ ]+ has no CONFIG_ILLEGAL_POINTER_VALUE"
	expect_exit 0 without_kconfig null "$PPBENCH" probe
}

# make install puts the binary, the man pages and vm's scripts under
# DESTDIR/PREFIX, and the installed pages render. make install-guest adds
# the guests' static ppbench, with ARM64=1 the arm64 one, cross-built, and an
# installed vm boots it without the source tree: with the arm64 tools, the
# suite's one real arm64 boot of the newest kernel, where bench runs under
# the instruction clock; without them, x86-64's probe.
test_make_install() {
	local d=$TMPD/root lib=$TMPD/root/usr/local/lib/ppbench arm64=0
	make -C "$TOP" --no-print-directory install DESTDIR="$d" PREFIX=/usr/local \
		>"$TMPD/install.log" 2>&1 || { cat "$TMPD/install.log"; fail "make install failed"; }
	# a packager needs no static build of every library: that is install-guest's
	[ ! -e "$lib/ppbench-static" ] ||
		fail "make install installed the guests' static ppbench (make install-guest's)"
	[ -x "$d/usr/local/sbin/ppbench" ] || fail "sbin/ppbench not installed"
	[ -f "$d/usr/local/share/man/man8/ppbench.8" ] || fail "share/man/man8/ppbench.8 not installed"
	"$d/usr/local/sbin/ppbench" --version >/dev/null || fail "the installed ppbench does not run"
	MANWIDTH=100 man -l "$d/usr/local/share/man/man8/ppbench.8" 2>"$TMPD/man.err" |
		col -b >"$TMPD/man.txt"
	grep -q '^NAME' "$TMPD/man.txt" && grep -q 'ppbench bench' "$TMPD/man.txt" ||
		fail "man -l does not render the installed page: $(head -c 300 "$TMPD/man.err")"
	# a page per command, and man finds it: the same text as 'ppbench help CMD'
	local c
	for c in $("$PPBENCH" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF && !/Commands:/ {print $1}'); do
		[ -f "$d/usr/local/share/man/man8/ppbench-$c.8" ] || fail "ppbench-$c.8 not installed"
	done
	MANPATH=$d/usr/local/share/man MANWIDTH=80 LC_ALL=C.UTF-8 man ppbench-bench 2>&1 |
		col -bx | tr -d ' \n' >"$TMPD/man.w"
	"$d/usr/local/sbin/ppbench" help bench | tr -d ' \n' >"$TMPD/help.w"
	cmp -s "$TMPD/man.w" "$TMPD/help.w" ||
		fail "'man ppbench-bench' (installed) is not 'ppbench help bench': $(head -c 200 "$TMPD/man.w")"
	# the bash completion, where bash-completion looks for it
	[ -f "$d/usr/local/share/bash-completion/completions/ppbench" ] ||
		fail "share/bash-completion/completions/ppbench not installed"
	[ -x "$lib/vm/run" ] && [ -x "$lib/vm/init" ] && [ -f "$lib/vm/kernel.sh" ] ||
		fail "vm's scripts not installed in $lib/vm"
	command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-system-aarch64 >/dev/null &&
		arm64=1
	make -C "$TOP" --no-print-directory install-guest ARM64=$arm64 DESTDIR="$d" \
		PREFIX=/usr/local >"$TMPD/install.log" 2>&1 ||
		{ tail -n 20 "$TMPD/install.log"; fail "make install-guest ARM64=$arm64 failed"; }
	[ -x "$lib/ppbench-static" ] && ! readelf -l "$lib/ppbench-static" | grep -q 'program interpreter' ||
		fail "$lib/ppbench-static is not a static ppbench"
	if [ $arm64 = 0 ]; then
		command -v qemu-system-x86_64 >/dev/null ||
			unavailable "the installed vm's boots: no qemu-system-x86_64 (scripts/install-deps.sh --kernels)"
		(cd "$TMPD" && PPBENCH_LIBDIR=$lib "$d/usr/local/sbin/ppbench" vm -q -- probe --json p.json) \
			>"$TMPD/vm.out" 2>&1 || { cat "$TMPD/vm.out"; fail "the installed ppbench vm failed"; }
		assert_eq "$(jq -r .clock.kind "$TMPD/p.json")" icount \
			"the installed vm's probe: its clock"
		unavailable "the installed vm's arm64 boot (bench under the instruction clock): no aarch64-linux-gnu-gcc or qemu-system-aarch64 (scripts/install-deps.sh --kernels); x86-64's probe ran"
	fi
	file -b "$lib/ppbench-static-arm64" | grep -q 'ARM aarch64.*statically linked' ||
		fail "$lib/ppbench-static-arm64: $(file -b "$lib/ppbench-static-arm64")"
	(cd "$TMPD" && PPBENCH_LIBDIR=$lib "$d/usr/local/sbin/ppbench" vm --arch arm64 -q -- \
		bench --scenario ring,slow --repeat 1 --loops 20000 --json r.json) >"$TMPD/vm.out" 2>&1 ||
		{ cat "$TMPD/vm.out"; fail "the installed vm --arch arm64 failed"; }
	local f=$TMPD/r.json
	assert_eq "$(jq_get "$f" .host.clock.counter)" CNTVCT_EL0 "the installed arm64 guest's counter"
	assert_match "$(cat "$TMPD/vm.out")" '^Type:ppbench_ring Per elem: [0-9]+ cycles\(tsc\) ' "time_bench line"
	assert_match "$(cat "$TMPD/vm.out")" '^figures are guest instructions per element' \
		"the summary says instructions"
	assert_match "$(jq_get "$f" .host.kernel)" '-arm64$' "an arm64 kernel ran"
	assert_eq "$(jq_get "$f" .host.clock.kind)" icount "host.clock.kind"
	assert_eq "$(jq_get "$f" .host.clock.unit)" instructions "host.clock.unit"
	assert_eq "$(jq_get "$f" '.scenarios[] | select(.name == "ring") | .status')" ok "ring status"
	assert_eq "$(jq_get "$f" '.scenarios[] | select(.name == "slow") | .status')" ok "slow status"
}

# The completion is written from the option tables (ppbench help --completion):
# commands, a command's long options, an enum's words, after vm's "--" a
# command line of its own.
test_bash_completion() {
	local f=$TOP/build/ppbench.bash
	[ -f "$f" ] || fail "build/ppbench.bash missing (make builds it)"
	"$PPBENCH" help --completion | cmp -s - "$f" || fail "build/ppbench.bash is not what ppbench writes"
	# shellcheck disable=SC1090
	. "$f"
	comp() { # WORDS...: the completions of the last word
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMPREPLY=()
		_ppbench
		echo "${COMPREPLY[*]}"
	}
	assert_eq "$(comp ppbench b)" "bench bisect" "ppbench b<TAB>"
	assert_eq "$(comp ppbench bench --sc)" --scenario "ppbench bench --sc<TAB>"
	assert_eq "$(comp ppbench load --backend t)" tracepoint "load --backend t<TAB>"
	assert_eq "$(comp ppbench vm -q -- bench --rep)" --repeat "vm -- bench --rep<TAB>"
	assert_eq "$(comp ppbench help tr)" trend "help tr<TAB>"
	assert_eq "$(comp ppbench bench --repeat '')" "" "a number: nothing to offer"
	[ "$(complete -p ppbench)" = "complete -F _ppbench ppbench" ] || fail "complete -p ppbench"
}

test_man_page_covers_help() {
	local man=$TOP/build/ppbench.8 text=$TMPD/man.txt c miss opts n=0
	[ -f "$man" ] || fail "build/ppbench.8 missing (make builds it)"
	groff -k -man -ww -z "$man" 2>"$TMPD/warn" || fail "groff failed" # -k: the page is UTF-8
	[ ! -s "$TMPD/warn" ] || fail "troff warnings: $(head -3 "$TMPD/warn")"
	MANWIDTH=200 man -l "$man" 2>/dev/null | col -b >"$text"
	for c in $("$PPBENCH" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF && !/Commands:/ {print $1}'); do
		mapfile -t opts < <(options_of "$c")
		miss=$(absent "$text" "ppbench $c [OPTIONS]" "${opts[@]}")
		case $miss in
		"ppbench $c [OPTIONS]"*) fail "command $c missing from the man page" ;;
		?*) fail "$c ${miss//$'\n'/ } missing from the man page" ;;
		esac
		n=$((n + ${#opts[@]}))
	done
	[ $n -gt 50 ] || fail "only $n options checked"
	grep -q '^EXIT STATUS' "$text" || fail "no EXIT STATUS section"
}
