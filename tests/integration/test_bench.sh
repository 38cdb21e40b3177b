#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ppbench bench: recipe choice, purity, output formats and schema - exactness
# and shape only. No speed is asserted here (that is make bench's job).

# What must hold for ring-xcpu's purity whatever the timing: nothing
# recycles directly across CPUs, the shares are the proof run's counts, and
# a figure that mixes paths carries the warning. The share itself is a
# timing: while the producer is off its CPU the consumer returns up to the
# pacing limit (1024 frames) into a ring of 256, releases the rest, and the
# producer allocates them again from the page allocator. Quiet, the proof
# shows 97.8-99.7 %; beside the suite's own qemu guests a CI run saw 94.7 %.
check_xcpu_purity() {
	local sel='.scenarios[] | select(.name == "ring-xcpu")' p
	p=$(jq_get "$1" "$sel | .purity")
	echo "ring-xcpu purity $p"
	# (the one exception: frames a full cpumap queue drops, on the producer CPU)
	jq -e "$sel | .path.ret.cache <= .cpumap_drops" "$1" >/dev/null ||
		fail "ring-xcpu direct returns $(jq_get "$1" "$sel | .path.ret.cache") > cpumap drops"
	jq -e "$sel | (.path.alloc.refill_pages / .proof_elems | if . > 1 then 1 else . end)
		as \$a | (.purity_alloc - \$a | fabs < 0.001) and
		.purity == ([.purity_alloc, .purity_ret] | min)" "$1" >/dev/null ||
		fail "ring-xcpu purity $p is not the share of its proof counts"
	if jq -e "$sel | .purity < 0.95" "$1" >/dev/null; then
		grep -q 'WARNING: purity below 95%: the figure mixes paths' "$2" ||
			fail "ring-xcpu purity $p below 95 % without a warning"
	fi
}

