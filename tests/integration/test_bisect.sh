#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# compare --limit and --bisect on real files of the instruction clock
# (tests/data/icount.json, icount2.json: two boots of Debian's 7.3.4; bisect-*.json:
# the kernel a hand-run bisection built from Debian's 7.3.4 source with
# scripts/vm/ppbench.config, slow only: base.json and noise.json, its profile of 5
# boots, from the good commit, same.json another boot of it, planted.json a boot of
# the commit that planted 10 empty iterations on page_pool's slow release path), and
# ppbench-bisect under a real `git bisect run` in a stand-in kernel tree: a
# make that builds nothing and a guest side of vm (PPBENCH_LIBDIR's vm/run) that
# returns one of those files, so that the steps' statuses are checked without
# building or booting a kernel. The real bisection is checked by hand.

DATA=$TOP/tests/data

# fast's path figure and slow's scenario figure of icount.json
fig() { # jq-path
	jq -r ".scenarios[] | select(.name == \"$1\") | $2" "$DATA/icount.json"
}

test_compare_limit_just_above_and_below() {
	local fp sm
	fp=$(fig fast .path_cost_cycles.value)
	sm=$(fig slow .cycles_per_elem.median)
	expect_exit 0 "$PPBENCH" compare --limit "fast:path=$(echo "$fp + 0.01" | bc)" \
		--limit "slow=$(echo "$sm + 0.01" | bc)" "$DATA/icount.json"
	assert_match "$LAST_OUT" '^fast:path=[0-9.]+ +.*icount\.json +path instr/elem \(fentry\) +64\.9633 +ok$' \
		"fast's limit line"
	assert_match "$LAST_OUT" '^slow:cycles=[0-9.]+ +.*icount\.json +instr/elem +5298\.53 +ok$' \
		"slow's limit line"
	expect_exit 3 "$PPBENCH" compare --limit "fast:path=$(echo "$fp - 0.01" | bc)" \
		--limit "slow=$(echo "$sm + 0.01" | bc)" "$DATA/icount.json"
	assert_match "$LAST_OUT" '^fast:path=.* EXCEEDED$' "fast exceeded"
	expect_one_line_error '^ppbench compare: limit exceeded: fast path instr/elem \(fentry\) 64\.9633, limit 64\.95'
	expect_exit 3 "$PPBENCH" compare --ktap --limit "slow=$(echo "$sm - 0.01" | bc)" \
		--limit fast:path=70 --limit ring-xcpu=1 "$DATA/icount.json"
	assert_match "$LAST_OUT" '^1\.\.3$' "a KTAP test per limit"
	assert_match "$LAST_OUT" '^not ok 1 limit slow:cycles=5298\.52: slow instr/elem 5298\.53, limit' \
		"slow's KTAP row fails"
	assert_match "$LAST_OUT" '^ok 2 limit fast:path=70: ' "fast's KTAP row passes"
	assert_match "$LAST_OUT" '^ok 3 limit ring-xcpu:cycles=1 \(.*icount\.json\) # SKIP ring-xcpu: skipped' \
		"no figure: a skip"
	# beside a baseline: the limits are the new side's
	expect_exit 3 "$PPBENCH" compare --limit "slow=$(echo "$sm + 0.01" | bc)" \
		"$DATA/icount.json" "$DATA/icount2.json"
	assert_match "$LAST_OUT" '^slow:cycles=.*icount2\.json .* EXCEEDED$' "icount2's slow is higher"
}

test_compare_limit_refused() {
	expect_exit 2 "$PPBENCH" compare --limit fast:path=70 "$DATA/base.json"
	expect_one_line_error "base\.json counts cycles of the tsc clock, which move between invocations: no single figure is exact"
	expect_exit 2 "$PPBENCH" compare --limit fast:speed=70 "$DATA/icount.json"
	expect_one_line_error "--limit 'fast:speed=70': the figure is cycles, ns or path"
	expect_exit 2 "$PPBENCH" compare "$DATA/icount.json"
	expect_one_line_error "needs at least two result files: OLD\.json NEW\.json \(one file takes only --limit\)"
}

# icount2.json with FILTER applied, as $TMPD/NAME.json
variant() { # name filter
	jq "$2" "$DATA/icount2.json" >"$TMPD/$1.json" || fail "jq $2"
}

