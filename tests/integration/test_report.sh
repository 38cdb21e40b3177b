#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ppbench report on tests/data/: an A/B made of prof-old.json (as Debian's 6.12) and
# prof-new.json (7.3.4), result files in columns, a bisection's directory with a tiny
# git tree. test_vm.sh reports a real A/B. No BPF here.

DATA=$TOP/tests/data

# The figure lines of a table (compare's or the report's), without their labels.
figures() { # file
	grep -E '^ +[0-9.]+ .*  (ring|ring-xcpu|fast|slow|ppbench\.[a-z0-9_.]+)( .*)?$' "$1" |
		sed -E 's/  (ring|ring-xcpu|fast|slow|ppbench\.)[^±]*$//'
}

# Prose, wrapped at 72: every longer line is a command, a table's, or a field's.
check_width() { # file
	local wide
	wide=$(awk 'length > 72 && !/^(\*\*)?Subject:/ && !/^ / && !/^commit: / &&
		!/^[a-z_]+(\/[a-z_]+)*: / && !/^\|/ && !/^(ppbench|git|scripts|make) / &&
		!/^-+( -+)*$/' "$1")
	[ -z "$wide" ] || fail "prose wider than 72 columns: $wide"
}

# An A/B of vm --against-debian: r.a.json the base (6.12), r.b.json the kernel under test,
# their folded stacks beside them; slow's profile in r.a.json without its call graph.
ab_pair() {
	jq '.host.kernel = "6.12.57+deb13-amd64" |
		.host.kernel_version = "#1 SMP PREEMPT_DYNAMIC Debian 6.12.57-1 (2025-11-05)" |
		del(.scenarios[] | select(.name == "slow") | .profile.callgraph)' \
		"$DATA/prof-old.json" >"$TMPD/r.a.json" || fail "jq"
	jq '.command = "ppbench bench --scenario ring,fast,slow --json /vm/out/1/r.json"' \
		"$DATA/prof-new.json" >"$TMPD/r.b.json" || fail "jq"
	for s in ring fast slow; do
		cp "$DATA/prof-old.$s.folded" "$TMPD/r.a.$s.folded" &&
			cp "$DATA/prof-new.$s.folded" "$TMPD/r.b.$s.folded" || fail "cp"
	done
}

# The perf-profile rows of a report or a compare, without the report's "ppbench.SCENARIO.".
prows() { # file
	grep -E '^ +[0-9.]+ +[-+][0-9.]+ +[0-9.]+ +(ppbench\.[a-z-]+\.)?perf-profile\.' "$1" |
		sed -E 's/ +/ /g; s/ ppbench\.[a-z-]+\.perf-profile\./ perf-profile./'
}

test_report_ab() {
	local S='ppbench.ring.perf-profile.self' C='ppbench.ring.perf-profile.calltrace'
	local K='ppbench.ring.perf-profile.children' P='ppbench.ring.perf-profile.KIND.instructions-pp'
	local R=${P/KIND/self} T=${P/KIND/calltrace}
	ab_pair
	expect_exit 0 "$PPBENCH" report "$TMPD/r.json"
	local out=$LAST_OUT
	assert_eq "$(head -n 1 "$out")" \
		'Subject: [ppbench] 7.3.4+deb13-amd64: ppbench.ring.instructions_per_elem +5.7% regression' \
		"the subject"
	assert_eq "$(awk '/^ppbench noticed/,/^$/' "$out" | tr '\n' ' ')" \
		'ppbench noticed a +5.7% regression of ppbench.ring.instructions_per_elem on:  ' \
		"the first sentence"
	assert_match "$out" '^kernel: 7\.3\.4\+deb13-amd64$' "the kernel under test"
	assert_match "$out" '^batch/clock/config/cpus/loops/repeat/scenario: 64,64,1/icount/[0-9a-f]{8}/1/2000000,100000,256000/5/ring,fast,slow$' \
		"the parameters the files share, the kernel not"
	assert_eq "$(sed -n '/^kernel:$/,/^$/p' "$out")" "kernel:
  6.12.57+deb13-amd64 ($TMPD/r.a.json)
  7.3.4+deb13-amd64 ($TMPD/r.b.json)" "the kernels, the base first"
	expect_exit 0 "$PPBENCH" compare "$TMPD/r.a.json" "$TMPD/r.b.json"
	assert_eq "$(figures "$out")" "$(figures "$LAST_OUT")" "the table's figures are compare's"
	assert_eq "$(grep -cE '^ +[0-9.]+ .*  ppbench\.[a-z0-9_.]+$' "$out")" \
		"$(figures "$LAST_OUT" | wc -l)" "each figure on one line, named by its stat"
	assert_match "$out" '^ +300\.88 +±0\.0% +\+5\.7% \* +317\.90 +±0\.0%  ppbench\.ring\.instructions_per_elem$' \
		"ring's line"
	assert_eq "$(grep -oE '^ .*  ppbench\.[a-z]+\.perf-profile\.[a-z]+' "$out" | awk '{ print $NF }' |
		uniq | tr '\n' ' ')" "$C $K $S ppbench.slow.perf-profile.self " \
		"the profile rows: ring's (the headline's) by kind, then slow's, self only"
	assert_eq "$(prows "$out")" "$(prows "$LAST_OUT")" "the profile rows are compare's"
	assert_match "$(tr '\n' ' ' <"$out")" \
		"Self +rows +only +where +a +file +has +no +call +graph +\(slow +of +$TMPD/r\.a\.json, +the +first\)\." \
		"says which profile has no call graph"
	assert_match "$out" '^  ppbench vm --debian linux-image-7\.3\.4\+deb13-amd64 --against-debian linux-image-6\.12\.57\+deb13-amd64 --profile -- bench --scenario ring,fast,slow --json r\.json$' \
		"the A/B's command, bench's own options, its --json the A/B's"
	assert_match "$out" '^  ppbench report r\.json$' "then the report of it"
	check_width "$out"
	expect_exit 0 "$PPBENCH" report --floor 10 "$TMPD/r.a.json" "$TMPD/r.b.json"
	assert_eq "$(awk '/perf-profile\./ && ($2 >= 10 || $2 <= -10)' "$LAST_OUT" | wc -l) $(
		grep -c 'perf-profile\.' "$LAST_OUT")" "14 14" "--floor: the rows that moved by 10 or more"
	# Markdown, and the attachments beside the mail
	expect_exit 0 "$PPBENCH" report --markdown -o "$TMPD/mail" "$TMPD/r.json"
	assert_match "$LAST_OUT" '^\*\*Subject:\*\* \[ppbench\] 7\.3\.4\+deb13-amd64: ' "md: the subject"
	assert_match "$LAST_OUT" '^\| ppbench\.ring\.instructions_per_elem \| 300\.88 \| 0\.0% \| \*\*\+5\.7%\*\* \| 317\.90 \| 0\.0% \|$' \
		"md: compare's table"
	assert_match "$LAST_OUT" "^\\| \`$R\\.page_pool_put_unrefed_netmem\` \\| 81\\.03 \\| \\+12\\.00 \\| 93\\.03 \\|$" \
		"md: a profile row"
	assert_match "$LAST_OUT" "^\\| \`$T\\.xdp_return_buff\\.xdp_test_run_batch\\.constprop\\.0\\.__sys_bpf\\.entry_SYSCALL_64\` \\| 158\\.03 \\| \\+17\\.00 \\| 175\\.03 \\|$" \
		"md: a calltrace row"
	assert_eq "$(sed -n '/^```sh$/,/^```$/p' "$LAST_OUT" | sed -n 2p | cut -d' ' -f1-3)" \
		"ppbench vm --debian" "md: the commands in a code block"
	check_width "$LAST_OUT"
	cmp -s "$LAST_OUT" "$TMPD/mail/mail.md" || fail "mail.md is not what was printed"
	for f in r.a.json r.b.json r.a.ring.folded r.b.slow.folded; do
		cmp -s "$TMPD/$f" "$TMPD/mail/$f" || fail "attachment $f"
		assert_match "$LAST_OUT" "^- \`$f\`$" "the mail lists $f"
	done
	# the differential flame graphs, plot's, of the scenarios with call graphs on both sides
	assert_eq "$(cd "$TMPD/mail" && echo *.svg)" "fast.diff.svg ring.diff.svg" "the flame graphs"
	assert_match "$LAST_OUT" '^- `ring\.diff\.svg`$' "the mail lists ring's flame graph"
	expect_exit 0 "$PPBENCH" plot --flame --label "6.12.57+deb13-amd64 ring" "$TMPD/r.a.json" \
		--label "7.3.4+deb13-amd64 ring" "$TMPD/r.b.json" -s ring -o "$TMPD/ring.svg"
	cmp -s "$TMPD/ring.svg" "$TMPD/mail/ring.diff.svg" || fail "ring.diff.svg is not plot's graph"
}

