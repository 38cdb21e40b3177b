#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ppbench plot --flame: flame graphs of the folded stacks of the profile
# fixtures (tests/data/prof-{old,new}.SCENARIO.folded, beside their result
# files, as test_profile_fixtures_current makes them), as a plain picture
# (rsvg) and in a real browser (Debian's chromium, driven by tests/browser/
# flame.js through npm's playwright-core, both from scripts/install-deps.sh
# --tests). No BPF here.

DATA=$TOP/tests/data
NPM_DIR=${PPBENCH_NPM_DIR:-/var/cache/ppbench-npm}

need_png_check() {
	[ -x "$TOP/build/tests/png_check" ] || make -s -C "$TOP" build/tests/png_check >/dev/null ||
		fail "cannot build build/tests/png_check"
}

# The frame of SVG whose function is NAME (the first such): "X Y WIDTH FILL LABEL".
svg_frame() { # svg name
	awk -v n="$2" 'index($0, "<g class=\"f\" data-n=\"" n "\">") == 1 {
		match($0, /<rect x="[^"]*" y="[^"]*" width="[^"]*"/)
		split(substr($0, RSTART, RLENGTH), a, "\"")
		match($0, /fill="[^"]*"/); f = substr($0, RSTART + 6, RLENGTH - 7)
		match($0, /<text [^>]*>[^<]*</); t = substr($0, RSTART, RLENGTH - 1); sub(/<text [^>]*>/, "", t)
		print a[2], a[4], a[6], f, t; exit }' "$1"
}

# "rgb(255,40,40)" -> "ff2828"
hex() { echo "$1" | awk -F'[(),]' '{ printf "%02x%02x%02x\n", $2, $3, $4 }'; }

# Every frame of SVG but the root stands on one below it, within its width,
# and no two frames of a row overlap: the frames that do not, "X Y".
misplaced() { # svg
	awk '/^<g class="f"/ { match($0, /<rect x="[^"]*" y="[^"]*" width="[^"]*"/)
		split(substr($0, RSTART, RLENGTH), a, "\""); n++; x[n] = a[2]; y[n] = a[4]; w[n] = a[6] }
	END { for (i = 1; i <= n; i++) { on = i == 1
		for (j = 1; j <= n; j++) {
			if (y[j] == y[i] + 16 && x[j] <= x[i] + 0.02 && x[i] + w[i] <= x[j] + w[j] + 0.02)
				on = 1
			if (j != i && y[j] == y[i] && x[j] < x[i] + w[i] - 0.02 && x[i] < x[j] + w[j] - 0.02)
				on = 0
		}
		if (!on) print x[i], y[i] } }' "$1"
}