test_bench_all_scenarios_short() {
	needs_host live-frames
	local j=$TMPD/b.json
	# 100k elements: ring-xcpu's proof then spans ~15 ms, so the pool's first
	# fill weighs little in its purity.
	expect_exit 0 "$PPBENCH" bench --loops 100000 --repeat 3 --json "$j"
	local out=$LAST_OUT n w
	# the kselftest's grep finds one time_bench line per scenario that ran
	n=$(grep -cE 'Per elem: [0-9]+ cycles\(tsc\) [0-9.]+ ns' "$out")
	assert_eq "$n" "$(jq '[.scenarios[] | select(.status == "ok")] | length' "$j")" \
		"time_bench lines"
	for s in ring ring_xcpu fast slow; do
		grep -qE "^Type:ppbench_$s Per elem: [0-9]+ cycles\(tsc\) [0-9]+\.[0-9]{3} ns \(step:0\) - \(measurement period time:[0-9]+\.[0-9]{9} sec time_interval:[0-9]+\) - \(invoke count:[0-9]+ tsc_interval:[0-9]+\)$" \
			"$out" || fail "no exact time_bench line for $s"
	done
	"$TOP/build/tests/schema_check" "$j" || fail "JSON does not validate against ppbench/1"
	for s in ring ring-xcpu fast slow; do
		local sel=".scenarios[] | select(.name == \"$s\")"
		assert_eq "$(jq_get "$j" "$sel | .status")" ok "$s ran"
		assert_eq "$(jq_get "$j" "$sel | .cycles_per_elem.runs | length")" 3 "$s repetitions"
		assert_eq "$(jq_get "$j" "$sel | .repeat")" 3 "$s repeat field"
		[ "$s" = ring-xcpu ] || jq -e "$sel | .purity >= 0.95" "$j" >/dev/null ||
			fail "$s purity $(jq "$sel | .purity" "$j") below 95 %"
		jq -e "$sel | .cycles_per_elem.median > 0 and .ns_per_elem.median > 0" "$j" \
			>/dev/null || fail "$s has no positive figures"
		jq -e "$sel | .path_cost_cycles.method | length > 10" "$j" >/dev/null ||
			fail "$s names no path-figure method"
	done
	# the recipes this kernel is known to need (6.12+; ppbench-bench(8), "Scenarios")
	assert_match "$(jq_get "$j" '.scenarios[] | select(.name == "ring") | .recipe')" \
		'^lf-drop;' "ring recipe"
	assert_match "$(jq_get "$j" '.scenarios[] | select(.name == "fast") | .recipe')" \
		'^lf-fastpass;' "fast recipe"
	# without fentry fast's path figure is its difference to the twin, named
	if [ "$(jq -r .host.fentry "$j")" = false ]; then
		jq -e '.scenarios[] | select(.name == "fast") | .path_cost_cycles |
			(.value | type) == "number" and (.method | test("twin lf-fastpass-twin"))' \
			"$j" >/dev/null || fail "fast has no twin path figure: $(jq -c \
			'.scenarios[] | select(.name == "fast") | .path_cost_cycles' "$j")"
	fi
	# (a failure names the proof runs tried, so a rare one says which and why)
	assert_match "$(jq_get "$j" '.scenarios[] | select(.name == "slow") | .recipe')" \
		'batch 1, 64 frames/syscall' "slow recipe (proofs tried: $(jq -c \
		'.scenarios[] | select(.name == "slow") | [.proof_tried, .path]' "$j"))"
	# ring-xcpu: producer and consumer CPUs, and their sum is the figure
	jq -e '.scenarios[] | select(.name == "ring-xcpu") | .per_cpu | length == 2 and
		.[0].role == "producer" and .[1].role == "consumer" and .[0].cpu != .[1].cpu' \
		"$j" >/dev/null || fail "ring-xcpu per-CPU figures"
	# paced: every frame of every timed run reached the consumer, and the
	# producer's wait is a figure, the one the pacing line prints
	jq -e '.scenarios[] | select(.name == "ring-xcpu") | .per_cpu[1].delivered_share == 1 and
		(.per_cpu[0].waited_ns_per_elem | type) == "number"' "$j" >/dev/null ||
		fail "ring-xcpu pacing: $(jq -c '.scenarios[] | select(.name == "ring-xcpu") |
			[.per_cpu[0].waited_ns_per_elem, .per_cpu[1].delivered_share]' "$j")"
	w=$(sed -nE 's/^  pacing: the producer waited for the consumer up to ([0-9.]+) ns.*/\1/p' "$out")
	jq -e --argjson w "${w:-null}" '.scenarios[] | select(.name == "ring-xcpu") |
		$w != null and (.per_cpu[0].waited_ns_per_elem - $w | fabs) <= 0.0501' "$j" >/dev/null ||
		fail "the pacing line's wait '$w' is not the JSON's $(jq '.scenarios[] |
			select(.name == "ring-xcpu") | .per_cpu[0].waited_ns_per_elem' "$j")"
	jq -e '.scenarios[] | select(.name == "ring-xcpu") |
		(.per_cpu[0].cycles_per_elem.runs[0] + .per_cpu[1].cycles_per_elem.runs[0] -
		 .cycles_per_elem.runs[0]) | fabs < 0.01' "$j" >/dev/null ||
		fail "ring-xcpu figure is not producer + consumer"
	check_xcpu_purity "$j" "$out"
	# host metadata for comparisons
	jq -e '.host | (.tsc_hz > 0) and (.kernel | length > 0) and (.mitigations | type ==
		"object") and (.config | type == "object")' "$j" >/dev/null || fail "host metadata"
	assert_match "$out" '^scenario +cycles/el +ns/elem' "summary table"
	awk 'length > 100 && !/^Type:/ && !/^  / { exit 1 }' "$out" ||
		fail "a summary line is wider than 100 columns"
}