test_compare_bisect_statuses() {
	local L=(--bisect --limit slow=5400)
	variant slowskip '(.scenarios[] | select(.name == "slow")) |= {name, status: "skipped", reason: "planted"}'
	variant noslow 'del(.scenarios[] | select(.name == "slow"))'
	variant slower '(.scenarios[] | select(.name == "slow") | .cycles_per_elem.median) *= 1.1'
	expect_exit 0 "$PPBENCH" compare "${L[@]}" "$DATA/icount.json" "$DATA/icount2.json"
	assert_match "$LAST_ERR" '^ppbench compare: bisect: good \(0\): slow instr/elem 5299\.34, limit 5400$' \
		"the verdict line"
	expect_exit 1 "$PPBENCH" compare "${L[@]}" "$DATA/icount.json" "$TMPD/slower.json"
	assert_match "$LAST_ERR" 'bisect: bad \(1\): slow instr/elem 5829\.27, limit 5400: exceeded' "bad"
	# the kernel under test's file: missing (no boot), or without the gated figure
	expect_exit 125 "$PPBENCH" compare "${L[@]}" "$DATA/icount.json" "$TMPD/none.json"
	assert_match "$LAST_ERR" 'bisect: skip \(125\): .*none\.json: cannot open' "no file: skip"
	expect_exit 125 "$PPBENCH" compare "${L[@]}" "$TMPD/slowskip.json"
	assert_match "$LAST_ERR" 'bisect: skip \(125\): slow: skipped in .*slowskip\.json: planted' \
		"slow skipped: skip"
	expect_exit 125 "$PPBENCH" compare --bisect --fail-above 0.5 --noise "$DATA/profile.json" \
		"$DATA/icount.json" "$DATA/base.json"
	assert_match "$LAST_ERR" 'bisect: skip \(125\): .*two clocks' "another clock: the new file's"
	# a scenario the baseline lacks, the command line, the noise: stop
	expect_exit 128 "$PPBENCH" compare --bisect --limit ring=1000 --fail-above 1 \
		--old "$TMPD/noslow.json" "$DATA/icount.json" --new "$DATA/icount2.json" "$DATA/icount2.json"
	assert_match "$LAST_ERR" 'bisect: stop \(128\): slow: not in .*noslow\.json' \
		"the baseline lacks slow: stop"
	expect_exit 128 "$PPBENCH" compare --bisect --fail-above 0.5 "$DATA/icount.json" \
		"$DATA/icount2.json"
	assert_match "$LAST_ERR" 'bisect: stop \(128\): --fail-above cannot decide with one file a side' \
		"no noise between boots: stop"
	expect_exit 128 "$PPBENCH" compare --bisect --fail-above 0.5 --noise "$DATA/profile.json" \
		"$DATA/icount.json" "$DATA/icount2.json"
	assert_match "$LAST_ERR" 'bisect: stop \(128\): .*profile\.json counts cycles' "a profile of another clock"
	expect_exit 128 "$PPBENCH" compare "${L[@]}" "$TMPD/none.json" "$DATA/icount2.json"
	expect_exit 128 "$PPBENCH" compare --bisect --limit slow=x "$DATA/icount.json"
	expect_exit 128 "$PPBENCH" compare --bisect --frobnicate "$DATA/icount.json"
	# an abbreviation: getopt takes it, git bisect run must not guess
	expect_exit 128 "$PPBENCH" compare --bis --limit slow=5400 "$DATA/icount.json" "$DATA/icount2.json"
	expect_one_line_error "'--bis' is short for --bisect: write it whole"
	expect_exit 128 "$PPBENCH" compare --bisect "$DATA/icount.json" "$DATA/icount2.json"
	expect_one_line_error "--bisect needs a gate to decide with"
	# without --bisect, compare's own statuses
	expect_exit 2 "$PPBENCH" compare --limit slow=5400 "$DATA/icount.json" "$TMPD/none.json"
}

