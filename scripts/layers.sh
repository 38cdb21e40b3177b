#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# layers.sh BUILD 'UNIT:DEP,DEP ...' OBJ...: the objects (of BUILD/user/) against the
# layers the Makefile states (LAYERS). A unit is a directory of user/ (".":
# the files at its top); each may include the headers of, and call the
# functions and data of, only itself and the units it names. The includes come
# from each object's dependency file (-MMD), the calls from its undefined
# symbols (nm) against where they are defined. Prints a line per crossing and
# exits 1 if there is any.
set -eu
BUILD=$1
RULES=$2
shift 2
objs=("$@")
{
	printf 'R %s\n' $RULES
	# dependency files: "OBJ: SRC HDR ...", continued with backslashes
	for o in "${objs[@]}"; do printf 'F %s\n' "${o%.o}.d"; done
	"${NM:-nm}" -A "${objs[@]}" | sed "s|^$BUILD/||"
} | awk -v build="$BUILD/" '
	function unit(p, n, a) {
		sub(/^user\//, "", p)
		n = split(p, a, "/")
		return n == 1 ? "." : n == 2 ? a[1] : a[1] "/" a[2]
	}
	function ok(u, v) { return u == v || ((u, v) in may) }
	function crossing(msg) { print msg " (Makefile, LAYERS)"; bad = 1 }
	$1 == "R" {
		split($2, a, ":")
		m = split(a[2], d, ",")
		for (i = 1; i <= m; i++)
			may[a[1], d[i]] = 1
		next
	}
	$1 == "F" {
		obj = substr($2, length(build) + 1)
		sub(/\.d$/, ".o", obj)
		while ((getline line < $2) > 0) {
			n = split(line, w, /[ \t\\]+/)
			for (i = 1; i <= n; i++)
				if (w[i] ~ /^user\/.*\.h$/ && !ok(unit(obj), unit(w[i])))
					crossing(obj ": includes " w[i] ": " unit(obj) " may not include " unit(w[i]))
		}
		close($2)
		next
	}
	# nm -A: "OBJ:VALUE TYPE NAME", "OBJ: U NAME"
	{
		obj = $1
		sub(/:.*/, "", obj)
		if ($2 == "U")
			use[++nu] = obj " " $3
		else if ($2 ~ /^[TDRB]$/)
			def[$3] = unit(obj)
	}
	END {
		for (i = 1; i <= nu; i++) {
			split(use[i], a, " ")
			if ((a[2] in def) && !ok(unit(a[1]), def[a[2]]))
				crossing(a[1] ": calls " a[2] " of " def[a[2]] ": " unit(a[1]) " may not call " def[a[2]])
		}
		exit bad
	}'