test_bench_proof_counts_in_output() {
	needs_host live-frames
	expect_exit 0 "$PPBENCH" bench --scenario ring --loops 100000 --repeat 1
	assert_match "$LAST_OUT" 'proof \((tracepoint|fentry) backend, 100000 elements\): alloc cache [0-9]+ refill [0-9]+ slow 1 \(64 pages\) \| ret cache 0 ring 100000 release 0' \
		"ring proof counts"
	assert_match "$LAST_OUT" '^  recipe: lf-drop; ' "recipe printed"
}

# Another tool's page_pool probes perturb the figures: bench says so, and
# does not count its own programs.
test_bench_foreign_probes() {
	needs_host live-frames
	local j=$TMPD/b.json out=$TMPD/w.out
	expect_exit 0 "$PPBENCH" bench --scenario ring --loops 20000 --repeat 1 --json "$j"
	assert_eq "$(jq_get "$j" '.scenarios[0].foreign_probes')" 0 "alone: no foreign probes"
	"$PPBENCH" watch --interval 0.5 >"$out" 2>&1 &
	local pid=$!
	wait_for_output "$out" '^time ' 5
	expect_exit 0 "$PPBENCH" bench --scenario ring --loops 20000 --repeat 1 --json "$j"
	kill -INT $pid
	wait $pid
	assert_ge "$(jq_get "$j" '.scenarios[0].foreign_probes')" 1 "with watch running"
	assert_match "$LAST_OUT" 'WARNING: [0-9]+ other BPF programs? (is|are) attached' "warning"
}

# ring-xcpu's consumer, the cpumap kthread, runs at SCHED_FIFO while bench
# needs it, and the recipe says so; without CAP_SYS_NICE bench warns and
# runs it as it is.
test_bench_xcpu_consumer_fifo() {
	needs_host live-frames
	[ "$(nproc)" -ge 2 ] || skip "ring-xcpu needs 2 CPUs"
	local j=$TMPD/b.json seen=$TMPD/ps.out
	"$PPBENCH" bench --scenario ring-xcpu --loops 1000000 --repeat 5 --json "$j" \
		>"$TMPD/b.out" 2>&1 &
	local pid=$!
	while kill -0 $pid 2>/dev/null; do
		ps -eo cls=,comm= | grep -E 'cpumap/[0-9]+/map:' >>"$seen"
		sleep 0.02
	done
	wait $pid || fail "bench exited $?"
	grep -q . "$seen" || fail "no cpumap kthread seen during the run"
	# Created normal, boosted right after (before the first frame): a kthread
	# once seen at FF must stay there.
	awk '$1 == "FF" { ff[$2] = 1; n++ } $1 != "FF" && ff[$2] { bad = 1 }
		END { exit !(n > 0 && !bad) }' "$seen" ||
		fail "cpumap kthread classes seen: $(sort "$seen" | uniq -c | tr '\n' ' ')"
	assert_match "$(jq_get "$j" '.scenarios[0].recipe')" \
		'cpumap on CPU [0-9]+ \(kthread at SCHED_FIFO 1\)$' "recipe"
	# Unboosted, with a busy loop beside the consumer: the purity usually
	# falls below 95 % (the best recipe is kept, with a warning; below 50 %
	# the scenario is skipped); either way the figures are the proof run's.
	local rcpu out=$TMPD/u.out err=$TMPD/u.err rc
	rcpu=$(jq_get "$j" '.scenarios[0].cpus[1]')
	nice -n 5 taskset -c "$rcpu" sh -c 'while :; do :; done' &
	local busy=$!
	setpriv --bounding-set=-sys_nice "$PPBENCH" bench --scenario ring-xcpu --loops 20000 \
		--repeat 1 --json "$j" >"$out" 2>"$err"
	rc=$?
	kill $busy
	assert_match "$err" '^ppbench bench: warning: cannot run the cpumap kthread of CPU [0-9]+ at SCHED_FIFO \(Operation not permitted\)' "warning"
	if [ $rc = 1 ]; then
		assert_match "$(jq_get "$j" '.scenarios[0].reason')" \
			'^no recipe puts its elements on this path here \(purity: xcpu [0-9]+%\)$' \
			"reason of the skip"
		return 0
	fi
	assert_eq $rc 0 "bench exit code"
	assert_match "$(jq_get "$j" '.scenarios[0].recipe')" 'cpumap on CPU [0-9]+$' \
		"recipe without CAP_SYS_NICE"
	check_xcpu_purity "$j" "$out"
}