# One file: a frame per path of the folded stacks, each as wide as its
# instructions with all it calls, every frame drawn with its label clipped to
# its width; the plain picture shows them without the script.
test_flame_one_file() {
	local f=$DATA/prof-new.ring.folded svg=$TMPD/f.svg n x y w fill
	need_png_check
	command -v rsvg-convert >/dev/null || unavailable "rsvg-convert missing (scripts/install-deps.sh --tests)"
	expect_exit 0 "$PPBENCH" plot --flame "$f" -o "$svg"
	n=$(awk '{ sub(/ [0-9.]+$/, ""); k = ""; c = split($0, a, ";")
		for (i = 1; i <= c; i++) { k = k ";" a[i]; p[k] = 1 } } END { print length(p) + 1 }' "$f")
	assert_eq "$(grep -c '^<g class="f"' "$svg")" "$n" "a frame per path, and all"
	assert_eq "$(misplaced "$svg")" "" "each frame on its caller"
	assert_eq "$(svg_frame "$svg" all)" "10.00 182 1180.00 $(svg_frame "$svg" all | cut -d' ' -f4) all" \
		"all: the whole width, at the bottom"
	read -r x y w fill _ <<<"$(svg_frame "$svg" page_pool_put_unrefed_netmem)"
	assert_eq "$w" "$(awk 'BEGIN { printf "%.2f", 1180 * 112030 / 317880 }')" \
		"a frame's width: its instructions with all it calls"
	assert_match "$svg" '<title>page_pool_put_unrefed_netmem: 112030 instructions \(35\.24 %\), self 93030</title>' \
		"its tooltip"
	# every label fits its frame: all of the name, or its start and "..", or nothing
	awk '/^<g class="f"/ { match($0, /data-n="[^"]*"/); nm = substr($0, RSTART + 8, RLENGTH - 9)
		match($0, /width="[^"]*"/); w = substr($0, RSTART + 7, RLENGTH - 8)
		match($0, /<text [^>]*>[^<]*</); t = substr($0, RSTART, RLENGTH - 1); sub(/<text [^>]*>/, "", t)
		if (length(t) * 6.6 > w - 6 + 1e-6 || (t != nm && t != "" &&
		    (t !~ /\.\.$/ || index(nm, substr(t, 1, length(t) - 2)) != 1))) { print nm ": " t; bad = 1 }
		cut += t != nm; whole += t == nm }
		END { exit bad || !cut || !whole }' "$svg" || fail "a label wider than its frame, or none clipped"
	rsvg-convert -o "$TMPD/f.png" "$svg" || fail "rsvg-convert cannot render it"
	"$TOP/build/tests/png_check" "$TMPD/f.png" --at "$(awk -v x="$x" -v w="$w" 'BEGIN {
		printf "%d", x + w / 2 }'),$((y + 7))=$(hex "$fill")" || fail "the plain picture has no frame there"
}

# Two files: the widths are the new file's, the colour the change of a frame's
# own instructions (red more, blue fewer; the largest the deepest); of result
# files, per element.
test_flame_differential() {
	local old=$DATA/prof-old.json new=$DATA/prof-new.json svg=$TMPD/d.svg
	need_png_check
	command -v rsvg-convert >/dev/null || unavailable "rsvg-convert missing (scripts/install-deps.sh --tests)"
	expect_exit 0 "$PPBENCH" plot --flame "$old" "$new" --scenario ring -o "$svg"
	assert_match "$svg" '>Differential flame graph: prof-old ring to prof-new ring<' "the title"
	assert_match "$svg" '>300\.88 to 317\.88 instr/elem \(\+17\.00\); ' "the subtitle: per element"
	assert_eq "$(svg_frame "$svg" page_pool_put_unrefed_netmem | cut -d' ' -f3,4)" \
		"$(awk 'BEGIN { printf "%.2f", 1180 * 112.03 / 317.88 }') rgb(255,40,40)" \
		"+12 of its own, the most: the deepest red, as wide as new has it"
	assert_eq "$(svg_frame "$svg" page_pool_dma_sync_for_device | cut -d' ' -f4)" "rgb(255,154,154)" \
		"+5: red in proportion"
	assert_eq "$(svg_frame "$svg" __xdp_return | cut -d' ' -f4)" "rgb(235,235,235)" "unchanged: grey"
	assert_match "$svg" '<title>page_pool_put_unrefed_netmem: 112\.03 instr/elem \(\+17\.00, was 95\.03\), self 93\.03 \(\+12\.00\)</title>' \
		"its tooltip"
	rsvg-convert -o "$TMPD/d.png" "$svg" || fail "rsvg-convert cannot render it"
	"$TOP/build/tests/png_check" "$TMPD/d.png" --color ff2828 || fail "the plain picture misses the red frame"
	# the other way: fewer is blue, and what the new side lacks has no frame
	expect_exit 0 "$PPBENCH" plot --flame "$new" "$old" --scenario ring -o "$svg"
	assert_eq "$(svg_frame "$svg" page_pool_put_unrefed_netmem | cut -d' ' -f4)" "rgb(40,40,255)" "blue"
	! grep -q 'data-n="page_pool_dma_sync_for_device"' "$svg" || fail "a frame of no width"
	# folded stacks of two files: their counts
	expect_exit 0 "$PPBENCH" plot --flame -l 6.12 "$DATA/prof-old.slow.folded" -l 7.3 \
		"$DATA/prof-new.slow.folded" -o "$svg"
	assert_match "$svg" '>Differential flame graph: 6\.12 to 7\.3<' "--label names them"
	assert_match "$svg" '<title>ppb_burn: 53000 instructions \(\+53000, was 0\), self 53000 \(\+53000\)</title>' \
		"counts, not per element"
	assert_eq "$(svg_frame "$svg" ppb_burn | cut -d' ' -f4)" "rgb(255,40,40)" "the planted program: red"
	assert_eq "$(misplaced "$svg")" "" "each frame on its caller, placed by the new side's widths"
}

