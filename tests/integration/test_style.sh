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

# One layer prints: user/[judge/]engine/ and user/[judge/]cmd/ return data and call
# user/report/ for every line of output and every JSON key; their errors go
# through the log functions (user/sys/log.c). Comments and string literals
# are taken out first, so only calls count.
test_engine_cmd_print_nothing() {
	local calls='\b(printf|vprintf|puts|putchar|putc|fputs|fputc|fwrite|fprintf|vfprintf|dprintf|vdprintf|perror)[[:space:]]*\('
	local json='\bjson_(new|open|close|flush_line|obj_begin|obj_end|arr_begin|arr_end|str|u64|i64|double|bool|null|path|pool)[[:space:]]*\('
	local f hits found=0

	for f in "$TOP"/user/engine/*.c "$TOP"/user/cmd/*.c "$TOP"/user/judge/engine/*.c \
		"$TOP"/user/judge/cmd/*.c; do
		hits=$(${CC:-cc} -fpreprocessed -dD -E -P "$f" 2>/dev/null |
			sed -E 's/"([^"\\]|\\.)*"/""/g' | grep -E "$calls|$json")
		grep -q '#include "report/json.h"' "$f" && hits+=$'\n#include "report/json.h"'
		[ -n "$hits" ] || continue
		found=1
		echo "  ${f#"$TOP"/}:"
		printf '%s\n' "$hits" | sed '/^$/d; s/^[[:space:]]*/    /'
	done
	[ $found = 0 ] || fail "engine/ or cmd/ prints or writes JSON itself: move it to user/report/"
}

# Which layer may include which is written once, in README.md's Source layout;
# tests/tools/layers.sh reads it there and checks every #include of user/.
test_include_layers() {
	"$TOP/tests/tools/layers.sh" "$TOP" >"$TMPD/out" 2>&1 && return 0
	sed 's/^/    /' "$TMPD/out"
	fail "#include edges the README's Source layout forbids"
}

# The check fails on one planted include of each kind the layout forbids, in a
# copy of the tree, and names the file: a printer outside report/ (engine, model),
# cli/ on the loader, an engine on cli/, the core on the judging part, and the
# judging part against its layers.
test_include_layers_catch_planted() {
	local plant file inc
	for plant in "engine/bench_run.c report/bench_report.h" \
		"model/stats.c report/json.h" \
		"cli/cli.c loader/kfeatures.h" \
		"engine/vm_run.c cli/cli.h" \
		"engine/bench_run.c judge/model/noise.h" "report/report.c judge/report/ktap.h" \
		"judge/model/noise.c report/json.h" "judge/engine/calibrate_run.c judge/report/ktap.h"; do
		read -r file inc <<<"$plant"
		rm -rf "$TMPD/tree"
		mkdir -p "$TMPD/tree"
		cp -r "$TOP/user" "$TOP/README.md" "$TMPD/tree/"
		echo "#include \"$inc\"" >>"$TMPD/tree/user/$file"
		"$TOP/tests/tools/layers.sh" "$TMPD/tree" >"$TMPD/out" 2>&1 &&
			fail "user/$file including $inc passed the check"
		grep -q "^user/$file: #include \"$inc\"" "$TMPD/out" ||
			fail "the check did not name user/$file including $inc: $(cat "$TMPD/out")"
	done
}