# Interrupted mid-run: nothing of the private environment may remain.
check_bench_signal() { # SIG
	local out=$TMPD/b.out ns
	# A background job of a script starts with SIGINT ignored: give it back
	# its default, as an interactive Ctrl-C would have it.
	env --default-signal=INT "$PPBENCH" bench --scenario fast --loops 2000000 --repeat 50 \
		>"$out" 2>&1 &
	local pid=$!
	for _ in $(seq 100); do
		ns=$(ls -l /proc/$pid/fd 2>/dev/null | grep -o 'net:\[[0-9]*\]' | grep -o '[0-9]*' |
			sort -u | grep -v "^$(netns_of $$)$" | head -1)
		[ -n "$ns" ] && break
		sleep 0.1
	done
	[ -n "$ns" ] || fail "bench did not create its namespaces"
	sleep 1
	kill -"$1" $pid
	wait $pid
	assert_netns_gone "$ns" "bench after SIG$1"
}

test_bench_sigint_cleans_up() {
	check_bench_signal INT
}

test_bench_sigterm_cleans_up() {
	check_bench_signal TERM
}

test_bench_bad_input() {
	expect_exit 2 "$PPBENCH" bench --scenario ring,warp
	expect_one_line_error "unknown scenario 'warp'"
	expect_exit 2 "$PPBENCH" bench --repeat 0
	expect_one_line_error "--repeat 0 is out of range"
	expect_exit 2 "$PPBENCH" bench --loops 999
	expect_one_line_error "--loops 999 is out of range"
	expect_exit 2 "$PPBENCH" bench --loops 100000000000
	expect_one_line_error "--loops 100000000000 is out of range"
	expect_exit 2 "$PPBENCH" bench --loops slow=999
	expect_one_line_error "--loops slow=999 is out of range"
	expect_exit 2 "$PPBENCH" bench --loops warp=5000
	expect_one_line_error "--loops: unknown scenario 'warp'"
	expect_exit 2 "$PPBENCH" bench --loops ring=5000,7000
	expect_one_line_error "--loops: '7000' is not SCENARIO=N"
	expect_exit 2 "$PPBENCH" bench --cpu 4096
	expect_one_line_error "--cpu 4096 is out of range"
	expect_exit 2 "$PPBENCH" bench --batch 257
	expect_one_line_error "--batch 257 is out of range"
	expect_exit 2 "$PPBENCH" bench --iface nosuchif0
	expect_one_line_error "interface 'nosuchif0' does not exist"
	expect_exit 2 "$PPBENCH" bench --json /nonexistent-dir/b.json
	expect_one_line_error "cannot write"
	expect_exit 2 "$PPBENCH" bench extra
	expect_one_line_error "unexpected argument 'extra'"
}

