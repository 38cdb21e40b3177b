# SPDX-License-Identifier: GPL-2.0
#
# bench --counters in the guests (busybox sh). Under TCG x86-64 has no PMU;
# arm64 under the instruction clock has one: qemu emulates PMUv3's
# instructions event when icount is exact (shift=0), so there the CPU's
# counters and the clock count the same instructions and can be held against
# each other.

# --counters asks for the CPU's counters: where there are none, one line and
# exit 2, before anything runs; where there are, kernel instructions per
# element agree with the clock's figure within 1 % for ring and fast, whose
# syscalls hold 250 000 and 12 500 frames (the syscall's own setup and
# teardown, which only the counters see, is then a small share).
test_counters_against_clock() {
	"$PPBENCH" bench --scenario ring,fast --repeat 1 --counters instructions --json b.json \
		>out.txt 2>err.txt
	rc=$?
	if [ $rc -eq 2 ]; then
		cat err.txt
		[ "$(wc -l <err.txt)" -eq 1 ] || fail "more than one line for a missing PMU"
		grep -q 'counters: ' err.txt || fail "the line does not name --counters: $(cat err.txt)"
		[ ! -s out.txt ] || fail "bench ran (printed) although it refused: $(head -n 2 out.txt)"
		if [ "$(uname -m)" = aarch64 ] && grep -q 'ppbench.clock=icount' /proc/cmdline; then
			fail "arm64 under the instruction clock has a PMU: $(cat err.txt)"
		fi
		note "no PMU here: $(cat err.txt)"
		return 0
	fi
	cat out.txt err.txt
	[ $rc -eq 0 ] || fail "bench --counters exited $rc"
	grep -q 'kernel ins' out.txt || fail "no counters table in the output"
	for s in ring fast; do
		k=$(jq -r ".scenarios[] | select(.name == \"$s\") | .counters.kernel_instructions.median" b.json)
		c=$(jq -r ".scenarios[] | select(.name == \"$s\") | .cycles_per_elem.median" b.json)
		is_number "$k" || fail "$s: no kernel_instructions per element in the JSON ($k)"
		awk -v k="$k" -v c="$c" 'BEGIN { d = (k - c) / c; exit !(d > -0.01 && d < 0.01) }' ||
			fail "$s: kernel instructions $k per element, the clock's $c: more than 1 % apart"
		note "$s: kernel instructions $k per element, the clock's figure $c"
	done
}