# A stand-in kernel tree (a git repository) in $TMPD/k, its make and the kernel build's
# other tools in $TMPD/bin, and vm's guest side in $TMPD/lib (PPBENCH_LIBDIR) with its qemu
# in $TMPD/guest: make fails where the tree has BUILD_FAILS, as a machine without flex does
# where it has NO_FLEX; the guest's kernel panics where it has BOOT_FAILS (125), this
# machine fails where it has HOST_FAILS (128), and bench's result is slower.json where the
# tree has SLOWER, else icount2.json; with GOOD and BAD set, those files instead.
stand_in_tree() {
	local k=$TMPD/k t
	mkdir -p "$k/scripts/kconfig" "$TMPD/bin"
	for t in flex bison bc pahole gcc; do
		printf '#!/bin/sh\nexit 0\n' >"$TMPD/bin/$t"
		chmod +x "$TMPD/bin/$t"
	done
	echo all: >"$k/Makefile"
	cat >"$k/scripts/kconfig/merge_config.sh" <<-'EOF'
		#!/bin/sh
		[ "$1" = -O ] && shift 2
		cat "$1" "$2" >.config 2>/dev/null || { echo "cannot read $1" >&2; exit 1; }
	EOF
	mkdir -p "$k/arch/x86/configs"
	echo CONFIG_64BIT=y >"$k/arch/x86/configs/x86_64_defconfig"
	chmod +x "$k/scripts/kconfig/merge_config.sh"
	cat >"$TMPD/bin/make" <<-EOF
		#!/bin/bash
		echo "\$*" >>"$TMPD/make.calls"
		if [ -e BUILD_FAILS ]; then
			echo "net/core/page_pool.c:1:1: error: planted build failure" >&2
			exit 2
		fi
		if [ -e NO_FLEX ]; then
			echo "/bin/sh: 1: flex: not found" >&2
			echo "make[2]: *** [scripts/Makefile.host:9: scripts/kconfig/lexer.lex.c] Error 127" >&2
			exit 2
		fi
		mkdir -p arch/x86/boot && echo image >arch/x86/boot/bzImage
	EOF
	mkdir -p "$TMPD/lib/vm" "$TMPD/guest" "$TMPD/tmp"
	cp "$TOP/scripts/vm/ppbench.config" "$TMPD/lib/vm/"
	printf '#!/bin/sh\n' >"$TMPD/lib/ppbench-static"
	printf '#!/bin/sh\n' >"$TMPD/guest/qemu-system-x86_64"
	cat >"$TMPD/lib/vm/run" <<-EOF
		#!/bin/bash
		. "\$1/job.conf"
		echo "\$VM_ARCH \$VM_KERNEL: \$(cat "\$1/cmd")" >>"$TMPD/vm.calls"
		if [ -e BOOT_FAILS ]; then
			echo "error the guest kernel panicked: Kernel panic - planted" >&3
			exit 2
		fi
		if [ -e HOST_FAILS ]; then
			echo "hosterror cannot build the initramfs" >&3
			exit 1
		fi
		[ -e SLOWER ] && f=\${BAD:-$TMPD/slower.json} || f=\${GOOD:-$DATA/icount2.json}
		while read -r n kind path; do cp "\$f" "\$path"; done <"\$1/outputs"
		echo "rc 0" >&3
	EOF
	chmod +x "$TMPD/bin/make" "$TMPD/lib/vm/run" "$TMPD/lib/ppbench-static" \
		"$TMPD/guest/qemu-system-x86_64"
	variant slower '(.scenarios[] | select(.name == "slow") | .cycles_per_elem.median) *= 1.1'
	git -C "$k" init -q -b master && printf '.*\n/arch/x86/boot/\n' >"$k/.gitignore" &&
		git -C "$k" add -A && git -C "$k" -c user.name=t -c user.email=t@t commit -qm base ||
		fail "git init"
}

commit_in() { # file message
	touch "$TMPD/k/$1"
	git -C "$TMPD/k" add -A && git -C "$TMPD/k" -c user.name=t -c user.email=t@t commit -qm "$2" ||
		fail "git commit"
}

in_tree() { # command...: in the stand-in tree, with its tools and vm's guest side
	(cd "$TMPD/k" && PATH=$TMPD/guest:$TMPD/bin:$PATH PPBENCH_LIBDIR=$TMPD/lib \
		TMPDIR=$TMPD/tmp "$@")
}

bisect() { # args...: ppbench-bisect in the stand-in tree
	in_tree "$PPBENCH" bisect "$@"
}

