/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PAGESZ_H
#define PPBENCH_PAGESZ_H

/*
 * The running kernel's PAGE_SIZE and its log2. The page size a process sees
 * (AT_PAGESZ) is the kernel's base page: 4K on x86-64, 4K, 16K or 64K on
 * arm64, chosen when the kernel is built.
 */
long sys_page_size(void);
unsigned int sys_page_shift(void);

#endif