# --upstream-module: bad input before anything runs; a module the kernel will
# not load (random bytes: no kernel takes them, and this one may take no
# module at all) is the scenario's failed cross-check, with the kernel's
# reason, and the scenario's own figure stands.
test_bench_upstream_module() {
	needs_host live-frames
	local j=$TMPD/b.json ko=$TMPD/x.ko
	expect_exit 2 "$PPBENCH" bench --upstream-module "$TMPD/none.ko"
	expect_one_line_error "--upstream-module $TMPD/none.ko: No such file or directory"
	expect_exit 2 "$PPBENCH" bench --upstream-module "$TMPD"
	expect_one_line_error "--upstream-module $TMPD: not a file"
	head -c 3000 /dev/urandom >"$ko"
	expect_exit 2 "$PPBENCH" bench --scenario ring-xcpu --upstream-module "$ko"
	expect_one_line_error "--upstream-module: no scenario to set it beside"
	# (--loops SCENARIO=N: that scenario's elements; the module's are its own)
	expect_exit 0 "$PPBENCH" bench --scenario ring --repeat 1 --loops slow=2000,ring=6000 \
		--upstream-module "$ko" --json "$j"
	assert_match "$LAST_OUT" "^ring +no-softirq-page_pool02: not run: the kernel refused $ko \(" \
		"the summary says why"
	assert_eq "$(jq_get "$j" '.scenarios[0].status')" ok "ring's own figure stands"
	assert_eq "$(jq_get "$j" '.scenarios[0].loops')" 6000 "--loops ring=6000"
	assert_eq "$(jq -c '.scenarios[0].upstream_module | [.status, .loops, .test]' "$j")" \
		'["failed",[50000,100000],"no-softirq-page_pool02"]' "the JSON's upstream_module"
	assert_match "$(jq_get "$j" '.scenarios[0].upstream_module.reason')" \
		"^the kernel refused $ko \(" "the kernel's reason"
	! lsmod 2>/dev/null | grep -q '^x ' || fail "a module 'x' stayed loaded"
}

test_bench_iface_without_xdp() {
	# A dummy-like device without native XDP: the loopback of a fresh namespace.
	expect_exit 2 unshare -n "$PPBENCH" bench --iface lo --scenario ring
	expect_one_line_error "--iface lo has no native XDP support"
}

# A kernel without live frames (simulated): the scenarios that need them are
# skipped, each saying why, and the others still run.
test_bench_without_live_frames() {
	local j=$TMPD/b.json
	expect_exit 0 env PPBENCH_DISABLE=live_frames "$PPBENCH" bench --loops 2000 --repeat 1 \
		--scenario ring,ring-xcpu,slow --json "$j"
	for s in ring ring-xcpu; do
		assert_eq "$(jq_get "$j" ".scenarios[] | select(.name == \"$s\") | .status")" skipped \
			"$s status"
		assert_match "$(jq_get "$j" ".scenarios[] | select(.name == \"$s\") | .reason")" \
			'no live-frames BPF_PROG_RUN' "$s reason"
	done
	assert_match "$LAST_OUT" '^ring +skipped: the kernel has no live-frames BPF_PROG_RUN' "summary"
	# slow falls back to the veth skb path, which needs no live frames
	assert_match "$(jq_get "$j" '.scenarios[] | select(.name == "slow") | .recipe')" '^veth-tx;' \
		"slow's fallback recipe"
	expect_exit 1 env PPBENCH_DISABLE=live_frames "$PPBENCH" bench --loops 2000 --repeat 1 \
		--scenario ring
	expect_one_line_error "no scenario could run" 
}