test_bisect_steps_stand_ins() {
	local A=(--baseline "$DATA/icount.json" --scenario slow --limit slow=5400)
	need_guest_tools
	stand_in_tree
	expect_exit 0 bisect "${A[@]}" --jobs 3
	assert_match "$LAST_OUT" '^ppbench-bisect: [0-9a-f]+ base: good \(0\): slow instr/elem 5299\.34, limit 5400 \[build [0-9]+ s, boot and bench [0-9]+ s\]; log \.ppbench-bisect/[0-9a-f]+\.log$' \
		"one line: commit, verdict, why, times, log"
	assert_eq "$(wc -l <"$LAST_OUT")" 1 "one line per step"
	assert_eq "$(cat "$TMPD/make.calls")" "-j3 bzImage" "make's arguments"
	assert_match "$(cat "$TMPD/vm.calls")" "^x86-64 /.*/k/arch/x86/boot/bzImage: exec /bin/ppbench 'bench' '--quiet' '--scenario' 'slow' '--json' '/vm/out/1/[0-9a-f]+\.json'$" \
		"the guest's kernel and command"
	assert_match "$TMPD/k/.config" '^CONFIG_DEBUG_INFO_BTF=y$' "the fragment merged into .config"
	assert_match "$TMPD/k/.config" '^CONFIG_64BIT=y$' "over defconfig"
	echo CONFIG_MINE=y >"$TMPD/my.config"
	expect_exit 0 bisect "${A[@]}" --config "$TMPD/my.config"
	assert_match "$TMPD/k/.config" '^CONFIG_MINE=y$' "over the config given"
	commit_in SLOWER "slow: planted"
	expect_exit 1 bisect "${A[@]}"
	assert_match "$LAST_OUT" 'slow: planted: bad \(1\): slow instr/elem 5829\.27, limit 5400: exceeded' "bad"
	commit_in BUILD_FAILS "does not build"
	expect_exit 125 bisect "${A[@]}"
	assert_match "$LAST_OUT" 'does not build: skip \(125\): the build failed \(make exit 2\): net/core/page_pool\.c:1:1: error: planted build failure \[build [0-9]+ s\]' \
		"a build that fails: skip, with the compiler's line"
	rm "$TMPD/k/BUILD_FAILS"
	commit_in BOOT_FAILS "does not boot"
	expect_exit 125 bisect "${A[@]}"
	assert_match "$LAST_OUT" 'does not boot: skip \(125\): no result from the kernel .*: the guest kernel panicked: Kernel panic - planted' \
		"a boot that fails: skip, with the guest side's reason"
	rm "$TMPD/k/BOOT_FAILS"
	# this machine failing during a step stops: the build's command not found, vm's own
	commit_in NO_FLEX "flex gone"
	expect_exit 128 bisect "${A[@]}"
	assert_match "$LAST_OUT" 'flex gone: stop \(128\): the build failed on this machine.s account \(make exit 2\): /bin/sh: 1: flex: not found' \
		"make's Error 127: stop, with the shell's line"
	rm "$TMPD/k/NO_FLEX"
	commit_in HOST_FAILS "no initramfs"
	expect_exit 128 bisect "${A[@]}"
	assert_match "$LAST_OUT" 'no initramfs: stop \(128\): this machine could not boot the kernel: cannot build the initramfs' \
		"vm's failure on this machine: stop"
	rm "$TMPD/k/HOST_FAILS"
	# mistakes of the command itself stop, before any build
	: >"$TMPD/make.calls"
	expect_exit 128 bisect --baseline "$DATA/icount.json" --limit slow=5400
	expect_one_line_error "no scenario: give --scenario LIST"
	expect_exit 128 bisect "${A[@]}" --frobnicate
	expect_exit 128 bisect --base "$DATA/icount.json" --scenario slow --limit slow=5400
	expect_one_line_error "'--base' is short for --baseline: write it whole"
	expect_exit 128 bisect "${A[@]}" --config "$TMPD/none.config"
	assert_match "$LAST_OUT" "stop \(128\): --config: cannot read '.*none\.config'" "no config: stop"
	expect_exit 128 bisect --baseline "$TMPD/none.json" --scenario slow --limit slow=5400
	assert_match "$LAST_OUT" 'stop \(128\): --baseline: .*none\.json: cannot open' "no baseline: stop"
	expect_exit 128 bisect --baseline "$DATA/icount.json" --scenario ring-xcpu --limit slow=5400
	assert_match "$LAST_OUT" 'stop \(128\): --scenario ring-xcpu: skipped in the baseline' \
		"a scenario the baseline lacks: stop"
	expect_exit 128 bisect "${A[@]}" --fail-above 0.5
	assert_match "$LAST_OUT" 'stop \(128\): the baseline against itself: --fail-above cannot decide with one file a side' \
		"no noise profile: stop"
	expect_exit 128 bisect --baseline "$DATA/icount.json" --scenario slow --limit slow=5000
	assert_match "$LAST_OUT" 'stop \(128\): the baseline against itself: slow instr/elem 5298\.53, limit 5000: exceeded' \
		"a limit the baseline exceeds: stop"
	assert_eq "$(wc -c <"$TMPD/make.calls")" 0 "no build after a stop"
}

