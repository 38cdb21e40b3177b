#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Result files appear whole or not at all (user/core/sys/outfile.c): a write that
# fails (a full file system) or a SIGKILL leaves the previous file byte for
# byte and no temporary file; a file cut short or of another kind is named
# in compare's and trend's one-line error.

DATA=$TOP/tests/data
# The previous result every test keeps beside the new one.
OLD=$DATA/base.json

# A 64 KiB tmpfs at $FULL holding a copy of $OLD under each NAME, then filled
# to its last page; unmounted when the test ends, whether it passes or not.
full_fs() { # names...
	local n
	FULL=$TMPD/full
	mkdir -p "$FULL"
	mount -t tmpfs -o size=64k ppb-full "$FULL" || fail "cannot mount a tmpfs"
	trap 'umount "$FULL"; rm -rf "$TMPD"' EXIT
	for n; do
		cp "$OLD" "$FULL/$n" || fail "cannot copy $OLD"
	done
	dd if=/dev/zero of="$FULL/fill" bs=1k >/dev/null 2>&1 # until ENOSPC
	ls -A "$FULL" >"$TMPD/full.was"
}

# FILE is $OLD byte for byte, and its directory holds what it held before
# (listed in WAS): no temporary file.
assert_intact() { # file was what
	cmp -s "$OLD" "$1" || fail "$3: $1 is no longer the previous file"
	ls -A "$(dirname "$1")" | diff -u "$2" - >"$TMPD/ls.diff" ||
		{ cat "$TMPD/ls.diff"; fail "$3: the directory changed (a temporary file?)"; }
}

# The run failed on the full file system: exit 1, one line naming FILE and ENOSPC.
expect_full() { # file cmd...
	local f=$1
	shift
	expect_exit 1 "$@"
	expect_one_line_error "cannot write '$f': No space left on device$"
	assert_intact "$f" "$TMPD/full.was" "$*"
}

test_outfile_bench_full_disk() {
	needs_host live-frames
	full_fs F.json
	expect_full "$FULL/F.json" "$PPBENCH" bench --scenario ring --repeat 1 --loops 100000 \
		--quiet --json "$FULL/F.json"
	# With room, the same run replaces it (and keeps its mode).
	chmod 640 "$FULL/F.json"
	rm "$FULL/fill"
	expect_exit 0 "$PPBENCH" bench --scenario ring --repeat 1 --loops 100000 --quiet \
		--json "$FULL/F.json"
	assert_eq "$(jq_get "$FULL/F.json" .schema)" ppbench/1 "the new result"
	assert_eq "$(stat -c %a "$FULL/F.json")" 640 "mode of the file it replaced"
	assert_eq "$(ls -A "$FULL")" F.json "files beside it"
}

test_outfile_reports_full_disk() {
	local i
	for i in 1 2 3 4 5 6 7 8; do
		jq --arg l "$i" '.label = $l' "$OLD" >"$TMPD/r$i.json" || fail "jq"
	done
	full_fs c.json p.svg t.json t.svg
	expect_full "$FULL/c.json" "$PPBENCH" compare --json "$FULL/c.json" "$OLD" "$DATA/base2.json"
	expect_full "$FULL/p.svg" "$PPBENCH" plot -o "$FULL/p.svg" "$OLD"
	expect_full "$FULL/t.json" "$PPBENCH" trend --json "$FULL/t.json" "$TMPD"/r?.json
	expect_full "$FULL/t.svg" "$PPBENCH" trend --svg "$FULL/t.svg" "$TMPD"/r?.json
}

# SIGKILL of bench at 1, 2 and 3 s (setting up, measuring): the previous
# result stays, and nothing else appears beside it.
test_outfile_bench_sigkill() {
	needs_host live-frames
	local d=$TMPD/k s pid rc
	mkdir "$d"
	cp "$OLD" "$d/F.json"
	ls -A "$d" >"$TMPD/k.was"
	for s in 1 2 3; do
		# (long enough to be running at 3 s on a machine twice as fast)
		"$PPBENCH" bench --scenario ring --repeat 50 --loops 1000000 --quiet \
			--json "$d/F.json" >"$TMPD/k.out" 2>&1 &
		pid=$!
		sleep $s
		kill -0 $pid 2>/dev/null || fail "bench ended before its SIGKILL at $s s"
		kill -KILL $pid
		wait $pid
		rc=$?
		assert_eq $rc 137 "bench's exit after SIGKILL at $s s"
		assert_intact "$d/F.json" "$TMPD/k.was" "SIGKILL at $s s"
	done
}

# The moment that matters: the new file is complete, not yet renamed. strace
# kills bench as it enters fsync() of the result (its only fsync).
test_outfile_bench_killed_at_its_sync() {
	command -v strace >/dev/null || skip "no strace (scripts/install-deps.sh --tests)"
	local d=$TMPD/k
	mkdir "$d"
	cp "$OLD" "$d/F.json"
	ls -A "$d" >"$TMPD/k.was"
	expect_exit 137 strace -f -qq -o /dev/null -e trace=fsync -e inject=fsync:signal=KILL \
		"$PPBENCH" bench --scenario ring --repeat 1 --loops 100000 --quiet --json "$d/F.json"
	assert_intact "$d/F.json" "$TMPD/k.was" "SIGKILL at fsync"
}

# compare and trend name a file cut short, or one that is no bench result,
# with the problem, in one line, and exit 2.
test_outfile_truncated_or_foreign_input() {
	local cut=$TMPD/cut.json other=$TMPD/other.json cmd
	head -c 3000 "$OLD" >"$cut"
	"$PPBENCH" compare --json "$other" "$OLD" "$DATA/base2.json" >/dev/null ||
		fail "compare --json failed"
	for cmd in compare trend; do
		expect_exit 2 "$PPBENCH" $cmd "$OLD" "$cut"
		expect_one_line_error "$cut: truncated: line [0-9]+, column [0-9]+: "
		expect_exit 2 "$PPBENCH" $cmd "$OLD" "$other"
		expect_one_line_error "$other: schema: \"ppbench-compare/1\" is not supported"
		expect_exit 2 "$PPBENCH" $cmd "$OLD" "$TOP/.clang-format"
		expect_one_line_error "\\.clang-format: line 1, column 1: "
	done
	echo '{"results": []}' >"$other"
	expect_exit 2 "$PPBENCH" compare "$OLD" "$other"
	expect_one_line_error "$other: no 'schema' field: not a ppbench result"
}