# make bench runs the benchmark and nothing more: the table, where its
# result is, and the target that runs the rest. make bench-check's script
# compares only what its own run measured: it prints its self-check (A/A and
# an injected regression), the gen -> load rates and their ratio to the bare
# programs, and no figure of another tool (those are in README.md, with
# their date and machine).
test_bench_script_own_figures() {
	needs_host live-frames
	BENCH_QUICK=1 BENCH_OUT=$TMPD/q PPBENCH=$PPBENCH "$TOP/scripts/bench.sh" >"$TMPD/out" 2>&1 ||
		{ cat "$TMPD/out"; fail "scripts/bench.sh exited $?"; }
	assert_match "$TMPD/out" '^ring +[0-9.]+ +[0-9.]+ +[0-9.]+ ' "make bench: the table"
	assert_match "$TMPD/out" '^next: make bench-check ' "names the check target"
	if grep -nE 'calibrate|A/A|overhead|gen -> load drop' "$TMPD/out" | grep -v '^[0-9]*:next:'; then
		fail "make bench runs more than the benchmark"
	fi
	BENCH_QUICK=1 BENCH_OUT=$TMPD/b PPBENCH=$PPBENCH "$TOP/scripts/bench.sh" --check \
		>"$TMPD/out" 2>&1 || { cat "$TMPD/out"; fail "scripts/bench.sh --check exited $?"; }
	assert_match "$TMPD/out" 'instrumentation overhead' "overhead section"
	# the self-check: reported, whatever its verdict
	assert_match "$TMPD/out" '^== noise between invocations: ppbench calibrate --runs 2' "calibrated"
	assert_match "$TMPD/out" '^floors used: ring [0-9.]+%, slow [0-9.]+%$' "floors printed"
	assert_match "$TMPD/out" '^A/A: gate (quiet|fired on: .+)$' "A/A line"
	assert_match "$TMPD/out" '^slow floor used: [0-9.]+%; the injection, expected [-+][0-9.]+% of slow, is (above|not above) it$' \
		"injection against the floor"
	assert_match "$TMPD/out" '^injected \+[0-9.]+ ns per release -> slow [-+][0-9.]+ ns/elem \(expected \+[0-9.]+: [0-9.]+ releases per element\); compare flags it: (yes|no)$' \
		"known-regression line"
	assert_match "$TMPD/out" 'ratio to bare: [0-9.]+ with path mix' "gen -> load ratios"
	if grep -inE 'reference|xdp-tools|xdp-bench|trafficgen' "$TMPD/out"; then
		fail "scripts/bench.sh prints a figure it did not measure"
	fi
}

# Path figures that do not order fast < ptr_ring < slow (as every published
# bench_page_pool_simple run does) come with a NOTE saying why, and figures
# that do order come with none. Which happens is the machine's business:
# the test takes the figures shown (the path figure, else the scenario's)
# from the JSON. Without fentry, fast's path figure is its difference to
# lf-fastpass's twin, which holds a 1500-byte copy (or, without that recipe,
# fast has only its scenario figure), so the NOTE must say so.
test_bench_order_note() {
	needs_host live-frames
	local j=$TMPD/b.json out=$TMPD/b.out rc ordered
	"$PPBENCH" bench --scenario ring,fast,slow --loops 5000 --repeat 1 --json "$j" >"$out" 2>&1
	rc=$?
	[ $rc -eq 0 ] || { cat "$out"; fail "bench exited $rc"; }
	# the summary and the NOTE (time_bench lines are wider by their format)
	awk '/^scenario +cycles/ { on = 1 } on && length > 100 { print; exit 1 }' "$out" ||
		fail "a summary line is wider than 100 columns"
	ordered=$(jq '[.scenarios[] | {(.name): (.path_cost_cycles.value // .cycles_per_elem.median)}] |
		add | .fast < .ring and .ring < .slow' "$j")
	if [ "$ordered" = true ]; then
		[ "$(jq -r .order_note "$j")" = null ] || fail "ordered, yet: $(jq -r .order_note "$j")"
		grep -q '^NOTE: fast ' "$out" && fail "ordered, yet a NOTE on the order"
		return 0
	fi
	assert_match "$out" '^NOTE: fast [0-9.]+, ptr_ring [0-9.]+, slow [0-9.]+ cycles/elem do not order' \
		"NOTE on the order"
	[ "$(jq -r .host.fentry "$j")" = true ] && return 0
	# fast's reason: its path figure is the twin difference (lf-fastpass), or none
	local why='fast is a scenario figure \(no path figure on this kernel\)'
	jq -e '.scenarios[] | select(.name == "fast") | .recipe | startswith("lf-fastpass;")' \
		"$j" >/dev/null && why="fast's path figure is its difference to a twin"
	jq -r .order_note "$j" | grep -qE "$why" || fail "order_note: $(jq -r .order_note "$j")"
}

# A repetition is a setup: each builds its own programs and maps, its own
# cpumap entry (a new map, a new program in the entry, a new kthread) and
# its own pools, and the JSON keeps each setup's value.
test_bench_fresh_setup_each_repetition() {
	needs_host live-frames
	[ "$(nproc)" -ge 2 ] || skip "ring-xcpu needs 2 CPUs"
	local j=$TMPD/b.json sel='.scenarios[] | select(.name == "ring-xcpu")' k
	expect_exit 0 "$PPBENCH" bench --scenario ring,ring-xcpu --loops 40000 --repeat 3 --json "$j"
	"$TOP/build/tests/schema_check" "$j" || fail "JSON does not validate against ppbench/1"
	for k in prog_id cpumap_id cpumap_prog_id kthread_pid; do
		assert_eq "$(jq "[$sel | .setups[].$k | select(. > 0)] | unique | length" "$j")" 3 \
			"ring-xcpu: 3 different ${k}s"
	done
	assert_eq "$(jq '[.scenarios[] | select(.name == "ring") | .setups[].prog_id] | unique |
		length' "$j")" 3 "ring: 3 different programs"
	for k in $(jq "$sel | .setups[].kthread_pid" "$j"); do
		[ -e "/proc/$k" ] && fail "the cpumap kthread $k of a setup outlived bench"
	done
	jq -e '.scenarios[] | .replication == "setup" and (.setups | length) == 3 and
		([.setups[] | .chunks | length == 8] | all) and
		([.setups[].warmup_runs | . >= 1 and . <= 6] | all) and
		([.setups[].cpu_probe_ns | . > 0] | all) and
		(.cycles_per_elem.runs | length) == 3 and
		([.modes[].setups] | add) + (.outliers | length) == 3 and
		(.mde_pct | type) == "number"' "$j" >/dev/null ||
		fail "setups, chunks, levels or mde_pct missing: $(jq -c '.scenarios[0] |
			{replication, setups: (.setups | length), modes, outliers, mde_pct}' "$j")"
	# each setup value is its chunk ranked 2 from the fastest
	jq -e '[.scenarios[] | .setups[] | (.chunks | sort | .[1]) - .cycles_per_elem |
		fabs < 1e-6] | all' "$j" >/dev/null || fail "a setup value is not its 2nd fastest chunk"
}