# Bad input: one line, exit 2, no file.
test_flame_refuses() {
	local o=$TMPD/x.svg
	expect_exit 2 "$PPBENCH" plot --flame "$DATA/prof-old.ring.folded" "$DATA/prof-new.ring.folded" \
		"$DATA/prof-new.slow.folded" -o "$o"
	expect_one_line_error "--flame draws one file, or two for a differential graph"
	expect_exit 2 "$PPBENCH" plot --flame "$DATA/prof-old.json" "$DATA/prof-new.ring.folded" -o "$o"
	expect_one_line_error "give two result files \(per element\) or two folded stacks"
	expect_exit 2 "$PPBENCH" plot --flame "$DATA/prof-old.json" -o "$o"
	expect_one_line_error "prof-old\.json: ring and fast have call graphs: choose one with --scenario"
	expect_exit 2 "$PPBENCH" plot --flame --scenario ring,slow "$DATA/prof-old.json" -o "$o"
	expect_one_line_error "--flame draws one scenario"
	expect_exit 2 "$PPBENCH" plot --flame "$DATA/icount.json" -o "$o"
	expect_one_line_error "icount\.json: no scenario has a call graph"
	printf 'a;b 3\na;b;c\n' >"$TMPD/bad.folded"
	expect_exit 2 "$PPBENCH" plot --flame "$TMPD/bad.folded" -o "$o"
	expect_one_line_error "bad\.folded:2: expected 'frame;frame;\.\.\. count'"
	expect_exit 2 "$PPBENCH" plot --flame "$TMPD/none.folded" -o "$o"
	expect_one_line_error "none\.folded: No such file"
	expect_exit 2 "$PPBENCH" plot --flame --profile "$DATA/prof-old.ring.folded" -o "$o"
	expect_one_line_error "no --metric or --profile"
	[ ! -e "$o" ] || fail "a refused flame graph left a file"
}