# Result files in columns, the base first: compare's columns, a command per file.
test_report_columns() {
	expect_exit 0 "$PPBENCH" report "$DATA/base.json" "$DATA/regress.json" "$DATA/newkernel.json"
	local out=$LAST_OUT
	assert_eq "$(head -n 1 "$out")" \
		'Subject: [ppbench] regress: ppbench.ring.cycles_per_elem +10.0% regression' "the subject"
	expect_exit 0 "$PPBENCH" compare "$DATA/base.json" "$DATA/regress.json" "$DATA/newkernel.json"
	assert_eq "$(figures "$out")" "$(figures "$LAST_OUT")" "compare's columns, to the digit"
	assert_match "$out" '^base +regress +newkernel$' "the columns' names"
	assert_match "$out" '^  ppbench bench --repeat 5 --json regress\.json$' "bench on the host"
	assert_match "$out" '^  ppbench report base\.json regress\.json newkernel\.json$' "the report"
	check_width "$out"
}

# A tree of four commits bisected by hand: step 3 is the first bad commit.
bisect_tree() {
	local t=$TMPD/tree
	mkdir -p "$t" "$TMPD/steps"
	git -C "$t" init -q && git -C "$t" config user.email t@t &&
		git -C "$t" config user.name t || fail "git init"
	for i in 1 2 3 4; do
		echo "$i" >"$t/f" && git -C "$t" add f && git -C "$t" commit -qm "page_pool: step $i" ||
			fail "git commit"
	done
	BAD=$(git -C "$t" rev-parse HEAD~1)
	PARENT=$(git -C "$t" rev-parse HEAD~2)
	# (git tests step 3 first, then step 2)
	git -C "$t" bisect start HEAD HEAD~3 >/dev/null && git -C "$t" bisect bad >/dev/null &&
		git -C "$t" bisect good >/dev/null || fail "git bisect"
	cp "$DATA/bisect-base.json" "$TMPD/steps/${PARENT:0:12}.json"
	cp "$DATA/bisect-planted.json" "$TMPD/steps/${BAD:0:12}.json"
	cp "$DATA/bisect-base.json" "$TMPD/base.json"
	cat >"$TMPD/steps/${BAD:0:12}.log" <<-EOF
		== check: the baseline against itself
		== compare: $TMPD/base.json $TMPD/base.json
		== config: scripts/kconfig/merge_config.sh arch/x86/configs/x86_64_defconfig /p/ppbench.config
		== build: make -j2 bzImage
		== boot: vm --arch x86-64 --kernel ./arch/x86/boot/bzImage -- bench --quiet --scenario slow --json .ppbench-bisect/${BAD:0:12}.json
		== compare: $TMPD/base.json .ppbench-bisect/${BAD:0:12}.json
	EOF
}