# Pools that live as long as a setup (a veth's, here slow's veth-tx fallback)
# are new in every setup: watch sees a new veth pool id for each.
test_bench_fresh_pools_each_setup() {
	local j=$TMPD/b.json w=$TMPD/w.json out=$TMPD/w.txt n
	"$PPBENCH" watch --interval 0.2 --json "$w" >"$out" 2>&1 &
	local pid=$!
	wait_for_output "$out" '^time ' 5
	expect_exit 0 env PPBENCH_DISABLE=live_frames "$PPBENCH" bench --scenario slow --loops 2000 \
		--repeat 3 --json "$j"
	kill -INT $pid
	wait $pid
	assert_match "$(jq_get "$j" '.scenarios[0].recipe')" '^veth-tx;' "slow's veth recipe"
	# the proof run's instance and one per setup, each with its own pools:
	# destroyed, they are counted in the summary's retired rows
	n=$(jq -s '[.[] | select(.type == "summary") | .pools[] | select(.kind == "veth") |
		(if .retired then .pools else 1 end)] | add' "$w")
	[ "$n" -ge 4 ] || fail "$n veth pool ids seen for a proof run and 3 setups (want >= 4)"
}

# --upstream-names: the kselftest's own grep (test_bench_page_pool.sh) finds
# a line for fast, ptr_ring or slow only where ppbench has that path figure,
# and then reads the path figure; scenario figures keep ppbench_ names (the
# summary says why), and compare --bpp reads the files as before.
test_bench_upstream_names() {
	needs_host live-frames
	local j=$TMPD/u.json out=$TMPD/u.out t s v got want
	"$PPBENCH" bench --upstream-names --loops 5000 --repeat 2 --json "$j" >"$out" 2>&1 ||
		{ cat "$out"; fail "bench exited $?"; }
	for t in 01 02 03; do
		case $t in 01) s=fast ;; 02) s=ring ;; *) s=slow ;; esac
		v=$(jq -r ".scenarios[] | select(.name == \"$s\") | .path_cost_cycles.value" "$j")
		got=$(grep -o -E "no-softirq-page_pool$t Per elem: ([0-9]+) cycles\(tsc\) ([0-9]+\.[0-9]+) ns" \
			"$out" | sed -E 's/.*elem: ([0-9]+) cycles.*/\1/')
		if [ "$v" = null ] || awk -v v="$v" 'BEGIN { exit !(v <= 0) }'; then
			assert_eq "$got" "" "the kselftest's grep for page_pool$t (no $s path figure)"
			assert_match "$out" "^Type:ppbench_$s Per elem: " "$s's scenario figure, own name"
			assert_eq "$(jq -r ".scenarios[] | select(.name == \"$s\") | .time_bench_type" "$j")" \
				"ppbench_$s" "$s JSON time_bench_type"
		else
			want=$(awk -v v="$v" 'BEGIN { printf "%d", int(v + 0.5) }')
			[ "${got:-x}" -ge $((want - 1)) ] 2>/dev/null && [ "$got" -le "$want" ] ||
				fail "page_pool$t: the grep read '$got', $s's path figure is $v"
			assert_eq "$(jq -r ".scenarios[] | select(.name == \"$s\") | .time_bench_type" "$j")" \
				"no-softirq-page_pool$t" "$s JSON time_bench_type"
		fi
	done
	assert_match "$out" '^upstream names: ' "the summary's note on the names"
	assert_match "$out" '^Type:(page_pool_cross_cpu|ppbench_ring_xcpu) Per elem: [0-9]+ cycles\(tsc\) ' \
		"cross-CPU line"
	expect_exit 0 "$PPBENCH" compare --bpp "$j" "$j"
	assert_match "$LAST_OUT" '^\| ptr_ring \| +[0-9]+ \| +[0-9]+ \| +0\.0% \|' "compare --bpp"
}

