#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# layers.sh [TREE]: every #include "DIR/..." of TREE/user/ (default: this
# tree) against the rules of TREE/README.md, section "Source layout": the
# lines "UNIT includes DIR/ DIR/ ..." of its second code block. A unit is
# main.c or a directory of user/; it also includes its own directory,
# include/ (ppbench.h) and the build's skeletons (a name without a '/').
# The line "judge/L/ includes ..." admits the judging part, user/judge/L/ for
# each layer L/ of the core: a file there includes what L/ includes, from
# the core or from judge/, and no file of the core includes judge/.
# Prints one line per forbidden include and exits 1 if there is any; exits 2
# when the README has no rules.

TREE=${1:-$(cd "$(dirname "$0")/../.." && pwd)}

cd "$TREE" || exit 2
mapfile -t files < <(find user -type f \( -name '*.c' -o -name '*.h' \) | sort)
awk '
	# The directory of a path under user/ or of an include, "judge/L/" in the
	# judging part: "engine/", "judge/model/"; user/main.c: "main.c".
	function dir_of(rel, d) {
		if (rel == "main.c")
			return rel
		d = substr(rel, 1, index(rel, "/"))
		if (d == "judge/") {
			rel = substr(rel, 7)
			d = d substr(rel, 1, index(rel, "/"))
		}
		return d
	}
	function unit_of(path) {
		return dir_of(substr(path, 6))
	}
	# The core layer a unit is or belongs to: "judge/model/" is model/.
	function layer(u) {
		return substr(u, 1, 6) == "judge/" ? substr(u, 7) : u
	}
	function known_unit(u) {
		return substr(u, 1, 6) == "judge/" ? judge && (layer(u) in known) : (u in known)
	}
	# README.md first: the rules of the second block of "Source layout".
	FNR == 1 { readme = FILENAME == "README.md" }
	readme && /^## / { in_sec = ($0 == "## Source layout"); next }
	readme && in_sec && /^```/ { blocks++; next }
	readme && in_sec && blocks == 3 && $1 == "judge/L/" && $2 == "includes" {
		judge = 1
		next
	}
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
		base = layer(unit)
	}
	/^[ \t]*#[ \t]*include[ \t]*"/ && known_unit(unit) {
		inc = $0
		sub(/^[^"]*"/, "", inc)
		sub(/".*/, "", inc)
		if (!index(inc, "/"))
			next
		dir = dir_of(inc)
		if (substr(dir, 1, 6) == "judge/" && unit == base) {
			print FILENAME ": #include \"" inc "\": the core never includes judge/ " \
			      "(README.md, Source layout)"
			bad = 1
			next
		}
		if (layer(dir) == base || (base, layer(dir)) in may)
			next
		print FILENAME ": #include \"" inc "\": " unit " includes only" \
		      (list[base] == "" ? " itself" : list[base]) \
		      (unit == base ? "" : ", of the core or of judge/") " (README.md, Source layout)"
		bad = 1
	}
	END {
		if (!rules)
			exit 2
		# (here, not at a first line: an empty file has none)
		for (i = 2; i < ARGC; i++)
			if (!known_unit(unit_of(ARGV[i]))) {
				print ARGV[i] ": user/" unit_of(ARGV[i]) \
				      " is not in README.md'"'"'s Source layout"
				bad = 1
			}
		exit bad
	}
	' README.md "${files[@]}"