test_report_bisection() {
	bisect_tree
	local P=${PARENT:0:12} B=${BAD:0:12}
	expect_exit 0 "$PPBENCH" report --tree "$TMPD/tree" "$TMPD/steps"
	local out=$LAST_OUT
	assert_eq "$(head -n 1 "$out")" \
		"Subject: [ppbench] [page_pool] $B: ppbench.slow.instructions_per_elem +2.0% regression" \
		"the subject: the area and the first bad commit"
	assert_match "$out" "^commit: $BAD \\(\"page_pool: step 3\"\\)$" "the commit and its title"
	assert_match "$out" '^batch/clock/config/cpus/loops/repeat/scenario: 1/icount/[0-9a-f]{8}/1/256000/5/slow$' \
		"the parameters"
	assert_eq "$(sed -n '/^commit:$/,/^$/p' "$out")" "commit:
  $P (\"page_pool: step 2\")
  $B (\"page_pool: step 3\")" "the parent, then the first bad commit"
	assert_match "$out" "^$P +$B$" "the table's head: their hashes"
	expect_exit 0 "$PPBENCH" compare "$TMPD/steps/$P.json" "$TMPD/steps/$B.json"
	assert_eq "$(figures "$out")" "$(figures "$LAST_OUT")" "the table's figures are compare's"
	assert_eq "$(sed -n '/^To reproduce:$/,$p' "$out" | grep '^  git bisect [sbg]')" \
		"  git bisect start $(git -C "$TMPD/tree" rev-parse HEAD@{1} HEAD~3 2>/dev/null | head -0)$(
		git -C "$TMPD/tree" bisect log | sed -nE 's/^# (bad|good): \[([0-9a-f]+)\].*/\2/p' |
			head -n 2 | tr '\n' ' ' | sed 's/ $//')
$(git -C "$TMPD/tree" bisect log | grep -E '^git bisect (bad|good) ' | sed 's/^/  /')" \
		"the bisection's steps, as git bisect log has them, its start by hash"
	assert_eq "$(sed -n "/^  git checkout $PARENT\$/,/^  ppbench report/p" "$out")" \
		"  git checkout $PARENT
  scripts/kconfig/merge_config.sh arch/x86/configs/x86_64_defconfig /p/ppbench.config
  make -j2 bzImage
  ppbench vm --arch x86-64 --kernel ./arch/x86/boot/bzImage -- bench --quiet --scenario slow --json $P.json
  git checkout $BAD
  scripts/kconfig/merge_config.sh arch/x86/configs/x86_64_defconfig /p/ppbench.config
  make -j2 bzImage
  ppbench vm --arch x86-64 --kernel ./arch/x86/boot/bzImage -- bench --quiet --scenario slow --json $B.json
  ppbench report $P.json $B.json" "each commit's figures as its step took them"
	check_width "$out"
	# result files, --commit naming the first column's: its title from the tree's git
	expect_exit 0 "$PPBENCH" report --tree "$TMPD/tree" --commit "$B" "$TMPD/base.json" \
		"$TMPD/steps/$B.json"
	assert_eq "$(head -n 1 "$LAST_OUT")" \
		"Subject: [ppbench] [page_pool] $B: ppbench.slow.instructions_per_elem +2.0% regression" \
		"files: the subject names the commit"
	assert_match "$LAST_OUT" "^commit: $BAD \\(\"page_pool: step 3\"\\)$" "files: the commit and its title"
	expect_exit 0 "$PPBENCH" report -o "$TMPD/att" --tree "$TMPD/tree" "$TMPD/steps"
	for f in "$P.json" "$B.json" "$B.log"; do
		[ -f "$TMPD/att/$f" ] || fail "no attachment $f"
	done
	# no step of the parent: the baseline its log names
	rm "$TMPD/steps/$P.json"
	expect_exit 0 "$PPBENCH" report --tree "$TMPD/tree" "$TMPD/steps"
	assert_match "$LAST_OUT" "^  baseline \\($TMPD/base\\.json, kernel [^)]*\\): the parent $P has no step$" \
		"the baseline as the base"
	assert_match "$LAST_OUT" "^baseline +$B$" "the table's head"
	# no bisection any more: --commit names the first bad commit
	git -C "$TMPD/tree" bisect reset >/dev/null 2>&1 || fail "git bisect reset"
	expect_exit 2 "$PPBENCH" report --tree "$TMPD/tree" "$TMPD/steps"
	expect_one_line_error 'git bisect log names no first bad commit: give --commit REV'
	expect_exit 0 "$PPBENCH" report --tree "$TMPD/tree" --commit "$B" "$TMPD/steps"
	assert_match "$LAST_OUT" 'not bisecting now' "says the steps are gone"
	mv "$TMPD/steps/$B.json" "$TMPD/steps/0123456789ab.json"
	expect_exit 2 "$PPBENCH" report --tree "$TMPD/tree" --commit "$B" "$TMPD/steps"
	expect_one_line_error "no result of $B, the first bad commit"
}

test_report_bad_input() {
	mkdir "$TMPD/empty"
	expect_exit 2 "$PPBENCH" report "$TMPD/empty"
	expect_one_line_error 'no step results in it'
	expect_exit 2 "$PPBENCH" report "$DATA/profile.json" "$DATA/base.json"
	expect_one_line_error 'profile\.json'
	expect_exit 2 "$PPBENCH" report "$DATA/base.json" "$DATA/icount.json"
	expect_one_line_error 'figures of two clocks never compare'
	expect_exit 2 "$PPBENCH" report "$DATA/base.json"
	expect_one_line_error 'one result file'
	expect_exit 2 "$PPBENCH" report "$TMPD/none.json"
	expect_one_line_error 'no such file, nor an A/B'
	expect_exit 2 "$PPBENCH" report --commit HEAD "$DATA/base.json" "$DATA/regress.json"
	expect_one_line_error 'give --tree DIR too'
	expect_exit 2 "$PPBENCH" report -o "$TMPD/out" "$DATA/base.json" "$DATA/icount.json"
	[ ! -e "$TMPD/out" ] || fail "bad input left $TMPD/out"
	# folded stacks plot refuses: no flame graph, nor anything else
	ab_pair
	echo 'no count here' >>"$TMPD/r.b.ring.folded"
	expect_exit 2 "$PPBENCH" report -o "$TMPD/out" "$TMPD/r.json"
	expect_one_line_error 'r\.b\.ring\.folded'
	[ ! -e "$TMPD/out" ] || fail "a folded file plot refuses left $TMPD/out"
}
