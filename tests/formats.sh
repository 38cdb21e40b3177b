#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The formats ppbench writes for other systems, each checked against its
# specification as the checks below state it (facts of the published
# specifications, not their code): KTAP, KCIDB v5.0, LKP's stats lines,
# Otava's CSV, Bencher's BMF and the Org table's TBLFM. Sourced by the tests
# that make such output (test_export.sh, test_vm.sh); each check fails the
# test with the reason.

# KTAP version 1 (the kernel's Documentation/dev-tools/ktap.rst): the version line
# "KTAP version 1", the plan "1..N", then results "ok N DESC" / "not ok N DESC", numbered
# from 1 up by one, N of them; a description holds no '#'; after " # " a directive
# (SKIP, TODO, XFAIL, TIMEOUT, ERROR) and its diagnostic text; "# TEXT" lines are
# diagnostics. ppbench writes nothing else, so any other line fails here.
ktap_check() { # file
	awk '
	function bad(m) { print "KTAP: line " NR ": " m ": " $0; err = 1; exit 1 }
	NR == 1 { if ($0 != "KTAP version 1") bad("not the version line"); next }
	NR == 2 { if ($0 !~ /^1\.\.[0-9]+$/) bad("not the plan"); plan = substr($0, 4) + 0; next }
	/^#( |$)/ { next }
	/^(not )?ok / {
		n++
		rest = $0
		sub(/^(not )?ok /, "", rest)
		if (rest !~ ("^" n "( |$)")) bad("result " n " is not numbered " n)
		sub(/^[0-9]+ ?/, "", rest)
		at = index(rest, " # ")
		desc = at ? substr(rest, 1, at - 1) : rest
		dir = at ? substr(rest, at + 3) : ""
		if (desc == "") bad("no description")
		if (index(desc, "#")) bad("a # in the description")
		if (at && dir !~ /^(SKIP|TODO|XFAIL|TIMEOUT|ERROR)( |$)/) bad("no directive after #")
		if (dir ~ /^(TIMEOUT|ERROR)/ && $0 !~ /^not ok/) bad(dir " needs not ok")
		next
	}
	{ bad("neither version, plan, result nor diagnostic") }
	END { if (!err && n != plan) { print "KTAP: " n " results, plan says " plan; exit 1 } }
	' "$1" || { sed 's/^/  /' "$1"; fail "$1 is not KTAP version 1"; }
}

# KCIDB I/O schema v5.0 (kernelci/kcidb-io, kcidb_io/schema/v05_00.py), the objects
# ppbench writes, as this test states them: each object's required fields, the only
# properties it may have (the schema allows no others), their types, patterns and
# enums, the version 5.0, and no null anywhere ("no properties can be null").
KCIDB_V5='
def fail($m): error($m);
def str($where): if type == "string" then . else fail("\($where): not a string") end;
def only($where; $allowed):
	((keys - $allowed) | if length > 0 then fail("\($where): not in the v5 schema: \(.)")
	 else . end) as $_ | .;
def need($where; $required):
	. as $o | ($required | map(select($o[.] == null))) as $m |
	if ($m | length) > 0 then fail("\($where): missing required \($m)") else $o end;
def pattern($where; $re): str($where) | if test($re) then . else fail("\($where): \(.) !~ \($re)") end;
def origin($where): pattern($where; "^[a-z0-9_]+$");
def id($where): pattern($where; "^[a-z0-9_]+:");
def time($where): pattern($where; "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$");
def object($where): if type == "object" then . else fail("\($where): not an object") end;
def opt($k; f): if has($k) then (.[$k] | f) as $_ | . else . end;
def own_id($where): . as $o | if ($o.id | startswith($o.origin + ":")) then . else fail("\($where): id \(.id) is not of origin \(.origin)") end;
def checkout($w): object($w) | need($w; ["id", "origin"]) |
	only($w; ["_timestamp", "id", "origin", "tree_name", "git_repository_url",
		"git_commit_hash", "git_commit_name", "git_commit_tags", "git_commit_message",
		"git_repository_branch", "git_repository_branch_tip", "patchset_files",
		"patchset_hash", "message_id", "comment", "start_time", "log_url", "log_excerpt",
		"valid", "misc"]) |
	(.id | id($w + ".id")) as $_ | (.origin | origin($w + ".origin")) as $_ | own_id($w) |
	opt("comment"; str($w + ".comment")) | opt("start_time"; time($w + ".start_time")) |
	opt("misc"; object($w + ".misc"));
