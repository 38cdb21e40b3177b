#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# layers.sh [TREE]: every #include "DIR/..." of TREE/user/ (default: this
# tree) against the rules of TREE/README.md, section "Source layout": the
# lines "UNIT includes DIR/ DIR/ ..." of its second code block. A unit is
# main.c or a directory of user/; it also includes its own directory,
# include/ (ppbench.h) and the build's skeletons (a name without a '/').
# Prints one line per forbidden include and exits 1 if there is any; exits 2
# when the README has no rules.

TREE=${1:-$(cd "$(dirname "$0")/../.." && pwd)}

cd "$TREE" || exit 2
mapfile -t files < <(find user -type f \( -name '*.c' -o -name '*.h' \) | sort)
awk '
	# user/DIR/FILE: "DIR/"; user/main.c: "main.c"
	function unit_of(path, rel) {
		rel = substr(path, 6)
		return rel == "main.c" ? rel : substr(rel, 1, index(rel, "/"))
	}
	# README.md first: the rules of the second block of "Source layout".
	FNR == 1 { readme = FILENAME == "README.md" }
	readme && /^## / { in_sec = ($0 == "## Source layout"); next }
	readme && in_sec && /^```/ { blocks++; next }
	readme && in_sec && blocks == 3 && $2 == "includes" {
		rules++
		known[$1] = 1
		for (i = 3; i <= NF; i++)
			if ($i ~ /\/$/) {
				may[$1, $i] = 1
				list[$1] = list[$1] " " $i
			}
		next
	}
	readme { next }
	FNR == 1 {
		if (!rules) {
			print "README.md: no \"UNIT includes DIR/...\" lines in the second block of " \
			      "its Source layout" > "/dev/stderr"
			exit 2
		}
		unit = unit_of(FILENAME)
	}
	/^[ \t]*#[ \t]*include[ \t]*"/ && (unit in known) {
		inc = $0
		sub(/^[^"]*"/, "", inc)
		sub(/".*/, "", inc)
		if (!index(inc, "/"))
			next
		dir = substr(inc, 1, index(inc, "/"))
		if (dir == unit || (unit, dir) in may)
			next
		print FILENAME ": #include \"" inc "\": " unit " includes only" \
		      (list[unit] == "" ? " itself" : list[unit]) " (README.md, Source layout)"
		bad = 1
	}
	END {
		if (!rules)
			exit 2
		# (here, not at a first line: an empty file has none)
		for (i = 2; i < ARGC; i++)
			if (!(unit_of(ARGV[i]) in known)) {
				print ARGV[i] ": user/" unit_of(ARGV[i]) \
				      " is not in README.md'"'"'s Source layout"
				bad = 1
			}
		exit bad
	}
	' README.md "${files[@]}"
