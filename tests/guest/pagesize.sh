# SPDX-License-Identifier: GPL-2.0
#
# Guest tests of what follows the kernel's page size (4K on x86-64, 4K, 16K or
# 64K on arm64): the BPF programs' page shift and page_pool's alloc cache.
# They run on every kernel; on Debian's 16K arm64 kernel (arm64:newest-16k)
# they fail if a size is hard-coded again.

# The kernel's page size, in bytes, from the kernel itself: the page size of
# this shell's own mappings.
kernel_page_size() {
	echo $(($(sed -n 's/^KernelPageSize: *\([0-9]*\) kB$/\1/p' /proc/self/smaps | head -n 1) * 1024))
}

# pp_refill: PP_ALLOC_CACHE_REFILL of this kernel, as probe reads it from the BTF.
pp_refill() {
	"$PPBENCH" probe --json pp.json >/dev/null 2>&1 || fail "probe --json failed"
	json_get pp.json pp_alloc_cache_refill
}

# probe reports the kernel's page size; the tracepoint backend's proof
# sampler, which maps a frame's address to its struct page by the page shift
# (page = k + (va >> shift) * sizeof(struct page)), finds every frame of a
# live-frames run in the test-run pool and counts the pool's ring returns.
# With a 4K shift on a 16K kernel the calibration refuses (the test-run
# frame's page is 16K) or, without that check, no frame maps to a pool.
test_page_size_from_kernel() {
	ps=$(kernel_page_size)
	[ "$ps" -ge 4096 ] || fail "no KernelPageSize in /proc/self/smaps"
	probe_json probe.json
	assert_eq "$(json_get probe.json page_size)" "$ps" "probe's page size"
	run_ok "$PPBENCH" recipe lf-drop --backend tracepoint --batch 64 --repeat 2000 --kv \
		>r.kv 2>r.err
	cat r.err
	grep -q 'cannot map frames' r.err && fail "the proof sampler cannot map frames: $(cat r.err)"
	assert_eq "$(kv r.kv backend)" tracepoint "backend"
	assert_eq "$(kv r.kv test-run.elems)" 2000 "frames mapped to the test-run pool"
	assert_eq "$(kv r.kv test-run.ret.ring)" 2000 "ring returns seen by the sampler"
	note "page size $ps: 2000 of 2000 frames mapped to their pool"
}

# page_pool's alloc cache scales with the page size in 7.x (PP_ALLOC_CACHE_REFILL
# 64 on 4K pages, 16 on 16K): probe reads it from the BTF, and one slow
# allocation of a fresh test-run pool brings exactly that many pages (fentry).
test_page_pool_refill_from_kernel() {
	probe_json probe.json
	refill=$(pp_refill)
	assert_eq "$(json_get probe.json pp_alloc_cache_size)" $((refill * 2)) "cache = 2 x refill"
	run_ok "$PPBENCH" recipe lf-drop --backend fentry --batch 1 --repeat "$refill" --kv >r.kv
	assert_eq "$(kv r.kv test-run.alloc.slow)" 1 "one slow allocation per pool"
	assert_eq "$(kv r.kv test-run.alloc.slow_pages)" "$refill" "pages of one slow allocation"
	assert_eq "$(kv r.kv test-run.ret.release)" $((refill - 1)) "the rest released (ring full)"
	note "page size $(kernel_page_size): alloc cache $((refill * 2)), refill $refill"
}