def build($w): object($w) | need($w; ["checkout_id", "id", "origin"]) |
	only($w; ["_timestamp", "checkout_id", "id", "origin", "comment", "start_time", "duration",
		"architecture", "command", "compiler", "input_files", "output_files", "config_name",
		"config_url", "log_url", "log_excerpt", "status", "misc"]) |
	(.id | id($w + ".id")) as $_ | (.checkout_id | id($w + ".checkout_id")) as $_ |
	(.origin | origin($w + ".origin")) as $_ | own_id($w) |
	opt("comment"; str($w + ".comment")) | opt("misc"; object($w + ".misc"));
def status($w): if IN("FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP") then . else fail("\($w): status \(.)") end;
def number($w): object($w) | need($w; ["value"]) | only($w; ["value", "unit", "prefix"]) |
	(if (.value | type) == "number" then . else fail("\($w).value: not a number") end) |
	opt("unit"; str($w + ".unit")) |
	opt("prefix"; if IN("metric", "binary") then . else fail("\($w).prefix") end);
def test_run($w): object($w) | need($w; ["build_id", "id", "origin"]) |
	only($w; ["_timestamp", "build_id", "id", "origin", "environment", "path", "comment",
		"log_url", "log_excerpt", "status", "number", "waived", "start_time", "duration",
		"output_files", "misc"]) |
	(.id | id($w + ".id")) as $_ | (.build_id | id($w + ".build_id")) as $_ |
	(.origin | origin($w + ".origin")) as $_ | own_id($w) |
	opt("path"; pattern($w + ".path"; "^([a-zA-Z0-9_-]+(\\.[a-zA-Z0-9_-]+)*)?$")) |
	opt("status"; status($w)) | opt("number"; number($w + ".number")) |
	opt("comment"; str($w + ".comment")) | opt("start_time"; time($w + ".start_time")) |
	opt("environment"; object($w + ".environment") |
		only($w + ".environment"; ["compatible", "comment", "misc"]) |
		opt("comment"; str($w + ".environment.comment")) |
		opt("misc"; object($w + ".environment.misc"))) |
	opt("misc"; object($w + ".misc"));
