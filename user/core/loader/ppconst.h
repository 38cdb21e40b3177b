/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PPCONST_H
#define PPBENCH_PPCONST_H

#include <stdint.h>

/*
 * page_pool's constants that follow the kernel's page size, read from its
 * BTF (a macro itself is not in BTF; the array it sizes is):
 * PP_ALLOC_CACHE_SIZE, the entries of a pool's alloc cache (struct
 * pp_alloc_cache's cache[]: 128 on 4K pages; 32 on 16K and 8 on 64K pages in
 * kernels that scale it, as 7.3 does), and PP_ALLOC_CACHE_REFILL, half of
 * it: the pages one slow allocation brings in bulk. 128 and 64 where the
 * BTF lacks the type.
 */
uint32_t ppb_pool_cache_size(void);
uint32_t ppb_pool_refill(void);

#endif
