#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The sources follow .clang-format (kernel style, 100 columns): `make format`
# applies it, this test checks it (`make format-check`). A file's name says
# what it holds, so no two files under user/ share a base name.

test_sources_clang_formatted() {
	command -v clang-format >/dev/null ||
		skip "no clang-format (scripts/install-deps.sh --tests installs it)"
	make -s -C "$TOP" --no-print-directory format-check >"$TMPD/out" 2>&1 && return 0
	grep -oE '^[^ :]+:[0-9]+:[0-9]+: ' "$TMPD/out" | cut -d: -f1 | sort | uniq -c | sed 's/^/    /'
	fail "sources not formatted as .clang-format says: run 'make format'"
}

test_user_file_names_unique() {
	local dups name
	dups=$(find "$TOP/user" -type f -printf '%f\n' | sort | uniq -d)
	[ -z "$dups" ] && return 0
	for name in $dups; do
		find "$TOP/user" -type f -name "$name" | sed "s|^$TOP/|    |"
	done
	fail "file names shared under user/: $(echo $dups)"
}

# One layer prints: the core's engine/ and cmd/, and in each feature of the lab
# its command (lab/F/F.c or F_cmd.c) and its runners (*_run.c), return data and call the
# printers (core/report/, the feature's own) for every line of output and
# every JSON key; their errors go through the log functions (core/sys/log.c).
# Comments and string literals are taken out first, so only calls count.
test_engine_cmd_print_nothing() {
	local calls='\b(printf|vprintf|puts|putchar|putc|fputs|fputc|fwrite|fprintf|vfprintf|dprintf|vdprintf|perror)[[:space:]]*\('
	local json='\bjson_(new|open|close|flush_line|obj_begin|obj_end|arr_begin|arr_end|str|u64|i64|double|bool|null|path|pool)[[:space:]]*\('
	local f hits found=0

	for f in "$TOP"/user/core/engine/*.c "$TOP"/user/core/cmd/*.c "$TOP"/user/lab/*/*_run.c \
		$(for d in "$TOP"/user/lab/*/; do ls "$d$(basename "$d").c" "$d$(basename "$d")_cmd.c" 2>/dev/null; done); do
		hits=$(${CC:-cc} -fpreprocessed -dD -E -P "$f" 2>/dev/null |
			sed -E 's/"([^"\\]|\\.)*"/""/g' | grep -E "$calls|$json")
		grep -q '#include "report/json.h"' "$f" && hits+=$'\n#include "report/json.h"'
		[ -n "$hits" ] || continue
		found=1
		echo "  ${f#"$TOP"/}:"
		printf '%s\n' "$hits" | sed '/^$/d; s/^[[:space:]]*/    /'
	done
	[ $found = 0 ] || fail "a command or a runner prints or writes JSON itself: move it to a printer"
}

# The build keeps the layers (Makefile, LAYERS): in a copy of the tree and its
# objects, make fails on one planted crossing of each kind and names it: a core
# file calling the lab, cli/ calling the program's table above it, and an
# include across a rule.
test_layers_planted_fail_the_build() {
	local plant file code want t=$TMPD/tree
	mkdir -p "$t/build"
	cp -a "$TOP/Makefile" "$TOP/scripts" "$TOP/user" "$TOP/include" "$TOP/bpf" "$t/"
	cp -a "$TOP"/build/{user,gen,vmlinux.h,*.skel.h,*.bpf.o} "$t/build/"
	while IFS='|' read -r file code want; do
		cp "$TOP/user/$file" "$t/user/$file"
		echo "$code" >>"$t/user/$file"
		make -C "$t" -s build/layers.ok >"$TMPD/out" 2>&1 &&
			fail "make passed with user/$file: $code"
		grep -q "$want" "$TMPD/out" || fail "make did not name the crossing ($want): $(cat "$TMPD/out")"
		cp "$TOP/user/$file" "$t/user/$file"
	done <<'EOF2'
core/model/stats.c|int trend_fit(void); int ppb_plant(void) { return trend_fit(); }|user/core/model/stats.o: calls trend_fit of lab/trend
core/cli/cli.c|extern const int ppbench; const void *ppb_plant = &ppbench;|user/core/cli/cli.o: calls ppbench of \.
core/model/stats.c|#include "loader/xdpobj.h"|user/core/model/stats.o: includes user/core/loader/xdpobj.h
EOF2
	make -C "$t" -s build/layers.ok >"$TMPD/out" 2>&1 || fail "the copy, restored, fails: $(cat "$TMPD/out")"
}

# The guests' program is the measuring core alone: no symbol the lab defines,
# no lab command.
test_core_program_holds_no_lab() {
	local lab
	lab=$(nm --defined-only "$TOP"/build/user/lab/*/*.o | awk '$2 ~ /^[TDRB]$/ { print $3 }' | sort -u)
	[ -n "$lab" ] || fail "no lab symbols found"
	comm -12 <(echo "$lab") <(nm "$TOP/build/ppbench-core" | awk '{ print $3 }' | sort -u) >"$TMPD/both"
	[ -s "$TMPD/both" ] && fail "lab symbols in the core program: $(head -5 "$TMPD/both" | tr '\n' ' ')"
	expect_exit 2 "$TOP/build/ppbench-core" compare a.json b.json
	expect_one_line_error "unknown command 'compare'"
}