object("top") | only("top"; ["version", "checkouts", "builds", "tests", "issues", "incidents"]) |
	need("top"; ["version"]) |
	(.version | object("version") | need("version"; ["major"]) | only("version"; ["major", "minor"]) |
	 if .major != 5 then fail("version.major \(.major), not 5")
	 elif (.minor | type) != "number" or .minor != 0 then fail("version.minor \(.minor), not 0")
	 else . end) as $_ |
	([paths(. == null)] | if length > 0 then fail("null at \(.[0])") else . end) as $_ |
	(.checkouts // [] | to_entries | map(.key as $k | .value | checkout("checkouts[\($k)]"))) as $_ |
	(.builds // [] | to_entries | map(.key as $k | .value | build("builds[\($k)]"))) as $_ |
	(.tests // [] | to_entries | map(.key as $k | .value | test_run("tests[\($k)]"))) as $_ |
	true
'

kcidb_check() { # file
	local out
	out=$(jq -e "$KCIDB_V5" "$1" 2>&1) ||
		{ head -c 1500 "$1"; fail "$1 is not KCIDB v5.0: $out"; }
}

# An LKP parse's stats lines (intel/lkp-tests, doc/add-testcase.md; the issue's rule),
# a profile's rows named as LKP's perf-profile rows, function names as they are.
lkp_check() { # file
	[ -s "$1" ] || fail "$1: no stats lines"
	local bad
	bad=$(grep -vE '^[a-z0-9_.]+(\.perf-profile\.(calltrace|children|self)\.instructions-pp\.[A-Za-z0-9_.-]+)?: -?[0-9.e+-]+$' "$1")
	[ -z "$bad" ] || fail "$1: not LKP stats lines: $(echo "$bad" | head -3)"
}

# Apache Otava's CSV (apache/otava docs/CSV.md and its csv importer): a header row of
# unique column names with the time column ("time") and the attributes; every row with
# a value per column; the time a date-time; every metric cell a number (it reads them
# with float()). Quoted fields ("a,b", "" for a quote) are split as CSV.
otava_check() { # file [metric-column-regex]
	awk -v mre="${2:-_per_elem\$}" '
	function split_csv(s, out,    n, i, c, q, f) {
		n = 0; f = ""; q = 0
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (q && c == "\"" && substr(s, i + 1, 1) == "\"") { f = f c; i++ }
			else if (c == "\"") q = !q
			else if (c == "," && !q) { out[++n] = f; f = "" }
			else f = f c
		}
		out[++n] = f
		return n
	}
	function bad(m) { print "Otava CSV: line " NR ": " m; err = 1; exit 1 }
	NR == 1 {
		nh = split_csv($0, h)
		for (i = 1; i <= nh; i++) {
			if (h[i] in seen) bad("column " h[i] " twice")
			seen[h[i]] = i
			if (h[i] ~ mre) nm++
		}
		if (!("time" in seen)) bad("no time column")
		if (!nm) bad("no metric column")
		next
	}
	{
		n = split_csv($0, v)
		if (n != nh) bad(n " fields, the header has " nh)
		if (v[seen["time"]] !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9](\.[0-9]+)?Z$/)
			bad("time " v[seen["time"]])
		for (i = 1; i <= nh; i++)
			if (h[i] ~ mre && v[i] !~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/)
				bad(h[i] " is not a number: " v[i])
		rows++
	}
	END { if (!err && !rows) { print "Otava CSV: no rows"; exit 1 } }
	' "$1" || { sed 's/^/  /' "$1"; fail "$1 is not Otava's CSV"; }
}

# Bencher Metric Format (bencher.dev, "Bencher Metric Format (BMF)" and its JSON
# schema): an object of benchmarks (non-empty names), each an object of measures
# (names of 1..64 characters), each an object with a number "value" and at most the
# numbers "lower_value" and "upper_value"; here also lower <= value <= upper.
BMF='
type == "object" and length > 0 and
all(to_entries[]; (.key | length) > 0 and (.value | type == "object" and length > 0 and
	all(to_entries[]; (.key | length) >= 1 and (.key | length) <= 64 and
		(.value | type == "object" and has("value") and
		 all(keys[]; IN("value", "lower_value", "upper_value")) and
		 all(.[]; type == "number") and
		 (.lower_value // .value) <= .value and (.upper_value // .value) >= .value))))
'

bmf_check() { # file
	jq -e "$BMF" "$1" >/dev/null || { head -c 1500 "$1"; fail "$1 is not BMF"; }
}

# compare --org: the table's diff and % columns are its #+TBLFM's arithmetic on its own
# before and after columns, to the last printed digit. Its formulas are of two forms,
# $A=$B-$C (%d, or the format after ';') and $A=(($B/$C)*100);FMT: with one column
# $4=$3-$2::$7=$6-$5;%.3f::$8=(($7/$5)*100);%.1f, with more the same per column (Org's
# columns: $1 the name; this awk's fields are one more).
org_check() { # file
	awk -F'|' '
	function t(s) { gsub(/^ +| +$/, "", s); return s }
	function bad(m) { print m; err = 1; exit 1 }
	FNR == NR {
		if ($0 !~ /^#\+TBLFM: /) next
		nf = split(substr($0, 10), f, "::")
		for (i = 1; i <= nf; i++) {
			fmt[i] = "%d"
			if (split(f[i], p, ";") == 2) { f[i] = p[1]; fmt[i] = p[2] }
			if (match(f[i], /^\$[0-9]+=\$[0-9]+-\$[0-9]+$/)) op[i] = "-"
			else if (match(f[i], /^\$[0-9]+=\(\(\$[0-9]+\/\$[0-9]+\)\*100\)$/)) op[i] = "%"
			else bad("not a formula this check computes: " f[i])
			split(f[i], c, /[^0-9]+/)
			dst[i] = c[2] + 1; a[i] = c[3] + 1; b[i] = c[4] + 1
		}
		next
	}
	/^\|-/ { body = 1; next }
	/^#\+TBLFM/ { body = 0 }
	body && /^\|/ {
		rows++
		for (i = 1; i <= nf; i++) {
			v = op[i] == "-" ? t($a[i]) - t($b[i]) : t($a[i]) / t($b[i]) * 100
			if (t($dst[i]) != sprintf(fmt[i], v)) bad("$" dst[i] - 1 " is not " f[i] ": " $0)
		}
	}
	END { if (!err && !nf) print "no #+TBLFM line"; if (!err && !rows) print "no rows"
	      exit err || !nf || !rows }
	' "$1" "$1" || { cat "$1"; fail "$1: a diff or % is not the TBLFM's arithmetic"; }
}
