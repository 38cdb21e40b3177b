/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_DRVPOOL_H
#define PPBENCH_DRVPOOL_H

#include <stddef.h>

/*
 * Whether a driver module keeps its RX buffers in page_pools: one of its own
 * structs has a member that points to a struct page_pool (vmxnet3's
 * vmxnet3_rx_queue.page_pool, virtio_net's receive_queue.page_pool), in the
 * module's BTF (/sys/kernel/btf/DRIVER). 1 with "struct.member" in member, 0
 * if none has, -ENOENT when the driver has no module BTF of its own (built
 * into the kernel, or no CONFIG_DEBUG_INFO_BTF_MODULES): then nothing is known.
 */
int ppb_driver_page_pool(const char *driver, char *member, size_t len);

#endif