# In a real browser: the differential graph and a plain one, each loaded,
# clicked, searched with Ctrl-F and reset (tests/browser/flame.js); the test
# reads the frames' places from the page and the pixels from its screenshots.
test_flame_in_a_browser() {
	local b=$TMPD/b.json d=$TMPD/d.json f=$TMPD/f.json shots=$TMPD/shots x y w share
	[ -x /usr/bin/chromium ] || unavailable "no /usr/bin/chromium (scripts/install-deps.sh --tests)"
	command -v node >/dev/null || unavailable "no node (scripts/install-deps.sh --tests)"
	[ -d "$NPM_DIR/node_modules/playwright-core" ] ||
		unavailable "no playwright-core in $NPM_DIR (scripts/install-deps.sh --tests)"
	need_png_check
	mkdir -p "$shots"
	expect_exit 0 "$PPBENCH" plot --flame "$DATA/prof-old.json" "$DATA/prof-new.json" -s ring \
		-o "$TMPD/d.svg"
	expect_exit 0 "$PPBENCH" plot --flame "$DATA/prof-new.slow.folded" -o "$TMPD/f.svg"
	NODE_PATH=$NPM_DIR/node_modules timeout 60 node "$TOP/tests/browser/flame.js" "$shots" \
		"$TMPD/d.svg" page_pool_put_unrefed_netmem page_pool \
		"$TMPD/f.svg" alloc_pages_bulk_noprof '^__' >"$b" 2>"$TMPD/b.err" ||
		fail "the browser: $(cat "$TMPD/b.err")"
	assert_eq "$(wc -l <"$b")" 2 "a line per graph"
	sed -n 1p "$b" >"$d"
	sed -n 2p "$b" >"$f"
	# loaded: the frame where the SVG puts it, in its colour on the screenshot
	read -r x y w <<<"$(jq -r '.steps[0][] |
		select(.n == "page_pool_put_unrefed_netmem") | "\(.x) \(.y) \(.w)"' "$d")"
	"$TOP/build/tests/png_check" "$shots/0-0.png" \
		--at "$(awk -v x="$x" -v w="$w" 'BEGIN { printf "%d", x + w / 2 }'),$((y + 7))=ff2828" \
		--at "11,$((y + 7))=f6f6f0" || fail "the loaded graph: not the red frame at its place"
	# zoomed: the clicked frame fills the width, the frames below it stay as wide,
	# those beside it go, those above it widen with it
	jq -e --argjson w0 "$w" '.steps as $s |
		($s[1][] | select(.n == "page_pool_put_unrefed_netmem") | .x == 10 and .w == 1180 and .shown) and
		([$s[1][] | select(.n == "__xdp_return" or .n == "xdp_return_buff" or .n == "all")] |
			length == 3 and all(.w == 1180 and .shown)) and
		($s[1][] | select(.n == "page_pool_alloc_netmems") | .shown | not) and
		([$s[0][], $s[1][]] | map(select(.n == "_raw_spin_lock")) |
			(.[1].w - .[0].w * 1180 / $w0 | fabs) < 0.05 and .[1].shown)' "$d" >/dev/null ||
		fail "the zoom: $(jq -c '.steps[1] | map({n, x, w, shown})' "$d" | head -c 1500)"
	"$TOP/build/tests/png_check" "$shots/0-1.png" --at "11,$((y + 7))=ff2828" ||
		fail "the zoomed screenshot: the clicked frame not at the left edge"
	# searched: the frames that match painted, and their share of the whole, each
	# instruction once (the folded stacks' lines with a page_pool frame)
	share=$(awk '{ n = $NF; all += n; sub(/ [0-9]+$/, "") } /page_pool/ { hit += n }
		END { printf "%.1f", 100 * hit / all }' "$DATA/prof-new.ring.folded")
	assert_eq "$(jq -r .matched "$d")" "Matched: $share %" \
		"the matched share"
	jq -e '.steps[2] | all(.[]; (.n | test("page_pool")) == (.fill == "rgb(230,0,230)"))' "$d" \
		>/dev/null ||
		fail "the search painted other frames than page_pool's"
	"$TOP/build/tests/png_check" "$shots/0-2.png" --at "11,$((y + 7))=e600e6" ||
		fail "the searched screenshot: no painted frame"
	# reset: every frame back in its place
	jq -e '[.steps[0][] | [.x, .w]] == [.steps[3][] | [.x, .w]] and all(.steps[3][]; .shown)' \
		"$d" >/dev/null || fail "the reset"
	# the plain graph: its own colours, zoom and search alike
	read -r x y w <<<"$(jq -r '.steps[1][] | select(.n == "alloc_pages_bulk_noprof") |
		"\(.x) \(.y) \(.w)"' "$f")"
	assert_eq "$x $w" "10 1180" "the plain graph: the clicked frame fills the width"
	"$TOP/build/tests/png_check" "$shots/1-1.png" --at "11,$((y + 7))=$(hex "$(jq -r '.steps[1][] |
		select(.n == "alloc_pages_bulk_noprof") | .fill' "$f")")" ||
		fail "the plain graph's zoomed screenshot"
	share=$(awk '{ n = $NF; all += n; sub(/ [0-9]+$/, "") } /(^|;)__/ { hit += n }
		END { printf "%.1f", 100 * hit / all }' "$DATA/prof-new.slow.folded")
	assert_eq "$(jq -r .matched "$f")" "Matched: $share %" \
		"the plain graph's matched share"
}