bisect_on() { # PATH args...: ppbench-bisect in the stand-in tree, the real vm's checks
	(cd "$TMPD/k" && PATH=$1 "$PPBENCH" bisect "${@:2}")
}

# What a step needs of this machine is checked before the first build: a tool missing stops
# the bisection (128) with one line naming it and its package, where it used to skip every
# commit after a full build. PATH is the stand-ins and a few of this machine's programs:
# no qemu, then no flex; the boot is the real vm's, whose needs are checked too.
test_bisect_host_needs_before_build() {
	local t sys=$TMPD/sys
	local A=(--baseline "$DATA/icount.json" --scenario slow --limit slow=5400)
	stand_in_tree
	mkdir -p "$sys"
	for t in git cat cpio gzip readelf flock; do
		ln -s "$(command -v $t)" "$sys/$t" || fail "no $t here"
	done
	expect_exit 128 bisect_on "$TMPD/bin:$sys" "${A[@]}"
	assert_match "$LAST_OUT" 'stop \(128\): qemu-system-x86_64 not found: install qemu-system-x86 \(apt-get install qemu-system-x86\)' \
		"no qemu: stop, naming its package"
	[ ! -e "$TMPD/make.calls" ] || fail "a build ran before the stop: $(cat "$TMPD/make.calls")"
	rm "$TMPD/bin/flex"
	expect_exit 128 bisect_on "$TMPD/bin:$sys" "${A[@]}"
	assert_match "$LAST_OUT" 'stop \(128\): flex not found: building the kernel needs it \(apt-get install flex; .*install-deps\.sh --kernel-build' \
		"no flex: stop, naming its package and the kernel-build set"
	assert_eq "$(wc -l <"$LAST_OUT")" 1 "one line"
	[ ! -e "$TMPD/make.calls" ] || fail "a build ran: $(cat "$TMPD/make.calls")"
}

# git bisect run over the stand-in tree: skips the commit that does not build and names
# the one that made slow slower. The broken commit comes after the planted one, and the
# next commit repairs it: a skipped commit just before the first bad one leaves git unable
# to tell which of the two it is ("The first bad commit could be any of"). Of four
# commits, git tests the second first: the broken one; after a skip it picks the next
# one pseudo-randomly, so the number of steps varies.
test_bisect_git_bisect_run() {
	local good bad
	need_guest_tools
	stand_in_tree
	good=$(git -C "$TMPD/k" rev-parse HEAD)
	commit_in SLOWER "slow: planted"
	commit_in BUILD_FAILS "does not build"
	rm "$TMPD/k/BUILD_FAILS"
	commit_in a "repairs the build"
	commit_in b "harmless"
	bad=$(git -C "$TMPD/k" rev-parse HEAD)
	(cd "$TMPD/k" && git bisect start "$bad" "$good" >/dev/null) || fail "git bisect start"
	expect_exit 0 in_tree env GOOD="$DATA/bisect-same.json" BAD="$DATA/bisect-planted.json" \
		git bisect run "$PPBENCH" bisect --baseline "$DATA/bisect-base.json" \
		--noise "$DATA/bisect-noise.json" --scenario slow --fail-above 0.5
	assert_match "$LAST_OUT" "is the first bad commit" "git named a commit"
	assert_match "$LAST_OUT" "^    slow: planted$" "the planted commit"
	assert_match "$LAST_OUT" "does not build: skip \(125\)" "the broken commit was skipped"
	assert_match "$LAST_OUT" "slow: planted: bad \(1\): slow instr/elem \+2\.03%, limit 0\.5%" \
		"the planted commit's line"
	git -C "$TMPD/k" bisect reset >/dev/null 2>&1 || fail "git bisect reset"
}