# Wait until the run lock names PID (the holder writes it once it has the lock).
wait_lock_holder() { # pid seconds
	local i f
	f=$(lock_file)
	for ((i = 0; i < $2 * 10; i++)); do
		[ "$(cut -d' ' -f1 "$f" 2>/dev/null)" = "$1" ] && return 0
		sleep 0.1
	done
	fail "PID $1 did not take the run lock $f within $2 s"
}

lock_file() {
	if [ -w /run ]; then echo /run/ppbench.lock; else echo /tmp/ppbench.lock; fi
}

# One bench at a time: a second one refuses at once naming the first's PID;
# after a SIGKILL of the first, the kernel has dropped the lock; --wait queues.
test_bench_one_at_a_time() {
	needs_host live-frames
	local first=$TMPD/first.out queued=$TMPD/queued.out t0 pid qpid
	"$PPBENCH" bench --scenario ring --repeat 50 --loops 2000000 --quiet >"$first" 2>&1 &
	pid=$!
	wait_lock_holder $pid 10
	t0=$(date +%s)
	expect_exit 1 "$PPBENCH" bench --scenario ring --repeat 1
	assert_le $(($(date +%s) - t0)) 5 "seconds the second bench took to refuse"
	expect_one_line_error "another ppbench is measuring \\(PID $pid, bench\\).*--wait"
	expect_exit 1 "$PPBENCH" recipe lf-drop
	expect_one_line_error "PID $pid"
	"$PPBENCH" recipe lf-drop --runs 2 --wait >"$queued" 2>&1 &
	qpid=$!
	wait_for_output "$queued" "waiting for ppbench PID $pid" 5
	kill -KILL $pid
	wait $pid 2>/dev/null
	wait $qpid || fail "the queued recipe exited $?"
	assert_match "$queued" '^recipe lf-drop: ' "the queued recipe ran once the first was gone"
	expect_exit 0 "$PPBENCH" bench --scenario ring --repeat 1 --loops 20000 --quiet
}
